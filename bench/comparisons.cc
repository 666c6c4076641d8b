#include "comparisons.h"

#include <algorithm>
#include <limits>

#include "hand_loop.h"
#include "seed_scenario.h"

namespace graphgc::bench {
namespace {

// One run of the graphgc chain in ns per op; clears `correct` on a bad result.
double ChainNsPerOp(SeedMode mode, int64_t n, bool& correct) {
  const SeedChainRun run = RunSeedChain(mode, n);
  correct = correct && run.correct;
  return run.loop_ns / static_cast<double>(n);
}

}  // namespace

ChainVsHandLoop CompareChainWithHandLoop(int64_t n, int repetitions) {
  ChainVsHandLoop result;
  result.n = n;
  result.repetitions = repetitions;
  if (n <= 0 || repetitions <= 0) return result;
  result.correct = true;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  result.collect_each_step_ns = result.automatic_ns = result.hand_loop_ns = kNone;
  // Alternating (collect-each, hand loop, automatic, ...), so that a noisy stretch of the shared
  // machine falls on all three alike; the minimum of each is its figure.
  for (int i = 0; i < repetitions; ++i) {
    result.collect_each_step_ns = std::min(
        result.collect_each_step_ns, ChainNsPerOp(SeedMode::kCollectEachStep, n, result.correct));
    result.hand_loop_ns =
        std::min(result.hand_loop_ns, TimeHandSquareChain(n) / static_cast<double>(n));
    result.automatic_ns =
        std::min(result.automatic_ns, ChainNsPerOp(SeedMode::kAutomatic, n, result.correct));
  }
  return result;
}

std::vector<CollectCostRow> CompareCollectCost(const std::vector<int64_t>& graph_sizes,
                                               int64_t samples) {
  std::vector<CollectCostRow> rows;
  rows.reserve(graph_sizes.size());
  for (int64_t size : graph_sizes) rows.push_back(MeasureCollectCost(size, samples));
  return rows;
}

double Ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace graphgc::bench
