#include "seed_scenario.h"

#include <chrono>
#include <optional>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/ops.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::bench {
namespace {

bool IsSeedShapedZeros(const Tensor& value) {
  if (value.dtype() != DataType::kDouble || value.rank() != 1 ||
      value.shape()[0] != kSeedElements) {
    return false;
  }
  for (double element : value.data<double>()) {
    if (element != 0.0) return false;
  }
  return true;
}

// Squaring zeros gives zeros, so any other final value means a kernel or a collection went wrong
// (a freed value that was still needed would show up here as a missing or garbage value).
bool HasSeedResult(const Var& var) {
  if (!var.ok()) return false;
  const std::optional<Tensor> value = var.value();
  return value.has_value() && IsSeedShapedZeros(*value);
}

}  // namespace

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

SeedChainRun RunSeedChain(SeedMode mode, int64_t n) {
  using Clock = std::chrono::steady_clock;
  Graph graph(SeedModeOptions(mode));
  Var a = graph.constant(Tensor::zeros(DataType::kDouble, {kSeedElements}));
  const bool collect_each_step = mode == SeedMode::kCollectEachStep;

  const Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < n; ++i) {
    a = op::Mul(a, a);
    if (collect_each_step) graph.collect();
  }
  const Clock::duration loop = Clock::now() - start;

  SeedChainRun run;
  run.loop_ns =
      static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(loop).count());
  run.at_end = graph.stats();
  run.correct = HasSeedResult(a) && (mode != SeedMode::kAutomatic ||
                                     run.at_end.peak_value_bytes <=
                                         graph.options().min_trigger_bytes + kSeedValueBytes);
  graph.collect();
  run.live_bytes_after_collect = graph.stats().live_value_bytes;
  return run;
}

}  // namespace graphgc::bench
