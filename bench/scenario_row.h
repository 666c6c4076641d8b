// ScenarioRow: the figures of one (scenario, mode, n) row, and the one list of its metrics.
//
// A row is measured in a child process and travels to the parent as text, then out as JSON and as
// plot data; ForEachMetric names every metric once, so that the child's report, its parsing and
// the JSON cannot drift apart.
#ifndef GRAPHGC_BENCH_SCENARIO_ROW_H_
#define GRAPHGC_BENCH_SCENARIO_ROW_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "seed_scenario.h"

namespace graphgc::bench {

// Everything one run of a workload measured (scenario_run.h says how).
struct RowMetrics {
  int64_t ops = 0;                   // nodes the n steps built
  int64_t nodes = 0;                 // in the whole graph
  int64_t collections = 0;           // explicit and automatic, during the steps
  int64_t freed_bytes = 0;           // value bytes the collections freed during the steps
  int64_t live_bytes_end = 0;        // right after the steps
  int64_t live_bytes_collected = 0;  // after one more collect()
  int64_t peak_value_bytes = 0;
  double arena_bytes_per_node = 0;
  int64_t rss_start_kib = 0;  // VmRSS in the child before building
  int64_t peak_rss_kib = 0;   // VmHWM in the child after building (before the export)
  // Wall time per op of the steps, explicit collect() calls excluded (automatic ones, which run
  // inside the ops, included).
  double build_ns_per_op = 0;
  // The same steps in a graph with propagate_values off, timed in the same child: build minus
  // this is what computing and storing the values cost (graphgc does not time propagation itself).
  double types_only_ns_per_op = 0;
  double collect_ns_per_op = 0;  // the explicit collect() calls (collect-each-step), per op
  double export_ns_per_op = 0;   // to_onnx of the output, per op built
  bool correct = false;
  std::string problem;  // the first check that failed, when !correct

  double propagation_ns_per_op() const { return build_ns_per_op - types_only_ns_per_op; }
};

// Calls visit(key, field) for every field of `metrics`, in a fixed order; field is an int64_t,
// double, bool or std::string (const or not, as `metrics`).
template <class Metrics, class Visit>
void ForEachMetric(Metrics& metrics, Visit&& visit) {
  visit("ops", metrics.ops);
  visit("nodes", metrics.nodes);
  visit("collections", metrics.collections);
  visit("freed_bytes", metrics.freed_bytes);
  visit("live_value_bytes_end", metrics.live_bytes_end);
  visit("live_value_bytes_after_collect", metrics.live_bytes_collected);
  visit("peak_value_bytes", metrics.peak_value_bytes);
  visit("arena_bytes_per_node", metrics.arena_bytes_per_node);
  visit("rss_start_kib", metrics.rss_start_kib);
  visit("peak_rss_kib", metrics.peak_rss_kib);
  visit("build_ns_per_op", metrics.build_ns_per_op);
  visit("types_only_ns_per_op", metrics.types_only_ns_per_op);
  visit("collect_ns_per_op", metrics.collect_ns_per_op);
  visit("export_ns_per_op", metrics.export_ns_per_op);
  visit("correct", metrics.correct);
  visit("problem", metrics.problem);
}

enum class RowOutcome { kRan, kSkipped, kFailed };

struct ScenarioRow {
  absl::string_view scenario;
  SeedMode mode = SeedMode::kAutomatic;
  int64_t n = 0;
  RowOutcome outcome = RowOutcome::kRan;
  std::string note;  // why the row was skipped or failed
  RowMetrics metrics;
};

absl::string_view OutcomeName(RowOutcome outcome);

// The child's report: one "key=value" line per metric. A problem with a newline is cut there.
std::string MetricsToText(const RowMetrics& metrics);
// The inverse; an error names the first malformed, unknown or missing line.
absl::StatusOr<RowMetrics> MetricsFromText(absl::string_view text);

// The row as one JSON object: scenario-independent keys, then the metrics when it ran.
std::string RowToJson(const ScenarioRow& row);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SCENARIO_ROW_H_
