// Helpers the tensor kernels share: element storage by size (these kernels move elements without
// looking at them), products of dims and row-major strides, axis and index normalization that
// reports out-of-range values as the op's failure, and reading small int64 inputs.
//
//   DispatchByElementSize(x.dtype(), [&](auto tag) {
//     using T = typename decltype(tag)::type;   // Word<uint32_t> for float, std::string for string
//     std::copy_n(ElementsOf<T>(x), n, MutableElementsOf<T>(out));
//   });
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// The storage of one element of a given size. may_alias: a float buffer is read and written
// through Word<uint32_t> without breaking the aliasing rules; copies stay plain moves the
// compiler vectorizes. Value-initialized (T{}) it is all zero bits: 0, 0.0, false.
template <class U>
struct __attribute__((__may_alias__)) Word {
  U bits;
};

// Calls f(internal::TypeTag<T>{}) with T the storage of dtype's elements: Word<uint8_t>,
// Word<uint16_t>, Word<uint32_t>, Word<uint64_t>, or std::string (copied by value).
template <class F>
void DispatchByElementSize(DataType dtype, F&& f) {
  if (dtype == DataType::kString) {
    f(internal::TypeTag<std::string>{});
    return;
  }
  switch (ElementSize(dtype)) {
    case 1:
      f(internal::TypeTag<Word<uint8_t>>{});
      return;
    case 2:
      f(internal::TypeTag<Word<uint16_t>>{});
      return;
    case 4:
      f(internal::TypeTag<Word<uint32_t>>{});
      return;
    default:
      f(internal::TypeTag<Word<uint64_t>>{});
      return;
  }
}

// For kernels that look at the values: returns f(internal::TypeTag<T>{}) (a KernelResult) with T
// the C++ type of dtype's elements (numeric, bool or std::string); declines other types.
template <class F>
KernelResult DispatchByType(DataType dtype, F&& f) {
  if (dtype == DataType::kString) return f(internal::TypeTag<std::string>{});
  std::optional<KernelResult> result;
  internal::DispatchNumericOrBool(dtype, [&](auto tag) { result = f(tag); });
  if (!result.has_value()) return Decline("an element type this kernel does not compute");
  return *std::move(result);
}

// The elements of a tensor seen as storage T (from DispatchByElementSize).
template <class T>
const T* ElementsOf(const Tensor& tensor) {
  return static_cast<const T*>(tensor.raw_data());
}
template <class T>
T* MutableElementsOf(MutableTensor& tensor) {
  return static_cast<T*>(tensor.raw_mutable_data());
}

int64_t Product(absl::Span<const int64_t> dims);

// Row-major strides (in elements) of a shape.
Shape ContiguousStrides(absl::Span<const int64_t> dims);

// Copies `count` elements from `from` at `from_index` to `to` at `to_index` (strings by value).
void CopyElements(const Tensor& from, int64_t from_index, MutableTensor& to, int64_t to_index,
                  int64_t count);

// `axis` in [-rank, rank) made non-negative; otherwise an error naming the attribute.
absl::StatusOr<int64_t> NormalizeAxis(const KernelContext& ctx, absl::string_view attribute,
                                      int64_t axis, int64_t rank);

// The int32 or int64 indices of input `input`, negative ones counted from `extent`; an index
// outside [-extent, extent) is the op's failure, naming the input and the index.
absl::StatusOr<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, int input,
                                                 const Tensor& indices, int64_t extent);

// One index against `extent` (negative counts from the end); an error naming input `input`.
absl::StatusOr<int64_t> CheckIndex(const KernelContext& ctx, int input, int64_t index,
                                   int64_t extent);

// The position of string attribute `name` (`fallback` when absent) among `choices`; an error
// listing them for any other value.
absl::StatusOr<size_t> ChooseAttribute(const KernelContext& ctx, absl::string_view name,
                                       absl::string_view fallback,
                                       absl::Span<const absl::string_view> choices);

// The values of an int32 or int64 tensor as int64.
std::vector<int64_t> ReadInt64s(const Tensor& tensor);

// The position in `axes` (each in [0, rank)) of the first one that repeats an earlier one, if any.
std::optional<size_t> RepeatedAxis(absl::Span<const int64_t> axes, int64_t rank);

// A shape given as the values of an int64 input (Expand, ConstantOfShape, Tile's repeats):
// every value must be >= 0, else the op fails naming the input.
absl::StatusOr<Shape> ReadDims(const KernelContext& ctx, int input);

// The single element of a one-element tensor of any numeric type or bool, as double.
double ScalarAsDouble(const Tensor& tensor);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_
