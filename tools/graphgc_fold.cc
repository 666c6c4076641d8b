// graphgc-fold IN.onnx OUT.onnx [options]: a thin command line over graphgc::fold (fold.h).
// Exit status 0 on success, 1 on a bad model or a failed write (the message names the file),
// 2 on bad arguments. OUT is written to a temporary file and renamed at the end, so a failed run
// leaves no partial output behind.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fold_cli.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "graphgc/export/fold.h"
#include "graphgc/export/to_onnx.h"

namespace graphgc::tools {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<onnx::ModelProto> LoadModel(const std::string& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    return absl::NotFoundError(absl::StrCat(path, ": no such file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::UnavailableError(absl::StrCat(path, ": cannot open"));
  google::protobuf::io::IstreamInputStream stream(&in);
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(std::numeric_limits<int>::max());
  onnx::ModelProto model;
  if (!model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": not an ONNX model (it does not parse as a ModelProto; truncated?)"));
  }
  if (!model.has_graph()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not an ONNX model (no graph)"));
  }
  return model;
}

// The folder a path's file is in ("." for a bare name).
std::string FolderOf(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

int Fail(absl::string_view message) {
  absl::FPrintF(stderr, "graphgc-fold: %s\n", message);
  return 1;
}

int Run(const FoldCommand& command) {
  absl::StatusOr<onnx::ModelProto> model = LoadModel(command.input_path);
  if (!model.ok()) return Fail(model.status().message());

  FoldOptions options = command.options;
  options.model_dir = FolderOf(command.input_path);
  const bool show_progress =
      !command.quiet && isatty(STDERR_FILENO) && model->graph().node_size() > 10'000;
  if (show_progress) options.progress = DrawProgress;

  absl::StatusOr<FoldResult> folded = fold(*model, options);
  if (!folded.ok()) return Fail(absl::StrCat(command.input_path, ": ", folded.status().message()));
  model->Clear();  // the input's initializers are not needed any more

  const auto write_start = std::chrono::steady_clock::now();
  const std::string temporary = absl::StrCat(command.output_path, ".tmp-", getpid());
  if (absl::Status saved = save_model(folded->model, temporary); !saved.ok()) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return Fail(absl::StrCat(command.output_path, ": cannot write (", saved.message(), ")"));
  }
  std::error_code renamed;
  fs::rename(temporary, command.output_path, renamed);
  if (renamed) {
    fs::remove(temporary, renamed);
    return Fail(absl::StrCat(command.output_path, ": cannot write: ", renamed.message()));
  }
  const double write_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();

  if (!command.stats_path.empty()) {
    std::ofstream stats(command.stats_path, std::ios::trunc);
    stats << FoldStatsJson(folded->stats, PeakRssBytes(), write_seconds);
    if (!stats) return Fail(absl::StrCat(command.stats_path, ": cannot write the stats"));
  }
  if (!command.quiet) {
    const FoldStats& s = folded->stats;
    absl::FPrintF(stderr, "graphgc-fold: %d -> %d nodes, initializers %d -> %d bytes\n",
                  s.nodes_before, s.nodes_after, s.initializer_bytes_before,
                  s.initializer_bytes_after);
  }
  return 0;
}

}  // namespace
}  // namespace graphgc::tools

int main(int argc, char** argv) {
  absl::StatusOr<graphgc::tools::FoldCommand> command = graphgc::tools::ParseFoldCommand(
      absl::Span<const char* const>(argv + 1, static_cast<size_t>(argc > 0 ? argc - 1 : 0)));
  if (!command.ok()) {
    absl::FPrintF(stderr, "graphgc-fold: %s\n", command.status().message());
    return 2;
  }
  return graphgc::tools::Run(*command);
}
