#include "scenario_table.h"

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "graphgc/ir/graph_options.h"
#include "text_table.h"

namespace graphgc::bench {
namespace {

const TextTable& Table() {
  static const auto* const kTable = new TextTable({
      {"mode", 17},
      {"n", 7},
      {"ops", 7},
      {"colls", 6},
      {"freed", 9},
      {"live end", 9},
      {"live coll", 9},
      {"peak val", 9},
      {"arena/node", 10},
      {"RSS start", 9},
      {"peak RSS", 9},
      {"build", 8},
      {"prop", 8},
      {"collect", 8},
      {"export", 8},
      {"ok", 3},
  });
  return *kTable;
}

std::string Ns(double ns) { return absl::StrFormat("%.1f", ns); }
std::string Kib(int64_t kib) { return HumanBytes(static_cast<double>(kib) * 1024); }
std::string Bytes(int64_t bytes) { return HumanBytes(static_cast<double>(bytes)); }

std::vector<std::string> Cells(const ScenarioRow& row) {
  const RowMetrics& m = row.metrics;
  return {std::string(SeedModeName(row.mode)),
          absl::StrCat(row.n),
          absl::StrCat(m.ops),
          absl::StrCat(m.collections),
          Bytes(m.freed_bytes),
          Bytes(m.live_bytes_end),
          Bytes(m.live_bytes_collected),
          Bytes(m.peak_value_bytes),
          absl::StrFormat("%.1f B", m.arena_bytes_per_node),
          Kib(m.rss_start_kib),
          Kib(m.peak_rss_kib),
          Ns(m.build_ns_per_op),
          Ns(m.propagation_ns_per_op()),
          Ns(m.collect_ns_per_op),
          Ns(m.export_ns_per_op),
          m.correct ? "yes" : "NO"};
}

}  // namespace

void PrintScenarioHeading(const Scenario& scenario) {
  absl::PrintF(
      "\n%s: each step %s; %d op(s) and %s of values per step; one child process per row\n"
      "  bytes: freed by collections during the steps, live at the end and after one more "
      "collect(), peak live; RSS: the child's VmRSS at start and VmHWM after building\n"
      "  ns per op: build = the steps, explicit collect() excluded (automatic collections run "
      "inside the ops); prop = build minus the same steps\n"
      "  without value propagation; collect = the explicit collect() calls; export = to_onnx of "
      "the output. automatic: trigger floor %s (L2 / 4)\n",
      scenario.name, scenario.summary, scenario.ops_per_step,
      HumanBytes(static_cast<double>(scenario.value_bytes_per_step)),
      HumanBytes(static_cast<double>(DefaultMinTriggerBytes())));
  std::fputs(Table().Header().c_str(), stdout);
  std::fflush(stdout);
}

void PrintScenarioRow(const ScenarioRow& row) {
  if (row.outcome != RowOutcome::kRan) {
    absl::PrintF("%-17s %7d %s: %s\n", SeedModeName(row.mode), row.n, OutcomeName(row.outcome),
                 row.note);
  } else {
    std::fputs(Table().Row(Cells(row)).c_str(), stdout);
    if (!row.metrics.problem.empty()) absl::PrintF("  problem: %s\n", row.metrics.problem);
  }
  std::fflush(stdout);
}

}  // namespace graphgc::bench
