// Batched matrix products, the engine under MatMul, Gemm, Einsum and the integer matmuls.
//
//   GemmDims dims{.m = 4, .n = 5, .k = 3};
//   BatchedGemm<float>(dims, 1.0f, a, {0}, b, {0}, 0.0f, c, ctx.threads());
//
// Floating-point products go to PackedGemm (packed_gemm.h: every element summed in the same order
// wherever it sits); integer products run a loop in an unsigned type, so that they wrap modulo
// 2^bits instead of overflowing (ONNX's integer semantics, and no undefined behaviour). With
// threads > 1 the batches, or the rows of a single product, are split across std::threads; with 1
// no thread is ever started.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_BATCHED_GEMM_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_BATCHED_GEMM_H_

#include <cstdint>
#include <type_traits>

#include "absl/types/span.h"
#include "graphgc/valuestore/half.h"

namespace graphgc::kernels::linalg {

// The type a product of T is computed in: float for float and the 16-bit floats, double, and for
// integers an unsigned type at least 32 bits wide (the result is the same modulo 2^bits of T).
template <class T>
using WorkType = std::conditional_t<
    std::is_same_v<T, double>, double,
    std::conditional_t<std::is_integral_v<T>,
                       std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>, float>>;

// Whether T's elements can be read as WorkType<T> in place: the same type, or the unsigned
// counterpart of a 32- or 64-bit integer (which the aliasing rules allow).
template <class T>
inline constexpr bool kComputesInPlace = sizeof(T) == sizeof(WorkType<T>) &&
                                         (std::is_same_v<T, WorkType<T>> || std::is_integral_v<T>);

// op(A) is m x k and op(B) is k x n, both row-major: A is stored m x k (k x m when trans_a),
// B k x n (n x k when trans_b). C is m x n.
struct GemmDims {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  bool trans_a = false;
  bool trans_b = false;
};

// For each batch i: C_i = alpha * op(A_i) * op(B_i) + beta * C_i, where A_i starts at
// a + a_offsets[i], B_i at b + b_offsets[i], and C_i at c + i * m * n. beta == 0 overwrites C
// without reading it. k == 0 gives beta * C. alpha == 0 is computed like any other alpha by the
// integer loop but skips the product for floating point, as BLAS does (callers that need 0 * NaN
// handle it). W: float, double, uint32_t or uint64_t.
template <class W>
void BatchedGemm(const GemmDims& dims, W alpha, const W* a, absl::Span<const int64_t> a_offsets,
                 const W* b, absl::Span<const int64_t> b_offsets, W beta, W* c, int threads);

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_BATCHED_GEMM_H_
