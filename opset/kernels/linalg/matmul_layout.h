// How numpy.matmul's operands map onto a batch of GEMMs: 1-D operands promoted to matrices, batch
// dims broadcast, and the offset of each output batch's A and B matrices. Shared by MatMul and
// the quantized matmuls (quantize/).
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_MATMUL_LAYOUT_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_MATMUL_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::linalg {

struct MatMulLayout {
  GemmDims dims;  // one product: op(A) m x k times op(B) k x n, no transposes
  Shape batch;    // the broadcast batch dims of the output
  // Per output batch (row-major over `batch`): where its matrices start in A and in B.
  std::vector<int64_t> a_offsets;
  std::vector<int64_t> b_offsets;
};

// The layout of matmul(A, B) for inputs `a_input` and `b_input` of `ctx` with these shapes. A
// scalar operand, inner dims that differ or batch dims that do not broadcast make the op fail.
absl::StatusOr<MatMulLayout> PlanMatMul(const KernelContext& ctx, int a_input, int b_input,
                                        absl::Span<const int64_t> a_shape,
                                        absl::Span<const int64_t> b_shape);

// The same products with every batch of A stacked into one taller A where B is shared by all
// batches and A's batches are not broadcast (one big GEMM instead of many small ones).
MatMulLayout FoldSharedB(MatMulLayout layout);

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_MATMUL_LAYOUT_H_
