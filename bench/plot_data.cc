#include "plot_data.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace graphgc::bench {
namespace {

// Each column's name (for the file's header) and figure, by column: one switch each, so that a
// column cannot be named one way and filled another.
absl::string_view ColumnName(ScenarioColumn column) {
  switch (column) {
    case kColumnPeakValueBytes:
      return "peak_value_bytes";
    case kColumnPeakRssBytes:
      return "peak_rss_bytes";
    case kColumnLiveBytesEnd:
      return "live_value_bytes_end";
    case kColumnArenaBytes:
      return "arena_bytes";
    case kColumnBuildNs:
      return "build_ns_per_op";
    case kColumnPropagationNs:
      return "propagation_ns_per_op";
    case kColumnCollectNs:
      return "collect_ns_per_op";
    case kColumnExportNs:
      return "export_ns_per_op";
    case kColumnEnd:
      break;
  }
  return "?";
}

double ColumnFigure(const RowMetrics& m, ScenarioColumn column) {
  switch (column) {
    case kColumnPeakValueBytes:
      return static_cast<double>(m.peak_value_bytes);
    case kColumnPeakRssBytes:
      return static_cast<double>(m.peak_rss_kib) * 1024;
    case kColumnLiveBytesEnd:
      return static_cast<double>(m.live_bytes_end);
    case kColumnArenaBytes:
      return m.arena_bytes_per_node * static_cast<double>(m.nodes);
    case kColumnBuildNs:
      return m.build_ns_per_op;
    case kColumnPropagationNs:
      return m.propagation_ns_per_op();
    case kColumnCollectNs:
      return m.collect_ns_per_op;
    case kColumnExportNs:
      return m.export_ns_per_op;
    case kColumnEnd:
      break;
  }
  return 0;
}

absl::string_view ColumnName(BoundaryColumn column) {
  switch (column) {
    case kBoundaryColumnBuildNs:
      return "build";
    case kBoundaryColumnToOnnxNs:
      return "to_onnx";
    case kBoundaryColumnSerializeNs:
      return "SerializeToString";
    case kBoundaryColumnToBytesNs:
      return "to_onnx_bytes";
    case kBoundaryColumnInlineNs:
      return "inline_model";
    case kBoundaryColumnInferShapesNs:
      return "InferShapes";
    case kBoundaryColumnEnd:
      break;
  }
  return "?";
}

double ColumnFigure(const BoundaryRow& row, BoundaryColumn column) {
  switch (column) {
    case kBoundaryColumnBuildNs:
      return row.build_ns;
    case kBoundaryColumnToOnnxNs:
      return row.to_onnx_ns;
    case kBoundaryColumnSerializeNs:
      return row.serialize_ns;
    case kBoundaryColumnToBytesNs:
      return row.to_bytes_ns;
    case kBoundaryColumnInlineNs:
      return row.inline_ns;
    case kBoundaryColumnInferShapesNs:
      return row.infer_shapes_ns;
    case kBoundaryColumnEnd:
      break;
  }
  return 0;
}

std::string FigureText(double value) {
  return value > 0 ? absl::StrFormat("%.6g", value) : std::string("NaN");
}

// "# n name name ...": the header line of a file with columns 2 .. End - 1.
template <class Column, Column kEnd>
std::string HeaderLine() {
  std::string line = "# n";
  for (int c = 2; c < kEnd; ++c) absl::StrAppend(&line, " ", ColumnName(static_cast<Column>(c)));
  line.push_back('\n');
  return line;
}

// One data line: n, then every column of `source`; notes in `drawn` the columns that have a point.
template <class Column, Column kEnd, class Source>
std::string DataLine(int64_t n, const Source& source, absl::flat_hash_set<int>* drawn = nullptr) {
  std::string line = absl::StrCat(n);
  for (int c = 2; c < kEnd; ++c) {
    const double figure = ColumnFigure(source, static_cast<Column>(c));
    absl::StrAppend(&line, " ", FigureText(figure));
    if (drawn != nullptr && figure > 0) drawn->insert(c);
  }
  line.push_back('\n');
  return line;
}

// The rows of `block.mode` that ran, as lines; "" if none did.
std::string BlockLines(const ScenarioResult& result, ModeBlock& block) {
  std::string lines;
  for (const ScenarioRow& row : result.rows) {
    if (row.mode != block.mode || row.outcome != RowOutcome::kRan) continue;
    absl::StrAppend(&lines, DataLine<ScenarioColumn, kColumnEnd>(row.n, row.metrics,
                                                                 &block.columns_with_points));
  }
  return lines;
}

}  // namespace

ScenarioData ScenarioDataFile(const ScenarioResult& result) {
  ScenarioData data;
  data.text = absl::StrCat("# ", result.scenario->name, ": ", result.scenario->summary, "\n",
                           HeaderLine<ScenarioColumn, kColumnEnd>());
  std::vector<std::string> blocks;
  for (SeedMode mode : kAllSeedModes) {
    ModeBlock block;
    block.mode = mode;
    const std::string lines = BlockLines(result, block);
    if (lines.empty()) continue;
    data.blocks.push_back(std::move(block));
    blocks.push_back(absl::StrCat("# mode ", SeedModeName(mode), "\n", lines));
  }
  absl::StrAppend(&data.text, absl::StrJoin(blocks, "\n\n"));
  return data;
}

std::string BoundaryDataFile(const std::vector<BoundaryRow>& rows) {
  std::string text =
      absl::StrCat("# boundary: ns per node\n", HeaderLine<BoundaryColumn, kBoundaryColumnEnd>());
  for (const BoundaryRow& row : rows) {
    if (!row.error.empty()) continue;
    absl::StrAppend(&text, DataLine<BoundaryColumn, kBoundaryColumnEnd>(row.n, row));
  }
  return text;
}

}  // namespace graphgc::bench
