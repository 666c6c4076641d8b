// The scenarios of the suite's tables: each a workload (workload.h), run for a range of sizes in
// each collection mode, one forked child per row.
//
//   chain   the seed scenario: a = Mul(a, a) on 10000 doubles        (chain_workload.h)
//   fanout  one 1 MiB constant read by one Add per step               (fanout_workload.h)
//   mlp     MatMul -> Add -> Relu layers, 16 x 256 floats             (mlp_workload.h)
//   shapes  Shape -> Gather -> Concat -> Reshape on an argument       (shapes_workload.h)
//
// n counts steps (layers for mlp); a step is ops_per_step ops. Each scenario has two default size
// lists: a shorter one for the default run (all scenarios within a few minutes on a small shared
// machine) and a longer one when it runs alone.
#ifndef GRAPHGC_BENCH_SCENARIOS_H_
#define GRAPHGC_BENCH_SCENARIOS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "workload.h"

namespace graphgc::bench {

struct Scenario {
  absl::string_view name;
  absl::string_view summary;  // one line: what a step builds
  int64_t ops_per_step = 1;
  int64_t value_bytes_per_step = 0;  // value-store bytes one step makes
  std::vector<int64_t> suite_sizes;  // in the default run (--scenario all)
  std::vector<int64_t> alone_sizes;  // with --scenario NAME
  std::function<std::unique_ptr<Workload>()> make_workload;
};

// In the order the suite runs and prints them.
absl::Span<const Scenario> AllScenarios();

// nullptr if no scenario has this name ("seed" is the chain's old name).
const Scenario* FindScenario(absl::string_view name);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SCENARIOS_H_
