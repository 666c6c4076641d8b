#include "comparisons.h"

#include <algorithm>
#include <limits>

#include "hand_loop.h"
#include "seed_scenario.h"

namespace graphgc::bench {
namespace {

// Best of `repetitions` runs of the graphgc chain in ns per op; clears `correct` on a bad result.
double BestChainNsPerOp(SeedMode mode, int64_t n, int repetitions, bool& correct) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repetitions; ++i) {
    const SeedChainRun run = RunSeedChain(mode, n);
    correct = correct && run.correct;
    best = std::min(best, run.loop_ns / static_cast<double>(n));
  }
  return best;
}

double BestHandLoopNsPerOp(int64_t n, int repetitions) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repetitions; ++i) {
    best = std::min(best, TimeHandSquareChain(n) / static_cast<double>(n));
  }
  return best;
}

}  // namespace

ChainVsHandLoop CompareChainWithHandLoop(int64_t n, int repetitions) {
  ChainVsHandLoop result;
  result.n = n;
  result.repetitions = repetitions;
  if (n <= 0 || repetitions <= 0) return result;
  result.correct = true;
  result.collect_each_step_ns =
      BestChainNsPerOp(SeedMode::kCollectEachStep, n, repetitions, result.correct);
  result.automatic_ns = BestChainNsPerOp(SeedMode::kAutomatic, n, repetitions, result.correct);
  result.hand_loop_ns = BestHandLoopNsPerOp(n, repetitions);
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
