#include "report.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "graphgc/ir/graph_options.h"

namespace graphgc::bench {
namespace {

// Column layout shared by the header and the rows.
constexpr absl::string_view kRowFormat = "%-17s %7s %7s %6s %11s %11s %11s %9s %9s %9s %10s %7s\n";

absl::string_view YesNo(bool value) { return value ? "yes" : "NO"; }

absl::string_view OutcomeName(RowOutcome outcome) {
  switch (outcome) {
    case RowOutcome::kRan:
      return "ran";
    case RowOutcome::kSkipped:
      return "skipped";
    case RowOutcome::kFailed:
      return "failed";
  }
  return "unknown";
}

// The largest graph's median over the smallest's: ~1 when collect() ignores graph size.
double CollectCostRatio(const std::vector<CollectCostRow>& rows) {
  if (rows.size() < 2) return 0;
  return Ratio(rows.back().median_ns, rows.front().median_ns);
}

std::string JsonBool(bool value) { return value ? "true" : "false"; }

std::string ScenarioMeasurementsJson(const ScenarioRow& row) {
  return absl::StrFormat(
      ", \"nodes\": %d, \"collections\": %d, \"live_value_bytes_end\": %d, "
      "\"live_value_bytes_after_collect\": %d, \"peak_value_bytes\": %d, "
      "\"arena_bytes_per_node\": %.1f, \"rss_start_kib\": %d, \"peak_rss_kib\": %d, "
      "\"ns_per_op\": %.1f, \"correct\": %s",
      row.nodes, row.collections, row.live_bytes_end, row.live_bytes_collected,
      row.peak_value_bytes, row.arena_bytes_per_node, row.rss_start_kib, row.peak_rss_kib,
      row.ns_per_op, JsonBool(row.correct));
}

std::string ScenarioJson(const ScenarioRow& row) {
  std::string out =
      absl::StrFormat("{\"mode\": %s, \"n\": %d, \"status\": %s", JsonQuote(SeedModeName(row.mode)),
                      row.n, JsonQuote(OutcomeName(row.outcome)));
  if (row.outcome == RowOutcome::kRan) {
    absl::StrAppend(&out, ScenarioMeasurementsJson(row));
  } else {
    absl::StrAppend(&out, ", \"note\": ", JsonQuote(row.note));
  }
  out.push_back('}');
  return out;
}

std::string SeedScenarioJson(const SuiteReport& report) {
  std::vector<std::string> rows;
  for (const ScenarioRow& row : report.scenarios) rows.push_back(ScenarioJson(row));
  return absl::StrFormat(
      "{\n    \"elements\": %d,\n    \"value_bytes\": %d,\n    \"keep_all_cap_bytes\": %d,\n"
      "    \"rows\": [\n      %s\n    ]\n  }",
      kSeedElements, kSeedValueBytes, report.keep_all_cap_bytes, absl::StrJoin(rows, ",\n      "));
}

std::string ChainVsHandJson(const ChainVsHandLoop& result) {
  return absl::StrFormat(
      "{\"n\": %d, \"repetitions\": %d, \"collect_each_step_ns_per_op\": %.1f, "
      "\"automatic_ns_per_op\": %.1f, \"hand_loop_ns_per_op\": %.1f, "
      "\"collect_each_step_over_hand\": %.3f, \"automatic_over_hand\": %.3f, "
      "\"automatic_over_collect_each_step\": %.3f, \"correct\": %s}",
      result.n, result.repetitions, result.collect_each_step_ns, result.automatic_ns,
      result.hand_loop_ns, Ratio(result.collect_each_step_ns, result.hand_loop_ns),
      Ratio(result.automatic_ns, result.hand_loop_ns),
      Ratio(result.automatic_ns, result.collect_each_step_ns), JsonBool(result.correct));
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

std::string JsonQuote(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      absl::StrAppend(&out, "\\", std::string(1, c));
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppend(&out, absl::StrFormat("\\u%04x", static_cast<int>(c)));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

void PrintScenarioHeader() {
  absl::PrintF(
      "Seed scenario: a = Mul(a, a) on %d doubles (%d B per value), n times; "
      "one child process per row\n"
      "automatic: the default trigger floor is %d B (L2 / 4); correct means the final value is\n"
      "right and, for automatic, peak val B <= floor + one value\n",
      kSeedElements, kSeedValueBytes, DefaultMinTriggerBytes());
  absl::PrintF(kRowFormat, "mode", "n", "nodes", "colls", "live B end", "live B coll", "peak val B",
               "arena B/n", "RSS0 KiB", "peak KiB", "ns/op", "correct");
}

void PrintScenarioRow(const ScenarioRow& row) {
  if (row.outcome != RowOutcome::kRan) {
    absl::PrintF("%-17s %7d %s: %s\n", SeedModeName(row.mode), row.n, OutcomeName(row.outcome),
                 row.note);
  } else {
    absl::PrintF(kRowFormat, SeedModeName(row.mode), absl::StrCat(row.n), absl::StrCat(row.nodes),
                 absl::StrCat(row.collections), absl::StrCat(row.live_bytes_end),
                 absl::StrCat(row.live_bytes_collected), absl::StrCat(row.peak_value_bytes),
                 absl::StrFormat("%.1f", row.arena_bytes_per_node), absl::StrCat(row.rss_start_kib),
                 absl::StrCat(row.peak_rss_kib), absl::StrFormat("%.1f", row.ns_per_op),
                 YesNo(row.correct));
  }
  std::fflush(stdout);
}

void PrintChainVsHandLoop(const ChainVsHandLoop& result) {
  absl::PrintF("\nSeed chain vs hand loop (n=%d in this process, best of %d)\n", result.n,
               result.repetitions);
  absl::PrintF("  %-34s %10.1f ns/op  graphgc/hand %6.2fx\n", "graphgc, collect-each-step",
               result.collect_each_step_ns,
               Ratio(result.collect_each_step_ns, result.hand_loop_ns));
  absl::PrintF("  %-34s %10.1f ns/op  graphgc/hand %6.2fx\n", "graphgc, automatic",
               result.automatic_ns, Ratio(result.automatic_ns, result.hand_loop_ns));
  absl::PrintF("  %-34s %10.1f ns/op\n", "hand loop (new[], square, delete[])",
               result.hand_loop_ns);
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
  return absl::StrCat("{\n  \"seed_scenario\": ", SeedScenarioJson(report),
                      ",\n  \"seed_chain_vs_hand_loop\": ", ChainVsHandJson(report.chain_vs_hand),
                      ",\n  \"collect_cost_vs_graph_size\": ", CollectCostJson(report.collect_cost),
                      "\n}\n");
}

}  // namespace graphgc::bench
