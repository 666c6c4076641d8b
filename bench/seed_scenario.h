// The seed scenario of spox's memory bug: a chain of squarings of one large constant.
//
//   a = constant(zeros(double, {10000}))   // 80 000 bytes
//   for i in range(n): a = Mul(a, a)
//
// Every step makes a new 80 kB value and drops the last handle to the previous one. A builder that
// keeps every propagated value (spox before its fix) grows by 80 kB per op; a collector keeps the
// live set at one or two values whatever n is. The modes below are the three ways to run it, and
// the three ways every scenario of the suite (scenarios.h) is run; RunSeedChain is the chain's
// tight loop, timed for the comparison with a hand-written loop.
#ifndef GRAPHGC_BENCH_SEED_SCENARIO_H_
#define GRAPHGC_BENCH_SEED_SCENARIO_H_

#include <array>
#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"

namespace graphgc::bench {

inline constexpr int64_t kSeedElements = 10000;
inline constexpr int64_t kSeedValueBytes = kSeedElements * static_cast<int64_t>(sizeof(double));

enum class SeedMode {
  kKeepAll,          // GraphOptions::keep_all_values: nothing is ever freed
  kCollectEachStep,  // manual policy, collect() after every op
  kAutomatic,        // default options: the adaptive policy alone, no explicit collect()
};

inline constexpr std::array<SeedMode, 3> kAllSeedModes = {
    SeedMode::kKeepAll, SeedMode::kCollectEachStep, SeedMode::kAutomatic};

absl::string_view SeedModeName(SeedMode mode);
std::optional<SeedMode> ParseSeedMode(absl::string_view name);
GraphOptions SeedModeOptions(SeedMode mode);

// What one run of the chain measured, in the calling process.
struct SeedChainRun {
  double loop_ns = 0;  // wall time of the n steps (explicit collections included)
  // The final value is 10000 double zeros and, under the automatic policy, peak value bytes stayed
  // within PeakWithinAutomaticTrigger.
  bool correct = false;
  GraphStats at_end;  // right after the loop, before the final collect()
  int64_t live_bytes_after_collect = 0;
};

SeedChainRun RunSeedChain(SeedMode mode, int64_t n);

// One step of the chain in a throwaway graph, in ns. The first in a process pays the process's
// one-time initialization (ONNX's schema tables, the kernel registry), which every timed figure
// of the suite leaves out by making this step first and reporting it apart.
double TimeFirstChainStep();

// The automatic policy's promise: live value bytes pass the trigger by at most what one step makes
// before the graph looks again. The trigger is growth_factor times what survived the last
// collection, at least min_trigger_bytes; a collection runs inside an op, while the program still
// holds the step's input, so what survives is what the program holds between steps
// (`held_bytes`) plus one step's values.
bool PeakWithinAutomaticTrigger(int64_t peak_value_bytes, const GraphOptions& options,
                                int64_t held_bytes, int64_t step_value_bytes);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SEED_SCENARIO_H_
