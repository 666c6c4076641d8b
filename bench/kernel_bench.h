// graphgc-bench --kernels: what value propagation costs, side by side in one run.
//
// For each op (Add of 2^20 floats, MatMul 512x512 float, Softmax over [1024,1024], ReduceSum over
// axis 1 of [1024,1024], Transpose of [1024,1024], Gather of 10^5 rows of 16 floats) it times:
//   graphgc_ns  the op made on constants, propagation included (graphgc::op::...);
//   loop_ns     a plain C++ loop computing the same result into a fresh buffer;
//   ort_ns      the same single-op model in ONNX Runtime (onnxruntime-node, one thread, graph
//               optimizations off; the time includes copying tensors across the binding), when
//               node and onnxruntime-node are installed, else "n/a".
// Each figure is the minimum over repetitions (the machine is shared and noisy); the table also
// gives graphgc/loop and graphgc/ort ratios.
#ifndef GRAPHGC_BENCH_KERNEL_BENCH_H_
#define GRAPHGC_BENCH_KERNEL_BENCH_H_

namespace graphgc::bench {

int RunKernelBenchmarks();

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_KERNEL_BENCH_H_
