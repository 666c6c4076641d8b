#include "charts.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gnuplot_run.h"
#include "plot_data.h"
#include "plot_script.h"

namespace graphgc::bench {
namespace {

constexpr absl::string_view kScriptName = "charts.gp";
constexpr absl::string_view kBoundaryData = "boundary.dat";

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
  const std::string script_name(kScriptName);
  if (absl::Status written = WriteFile(dir / script_name, ChartScript(inputs, boundary_data));
      !written.ok()) {
    return written;
  }
  if (absl::Status drawn = RunGnuplot(directory, script_name); !drawn.ok()) return drawn;
  return charts;
}

}  // namespace graphgc::bench
