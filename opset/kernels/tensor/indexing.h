// The data offsets that index tensors address, shared by the gathers and the scatters: an index
// out of range makes the op fail, naming the indices input (input 1) and the index.
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_INDEXING_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_INDEXING_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// GatherElements and ScatterElements (attribute `axis`): for each element of input 1 (indices,
// of the data's rank and no larger off the axis), the offset of the data element at the same
// position with its axis coordinate replaced by the index.
absl::StatusOr<std::vector<int64_t>> ElementOffsets(const KernelContext& ctx, const Tensor& data);

// GatherND and ScatterND: for each tuple along the last dim of input 1 (int64 indices), the
// element offset it addresses in a tensor of shape `dims`, entry j indexing dims[j].
absl::StatusOr<std::vector<int64_t>> TupleOffsets(const KernelContext& ctx,
                                                  absl::Span<const int64_t> dims);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_INDEXING_H_
