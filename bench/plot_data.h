// The data files gnuplot reads for --plot: whitespace-separated columns, one file per scenario.
//
// A scenario's file holds one block per mode that has measured rows, blocks separated by two blank
// lines so that gnuplot's `index` picks a mode; rows that were skipped or failed are left out.
// A figure that a log scale cannot show (zero or negative: no collect() in keep-all, a propagation
// cost lost in noise) is written as NaN, which gnuplot leaves out of the chart.
#ifndef GRAPHGC_BENCH_PLOT_DATA_H_
#define GRAPHGC_BENCH_PLOT_DATA_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "boundary_scenario.h"
#include "report.h"
#include "seed_scenario.h"

namespace graphgc::bench {

// Columns of a scenario file, numbered as gnuplot's `using` counts them: n is column 1.
enum ScenarioColumn {
  kColumnPeakValueBytes = 2,
  kColumnPeakRssBytes,
  kColumnLiveBytesEnd,
  kColumnArenaBytes,
  kColumnBuildNs,
  kColumnPropagationNs,
  kColumnCollectNs,
  kColumnExportNs,
  kColumnEnd,  // one past the last
};

// Columns of the boundary file, likewise.
enum BoundaryColumn {
  kBoundaryColumnBuildNs = 2,
  kBoundaryColumnToOnnxNs,
  kBoundaryColumnSerializeNs,
  kBoundaryColumnToBytesNs,
  kBoundaryColumnInlineNs,
  kBoundaryColumnInferShapesNs,
  kBoundaryColumnEnd,
};

// One block of a scenario file: its mode, and which columns have at least one point to draw.
struct ModeBlock {
  SeedMode mode = SeedMode::kAutomatic;
  absl::flat_hash_set<int> columns_with_points;
};

struct ScenarioData {
  std::string text;               // the file's contents
  std::vector<ModeBlock> blocks;  // in the file's order: gnuplot's index i is blocks[i]
};

ScenarioData ScenarioDataFile(const ScenarioResult& result);
std::string BoundaryDataFile(const std::vector<BoundaryRow>& rows);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_PLOT_DATA_H_
