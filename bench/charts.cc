#include "charts.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gnuplot_run.h"
#include "plot_data.h"
#include "plot_script.h"

namespace graphgc::bench {
namespace {

constexpr absl::string_view kScriptName = "charts.gp";
constexpr absl::string_view kBoundaryData = "boundary.dat";
constexpr absl::string_view kRecomputeData = "recompute.dat";
constexpr absl::string_view kBigModelData = "big_model.dat";

absl::Status WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", path.string()));
  return absl::OkStatus();
}

bool HasBoundaryFigures(const std::vector<BoundaryRow>& rows) {
  for (const BoundaryRow& row : rows) {
    if (row.error.empty()) return true;
  }
  return false;
}

// The recompute data file's blocks that have a correct row: block 0 is the unbudgeted one.
std::vector<std::pair<int, std::string>> RecomputeBlocks(const std::vector<RecomputeRow>& rows) {
  std::vector<int64_t> budgets = {0};
  for (int64_t budget : RecomputeBudgets()) budgets.push_back(budget);
  std::vector<std::pair<int, std::string>> blocks;
  for (size_t i = 0; i < budgets.size(); ++i) {
    for (const RecomputeRow& row : rows) {
      if (row.budget_bytes == budgets[i] && row.correct()) {
        blocks.emplace_back(static_cast<int>(i), BudgetName(budgets[i]));
        break;
      }
    }
  }
  return blocks;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> WriteCharts(const SuiteReport& report,
                                                     const std::string& directory) {
  const std::filesystem::path dir(directory);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::UnavailableError(absl::StrCat("cannot create ", directory, ": ", error.message()));
  }
  std::vector<ScenarioChartInput> inputs;
  std::vector<std::string> charts;
  for (const ScenarioResult& result : report.scenarios) {
    ScenarioData data = ScenarioDataFile(result);
    ScenarioChartInput input{.scenario = result.scenario,
                             .data_file = absl::StrCat(result.scenario->name, ".dat"),
                             .blocks = std::move(data.blocks)};
    if (absl::Status written = WriteFile(dir / input.data_file, data.text); !written.ok()) {
      return written;
    }
    if (!input.blocks.empty()) {
      charts.push_back((dir / MemoryChartName(*result.scenario)).string());
      charts.push_back((dir / TimeChartName(*result.scenario)).string());
    }
    inputs.push_back(std::move(input));
  }
  std::string boundary_data;
  if (report.boundary.has_value() && HasBoundaryFigures(*report.boundary)) {
    boundary_data = std::string(kBoundaryData);
    if (absl::Status written = WriteFile(dir / boundary_data, BoundaryDataFile(*report.boundary));
        !written.ok()) {
      return written;
    }
    charts.push_back((dir / std::string(kBoundaryChart)).string());
  }
  RecomputeChartInput recompute;
  if (report.recompute.has_value()) recompute.blocks = RecomputeBlocks(*report.recompute);
  if (!recompute.blocks.empty()) {
    recompute.data_file = std::string(kRecomputeData);
    if (absl::Status written =
            WriteFile(dir / recompute.data_file, RecomputeDataFile(*report.recompute));
        !written.ok()) {
      return written;
    }
    charts.push_back((dir / std::string(kRecomputeChart)).string());
  }
  std::string big_model_data;
  if (report.big_model.has_value() &&
      absl::c_any_of(*report.big_model, [](const BigModelRow& row) { return row.correct(); })) {
    big_model_data = std::string(kBigModelData);
    if (absl::Status written = WriteFile(dir / big_model_data, BigModelDataFile(*report.big_model));
        !written.ok()) {
      return written;
    }
    charts.push_back((dir / std::string(kBigModelChart)).string());
  }
  const std::string script_name(kScriptName);
  if (absl::Status written = WriteFile(
          dir / script_name, ChartScript(inputs, boundary_data, recompute, big_model_data));
      !written.ok()) {
    return written;
  }
  if (absl::Status drawn = RunGnuplot(directory, script_name); !drawn.ok()) return drawn;
  return charts;
}

}  // namespace graphgc::bench
