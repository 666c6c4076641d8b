#include "fold_cli.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "graphgc/ir/graph.h"

namespace graphgc::tools {
namespace {

absl::Status UsageError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(why, "\n", kFoldUsage));
}

// "--name=value" or "--name value": the value, consuming the next argument in the second form.
absl::StatusOr<std::string> ValueOf(absl::string_view flag, absl::string_view name,
                                    absl::Span<const char* const> args, size_t& i) {
  if (flag.size() > name.size() && flag[name.size()] == '=') {
    return std::string(flag.substr(name.size() + 1));
  }
  if (i + 1 >= args.size()) return UsageError(absl::StrCat(name, " needs a value"));
  return std::string(args[++i]);
}

absl::StatusOr<int64_t> ByteCount(absl::string_view name, const std::string& text) {
  if (std::optional<int64_t> bytes = ParseByteCount(text)) return *bytes;
  return UsageError(absl::StrCat(name,
                                 " takes a byte count (a non-negative integer, or one with K, M, G "
                                 "or T for KiB, MiB, GiB, TiB: 64M), not '",
                                 text, "'"));
}

// The byte count a "--name=N" or "--name N" flag gives.
absl::StatusOr<int64_t> ByteFlag(absl::string_view flag, absl::string_view name,
                                 absl::Span<const char* const> args, size_t& i) {
  absl::StatusOr<std::string> text = ValueOf(flag, name, args, i);
  if (!text.ok()) return text.status();
  return ByteCount(name, *text);
}

bool IsFlag(absl::string_view arg, absl::string_view name) {
  return arg == name ||
         (absl::StartsWith(arg, name) && arg.size() > name.size() && arg[name.size()] == '=');
}

}  // namespace

std::optional<int64_t> ParseByteCount(absl::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  int64_t count = 0;
  if (digits == 0 || !absl::SimpleAtoi(text.substr(0, digits), &count)) return std::nullopt;
  absl::string_view unit = text.substr(digits);
  if (unit.empty() || unit == "B") return count;
  // K, M, G, T: 2^10, 2^20, 2^30, 2^40.
  const size_t power = absl::string_view("KMGT").find(
      static_cast<char>(absl::ascii_toupper(static_cast<unsigned char>(unit[0]))));
  if (power == absl::string_view::npos) return std::nullopt;
  const int shift = 10 * static_cast<int>(power + 1);
  unit.remove_prefix(1);
  if (!unit.empty() && unit != "i" && unit != "iB" && unit != "B") return std::nullopt;
  if (count > (std::numeric_limits<int64_t>::max() >> shift)) return std::nullopt;
  return count << shift;
}

absl::StatusOr<FoldCommand> ParseFoldCommand(absl::Span<const char* const> args) {
  FoldCommand command;
  std::vector<std::string> paths;
  for (size_t i = 0; i < args.size(); ++i) {
    const absl::string_view arg = args[i];
    if (arg == "--help" || arg == "-h") {
      command.help = true;
      return command;
    }
    if (IsFlag(arg, "--max-fold-bytes")) {
      auto bytes = ByteFlag(arg, "--max-fold-bytes", args, i);
      if (!bytes.ok()) return bytes.status();
      command.options.max_fold_bytes = *bytes;
    } else if (IsFlag(arg, "--memory-budget")) {
      auto bytes = ByteFlag(arg, "--memory-budget", args, i);
      if (!bytes.ok()) return bytes.status();
      command.options.memory_budget_bytes = *bytes;
    } else if (IsFlag(arg, "--stats")) {
      auto text = ValueOf(arg, "--stats", args, i);
      if (!text.ok()) return text.status();
      command.stats_path = *text;
    } else if (IsFlag(arg, "--opset")) {
      auto text = ValueOf(arg, "--opset", args, i);
      if (!text.ok()) return text.status();
      int opset = 0;
      if (!absl::SimpleAtoi(*text, &opset) || opset < 1 || opset > kNewestOnnxOpset) {
        return UsageError(absl::StrCat("--opset takes an ai.onnx opset from 1 to ",
                                       kNewestOnnxOpset, ", not '", *text, "'"));
      }
      command.options.opset = opset;
    } else if (arg == "--external-data") {
      command.external_data_threshold = 1024;
    } else if (absl::StartsWith(arg, "--external-data=")) {
      auto bytes = ByteCount("--external-data", std::string(arg.substr(16)));
      if (!bytes.ok()) return bytes.status();
      command.external_data_threshold = *bytes;
    } else if (arg == "--fold-anyway") {
      command.options.fold_anyway = true;
    } else if (arg == "--no-fuse") {
      command.options.fuse = false;
    } else if (arg == "--no-cast-removal") {
      command.options.remove_noop_casts = false;
    } else if (arg == "--no-cse") {
      command.options.eliminate_common_subexpressions = false;
    } else if (arg == "--no-initializer-merging") {
      command.options.merge_initializers = false;
    } else if (arg == "--unknown-ops-are-errors") {
      command.options.unknown_ops_are_errors = true;
    } else if (arg == "--inline-functions") {
      command.options.inline_functions = true;
    } else if (arg == "--quiet") {
      command.quiet = true;
    } else if (absl::StartsWith(arg, "--")) {
      return UsageError(absl::StrCat("unknown option '", arg, "'"));
    } else {
      paths.emplace_back(arg);
    }
  }
  if (paths.size() != 2) return UsageError("give one input and one output path");
  command.input_path = paths[0];
  command.output_path = paths[1];
  return command;
}

void DrawProgress(const char* phase, int64_t done, int64_t total) {
  constexpr int kWidth = 40;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::string bar(static_cast<size_t>(filled), '=');
  bar.resize(kWidth, ' ');
  absl::FPrintF(stderr, "\r%-7s [%s] %d/%d", phase, bar, done, total);
  if (done >= total) absl::FPrintF(stderr, "\n");
  std::fflush(stderr);
}

namespace {

// `text` as a JSON string literal: quotes, backslashes and control characters escaped (a node
// name is the model's, any bytes).
std::string JsonString(absl::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", static_cast<int>(c));
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace

std::string FoldStatsJson(const FoldStats& stats, int64_t peak_rss_bytes,
                          const CommandSeconds& seconds) {
  return absl::StrFormat(
      "{\n"
      "  \"nodes_before\": %d,\n  \"nodes_after\": %d,\n"
      "  \"initializer_bytes_before\": %d,\n  \"initializer_bytes_after\": %d,\n"
      "  \"nodes_folded\": %d,\n  \"nodes_kept_for_size\": %d,\n"
      "  \"nodes_kept_for_budget\": %d,\n  \"nodes_fused\": %d,\n  \"opaque_nodes\": %d,\n"
      "  \"function_nodes_folded\": %d,\n"
      "  \"calls_specialised\": %d,\n  \"functions_specialised\": %d,\n"
      "  \"noop_casts_removed\": %d,\n  \"common_subexpressions_removed\": %d,\n"
      "  \"initializers_merged\": %d,\n"
      "  \"model_bytes_before\": %d,\n  \"model_bytes_after\": %d,\n"
      "  \"kept_unchanged\": %s,\n"
      "  \"peak_live_value_bytes\": %d,\n  \"peak_rss_bytes\": %d,\n"
      "  \"peak_node\": %s,\n  \"peak_node_bytes\": %d,\n"
      "  \"values_evicted\": %d,\n  \"values_recomputed\": %d,\n"
      "  \"recomputed_bytes\": %d,\n  \"recompute_seconds\": %.6f,\n"
      "  \"read_seconds\": %.6f,\n  \"fuse_seconds\": %.6f,\n  \"plan_seconds\": %.6f,\n"
      "  \"import_seconds\": %.6f,\n"
      "  \"fold_seconds\": %.6f,\n  \"export_seconds\": %.6f,\n  \"write_seconds\": %.6f,\n"
      "  \"total_seconds\": %.6f\n"
      "}\n",
      stats.nodes_before, stats.nodes_after, stats.initializer_bytes_before,
      stats.initializer_bytes_after, stats.nodes_folded, stats.nodes_kept_for_size,
      stats.nodes_kept_for_budget, stats.nodes_fused, stats.opaque_nodes,
      stats.function_nodes_folded, stats.calls_specialised, stats.functions_specialised,
      stats.noop_casts_removed, stats.common_subexpressions_removed, stats.initializers_merged,
      stats.model_bytes_before, stats.model_bytes_after, stats.kept_unchanged ? "true" : "false",
      stats.peak_live_value_bytes, peak_rss_bytes, JsonString(stats.peak_node),
      stats.peak_node_bytes, stats.values_evicted, stats.values_recomputed, stats.recomputed_bytes,
      stats.recompute_seconds, seconds.read, stats.fuse_seconds, stats.plan_seconds,
      stats.import_seconds, stats.fold_seconds, stats.export_seconds, seconds.write, seconds.total);
}

int64_t PeakRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!absl::StartsWith(line, "VmHWM:")) continue;
    int64_t kib = 0;
    absl::string_view rest = absl::StripAsciiWhitespace(absl::string_view(line).substr(6));
    rest = rest.substr(0, rest.find(' '));
    if (absl::SimpleAtoi(rest, &kib)) return kib * 1024;
  }
  return -1;
}

}  // namespace graphgc::tools
