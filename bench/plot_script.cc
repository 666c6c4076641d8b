#include "plot_script.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"

namespace graphgc::bench {
namespace {

constexpr absl::string_view kPreamble =
    "# Drawn by graphgc-bench --plot; rerun with `gnuplot charts.gp` in this directory.\n"
    "term = strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0 ? \"pngcairo enhanced font 'sans,10'\" "
    ": \"png enhanced\"\n"
    "set logscale xy\n"
    "set grid xtics ytics mxtics mytics lc rgb '#e0e0e0'\n"
    "set autoscale xfix\n"
    "set format x '10^{%L}'\n"
    "set xlabel 'n (steps)'\n";

// A gnuplot double-quoted string literal of `text` (newlines included).
std::string Quoted(absl::string_view text) {
  return absl::StrCat(
      "\"", absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}, {"\n", "\\n"}}), "\"");
}

absl::string_view ModeColor(SeedMode mode) {
  switch (mode) {
    case SeedMode::kKeepAll:
      return "#d62728";
    case SeedMode::kCollectEachStep:
      return "#1f77b4";
    case SeedMode::kAutomatic:
      return "#2ca02c";
  }
  return "#000000";
}

// How one line looks: which column, drawn how, in which colour, under what name.
struct LineStyle {
  int column;
  absl::string_view label;
  absl::string_view dashes_and_points;  // gnuplot's "dt N pt N"
  absl::string_view color;              // empty: the caller's (the mode's)
};

// One plotted line of `data_file` (of its block `index`, when there are blocks).
std::string Curve(const std::string& data_file, std::optional<int> index, const LineStyle& style,
                  absl::string_view color, absl::string_view title) {
  return absl::StrCat(Quoted(data_file), index.has_value() ? absl::StrCat(" index ", *index) : "",
                      " using 1:", style.column, " with linespoints lw 2 ", style.dashes_and_points,
                      " lc rgb '", color, "' title ", Quoted(title), " noenhanced");
}

// The block's line in `style`, or nothing when the column has no point to draw in this block
// (gnuplot would draw an empty key entry, or fail on a log scale).
void AddBlockCurve(const ScenarioChartInput& input, int index, const LineStyle& style,
                   absl::string_view color, absl::string_view title,
                   std::vector<std::string>& curves) {
  if (!input.blocks[index].columns_with_points.contains(style.column)) return;
  curves.push_back(Curve(input.data_file, index, style, color, title));
}

std::string PlotCommand(const std::vector<std::string>& curves) {
  if (curves.empty()) return "";
  return absl::StrCat("plot ", absl::StrJoin(curves, ", \\\n     "), "\n");
}

std::string MemoryChart(const ScenarioChartInput& input) {
  const LineStyle kPerMode[] = {{kColumnPeakValueBytes, "peak value bytes", "dt 1 pt 7", ""},
                                {kColumnPeakRssBytes, "peak RSS", "dt 2 pt 6", ""}};
  // The arena is the same graph in every mode: drawn once, from the last mode, to show what the
  // collecting modes' RSS grows with.
  const LineStyle kArena = {kColumnArenaBytes, "arena bytes (nodes and vars, any mode)",
                            "dt 3 pt 0", "#7f7f7f"};
  std::vector<std::string> curves;
  const int blocks = static_cast<int>(input.blocks.size());
  for (int i = 0; i < blocks; ++i) {
    const SeedMode mode = input.blocks[i].mode;
    for (const LineStyle& style : kPerMode) {
      AddBlockCurve(input, i, style, ModeColor(mode),
                    absl::StrCat(SeedModeName(mode), ": ", style.label), curves);
    }
  }
  AddBlockCurve(input, blocks - 1, kArena, kArena.color, kArena.label, curves);
  const Scenario& scenario = *input.scenario;
  return absl::StrCat(
      "\nset terminal @term size 1000,720\n", "set output ", Quoted(MemoryChartName(scenario)),
      "\n", "set title ",
      Quoted(absl::StrCat(scenario.name, ": peak memory against n\n", scenario.summary)),
      " noenhanced\n", "set ylabel 'bytes'\n", "set format y '%.0s %cB'\n",
      "set key below horizontal maxcols 3\n", PlotCommand(curves));
}

std::string TimeChart(const ScenarioChartInput& input) {
  const LineStyle kSeries[] = {{kColumnBuildNs, "build", "dt 1 pt 7", "#444444"},
                               {kColumnPropagationNs, "propagation", "dt 3 pt 5", "#9467bd"},
                               {kColumnCollectNs, "collect", "dt 2 pt 9", "#1f77b4"},
                               {kColumnExportNs, "export", "dt 4 pt 13", "#ff7f0e"}};
  const Scenario& scenario = *input.scenario;
  const size_t panels = input.blocks.size();
  std::string script = absl::StrCat(
      "\nset terminal @term size ", 480 * panels + 100, ",520\n", "set output ",
      Quoted(TimeChartName(scenario)), "\n", "set ylabel 'ns per op'\n", "set format y '10^{%L}'\n",
      "set key inside left top vertical\n", "set multiplot layout 1,", panels, " title ",
      Quoted(absl::StrCat(scenario.name, ": ns per op against n (", scenario.summary, ")")),
      " noenhanced\n");
  for (size_t i = 0; i < panels; ++i) {
    std::vector<std::string> curves;
    for (const LineStyle& style : kSeries) {
      AddBlockCurve(input, static_cast<int>(i), style, style.color, style.label, curves);
    }
    absl::StrAppend(&script, "set title ", Quoted(SeedModeName(input.blocks[i].mode)),
                    " noenhanced\n", PlotCommand(curves));
  }
  absl::StrAppend(&script, "unset multiplot\n");
  return script;
}

std::string BoundaryChart(const std::string& data_file) {
  const LineStyle kLines[] = {
      {kBoundaryColumnToOnnxNs, "to_onnx", "dt 1 pt 7", "#1f77b4"},
      {kBoundaryColumnSerializeNs, "SerializeToString (protobuf)", "dt 2 pt 6", "#1f77b4"},
      {kBoundaryColumnToBytesNs, "to_onnx_bytes", "dt 4 pt 9", "#2ca02c"},
      {kBoundaryColumnInlineNs, "inline_model", "dt 1 pt 5", "#ff7f0e"},
      {kBoundaryColumnInferShapesNs, "InferShapes (ONNX)", "dt 2 pt 4", "#ff7f0e"},
      {kBoundaryColumnBuildNs, "build (op::Add)", "dt 3 pt 1", "#444444"},
  };
  std::vector<std::string> curves;
  for (const LineStyle& line : kLines) {
    curves.push_back(Curve(data_file, std::nullopt, line, line.color, line.label));
  }
  return absl::StrCat(
      "\nset terminal @term size 1000,720\n", "set output ", Quoted(kBoundaryChart), "\n",
      "set title 'boundary: ns per node against n (a chain of n Adds over float[64] "
      "arguments)' noenhanced\n",
      "set xlabel 'n (nodes)'\n", "set ylabel 'ns per node'\n", "set format y '%g'\n",
      "set key below horizontal maxcols 3\n", PlotCommand(curves));
}

std::string RecomputeChart(const RecomputeChartInput& input) {
  static constexpr absl::string_view kColors[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"};
  struct Panel {
    int column;
    absl::string_view title;
    absl::string_view ylabel;
    absl::string_view format;
  };
  static constexpr Panel kPanels[] = {
      {2, "total time (build and read every value)", "seconds", "%g"},
      {3, "peak RSS", "bytes", "%.0s %cB"},
      {4, "values computed again", "values", "%g"}};
  std::string script = absl::StrCat(
      "\nset terminal @term size 1500,520\n", "set output ", Quoted(kRecomputeChart), "\n",
      "set xlabel 'n (layers)'\n", "unset logscale x\n", "set format x '%g'\n",
      "set key inside left top vertical\n",
      "set multiplot layout 1,3 title 'recompute: an MLP keeping all 3n values of 3.5 MiB, read "
      "back in order, without a budget and under budgets (OnBudget::kEvictAndRecompute)' "
      "noenhanced\n");
  for (const Panel& panel : kPanels) {
    std::vector<std::string> curves;
    for (const auto& [index, name] : input.blocks) {
      const LineStyle style{panel.column, "", "dt 1 pt 7", ""};
      curves.push_back(
          Curve(input.data_file, index, style, kColors[index % 4], absl::StrCat("budget ", name)));
    }
    absl::StrAppend(&script, "set title ", Quoted(panel.title), " noenhanced\n", "set ylabel ",
                    Quoted(panel.ylabel), "\n", "set format y ", Quoted(panel.format), "\n",
                    PlotCommand(curves));
  }
  absl::StrAppend(&script, "unset multiplot\nset logscale x\n");
  return script;
}

std::string BigModelChart(const std::string& data_file) {
  const LineStyle kFold = {2, "graphgc::fold (load, fold, save)", "dt 1 pt 7", "#d62728"};
  const LineStyle kCopy = {3, "cp of the same data", "dt 2 pt 6", "#444444"};
  const LineStyle kRss = {4, "graphgc::fold's peak RSS", "dt 1 pt 7", "#1f77b4"};
  return absl::StrCat(
      "\nset terminal @term size 1200,520\n", "set output ", Quoted(kBigModelChart), "\n",
      "set xlabel 'external data (bytes)'\n", "set logscale x 2\n", "set format x '%.0b %BB'\n",
      "set key inside left top vertical\n",
      "set multiplot layout 1,2 title 'big-model: folding a generated language model with "
      "external data (half its weights behind a Transpose)' noenhanced\n",
      "set title 'time' noenhanced\n", "set ylabel 'seconds'\n", "set format y '%g'\n",
      PlotCommand({Curve(data_file, std::nullopt, kFold, kFold.color, kFold.label),
                   Curve(data_file, std::nullopt, kCopy, kCopy.color, kCopy.label)}),
      "set title 'peak RSS' noenhanced\n", "set ylabel 'bytes'\n", "set format y '%.0s %cB'\n",
      PlotCommand({Curve(data_file, std::nullopt, kRss, kRss.color, kRss.label)}),
      "unset multiplot\nset logscale x 10\nset format x '10^{%L}'\n");
}

}  // namespace

std::string MemoryChartName(const Scenario& scenario) {
  return absl::StrCat("memory_", scenario.name, ".png");
}

std::string TimeChartName(const Scenario& scenario) {
  return absl::StrCat("time_", scenario.name, ".png");
}

std::string ChartScript(absl::Span<const ScenarioChartInput> scenarios,
                        const std::string& boundary_data_file, const RecomputeChartInput& recompute,
                        const std::string& big_model_data_file) {
  std::string script(kPreamble);
  for (const ScenarioChartInput& input : scenarios) {
    if (input.blocks.empty()) continue;  // no row ran: nothing to draw
    absl::StrAppend(&script, MemoryChart(input), TimeChart(input));
  }
  if (!boundary_data_file.empty()) absl::StrAppend(&script, BoundaryChart(boundary_data_file));
  if (!recompute.data_file.empty() && !recompute.blocks.empty()) {
    absl::StrAppend(&script, RecomputeChart(recompute));
  }
  if (!big_model_data_file.empty()) absl::StrAppend(&script, BigModelChart(big_model_data_file));
  return script;
}

}  // namespace graphgc::bench
