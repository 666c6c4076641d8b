// The command line of graphgc-fold: its arguments, its progress bar and its --stats report.
// Plain functions over plain values; used by graphgc_fold.cc only.
#ifndef GRAPHGC_TOOLS_FOLD_CLI_H_
#define GRAPHGC_TOOLS_FOLD_CLI_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/export/fold/fold.h"

namespace graphgc::tools {

struct FoldCommand {
  std::string input_path;
  std::string output_path;
  FoldOptions options;
  std::optional<int64_t> external_data_threshold;  // --external-data[=BYTES]
  bool quiet = false;
  std::string stats_path;
  bool help = false;  // --help: print kFoldUsage to stdout and exit 0
};

inline constexpr char kFoldUsage[] =
    "usage: graphgc-fold IN.onnx OUT.onnx [options]\n"
    "Constant-folds an ONNX model in bounded memory; the result is never larger than the input\n"
    "unless --fold-anyway.\n"
    "  --max-fold-bytes=N        write a computed value larger than N bytes only if it replaces\n"
    "                            at least as many initializer bytes (default 1048576); smaller\n"
    "                            ones when they replace at least as many node and initializer\n"
    "                            bytes\n"
    "  --fold-anyway             write every computed value the outputs need\n"
    "  --memory-budget=BYTES     cap on live computed values; past it, nodes stay (default none)\n"
    "  --external-data[=BYTES]   write tensors over BYTES (default 1024) to OUT.onnx.data\n"
    "  --no-fuse                 no BatchNormalization/Mul/Add fusions, no Identity/Dropout "
    "removal\n"
    "  --no-cast-removal         keep Casts to the type their input already has\n"
    "  --no-cse                  keep nodes equal to an earlier one (same op, attributes, inputs)\n"
    "  --no-initializer-merging  keep identical initializers apart\n"
    "  --unknown-ops-are-errors  fail on ops of unknown domains instead of keeping them\n"
    "  --inline-functions        replace each call of the model's own functions by its body\n"
    "                            first, so that the result has no functions\n"
    "  --opset=N                 convert the model to ai.onnx opset N first (ONNX's version\n"
    "                            converter); by default it keeps its own\n"
    "  --quiet                   no progress bar\n"
    "  --stats=FILE.json         write node counts, bytes, peak memory and time per phase (read,\n"
    "                            fuse, plan, import with the wanted values computed, fold,\n"
    "                            export, write; they add up to total_seconds)\n"
    "Byte counts (N, BYTES) are bytes, or KiB, MiB, GiB or TiB with K, M, G or T: 64M.\n";

// A byte count as the flags take it: digits, optionally followed by K, M, G or T (binary: 64M is
// 64 MiB; "64MiB", "64MB" and "64m" too) or B. nullopt for anything else, a negative count, or one
// past int64_t.
std::optional<int64_t> ParseByteCount(absl::string_view text);

// The arguments after the program name; an error says which one is wrong.
absl::StatusOr<FoldCommand> ParseFoldCommand(absl::Span<const char* const> args);

// Draws "phase [=====     ] done/total" on stderr, in place.
void DrawProgress(const char* phase, int64_t done, int64_t total);

// The phases the command times itself, around fold's own (FoldStats): reading the model, writing
// the result, and the whole run from reading to written, which the phases add up to.
struct CommandSeconds {
  double read = 0;
  double write = 0;
  double total = 0;
};

// The --stats document.
std::string FoldStatsJson(const FoldStats& stats, int64_t peak_rss_bytes,
                          const CommandSeconds& seconds);

// The process's peak resident set (VmHWM) in bytes, or -1 if unreadable.
int64_t PeakRssBytes();

}  // namespace graphgc::tools

#endif  // GRAPHGC_TOOLS_FOLD_CLI_H_
