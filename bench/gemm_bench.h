// graphgc-bench --gemm: the library's position-independent packed product (PackedGemm, behind
// MatMul, Gemm, Conv and Einsum) against OpenBLAS's sgemm (Debian's serial build), side by side
// in one run, one thread.
//
// For each shape (the products of SqueezeNet's last Conv, a ResNet 3x3 Conv, AlexNet's and VGG's
// fully connected layers, odd sizes) it times both on the same operands, alternating, and prints
// the median time of each, their ratio (packed / OpenBLAS: below 1 is faster), GFLOP/s, and the
// number of output elements that differ from their row's first element when every row of A is the
// same — 0 for the packed product by construction, often not for a BLAS.
#ifndef GRAPHGC_BENCH_GEMM_BENCH_H_
#define GRAPHGC_BENCH_GEMM_BENCH_H_

namespace graphgc::bench {

int RunGemmBenchmarks();

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_GEMM_BENCH_H_
