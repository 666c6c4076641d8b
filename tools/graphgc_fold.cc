// graphgc-fold IN.onnx OUT.onnx [options]: a thin command line over graphgc::fold (fold.h).
// Exit status 0 on success (and for --help, which prints the usage to stdout), 1 on a bad model or
// a failed write (the message names the file), 2 on bad arguments. OUT is written to a temporary
// file and renamed at the end, so a failed run leaves no partial output behind.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fold_cli.h"
#include "graphgc/export/fold/fold.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/model_files.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "onnx/checker.h"

namespace graphgc::tools {
namespace {

namespace fs = std::filesystem;

int Fail(absl::string_view message) {
  absl::FPrintF(stderr, "graphgc-fold: %s\n", message);
  return 1;
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int Run(const FoldCommand& command) {
  const auto start = std::chrono::steady_clock::now();
  CommandSeconds seconds;
  absl::StatusOr<onnx::ModelProto> model = internal::LoadModelFile(command.input_path);
  if (!model.ok()) return Fail(model.status().message());
  seconds.read = SecondsSince(start);

  FoldOptions options = command.options;
  options.model_dir = model_folder(command.input_path);
  // A model that keeps its tensors outside stays that way (it may be past protobuf's 2 GB).
  std::optional<int64_t> threshold = command.external_data_threshold;
  if (!threshold.has_value() && internal::UsesExternalData(*model)) threshold = 1024;
  if (threshold.has_value()) {
    options.external_data_file =
        absl::StrCat(fs::path(command.output_path).filename().string(), ".data");
    options.output_dir = model_folder(command.output_path);
    options.external_data_threshold = *threshold;
  }
  const bool show_progress =
      !command.quiet && isatty(STDERR_FILENO) && model->graph().node_size() > 10'000;
  if (show_progress) options.progress = DrawProgress;

  absl::StatusOr<FoldResult> folded = fold(std::move(*model), options);
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
  if (!options.external_data_file.empty()) {
    try {
      onnx::checker::check_model(command.output_path);
    } catch (const std::exception& e) {
      return Fail(absl::StrCat(command.output_path, ": the ONNX checker rejected it: ", e.what()));
    }
  }
  seconds.write = SecondsSince(write_start);
  seconds.total = SecondsSince(start);

  if (!command.stats_path.empty()) {
    std::ofstream stats(command.stats_path, std::ios::trunc);
    stats << FoldStatsJson(folded->stats, PeakRssBytes(), seconds);
    if (!stats) return Fail(absl::StrCat(command.stats_path, ": cannot write the stats"));
  }
  const FoldStats& s = folded->stats;
  for (const std::string& warning : folded->warnings) {
    absl::FPrintF(stderr, "graphgc-fold: warning: %s\n", warning);
  }
  if (!command.quiet) {
    absl::FPrintF(stderr,
                  "graphgc-fold: %d -> %d nodes, model %d -> %d bytes (initializers %d -> %d)\n",
                  s.nodes_before, s.nodes_after, s.model_bytes_before, s.model_bytes_after,
                  s.initializer_bytes_before, s.initializer_bytes_after);
  }
  if (s.kept_unchanged && !command.quiet) {
    absl::FPrintF(stderr,
                  "graphgc-fold: folding would have made the model larger, so it is written "
                  "unchanged\n");
  }
  // Only --fold-anyway can grow a model; say so even under --quiet.
  if (s.model_bytes_after > s.model_bytes_before) {
    absl::FPrintF(stderr,
                  "graphgc-fold: warning: the result is larger than the input (%d -> %d bytes), "
                  "as --fold-anyway allows\n",
                  s.model_bytes_before, s.model_bytes_after);
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
  if (command->help) {
    std::fputs(graphgc::tools::kFoldUsage, stdout);
    return 0;
  }
  return graphgc::tools::Run(*command);
}
