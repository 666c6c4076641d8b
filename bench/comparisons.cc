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

// What one run in a child measured: ns per op, and for the chain the ns of its first step.
struct ChildRun {
  double ns_per_op = kNone;
  double first_step_ns = kNone;
};

// One run in a child process of its own, so that every run starts from the same heap and none
// pays for what an earlier one left. (The hand loop once took 2.76 us a step instead of 1.42 us;
// the cause was its inner loop straddling a 64-byte line, which bench/CMakeLists.txt now rules
// out, not the heap.) `run` fills a ChildRun and says whether its result was right; `correct` is
// cleared by a wrong result or a failed child.
ChildRun RunInChildProcess(const std::function<bool(ChildRun&)>& run, bool& correct) {
  absl::StatusOr<std::string> report = RunInChild([&] {
    ChildRun measured;
    const bool right = run(measured);
    return absl::StrCat(measured.ns_per_op, " ", measured.first_step_ns, " ", right ? 1 : 0);
  });
  std::vector<std::string> fields;
  if (report.ok()) fields = absl::StrSplit(*report, ' ');
  ChildRun measured;
  if (fields.size() != 3 || !absl::SimpleAtod(fields[0], &measured.ns_per_op) ||
      !absl::SimpleAtod(fields[1], &measured.first_step_ns) || fields[2] != "1") {
    correct = false;
    return ChildRun{};
  }
  return measured;
}

// One run of the graphgc chain, in a child. Its first step, in a throwaway graph, pays the
// process's one-time initialization and is timed apart, as the scenario tables do (WarmUp in
// scenario_run.cc): the hand loop has none to pay.
ChildRun ChainRun(SeedMode mode, int64_t n, bool& correct) {
  return RunInChildProcess(
      [&](ChildRun& measured) {
        measured.first_step_ns = TimeFirstChainStep();
        const SeedChainRun run = RunSeedChain(mode, n);
        measured.ns_per_op = run.loop_ns / static_cast<double>(n);
        return run.correct;
      },
      correct);
}

// One run of the hand loop in ns per step, in a child.
double HandLoopNsPerOp(int64_t n, bool& correct) {
  return RunInChildProcess(
             [&](ChildRun& measured) {
               measured.ns_per_op = TimeHandSquareChain(n) / static_cast<double>(n);
               measured.first_step_ns = 0;
               return true;
             },
             correct)
      .ns_per_op;
}

}  // namespace

ChainVsHandLoop CompareChainWithHandLoop(int64_t n, int repetitions) {
  ChainVsHandLoop result;
  result.n = n;
  result.repetitions = repetitions;
  if (n <= 0 || repetitions <= 0) return result;
  result.correct = true;
  result.collect_each_step_ns = result.automatic_ns = result.hand_loop_ns = kNone;
  result.first_step_ns = kNone;
  const auto take = [&result](double& figure, const ChildRun& run) {
    figure = std::min(figure, run.ns_per_op);
    result.first_step_ns = std::min(result.first_step_ns, run.first_step_ns);
  };
  // Alternating (collect-each, hand loop, automatic, ...), so that a noisy stretch of the shared
  // machine falls on all three alike; the minimum of each is its figure.
  for (int i = 0; i < repetitions; ++i) {
    take(result.collect_each_step_ns, ChainRun(SeedMode::kCollectEachStep, n, result.correct));
    result.hand_loop_ns = std::min(result.hand_loop_ns, HandLoopNsPerOp(n, result.correct));
    take(result.automatic_ns, ChainRun(SeedMode::kAutomatic, n, result.correct));
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
