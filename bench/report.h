// Output of the default suite: aligned text tables, or one JSON document with the same figures.
//
// The text form prints each seed scenario row as soon as it is measured (the suite takes a while);
// the JSON form is written once everything is measured.
#ifndef GRAPHGC_BENCH_REPORT_H_
#define GRAPHGC_BENCH_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "collect_cost.h"
#include "comparisons.h"
#include "isolated_run.h"

namespace graphgc::bench {

struct SuiteReport {
  int64_t keep_all_cap_bytes = 0;
  std::vector<ScenarioRow> scenarios;
  ChainVsHandLoop chain_vs_hand;
  std::vector<CollectCostRow> collect_cost;
};

void PrintScenarioHeader();
void PrintScenarioRow(const ScenarioRow& row);
void PrintChainVsHandLoop(const ChainVsHandLoop& result);
void PrintCollectCost(const std::vector<CollectCostRow>& rows);

std::string ToJson(const SuiteReport& report);

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(absl::string_view text);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_REPORT_H_
