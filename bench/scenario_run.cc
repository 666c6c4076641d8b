#include "scenario_run.h"

#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "isolated_run.h"
#include "process_stats.h"
#include "workload.h"

namespace graphgc::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Nanoseconds(Clock::duration duration) {
  return std::chrono::duration<double, std::nano>(duration).count();
}

double PerOp(double ns, int64_t ops) { return ops > 0 ? ns / static_cast<double>(ops) : 0.0; }

struct StepTimes {
  double build_ns = 0;
  double collect_ns = 0;
  int64_t explicitly_freed_bytes = 0;
};

// Without explicit collections the loop is timed as a whole, so that the clock costs nothing per
// step; with them each step and each collect() is timed apart.
StepTimes RunSteps(Graph& graph, Workload& workload, int64_t n, bool collect_each_step) {
  StepTimes times;
  if (!collect_each_step) {
    const Clock::time_point start = Clock::now();
    for (int64_t i = 0; i < n; ++i) workload.Step();
    times.build_ns = Nanoseconds(Clock::now() - start);
    return times;
  }
  Clock::duration build{};
  Clock::duration collect{};
  for (int64_t i = 0; i < n; ++i) {
    const Clock::time_point start = Clock::now();
    workload.Step();
    const Clock::time_point built = Clock::now();
    times.explicitly_freed_bytes += graph.collect().freed_bytes;
    build += built - start;
    collect += Clock::now() - built;
  }
  times.build_ns = Nanoseconds(build);
  times.collect_ns = Nanoseconds(collect);
  return times;
}

// The first failed check of a run with values, or "" when all pass.
std::string FirstProblem(const Scenario& scenario, SeedMode mode, int64_t n,
                         const GraphOptions& options, const RowMetrics& metrics,
                         const StepTimes& times, const Workload& workload) {
  const int64_t made = n * scenario.value_bytes_per_step;
  if (metrics.ops != n * scenario.ops_per_step) {
    return absl::StrCat("built ", metrics.ops, " ops, not ", n * scenario.ops_per_step);
  }
  if (!workload.HasExpectedOutput(n)) {
    const absl::Status status = workload.output().status();
    return status.ok() ? "the output's value is wrong"
                       : absl::StrCat("the output failed: ", status.message());
  }
  if (mode == SeedMode::kKeepAll && metrics.live_bytes_end != made) {
    return absl::StrCat("keep-all holds ", metrics.live_bytes_end, " value bytes, not ", made);
  }
  if (mode == SeedMode::kCollectEachStep && times.explicitly_freed_bytes != metrics.freed_bytes) {
    return absl::StrCat("collect() freed ", times.explicitly_freed_bytes, " bytes, not ",
                        metrics.freed_bytes);
  }
  if (mode == SeedMode::kAutomatic &&
      !PeakWithinAutomaticTrigger(metrics.peak_value_bytes, options, metrics.live_bytes_collected,
                                  scenario.value_bytes_per_step)) {
    return absl::StrCat("peak of ", metrics.peak_value_bytes,
                        " value bytes is past the automatic trigger");
  }
  return "";
}

// Everything but the types-only timing; the graph is gone when this returns.
RowMetrics MeasureWithValues(const Scenario& scenario, SeedMode mode, int64_t n) {
  RowMetrics metrics;
  metrics.rss_start_kib = ReadProcessMemory().rss_kib;
  const GraphOptions options = SeedModeOptions(mode);
  Graph graph(options);
  const std::unique_ptr<Workload> workload = scenario.make_workload();
  workload->Prepare(graph);
  const GraphStats before = graph.stats();
  const StepTimes times = RunSteps(graph, *workload, n, mode == SeedMode::kCollectEachStep);
  const GraphStats after = graph.stats();

  metrics.ops = after.nodes - before.nodes;
  metrics.nodes = after.nodes;
  metrics.collections = after.collections - before.collections;
  // Values only enter the store through the steps and leave it through collections.
  metrics.freed_bytes =
      before.live_value_bytes + n * scenario.value_bytes_per_step - after.live_value_bytes;
  metrics.live_bytes_end = after.live_value_bytes;
  metrics.peak_value_bytes = after.peak_value_bytes;
  metrics.arena_bytes_per_node =
      static_cast<double>(after.arena_bytes) / static_cast<double>(after.nodes);
  metrics.build_ns_per_op = PerOp(times.build_ns, metrics.ops);
  metrics.collect_ns_per_op = PerOp(times.collect_ns, metrics.ops);

  graph.collect();
  metrics.live_bytes_collected = graph.stats().live_value_bytes;
  metrics.peak_rss_kib = ReadProcessMemory().peak_rss_kib;
  metrics.problem = FirstProblem(scenario, mode, n, options, metrics, times, *workload);

  const Clock::time_point start = Clock::now();
  const absl::StatusOr<onnx::ModelProto> model = to_onnx(graph, {{"y", workload->output()}});
  metrics.export_ns_per_op = PerOp(Nanoseconds(Clock::now() - start), metrics.ops);
  if (!model.ok() && metrics.problem.empty()) {
    metrics.problem = absl::StrCat("to_onnx: ", model.status().message());
  }
  metrics.correct = metrics.problem.empty();
  return metrics;
}

// The same steps in the same mode, with no values computed.
double TypesOnlyNsPerOp(const Scenario& scenario, SeedMode mode, int64_t n) {
  GraphOptions options = SeedModeOptions(mode);
  options.propagate_values = false;
  Graph graph(options);
  const std::unique_ptr<Workload> workload = scenario.make_workload();
  workload->Prepare(graph);
  const int64_t nodes_before = graph.stats().nodes;
  const StepTimes times = RunSteps(graph, *workload, n, mode == SeedMode::kCollectEachStep);
  return PerOp(times.build_ns, graph.stats().nodes - nodes_before);
}

// One step of the workload in a throwaway graph, so that one-time costs of the process (ONNX's
// schema tables, the kernel registry, the allocator's first pages) stay out of the figures.
void WarmUp(const Scenario& scenario) {
  Graph graph;
  const std::unique_ptr<Workload> workload = scenario.make_workload();
  workload->Prepare(graph);
  workload->Step();
}

ScenarioRow RowOf(const Scenario& scenario, SeedMode mode, int64_t n, RowOutcome outcome,
                  std::string note) {
  ScenarioRow row;
  row.scenario = scenario.name;
  row.mode = mode;
  row.n = n;
  row.outcome = outcome;
  row.note = std::move(note);
  return row;
}

}  // namespace

RowMetrics MeasureScenario(const Scenario& scenario, SeedMode mode, int64_t n) {
  WarmUp(scenario);
  RowMetrics metrics = MeasureWithValues(scenario, mode, n);
  metrics.types_only_ns_per_op = TypesOnlyNsPerOp(scenario, mode, n);
  return metrics;
}

ScenarioRow RunScenarioRow(const Scenario& scenario, SeedMode mode, int64_t n,
                           int64_t keep_all_cap_bytes) {
  // keep-all ends up holding every value; past the cap the row would only measure swapping.
  if (mode == SeedMode::kKeepAll && scenario.value_bytes_per_step > 0 &&
      n > keep_all_cap_bytes / scenario.value_bytes_per_step) {
    return RowOf(scenario, mode, n, RowOutcome::kSkipped,
                 absl::StrCat("would hold ", n, " x ", scenario.value_bytes_per_step,
                              " value bytes, over --keep-all-cap-bytes=", keep_all_cap_bytes));
  }
  const absl::StatusOr<std::string> report =
      RunInChild([&] { return MetricsToText(MeasureScenario(scenario, mode, n)); });
  if (!report.ok())
    return RowOf(scenario, mode, n, RowOutcome::kFailed, std::string(report.status().message()));
  absl::StatusOr<RowMetrics> metrics = MetricsFromText(*report);
  if (!metrics.ok())
    return RowOf(scenario, mode, n, RowOutcome::kFailed, std::string(metrics.status().message()));
  ScenarioRow row = RowOf(scenario, mode, n, RowOutcome::kRan, "");
  row.metrics = *std::move(metrics);
  return row;
}

}  // namespace graphgc::bench
