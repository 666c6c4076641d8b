// Runs one row of a scenario table: a workload for n steps in one collection mode, measured in a
// child process of its own (isolated_run.h), or skipped when keep-all would hold more value bytes
// than the cap allows.
//
// In the child, in order: one step is made in a throwaway graph (one-time initialization stays out
// of the figures), the steps are timed (explicit collect() calls apart, each timed on its
// own), the graph's stats read, one more collect() run, peak RSS read, the output exported with
// to_onnx (timed, after the RSS so that the model's memory does not count), the graph dropped, and
// the same steps timed again in a graph that does not propagate values: the difference is what the
// values cost. The row is correct when the output is right and the bytes add up: n steps make
// n x value_bytes_per_step bytes, which keep-all must still hold, the explicit collections must
// have freed all but the live ones, and the automatic policy must have kept the peak within its
// trigger.
#ifndef GRAPHGC_BENCH_SCENARIO_RUN_H_
#define GRAPHGC_BENCH_SCENARIO_RUN_H_

#include <cstdint>

#include "scenario_row.h"
#include "scenarios.h"
#include "seed_scenario.h"

namespace graphgc::bench {

// Measures in this process.
RowMetrics MeasureScenario(const Scenario& scenario, SeedMode mode, int64_t n);

// Skips, or measures in a child; a child that fails gives a kFailed row.
ScenarioRow RunScenarioRow(const Scenario& scenario, SeedMode mode, int64_t n,
                           int64_t keep_all_cap_bytes);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SCENARIO_RUN_H_
