// graphgc-bench: reproduces the seed scenario of spox's memory bug and measures what graphgc's
// collector costs. See options.h for the command line, report.h for the output.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "boundary_scenario.h"
#include "comparisons.h"
#include "isolated_run.h"
#include "kernel_bench.h"
#include "micro.h"
#include "options.h"
#include "report.h"

namespace graphgc::bench {
namespace {

// Sizes of the in-process comparisons, chosen so that the whole default suite stays within a
// couple of minutes on a small shared machine.
constexpr int64_t kComparisonChainLength = 20000;
constexpr int kComparisonRepetitions = 5;
constexpr int64_t kCollectSamples = 1000;
const std::vector<int64_t> kCollectGraphSizes = {1000, 1000000};

// keep-all ends up holding every value; past the cap the row would only measure swapping.
bool ExceedsKeepAllCap(SeedMode mode, int64_t n, int64_t cap_bytes) {
  if (mode != SeedMode::kKeepAll) return false;
  return n > cap_bytes / kSeedValueBytes;
}

ScenarioRow RunRow(SeedMode mode, int64_t n, int64_t cap_bytes) {
  if (ExceedsKeepAllCap(mode, n, cap_bytes)) {
    return SkippedRow(mode, n,
                      absl::StrCat("would hold ", n, " x ", kSeedValueBytes,
                                   " value bytes, over --keep-all-cap-bytes=", cap_bytes));
  }
  return RunScenarioInChild(mode, n);
}

// The isolated rows run first, while this process is still small: each child starts from (and
// has its peak RSS measured above) the parent's footprint at fork time.
std::vector<ScenarioRow> RunScenarios(const BenchOptions& options, bool print_rows) {
  std::vector<ScenarioRow> rows;
  if (print_rows) PrintScenarioHeader();
  for (SeedMode mode : options.modes) {
    for (int64_t n : options.sizes) {
      rows.push_back(RunRow(mode, n, options.keep_all_cap_bytes));
      if (print_rows) PrintScenarioRow(rows.back());
    }
  }
  return rows;
}

int RunBoundary(const BenchOptions& options) {
  const std::vector<int64_t> sizes =
      options.sizes_given ? options.sizes : std::vector<int64_t>{1000, 10000, 100000, 1000000};
  const std::vector<BoundaryRow> rows = RunBoundaryScenario(sizes);
  if (options.json) {
    std::fputs(BoundaryRowsToJson(rows).c_str(), stdout);
  } else {
    PrintBoundaryRows(rows);
  }
  for (const BoundaryRow& row : rows) {
    if (!row.error.empty()) return 1;
  }
  return 0;
}

int RunSuite(const BenchOptions& options) {
  const bool text = !options.json;
  SuiteReport report;
  report.keep_all_cap_bytes = options.keep_all_cap_bytes;
  report.scenarios = RunScenarios(options, text);
  report.chain_vs_hand = CompareChainWithHandLoop(kComparisonChainLength, kComparisonRepetitions);
  if (text) PrintChainVsHandLoop(report.chain_vs_hand);
  report.collect_cost = CompareCollectCost(kCollectGraphSizes, kCollectSamples);
  if (text) PrintCollectCost(report.collect_cost);
  if (!text) std::fputs(ToJson(report).c_str(), stdout);
  return 0;
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
  if (options->scenario == "boundary") return bench::RunBoundary(*options);
  return bench::RunSuite(*options);
}
