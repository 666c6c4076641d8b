// graphgc-bench: measures what graphgc's builder and collector cost over the whole workload — the
// seed scenario of spox's memory bug and three others, the export/import boundary, and two
// comparisons. See options.h for the command line, report.h and scenario_table.h for the output.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "big_model_scenario.h"
#include "boundary_scenario.h"
#include "charts.h"
#include "comparisons.h"
#include "gemm_bench.h"
#include "kernel_bench.h"
#include "micro.h"
#include "options.h"
#include "python_bench.h"
#include "recompute_scenario.h"
#include "report.h"
#include "scenario_run.h"
#include "scenario_table.h"
#include "scenarios.h"

namespace graphgc::bench {
namespace {

// Sizes of the in-process parts, chosen so that the whole default suite stays within a few
// minutes on a small shared machine.
const std::vector<int64_t> kBoundarySizes = {1000, 10000, 100000, 1000000};
constexpr int64_t kComparisonChainLength = 20000;
constexpr int kComparisonRepetitions = 7;
constexpr int64_t kCollectSamples = 1000;
const std::vector<int64_t> kCollectGraphSizes = {1000, 1000000};
const std::vector<int64_t> kRecomputeLayers = {25, 50, 100, 200};

std::vector<int64_t> SizesFor(const BenchOptions& options, const std::vector<int64_t>& suite,
                              const std::vector<int64_t>& alone) {
  if (options.sizes_given) return options.sizes;
  return options.whole_suite ? suite : alone;
}

ScenarioResult RunScenarioTable(const Scenario& scenario, const BenchOptions& options, bool text) {
  ScenarioResult result;
  result.scenario = &scenario;
  if (text) PrintScenarioHeading(scenario);
  for (SeedMode mode : options.modes) {
    for (int64_t n : SizesFor(options, scenario.suite_sizes, scenario.alone_sizes)) {
      result.rows.push_back(RunScenarioRow(scenario, mode, n, options.keep_all_cap_bytes));
      if (text) PrintScenarioRow(result.rows.back());
    }
  }
  return result;
}

// The isolated tables run first, while this process is still small: each child starts from (and
// has its peak RSS measured above) the parent's footprint at fork time.
SuiteReport RunParts(const BenchOptions& options) {
  const bool text = !options.json;
  SuiteReport report;
  report.keep_all_cap_bytes = options.keep_all_cap_bytes;
  if (options.runs(kRecomputePart)) {  // in children of its own, like the tables
    report.recompute = RunRecomputeScenario(SizesFor(options, kRecomputeLayers, kRecomputeLayers));
    if (text) PrintRecomputeRows(*report.recompute);
  }
  if (options.runs(kBigModelPart)) {  // the fold in a child of its own
    report.big_model =
        RunBigModelScenario(BigModelSizes(options.big_model_max_bytes), options.big_model_dir);
    if (text) PrintBigModelRows(*report.big_model);
  }
  for (const Scenario& scenario : AllScenarios()) {
    if (options.runs(scenario.name)) {
      report.scenarios.push_back(RunScenarioTable(scenario, options, text));
    }
  }
  if (options.runs(kBoundaryPart)) {
    report.boundary = RunBoundaryScenario(SizesFor(options, kBoundarySizes, kBoundarySizes));
    if (text) PrintBoundaryRows(*report.boundary);
  }
  if (options.runs(kComparisonsPart)) {
    report.chain_vs_hand = CompareChainWithHandLoop(kComparisonChainLength, kComparisonRepetitions);
    if (text) PrintChainVsHandLoop(*report.chain_vs_hand);
    report.collect_cost = CompareCollectCost(kCollectGraphSizes, kCollectSamples);
    if (text) PrintCollectCost(*report.collect_cost);
  }
  return report;
}

// Whether every row ran and checked out.
bool AllCorrect(const SuiteReport& report) {
  for (const ScenarioResult& result : report.scenarios) {
    for (const ScenarioRow& row : result.rows) {
      if (row.outcome == RowOutcome::kFailed) return false;
      if (row.outcome == RowOutcome::kRan && !row.metrics.correct) return false;
    }
  }
  if (report.boundary.has_value()) {
    for (const BoundaryRow& row : *report.boundary) {
      if (!row.error.empty()) return false;
    }
  }
  if (report.recompute.has_value()) {
    for (const RecomputeRow& row : *report.recompute) {
      if (!row.correct()) return false;
    }
  }
  if (report.big_model.has_value()) {
    for (const BigModelRow& row : *report.big_model) {
      if (!row.correct()) return false;
    }
  }
  return !report.chain_vs_hand.has_value() || report.chain_vs_hand->correct;
}

int RunSuite(const BenchOptions& options) {
  const SuiteReport report = RunParts(options);
  if (options.json) std::fputs(ToJson(report).c_str(), stdout);
  int exit_code = AllCorrect(report) ? 0 : 1;
  if (!options.plot_dir.empty()) {
    const absl::StatusOr<std::vector<std::string>> charts = WriteCharts(report, options.plot_dir);
    if (!charts.ok()) {
      std::fprintf(stderr, "graphgc-bench: --plot: %s\n",
                   std::string(charts.status().message()).c_str());
      exit_code = 1;
    } else {
      // On stderr, so that --json's stdout stays one document.
      std::fprintf(stderr, "graphgc-bench: charts written: %s\n",
                   absl::StrJoin(*charts, ", ").c_str());
    }
  }
  return exit_code;
}

}  // namespace
}  // namespace graphgc::bench

int main(int argc, char** argv) {
  namespace bench = graphgc::bench;
  absl::StatusOr<bench::BenchOptions> options = bench::ParseOptions(argc, argv);
  if (!options.ok()) {
    std::fprintf(stderr, "graphgc-bench: %s\n\n%s", std::string(options.status().message()).c_str(),
                 bench::Usage().c_str());
    return 2;
  }
  if (options->help) {
    std::fputs(bench::Usage().c_str(), stdout);
    return 0;
  }
  if (options->micro) return bench::RunMicroBenchmarks(options->benchmark_args);
  if (options->kernels) return bench::RunKernelBenchmarks();
  if (options->gemm) return bench::RunGemmBenchmarks();
  if (options->python) return bench::RunPythonBenchmark(options->script_args);
  return bench::RunSuite(*options);
}
