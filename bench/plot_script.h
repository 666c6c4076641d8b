// The gnuplot script for --plot: which charts, drawn from which data files (plot_data.h).
//
// For each scenario, memory_<name>.png puts peak value bytes (solid) and peak RSS (dashed) of every
// mode against n on log-log axes, so that the flat lines of the collecting modes sit beside the
// rising keep-all line, with the arena's bytes (dotted), which the RSS of every mode grows with.
// time_<name>.png has one panel per mode with build, propagation, collect and export ns per op
// against n. boundary.png puts to_onnx beside SerializeToString and inline_model beside
// InferShapes, ns per node against n. recompute.png has three panels, total seconds, peak RSS and
// values computed again against n, one line per budget. big_model.png has two panels against the
// model's data bytes: the fold's seconds beside cp's, and the fold's peak RSS. The script picks the
// pngcairo terminal when gnuplot has it, png otherwise, and can be rerun by hand in the directory
// it was written to.
#ifndef GRAPHGC_BENCH_PLOT_SCRIPT_H_
#define GRAPHGC_BENCH_PLOT_SCRIPT_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "plot_data.h"
#include "scenarios.h"

namespace graphgc::bench {

struct ScenarioChartInput {
  const Scenario* scenario = nullptr;
  std::string data_file;  // relative to the script's directory
  std::vector<ModeBlock> blocks;
};

inline constexpr absl::string_view kBoundaryChart = "boundary.png";
inline constexpr absl::string_view kRecomputeChart = "recompute.png";
inline constexpr absl::string_view kBigModelChart = "big_model.png";

struct RecomputeChartInput {
  std::string data_file;  // empty: no recompute chart
  // The blocks of the data file (gnuplot's index) that have points, with their budgets' names.
  std::vector<std::pair<int, std::string>> blocks;
};

std::string MemoryChartName(const Scenario& scenario);
std::string TimeChartName(const Scenario& scenario);

// `boundary_data_file`, `big_model_data_file` empty: no such chart.
std::string ChartScript(absl::Span<const ScenarioChartInput> scenarios,
                        const std::string& boundary_data_file, const RecomputeChartInput& recompute,
                        const std::string& big_model_data_file);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_PLOT_SCRIPT_H_
