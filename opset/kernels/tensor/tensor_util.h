// Helpers the tensor kernels share: element copies of any type, products of dims, axis and
// index normalization that reports out-of-range values as the op's failure.
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

int64_t Product(absl::Span<const int64_t> dims);

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

// The values of an int32 or int64 tensor as int64.
std::vector<int64_t> ReadInt64s(const Tensor& tensor);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_UTIL_H_
