// The chain workload: the seed scenario of spox's memory bug as a workload.
//
//   a = constant(zeros(double, {10000}))   // 80 000 bytes
//   each step: a = Mul(a, a)
//
// Each step makes one 80 kB value and drops the only handle to the one before it, so everything
// but the newest value is garbage. Squaring zeros gives zeros, which makes the result checkable.
#ifndef GRAPHGC_BENCH_CHAIN_WORKLOAD_H_
#define GRAPHGC_BENCH_CHAIN_WORKLOAD_H_

#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "seed_scenario.h"
#include "workload.h"

namespace graphgc::bench {

class ChainWorkload final : public Workload {
 public:
  static constexpr int64_t kOpsPerStep = 1;
  static constexpr int64_t kValueBytesPerStep = kSeedValueBytes;

  void Prepare(Graph& graph) override;
  void Step() override;
  const Var& output() const override { return a_; }
  bool HasExpectedOutput(int64_t steps) const override;

 private:
  Var a_;
};

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_CHAIN_WORKLOAD_H_
