#include "comparisons.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hand_loop.h"
#include "isolated_run.h"
#include "seed_scenario.h"

namespace graphgc::bench {
namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();

// One run in a child process of its own, so that every run starts from the same heap. Run in
// turn in one process, the hand loop's new[] was handed the blocks the chain's runs had freed and
// walked them cold: 2.76 us a step instead of the 1.42 us it takes from a fresh heap (this
// machine, mimalloc), which made the chain look faster than the loop. `run` gives ns per op and
// whether its result was right; kNone and a wrong result if the child fails.
double NsPerOpInChild(const std::function<double(bool&)>& run, bool& correct) {
  absl::StatusOr<std::string> report = RunInChild([&] {
    bool right = true;
    const double ns = run(right);
    return absl::StrCat(ns, " ", right ? 1 : 0);
  });
  std::vector<std::string> fields;
  if (report.ok()) fields = absl::StrSplit(*report, ' ');
  double ns = kNone;
  if (fields.size() != 2 || !absl::SimpleAtod(fields[0], &ns) || fields[1] != "1") {
    correct = false;
  }
  return ns;
}

// One run of the graphgc chain in ns per op, in a child.
double ChainNsPerOp(SeedMode mode, int64_t n, bool& correct) {
  return NsPerOpInChild(
      [&](bool& right) {
        const SeedChainRun run = RunSeedChain(mode, n);
        right = run.correct;
        return run.loop_ns / static_cast<double>(n);
      },
      correct);
}

// One run of the hand loop in ns per step, in a child.
double HandLoopNsPerOp(int64_t n, bool& correct) {
  return NsPerOpInChild([&](bool&) { return TimeHandSquareChain(n) / static_cast<double>(n); },
                        correct);
}

}  // namespace

ChainVsHandLoop CompareChainWithHandLoop(int64_t n, int repetitions) {
  ChainVsHandLoop result;
  result.n = n;
  result.repetitions = repetitions;
  if (n <= 0 || repetitions <= 0) return result;
  result.correct = true;
  result.collect_each_step_ns = result.automatic_ns = result.hand_loop_ns = kNone;
  // Alternating (collect-each, hand loop, automatic, ...), so that a noisy stretch of the shared
  // machine falls on all three alike; the minimum of each is its figure.
  for (int i = 0; i < repetitions; ++i) {
    result.collect_each_step_ns = std::min(
        result.collect_each_step_ns, ChainNsPerOp(SeedMode::kCollectEachStep, n, result.correct));
    result.hand_loop_ns = std::min(result.hand_loop_ns, HandLoopNsPerOp(n, result.correct));
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
