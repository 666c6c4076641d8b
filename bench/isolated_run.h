// One (mode, n) row of the seed scenario table, measured in a forked child process.
//
// Peak RSS (VmHWM) is a per-process high-water mark, so a scenario only gets its own peak in a
// process of its own: the child starts from the parent's small footprint (fork copies the resident
// size into the child's mark), runs the chain, and sends its figures back over a pipe as
// "key=value" lines. A child that dies (say, killed for memory) yields a failed row, not a crash.
#ifndef GRAPHGC_BENCH_ISOLATED_RUN_H_
#define GRAPHGC_BENCH_ISOLATED_RUN_H_

#include <cstdint>
#include <string>

#include "seed_scenario.h"

namespace graphgc::bench {

enum class RowOutcome { kRan, kSkipped, kFailed };

struct ScenarioRow {
  SeedMode mode = SeedMode::kAutomatic;
  int64_t n = 0;
  RowOutcome outcome = RowOutcome::kRan;
  std::string note;  // why the row was skipped or failed

  int64_t nodes = 0;
  int64_t collections = 0;
  int64_t live_bytes_end = 0;        // right after the loop
  int64_t live_bytes_collected = 0;  // after one more collect()
  int64_t peak_value_bytes = 0;
  double arena_bytes_per_node = 0;
  int64_t rss_start_kib = 0;  // VmRSS in the child before building the graph
  int64_t peak_rss_kib = 0;   // VmHWM in the child at the end
  double ns_per_op = 0;
  bool correct = false;
};

// Forks, runs the scenario in the child and returns its row (kFailed if the child did not report).
ScenarioRow RunScenarioInChild(SeedMode mode, int64_t n);

ScenarioRow SkippedRow(SeedMode mode, int64_t n, std::string why);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_ISOLATED_RUN_H_
