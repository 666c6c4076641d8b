// operator<< for Tensor: the element type, the shape and the first elements.
#include <ostream>
#include <string>
#include <type_traits>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "graphgc/valuestore/half.h"
#include "graphgc/valuestore/narrow_types.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {
namespace {

constexpr int64_t kElementsShown = 8;

template <class T>
std::string ElementText(const T& element) {
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("\"", absl::CHexEscape(element), "\"");
  } else if constexpr (std::is_same_v<T, bool>) {
    return element ? "true" : "false";
  } else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, UInt4>) {
    return absl::StrCat(static_cast<int>(element.value));
  } else if constexpr (requires { element.ToFloat(); }) {  // the 16-bit and narrow floats
    return absl::StrFormat("%g", element.ToFloat());
  } else if constexpr (std::is_floating_point_v<T>) {
    return absl::StrFormat("%g", element);
  } else {
    return absl::StrCat(element);  // integers; int8 and uint8 as numbers, not characters
  }
}

template <class T>
void PrintElements(const Tensor& tensor, std::ostream& out) {
  const absl::Span<const T> elements = tensor.data<T>();
  out << " {";
  for (int64_t i = 0; i < tensor.size() && i < kElementsShown; ++i) {
    out << (i == 0 ? "" : ", ") << ElementText(elements[static_cast<size_t>(i)]);
  }
  if (tensor.size() > kElementsShown) out << ", ... (" << tensor.size() << " in all)";
  out << "}";
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const Tensor& tensor) {
  out << DataTypeName(tensor.dtype()) << ShapeToString(tensor.shape());
  switch (tensor.dtype()) {
    case DataType::kFloat:
      PrintElements<float>(tensor, out);
      break;
    case DataType::kDouble:
      PrintElements<double>(tensor, out);
      break;
    case DataType::kFloat16:
      PrintElements<Float16>(tensor, out);
      break;
    case DataType::kBfloat16:
      PrintElements<BFloat16>(tensor, out);
      break;
    case DataType::kInt8:
      PrintElements<int8_t>(tensor, out);
      break;
    case DataType::kInt16:
      PrintElements<int16_t>(tensor, out);
      break;
    case DataType::kInt32:
      PrintElements<int32_t>(tensor, out);
      break;
    case DataType::kInt64:
      PrintElements<int64_t>(tensor, out);
      break;
    case DataType::kUint8:
      PrintElements<uint8_t>(tensor, out);
      break;
    case DataType::kUint16:
      PrintElements<uint16_t>(tensor, out);
      break;
    case DataType::kUint32:
      PrintElements<uint32_t>(tensor, out);
      break;
    case DataType::kUint64:
      PrintElements<uint64_t>(tensor, out);
      break;
    case DataType::kBool:
      PrintElements<bool>(tensor, out);
      break;
    case DataType::kString:
      PrintElements<std::string>(tensor, out);
      break;
    case DataType::kFloat8E4M3FN:
      PrintElements<Float8E4M3FN>(tensor, out);
      break;
    case DataType::kFloat8E4M3FNUZ:
      PrintElements<Float8E4M3FNUZ>(tensor, out);
      break;
    case DataType::kFloat8E5M2:
      PrintElements<Float8E5M2>(tensor, out);
      break;
    case DataType::kFloat8E5M2FNUZ:
      PrintElements<Float8E5M2FNUZ>(tensor, out);
      break;
    case DataType::kFloat4E2M1:
      PrintElements<Float4E2M1>(tensor, out);
      break;
    case DataType::kFloat8E8M0:
      PrintElements<Float8E8M0>(tensor, out);
      break;
    case DataType::kInt4:
      PrintElements<Int4>(tensor, out);
      break;
    case DataType::kUint4:
      PrintElements<UInt4>(tensor, out);
      break;
    default:
      break;  // the empty tensor: no elements to show
  }
  return out;
}

}  // namespace graphgc
