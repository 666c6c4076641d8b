// The MLP workload: a deep multilayer perceptron built layer by layer, values propagated.
//
//   x = constant(float[16, 256] of ones);  W = constant(float[256, 256] of 1/256);
//   b = constant(float[256] of 0.5)
//   each step (a layer): x = Relu(Add(MatMul(x, W), b))
//
// Three ops and three 16 KiB activations per layer; the two intermediate ones die inside the layer
// and the layer's input when the next is built. Every layer reads the same W and b (tied weights):
// constants belong to the arena for the graph's whole life, and a fresh 256 KiB matrix per layer
// would measure the arena rather than the values the collector manages. The weights keep the
// arithmetic exact, so layer L's activations are all 1 + 0.5 L.
#ifndef GRAPHGC_BENCH_MLP_WORKLOAD_H_
#define GRAPHGC_BENCH_MLP_WORKLOAD_H_

#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "workload.h"

namespace graphgc::bench {

class MlpWorkload final : public Workload {
 public:
  static constexpr int64_t kBatch = 16;
  static constexpr int64_t kWidth = 256;
  static constexpr int64_t kOpsPerStep = 3;
  static constexpr int64_t kValueBytesPerStep =
      kOpsPerStep * kBatch * kWidth * static_cast<int64_t>(sizeof(float));

  void Prepare(Graph& graph) override;
  void Step() override;
  const Var& output() const override { return activations_; }
  bool HasExpectedOutput(int64_t steps) const override;

 private:
  Var weights_;
  Var bias_;
  Var activations_;  // the latest layer's output
};

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_MLP_WORKLOAD_H_
