// What a run of the suite measured, and its output: the comparisons' text, and the whole run as one
// JSON document with the same figures as the tables.
//
// The text form prints each table row as soon as it is measured (scenario_table.h; the suite takes
// a while); the JSON form is written once everything is measured. Sections that did not run
// (another --scenario was chosen) are left out of the document.
#ifndef GRAPHGC_BENCH_REPORT_H_
#define GRAPHGC_BENCH_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "big_model_scenario.h"
#include "boundary_scenario.h"
#include "collect_cost.h"
#include "comparisons.h"
#include "recompute_scenario.h"
#include "scenario_row.h"
#include "scenarios.h"

namespace graphgc::bench {

struct ScenarioResult {
  const Scenario* scenario = nullptr;
  std::vector<ScenarioRow> rows;
};

struct SuiteReport {
  int64_t keep_all_cap_bytes = 0;
  std::vector<ScenarioResult> scenarios;
  std::optional<std::vector<BoundaryRow>> boundary;
  std::optional<ChainVsHandLoop> chain_vs_hand;
  std::optional<std::vector<CollectCostRow>> collect_cost;
  std::optional<std::vector<RecomputeRow>> recompute;
  std::optional<std::vector<BigModelRow>> big_model;
};

void PrintChainVsHandLoop(const ChainVsHandLoop& result);
void PrintCollectCost(const std::vector<CollectCostRow>& rows);

std::string ToJson(const SuiteReport& report);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_REPORT_H_
