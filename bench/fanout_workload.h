// The fan-out workload: one large constant read by many consumers.
//
//   c = constant(float[262144])            // 1 MiB, owned by the arena
//   each step: y = Add(c, one)             // a new 1 MiB value; the previous y's handle is dropped
//
// Like a weight or an embedding table used all over a model: the constant lives as long as the
// graph, while each consumer's value is used once and dropped. Keeping every value costs 1 MiB per
// op; a collector holds one or two consumers whatever the number of ops.
#ifndef GRAPHGC_BENCH_FANOUT_WORKLOAD_H_
#define GRAPHGC_BENCH_FANOUT_WORKLOAD_H_

#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "workload.h"

namespace graphgc::bench {

class FanoutWorkload final : public Workload {
 public:
  static constexpr int64_t kElements = int64_t{1} << 18;
  static constexpr int64_t kOpsPerStep = 1;
  static constexpr int64_t kValueBytesPerStep = kElements * static_cast<int64_t>(sizeof(float));

  void Prepare(Graph& graph) override;
  void Step() override;
  const Var& output() const override { return consumer_; }
  bool HasExpectedOutput(int64_t steps) const override;

 private:
  Var shared_;    // the large constant every step reads
  Var one_;       // the small operand, a float scalar
  Var consumer_;  // the latest step's result; the only consumer still held
};

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_FANOUT_WORKLOAD_H_
