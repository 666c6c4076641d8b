// --plot DIR: the suite's figures as PNG charts drawn by gnuplot.
//
// Writes one data file per scenario that ran (<name>.dat) and boundary.dat (plot_data.h), the
// script charts.gp (plot_script.h) into DIR, creating it if needed, then runs gnuplot there
// (gnuplot_run.h). The data and the script stay, so a chart can be redrawn or restyled by hand.
#ifndef GRAPHGC_BENCH_CHARTS_H_
#define GRAPHGC_BENCH_CHARTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "report.h"

namespace graphgc::bench {

// The PNG files written, or why not.
absl::StatusOr<std::vector<std::string>> WriteCharts(const SuiteReport& report,
                                                     const std::string& directory);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_CHARTS_H_
