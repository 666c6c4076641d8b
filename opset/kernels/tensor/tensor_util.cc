#include "graphgc/opset/kernels/tensor/tensor_util.h"

#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"

namespace graphgc::kernels {

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;
  return product;
}

void CopyElements(const Tensor& from, int64_t from_index, MutableTensor& to, int64_t to_index,
                  int64_t count) {
  if (count <= 0) return;
  if (from.dtype() == DataType::kString) {
    auto src = from.data<std::string>();
    auto dst = to.mutable_data<std::string>();
    for (int64_t i = 0; i < count; ++i) dst[to_index + i] = src[from_index + i];
    return;
  }
  const size_t size = ElementSize(from.dtype());
  std::memcpy(static_cast<char*>(to.raw_mutable_data()) + to_index * size,
              static_cast<const char*>(from.raw_data()) + from_index * size, count * size);
}

absl::StatusOr<int64_t> NormalizeAxis(const KernelContext& ctx, absl::string_view attribute,
                                      int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("attribute '", attribute, "' is ", axis,
                                                   ", outside [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> ReadInt64s(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kInt64) {
    auto data = tensor.data<int64_t>();
    return std::vector<int64_t>(data.begin(), data.end());
  }
  auto data = tensor.data<int32_t>();
  return std::vector<int64_t>(data.begin(), data.end());
}

absl::StatusOr<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, int input,
                                                 const Tensor& indices, int64_t extent) {
  std::vector<int64_t> values = ReadInt64s(indices);
  for (int64_t& index : values) {
    if (index < -extent || index >= extent) {
      return ctx.input_error(input, absl::StrCat("index ", index, " is out of range for a dimension of ",
                                                 extent));
    }
    if (index < 0) index += extent;
  }
  return values;
}

}  // namespace graphgc::kernels
