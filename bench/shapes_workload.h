// The shapes workload: shape arithmetic over a graph argument, the way exported models compute
// reshape targets.
//
//   x = argument(float[2, 3, 5])
//   each step: s = Shape(x); head = Gather(s, [0]); tail = Gather(s, [1, 2])
//              x = Reshape(x, Concat(tail, head))          // dims rotated left by one
//
// The argument has no value, but its dims are known, so Shape, Gather and Concat get small int64
// values (72 bytes per step) that make the Reshape's shape known; the Reshape itself has no value.
// Collecting such tiny values must cost next to nothing, per op and in total.
#ifndef GRAPHGC_BENCH_SHAPES_WORKLOAD_H_
#define GRAPHGC_BENCH_SHAPES_WORKLOAD_H_

#include <array>
#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "workload.h"

namespace graphgc::bench {

class ShapesWorkload final : public Workload {
 public:
  static constexpr std::array<int64_t, 3> kDims = {2, 3, 5};
  static constexpr int64_t kOpsPerStep = 5;
  // Shape (3 dims), the head (1), the tail (2) and the new shape (3), int64 each.
  static constexpr int64_t kValueBytesPerStep = (3 + 1 + 2 + 3) * sizeof(int64_t);

  void Prepare(Graph& graph) override;
  void Step() override;
  const Var& output() const override { return reshaped_; }
  // The output has no value; its inferred shape must be kDims rotated left `steps` times.
  bool HasExpectedOutput(int64_t steps) const override;

 private:
  Var head_index_;  // int64 [0]
  Var tail_index_;  // int64 [1, 2]
  Var reshaped_;    // the argument, then the latest Reshape
};

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SHAPES_WORKLOAD_H_
