#include "options.h"

#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace graphgc::bench {
namespace {

absl::StatusOr<std::vector<int64_t>> ParseSizes(absl::string_view list) {
  std::vector<int64_t> sizes;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(item, &n) || n <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("--n: '", item, "' is not a positive count"));
    }
    sizes.push_back(n);
  }
  return sizes;
}

absl::StatusOr<std::vector<SeedMode>> ParseModes(absl::string_view list) {
  std::vector<SeedMode> modes;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    const std::optional<SeedMode> mode = ParseSeedMode(item);
    if (!mode.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("--modes: unknown mode '", item, "'"));
    }
    modes.push_back(*mode);
  }
  return modes;
}

absl::StatusOr<int64_t> ParseCap(absl::string_view text) {
  int64_t bytes = 0;
  if (!absl::SimpleAtoi(text, &bytes) || bytes < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--keep-all-cap-bytes: '", text, "' is not a byte count"));
  }
  return bytes;
}

// Applies one of the suite's own flags; NotFound if `arg` is not one of them.
absl::Status ApplyFlag(absl::string_view arg, BenchOptions& options) {
  if (arg == "--help" || arg == "-h") {
    options.help = true;
  } else if (arg == "--json") {
    options.json = true;
  } else if (arg == "--micro") {
    options.micro = true;
  } else if (arg == "--kernels") {
    options.kernels = true;
  } else if (absl::ConsumePrefix(&arg, "--n=")) {
    absl::StatusOr<std::vector<int64_t>> sizes = ParseSizes(arg);
    if (!sizes.ok()) return sizes.status();
    options.sizes = *std::move(sizes);
    options.sizes_given = true;
  } else if (absl::ConsumePrefix(&arg, "--scenario=")) {
    if (arg != "seed" && arg != "boundary") {
      return absl::InvalidArgumentError(absl::StrCat("--scenario: unknown scenario '", arg, "'"));
    }
    options.scenario = std::string(arg);
  } else if (absl::ConsumePrefix(&arg, "--modes=")) {
    absl::StatusOr<std::vector<SeedMode>> modes = ParseModes(arg);
    if (!modes.ok()) return modes.status();
    options.modes = *std::move(modes);
  } else if (absl::ConsumePrefix(&arg, "--keep-all-cap-bytes=")) {
    absl::StatusOr<int64_t> cap = ParseCap(arg);
    if (!cap.ok()) return cap.status();
    options.keep_all_cap_bytes = *cap;
  } else {
    return absl::NotFoundError(arg);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BenchOptions> ParseOptions(int argc, char** argv) {
  BenchOptions options;
  options.benchmark_args.push_back(argv[0]);
  std::vector<absl::string_view> unknown;
  for (int i = 1; i < argc; ++i) {
    // "--scenario NAME" is "--scenario=NAME".
    std::string flag = argv[i];
    if (flag == "--scenario" && i + 1 < argc) flag = absl::StrCat("--scenario=", argv[++i]);
    const absl::Status applied = ApplyFlag(flag, options);
    if (absl::IsNotFound(applied)) {
      options.benchmark_args.push_back(argv[i]);
      unknown.push_back(argv[i]);
    } else if (!applied.ok()) {
      return applied;
    }
  }
  // Unknown arguments belong to Google Benchmark under --micro; otherwise they are mistakes.
  if (!options.micro && !options.help && !unknown.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown argument '", unknown.front(), "'"));
  }
  return options;
}

std::string Usage() {
  return "usage: graphgc-bench [--json] [--n=LIST] [--modes=LIST] [--keep-all-cap-bytes=BYTES]\n"
         "       graphgc-bench --scenario boundary [--json] [--n=LIST]\n"
         "       graphgc-bench --micro [Google Benchmark flags]\n"
         "       graphgc-bench --kernels\n"
         "\n"
         "Default: the seed scenario (a = Mul(a, a) on 10000 doubles, n times) in each mode,\n"
         "each (mode, n) in a child process, then two in-process comparisons.\n"
         "  --json                 print a JSON document instead of tables\n"
         "  --n=LIST               chain lengths, comma separated\n"
         "                         (default 10,100,1000,10000,100000)\n"
         "  --modes=LIST           keep-all,collect-each-step,automatic (default: all three)\n"
         "  --keep-all-cap-bytes=B skip keep-all rows that would hold more than B value bytes\n"
         "                         (default 2147483648)\n"
         "  --scenario=NAME        seed (the default) or boundary: a chain of n Adds built,\n"
         "                         exported, serialized and imported, beside protobuf's\n"
         "                         SerializeToString and ONNX's InferShapes on the same model\n"
         "                         (default n: 1000,10000,100000,1000000)\n"
         "  --micro                run the registered Google Benchmark micro benchmarks\n"
         "  --kernels              time value propagation of nine ops against a plain loop and\n"
         "                         ONNX Runtime (one thread), side by side in one run\n";
}

}  // namespace graphgc::bench
