// The text table of one scenario: a heading that says what a step builds and what the columns
// mean, then one line per (mode, n) row, printed as soon as the row is measured.
#ifndef GRAPHGC_BENCH_SCENARIO_TABLE_H_
#define GRAPHGC_BENCH_SCENARIO_TABLE_H_

#include "scenario_row.h"
#include "scenarios.h"

namespace graphgc::bench {

void PrintScenarioHeading(const Scenario& scenario);
void PrintScenarioRow(const ScenarioRow& row);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_SCENARIO_TABLE_H_
