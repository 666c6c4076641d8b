#include "seed_scenario.h"

#include <algorithm>
#include <chrono>

#include "chain_workload.h"
#include "graphgc/ir/graph.h"

namespace graphgc::bench {

absl::string_view SeedModeName(SeedMode mode) {
  switch (mode) {
    case SeedMode::kKeepAll:
      return "keep-all";
    case SeedMode::kCollectEachStep:
      return "collect-each-step";
    case SeedMode::kAutomatic:
      return "automatic";
  }
  return "unknown";
}

std::optional<SeedMode> ParseSeedMode(absl::string_view name) {
  for (SeedMode mode : kAllSeedModes) {
    if (SeedModeName(mode) == name) return mode;
  }
  return std::nullopt;
}

GraphOptions SeedModeOptions(SeedMode mode) {
  switch (mode) {
    case SeedMode::kKeepAll:
      return GraphOptions{.keep_all_values = true};
    case SeedMode::kCollectEachStep:
      return GraphOptions{.collect_policy = CollectPolicy::kManual};
    case SeedMode::kAutomatic:
      return GraphOptions{};
  }
  return GraphOptions{};
}

bool PeakWithinAutomaticTrigger(int64_t peak_value_bytes, const GraphOptions& options,
                                int64_t held_bytes, int64_t step_value_bytes) {
  const int64_t survivors = held_bytes + step_value_bytes;
  const auto grown = static_cast<int64_t>(static_cast<double>(survivors) * options.growth_factor);
  return peak_value_bytes <= std::max(options.min_trigger_bytes, grown) + step_value_bytes;
}

SeedChainRun RunSeedChain(SeedMode mode, int64_t n) {
  using Clock = std::chrono::steady_clock;
  Graph graph(SeedModeOptions(mode));
  ChainWorkload chain;
  chain.Prepare(graph);
  const bool collect_each_step = mode == SeedMode::kCollectEachStep;

  const Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < n; ++i) {
    chain.Step();
    if (collect_each_step) graph.collect();
  }
  const Clock::duration loop = Clock::now() - start;

  SeedChainRun run;
  run.loop_ns =
      static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(loop).count());
  run.at_end = graph.stats();
  run.correct = chain.HasExpectedOutput(n) &&
                (mode != SeedMode::kAutomatic ||
                 PeakWithinAutomaticTrigger(run.at_end.peak_value_bytes, graph.options(),
                                            kSeedValueBytes, ChainWorkload::kValueBytesPerStep));
  graph.collect();
  run.live_bytes_after_collect = graph.stats().live_value_bytes;
  return run;
}

double TimeFirstChainStep() {
  using Clock = std::chrono::steady_clock;
  Graph graph;
  ChainWorkload chain;
  chain.Prepare(graph);
  const Clock::time_point start = Clock::now();
  chain.Step();
  const Clock::duration step = Clock::now() - start;
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(step).count());
}

}  // namespace graphgc::bench
