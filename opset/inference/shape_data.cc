#include "graphgc/opset/inference/shape_data.h"

#include <cstdint>

#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {

std::optional<ShapeData> ShapeDataOfOperand(const OperandInfo& operand) {
  if (!operand.value.has_value()) {
    if (!operand.shape_data.has_value()) return std::nullopt;
    return ShapeData{*operand.shape_data, false};
  }
  const Tensor& value = *operand.value;
  if (value.shape().size() > 1 || value.size() > kMaxShapeDataElements) return std::nullopt;
  if (value.dtype() == DataType::kInt64) {
    const auto elements = value.data<int64_t>();
    return ShapeData{Shape(elements.begin(), elements.end()), true};
  }
  if (value.dtype() == DataType::kInt32) {
    const auto elements = value.data<int32_t>();
    return ShapeData{Shape(elements.begin(), elements.end()), true};
  }
  return std::nullopt;
}

bool ElementHolds(DataType dtype, int64_t element) {
  const auto within = [element](int64_t low, int64_t high) {
    return element >= low && element <= high;
  };
  switch (dtype) {
    case DataType::kInt64:
      return true;
    case DataType::kUint64:
      return element >= 0;
    case DataType::kInt32:
      return within(INT32_MIN, INT32_MAX);
    case DataType::kUint32:
      return within(0, UINT32_MAX);
    case DataType::kInt16:
      return within(INT16_MIN, INT16_MAX);
    case DataType::kUint16:
      return within(0, UINT16_MAX);
    case DataType::kInt8:
      return within(INT8_MIN, INT8_MAX);
    case DataType::kUint8:
      return within(0, UINT8_MAX);
    case DataType::kInt4:
      return within(-8, 7);
    case DataType::kUint4:
      return within(0, 15);
    case DataType::kBool:
      return within(0, 1);
    case DataType::kDouble:
      return within(-(int64_t{1} << 53), int64_t{1} << 53);
    case DataType::kFloat:
      return within(-(int64_t{1} << 24), int64_t{1} << 24);
    case DataType::kFloat16:
      return within(-2048, 2048);
    case DataType::kBfloat16:
      return within(-256, 256);
    default:
      return false;
  }
}

bool ElementsHold(DataType dtype, absl::Span<const int64_t> elements) {
  for (int64_t element : elements) {
    if (element != Arena::kUnknownElement && !ElementHolds(dtype, element)) return false;
  }
  return true;
}

}  // namespace graphgc::internal
