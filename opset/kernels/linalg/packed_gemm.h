// PackedGemm: the floating-point matrix product under MatMul, Gemm, Conv, ConvTranspose and
// Einsum, with every element of C summed in the same order wherever it sits.
//
//   PackedGemm<float>(dims, /*row_begin=*/0, /*row_end=*/dims.m, 1.0f, a, b, 0.0f, c);
//
// Why not BLAS: an optimized BLAS computes the tiles at the edges of C (the last rows or columns
// that do not fill its register block) with other kernels, which sum in another order; identical
// rows of A then give results a few ULPs apart depending on where they sit (SqueezeNet's last
// Conv, whose 1000 channels have identical weights, gave its last four channels other logits, and
// a Softmax over logits near 1e10 turned that into a different answer). Here A and B are packed
// into panels of MR rows and NR columns, the edge panels padded with zeros, and one register
// kernel computes every tile, full or not: each element is a chain of fused multiply-adds over
// p in order within a block of KC, and the blocks are added into C in order. The same holds for
// any row range, so splitting rows across threads does not change a value either.
//
// The register kernel uses AVX2 and FMA when the CPU has them (chosen once per process), else a
// portable loop; both give position-independent results, each on its own.
// Threading: stateless apart from per-thread packing buffers; safe to call from many threads.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_PACKED_GEMM_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_PACKED_GEMM_H_

#include <cstdint>
#include <vector>

#include "graphgc/opset/kernels/linalg/batched_gemm.h"

namespace graphgc::kernels::linalg {

// Rows [row_begin, row_end) of C = alpha * op(A) * op(B) + beta * C (dims as BatchedGemm's; a, b
// and c point at the whole matrices). beta == 0 writes C without reading it; alpha == 0 gives
// beta * C without reading A or B (as BLAS does). W: float or double.
template <class W>
void PackedGemm(const GemmDims& dims, int64_t row_begin, int64_t row_end, W alpha, const W* a,
                const W* b, W beta, W* c);

// The register kernels, and those this CPU runs, best first (PackedGemm uses the first). Tests
// run every available one through PackedGemmWith: each must be right and position-independent.
enum class GemmKernel { kAvx512, kAvx2, kPortable };
std::vector<GemmKernel> AvailableGemmKernels();
template <class W>
void PackedGemmWith(GemmKernel kernel, const GemmDims& dims, int64_t row_begin, int64_t row_end,
                    W alpha, const W* a, const W* b, W beta, W* c);

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_PACKED_GEMM_H_
