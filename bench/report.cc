#include "report.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graphgc/ir/graph_options.h"
#include "json_text.h"

namespace graphgc::bench {
namespace {

absl::string_view YesNo(bool value) { return value ? "yes" : "NO"; }

// The largest graph's median over the smallest's: ~1 when collect() ignores graph size.
double CollectCostRatio(const std::vector<CollectCostRow>& rows) {
  if (rows.size() < 2) return 0;
  return Ratio(rows.back().median_ns, rows.front().median_ns);
}

std::string ScenarioJson(const ScenarioResult& result) {
  std::vector<std::string> rows;
  for (const ScenarioRow& row : result.rows) rows.push_back(RowToJson(row));
  const Scenario& scenario = *result.scenario;
  return absl::StrFormat(
      "{\n      \"summary\": %s,\n      \"ops_per_step\": %d,\n"
      "      \"value_bytes_per_step\": %d,\n      \"rows\": [\n        %s\n      ]\n    }",
      JsonQuote(scenario.summary), scenario.ops_per_step, scenario.value_bytes_per_step,
      absl::StrJoin(rows, ",\n        "));
}

std::string ScenariosJson(const std::vector<ScenarioResult>& results) {
  std::vector<std::string> members;
  for (const ScenarioResult& result : results) {
    members.push_back(absl::StrCat(JsonQuote(result.scenario->name), ": ", ScenarioJson(result)));
  }
  return absl::StrCat("{\n    ", absl::StrJoin(members, ",\n    "), "\n  }");
}

std::string ChainVsHandJson(const ChainVsHandLoop& result) {
  return absl::StrFormat(
      "{\"n\": %d, \"repetitions\": %d, \"collect_each_step_ns_per_op\": %.1f, "
      "\"automatic_ns_per_op\": %.1f, \"hand_loop_ns_per_op\": %.1f, "
      "\"collect_each_step_over_hand\": %.3f, \"automatic_over_hand\": %.3f, "
      "\"automatic_over_collect_each_step\": %.3f, \"first_step_ns\": %.1f, \"correct\": %s}",
      result.n, result.repetitions, result.collect_each_step_ns, result.automatic_ns,
      result.hand_loop_ns, Ratio(result.collect_each_step_ns, result.hand_loop_ns),
      Ratio(result.automatic_ns, result.hand_loop_ns),
      Ratio(result.automatic_ns, result.collect_each_step_ns), result.first_step_ns,
      JsonBool(result.correct));
}

std::string CollectCostRowJson(const CollectCostRow& row) {
  return absl::StrFormat(
      "{\"graph_nodes\": %d, \"samples\": %d, \"median_ns\": %.1f, \"scanned_min\": %d, "
      "\"scanned_max\": %d, \"ok\": %s}",
      row.graph_nodes, row.samples, row.median_ns, row.scanned_min, row.scanned_max,
      JsonBool(row.ok));
}

std::string CollectCostJson(const std::vector<CollectCostRow>& rows) {
  std::vector<std::string> items;
  for (const CollectCostRow& row : rows) items.push_back(CollectCostRowJson(row));
  return absl::StrFormat(
      "{\n    \"rows\": [\n      %s\n    ],\n    \"largest_over_smallest\": %.3f\n  }",
      absl::StrJoin(items, ",\n      "), CollectCostRatio(rows));
}

}  // namespace

void PrintChainVsHandLoop(const ChainVsHandLoop& result) {
  absl::PrintF(
      "\nSeed chain vs hand loop (n=%d, minimum of %d alternating runs of each, every run in a "
      "child process)\n",
      result.n, result.repetitions);
  absl::PrintF("  %-34s %10.1f ns/op  graphgc/hand %6.2fx\n", "graphgc, collect-each-step",
               result.collect_each_step_ns,
               Ratio(result.collect_each_step_ns, result.hand_loop_ns));
  absl::PrintF("  %-34s %10.1f ns/op  graphgc/hand %6.2fx\n", "graphgc, automatic",
               result.automatic_ns, Ratio(result.automatic_ns, result.hand_loop_ns));
  absl::PrintF("  %-34s %10.1f ns/op\n", "hand loop (new[], square, delete[])",
               result.hand_loop_ns);
  absl::PrintF(
      "  first step of a graphgc child, before the timed runs (the process's one-time setup: "
      "ONNX's schema tables, the kernel registry): %.1f us\n",
      result.first_step_ns / 1000.0);
  absl::PrintF("  automatic / collect-each-step: %.2fx\n",
               Ratio(result.automatic_ns, result.collect_each_step_ns));
  absl::PrintF("  graphgc results correct: %s\n", YesNo(result.correct));
  std::fflush(stdout);
}

void PrintCollectCost(const std::vector<CollectCostRow>& rows) {
  const int64_t samples = rows.empty() ? 0 : rows.front().samples;
  absl::PrintF(
      "\ncollect() cost vs graph size (a = Add(a, one) on a scalar, then one timed "
      "collect(); median of %d)\n",
      samples);
  absl::PrintF("  %12s %12s %14s %6s\n", "graph nodes", "median ns", "scanned", "ok");
  for (const CollectCostRow& row : rows) {
    absl::PrintF("  %12d %12.1f %14s %6s\n", row.graph_nodes, row.median_ns,
                 absl::StrCat(row.scanned_min, "..", row.scanned_max), YesNo(row.ok));
  }
  absl::PrintF("  median ratio, largest/smallest graph: %.2f\n", CollectCostRatio(rows));
  std::fflush(stdout);
}

std::string ToJson(const SuiteReport& report) {
  std::vector<std::string> members = {
      absl::StrCat("\"keep_all_cap_bytes\": ", report.keep_all_cap_bytes),
      absl::StrCat("\"automatic_min_trigger_bytes\": ", DefaultMinTriggerBytes()),
  };
  if (!report.scenarios.empty()) {
    members.push_back(absl::StrCat("\"scenarios\": ", ScenariosJson(report.scenarios)));
  }
  if (report.boundary.has_value()) {
    members.push_back(absl::StrCat("\"boundary\": ", BoundaryRowsToJson(*report.boundary)));
  }
  if (report.chain_vs_hand.has_value()) {
    members.push_back(
        absl::StrCat("\"seed_chain_vs_hand_loop\": ", ChainVsHandJson(*report.chain_vs_hand)));
  }
  if (report.collect_cost.has_value()) {
    members.push_back(
        absl::StrCat("\"collect_cost_vs_graph_size\": ", CollectCostJson(*report.collect_cost)));
  }
  if (report.recompute.has_value()) {
    members.push_back(absl::StrCat("\"recompute\": ", RecomputeRowsToJson(*report.recompute)));
  }
  if (report.big_model.has_value()) {
    members.push_back(absl::StrCat("\"big_model\": ", BigModelRowsToJson(*report.big_model)));
  }
  return absl::StrCat("{\n  ", absl::StrJoin(members, ",\n  "), "\n}\n");
}

}  // namespace graphgc::bench
