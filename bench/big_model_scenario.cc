#include "big_model_scenario.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "graphgc/graphgc.h"
#include "isolated_run.h"
#include "json_text.h"
#include "llm_model.h"
#include "process_stats.h"
#include "program_run.h"

namespace graphgc::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kSmallestBytes = 256 * kMiB;
constexpr char kModelFile[] = "llm.onnx";
constexpr char kDataFile[] = "llm.onnx.data";

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The widest layers of which at least four make `bytes` (a model of a few wide layers, as large
// models are), and as many layers as come nearest to it.
fold_models::LlmShape ShapeFor(int64_t bytes) {
  fold_models::LlmShape shape;
  for (int64_t width : {4096, 2048, 1024, 512}) {
    shape.width = width;
    shape.layers = 0;
    const int64_t base = shape.weight_bytes();
    shape.layers = 1;
    const int64_t per_layer = shape.weight_bytes() - base;
    if (4 * per_layer > bytes && width > 512) continue;
    shape.layers = std::max<int64_t>(1, (bytes - base + per_layer / 2) / per_layer);
    return shape;
  }
  return shape;
}

// In the child: the fold's seconds, its peak RSS and nodes folded on one line, an error after.
std::string FoldInChild(const fs::path& model_dir, const fs::path& out_dir) {
  const Clock::time_point start = Clock::now();
  std::string error;
  int64_t nodes_folded = 0;
  absl::StatusOr<onnx::ModelProto> model =
      load_model((model_dir / kModelFile).string(), {.load_external_data = false});
  if (!model.ok()) {
    error = std::string(model.status().message());
  } else {
    FoldOptions options;
    options.model_dir = model_dir.string();
    options.output_dir = out_dir.string();
    options.external_data_file = kDataFile;
    absl::StatusOr<FoldResult> folded = fold(*std::move(model), options);
    if (!folded.ok()) {
      error = std::string(folded.status().message());
    } else {
      nodes_folded = folded->stats.nodes_folded;
      const absl::Status saved = save_model(folded->model, (out_dir / kModelFile).string());
      if (!saved.ok()) error = std::string(saved.message());
    }
  }
  const double seconds = SecondsSince(start);
  return absl::StrFormat("%.9f %d %d\n%s", seconds, ReadProcessMemory().peak_rss_kib, nodes_folded,
                         error);
}

bool ParseFoldReport(absl::string_view text, BigModelRow& row) {
  const std::vector<absl::string_view> lines = absl::StrSplit(text, absl::MaxSplits('\n', 1));
  if (lines.size() != 2) return false;
  const std::vector<absl::string_view> figures = absl::StrSplit(lines[0], ' ');
  if (figures.size() != 3 || !absl::SimpleAtod(figures[0], &row.fold_seconds) ||
      !absl::SimpleAtoi(figures[1], &row.peak_rss_kib) ||
      !absl::SimpleAtoi(figures[2], &row.nodes_folded)) {
    return false;
  }
  row.error = std::string(lines[1]);
  return true;
}

int64_t FileBytes(const fs::path& path) {
  std::error_code error;
  const uintmax_t bytes = fs::file_size(path, error);
  return error ? -1 : static_cast<int64_t>(bytes);
}

// Steps of one row in `folder` (model/, copy/, folded/); the caller deletes the folder.
void MeasureRow(const fs::path& folder, BigModelRow& row) {
  const fs::path model_dir = folder / "model", copy_dir = folder / "copy",
                 out_dir = folder / "folded";
  std::error_code error;
  for (const fs::path& dir : {model_dir, copy_dir, out_dir}) fs::create_directories(dir, error);
  if (error) {
    row.error = absl::StrCat("cannot create ", folder.string(), ": ", error.message());
    return;
  }
  fold_models::LlmShape shape = ShapeFor(row.data_bytes);
  row.layers = shape.layers;
  row.width = shape.width;
  const Clock::time_point write_start = Clock::now();
  if (!fold_models::WriteLlm(model_dir.string(), shape)) {
    row.error = "the model could not be written";
    return;
  }
  row.write_seconds = SecondsSince(write_start);
  row.data_bytes = FileBytes(model_dir / kDataFile);

  sync();
  const Clock::time_point cp_start = Clock::now();
  if (absl::Status copied =
          RunProgram({"cp", (model_dir / kDataFile).string(), (copy_dir / kDataFile).string()});
      !copied.ok()) {
    row.error = std::string(copied.message());
    return;
  }
  row.cp_seconds = SecondsSince(cp_start);
  fs::remove_all(copy_dir, error);

  sync();
  absl::StatusOr<std::string> report = RunInChild([&] { return FoldInChild(model_dir, out_dir); });
  if (!report.ok()) {
    row.error = std::string(report.status().message());
  } else if (!ParseFoldReport(*report, row)) {
    row.error = "the child's report does not parse";
  }
  row.output_bytes = FileBytes(out_dir / kDataFile);
  if (row.error.empty() && row.nodes_folded < 3 * row.layers) {
    row.error = absl::StrCat(row.nodes_folded, " nodes folded, fewer than the ", 3 * row.layers,
                             " weight Transposes");
  }
}

double GigabytesPerSecond(int64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds * 1e-9 : 0;
}

}  // namespace

double BigModelRow::fold_gb_per_second() const {
  return GigabytesPerSecond(data_bytes, fold_seconds);
}

double BigModelRow::cp_gb_per_second() const { return GigabytesPerSecond(data_bytes, cp_seconds); }

std::vector<int64_t> BigModelSizes(int64_t max_bytes) {
  std::vector<int64_t> sizes;
  for (int64_t bytes = kSmallestBytes; bytes < max_bytes; bytes *= 2) sizes.push_back(bytes);
  sizes.push_back(std::max(max_bytes, kSmallestBytes));
  return sizes;
}

std::vector<BigModelRow> RunBigModelScenario(const std::vector<int64_t>& sizes,
                                             const std::string& directory) {
  std::vector<BigModelRow> rows;
  for (int64_t bytes : sizes) {
    BigModelRow row;
    row.data_bytes = bytes;
    const fs::path folder =
        fs::path(directory) / absl::StrCat("graphgc-big-model-", getpid(), "-", rows.size());
    MeasureRow(folder, row);
    std::error_code error;
    fs::remove_all(folder, error);
    rows.push_back(std::move(row));
  }
  return rows;
}

void PrintBigModelRows(const std::vector<BigModelRow>& rows) {
  std::printf(
      "\nbig-model: graphgc::fold with external data on a generated language model (half its "
      "weight bytes behind a Transpose), in a child of its own, against cp of the same data on "
      "the same disk; both from a warm page cache, after a sync. x is the fold's time over cp's\n");
  std::printf("%7s %6s %10s %9s %9s %9s %7s %9s %9s %7s %11s\n", "layers", "width", "data",
              "write s", "cp s", "fold s", "x", "cp GB/s", "fold GB/s", "folded", "peak RSS");
  for (const BigModelRow& row : rows) {
    std::printf("%7lld %6lld %6.2f GiB %9.2f %9.2f %9.2f %6.2fx %9.2f %9.2f %7lld %7lld MiB\n",
                static_cast<long long>(row.layers), static_cast<long long>(row.width),
                static_cast<double>(row.data_bytes) / (1024.0 * kMiB), row.write_seconds,
                row.cp_seconds, row.fold_seconds,
                row.cp_seconds > 0 ? row.fold_seconds / row.cp_seconds : 0, row.cp_gb_per_second(),
                row.fold_gb_per_second(), static_cast<long long>(row.nodes_folded),
                static_cast<long long>(row.peak_rss_kib / 1024));
    if (!row.error.empty()) std::printf("        failed: %s\n", row.error.c_str());
  }
}

std::string BigModelRowsToJson(const std::vector<BigModelRow>& rows) {
  std::string json = "[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BigModelRow& row = rows[i];
    absl::StrAppend(
        &json, i == 0 ? "" : ",", "\n    {\"layers\": ", JsonNumber(row.layers),
        ", \"width\": ", JsonNumber(row.width), ", \"data_bytes\": ", JsonNumber(row.data_bytes),
        ", \"write_seconds\": ", absl::StrFormat("%.3f", row.write_seconds),
        ", \"cp_seconds\": ", absl::StrFormat("%.3f", row.cp_seconds),
        ", \"fold_seconds\": ", absl::StrFormat("%.3f", row.fold_seconds),
        ", \"cp_gb_per_second\": ", absl::StrFormat("%.3f", row.cp_gb_per_second()),
        ", \"fold_gb_per_second\": ", absl::StrFormat("%.3f", row.fold_gb_per_second()),
        ", \"peak_rss_bytes\": ", JsonNumber(row.peak_rss_kib * 1024),
        ", \"nodes_folded\": ", JsonNumber(row.nodes_folded),
        ", \"output_bytes\": ", JsonNumber(row.output_bytes),
        ", \"correct\": ", JsonBool(row.correct()),
        row.error.empty() ? "" : absl::StrCat(", \"error\": ", JsonQuote(row.error)), "}");
  }
  absl::StrAppend(&json, rows.empty() ? "]" : "\n  ]");
  return json;
}

std::string BigModelDataFile(const std::vector<BigModelRow>& rows) {
  std::string text = "# data bytes, fold seconds, cp seconds, fold peak RSS bytes\n";
  for (const BigModelRow& row : rows) {
    if (!row.correct()) continue;
    absl::StrAppend(&text, row.data_bytes, " ", absl::StrFormat("%.3f", row.fold_seconds), " ",
                    absl::StrFormat("%.3f", row.cp_seconds), " ", row.peak_rss_kib * 1024, "\n");
  }
  return text;
}

}  // namespace graphgc::bench
