#include "options.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "big_model_scenario.h"
#include "recompute_scenario.h"
#include "scenarios.h"

namespace graphgc::bench {
namespace {

// Every part of the suite ("all"), in the order it runs.
std::vector<std::string> AllParts() {
  std::vector<std::string> parts;
  for (const Scenario& scenario : AllScenarios()) parts.emplace_back(scenario.name);
  parts.emplace_back(kBoundaryPart);
  parts.emplace_back(kComparisonsPart);
  return parts;
}

// The parts "all" leaves out: they run only when named (recompute's reference row holds 2 GiB).
// big-model writes gigabytes to disk.
std::vector<std::string> PartsRunWhenNamed() { return {kRecomputePart, kBigModelPart}; }

absl::Status ParseParts(absl::string_view list, BenchOptions& options) {
  absl::flat_hash_set<std::string> chosen;
  const std::vector<std::string> suite = AllParts();
  std::vector<std::string> all = suite;
  for (std::string& part : PartsRunWhenNamed()) all.push_back(std::move(part));
  options.whole_suite = false;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    if (item == "all") {
      options.whole_suite = true;
      chosen.insert(suite.begin(), suite.end());
      continue;
    }
    const Scenario* scenario = FindScenario(item);  // knows "seed" too
    if (scenario != nullptr) item = scenario->name;
    if (std::find(all.begin(), all.end(), item) == all.end()) {
      return absl::InvalidArgumentError(absl::StrCat("--scenario: unknown scenario '", item, "'"));
    }
    chosen.insert(std::string(item));
  }
  options.parts.clear();
  for (const std::string& part : all) {
    if (chosen.contains(part)) options.parts.push_back(part);
  }
  return absl::OkStatus();
}

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

// A byte count, with an optional binary suffix: 512M, 12G.
absl::StatusOr<int64_t> ParseByteSize(absl::string_view text) {
  int64_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
        scale = int64_t{1} << 10;
        break;
      case 'M':
        scale = int64_t{1} << 20;
        break;
      case 'G':
        scale = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (scale > 1) text.remove_suffix(1);
  }
  int64_t count = 0;
  if (!absl::SimpleAtoi(text, &count) || count <= 0 || count > (int64_t{1} << 50) / scale) {
    return absl::InvalidArgumentError(
        absl::StrCat("--big-model-max-bytes: '", text, "' is not a byte count (say 2G)"));
  }
  return count * scale;
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
  } else if (arg == "--gemm") {
    options.gemm = true;
  } else if (arg == "--python") {
    options.python = true;
  } else if (absl::ConsumePrefix(&arg, "--n=")) {
    absl::StatusOr<std::vector<int64_t>> sizes = ParseSizes(arg);
    if (!sizes.ok()) return sizes.status();
    options.sizes = *std::move(sizes);
    options.sizes_given = true;
  } else if (absl::ConsumePrefix(&arg, "--scenario=")) {
    return ParseParts(arg, options);
  } else if (absl::ConsumePrefix(&arg, "--plot=")) {
    if (arg.empty()) return absl::InvalidArgumentError("--plot: the directory is empty");
    options.plot_dir = std::string(arg);
  } else if (absl::ConsumePrefix(&arg, "--modes=")) {
    absl::StatusOr<std::vector<SeedMode>> modes = ParseModes(arg);
    if (!modes.ok()) return modes.status();
    options.modes = *std::move(modes);
  } else if (absl::ConsumePrefix(&arg, "--keep-all-cap-bytes=")) {
    absl::StatusOr<int64_t> cap = ParseCap(arg);
    if (!cap.ok()) return cap.status();
    options.keep_all_cap_bytes = *cap;
  } else if (absl::ConsumePrefix(&arg, "--big-model-max-bytes=")) {
    absl::StatusOr<int64_t> bytes = ParseByteSize(arg);
    if (!bytes.ok()) return bytes.status();
    options.big_model_max_bytes = *bytes;
  } else if (absl::ConsumePrefix(&arg, "--big-model-dir=")) {
    if (arg.empty()) return absl::InvalidArgumentError("--big-model-dir: the directory is empty");
    options.big_model_dir = std::string(arg);
  } else {
    return absl::NotFoundError(arg);
  }
  return absl::OkStatus();
}

// Flags whose value may also come as the next argument ("--plot DIR" is "--plot=DIR").
bool TakesValue(absl::string_view flag) {
  return flag == "--scenario" || flag == "--plot" || flag == "--big-model-max-bytes" ||
         flag == "--big-model-dir";
}

}  // namespace

bool BenchOptions::runs(absl::string_view part) const {
  return std::find(parts.begin(), parts.end(), part) != parts.end();
}

absl::StatusOr<BenchOptions> ParseOptions(int argc, char** argv) {
  BenchOptions options;
  options.parts = AllParts();
  const char* tmpdir = std::getenv("TMPDIR");
  options.big_model_dir = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  options.benchmark_args.push_back(argv[0]);
  std::vector<absl::string_view> unknown;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (TakesValue(flag)) {
      if (i + 1 == argc) return absl::InvalidArgumentError(absl::StrCat(flag, " needs a value"));
      flag = absl::StrCat(flag, "=", argv[++i]);
    }
    const absl::Status applied = ApplyFlag(flag, options);
    if (absl::IsNotFound(applied)) {
      options.benchmark_args.push_back(argv[i]);
      options.script_args.push_back(argv[i]);
      unknown.push_back(argv[i]);
    } else if (!applied.ok()) {
      return applied;
    }
  }
  // Unknown arguments belong to Google Benchmark under --micro and to the script under --python;
  // otherwise they are mistakes.
  if (!options.micro && !options.python && !options.help && !unknown.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("unknown argument '", unknown.front(), "'"));
  }
  return options;
}

std::string Usage() {
  return "usage: graphgc-bench [--scenario LIST] [--json] [--plot DIR] [--n=LIST] [--modes=LIST]\n"
         "                     [--keep-all-cap-bytes=BYTES]\n"
         "       graphgc-bench --micro [Google Benchmark flags]\n"
         "       graphgc-bench --kernels\n"
         "       graphgc-bench --gemm\n"
         "       graphgc-bench --python [--quick] [--n 10,100] [--json FILE]\n"
         "\n"
         "Default: the whole suite (--scenario all), one to three minutes on two cores. Each\n"
         "scenario table runs its workload for each n in each mode (keep-all, collect-each-step,\n"
         "automatic), one child process per (mode, n) row:\n"
         "  chain        a = Mul(a, a) on 10000 doubles (the seed scenario of spox's memory bug)\n"
         "               n = 10 .. 10^6 steps\n"
         "  fanout       one 1 MiB float constant, one Add(c, one) per step, each result dropped\n"
         "               n = 10 .. 10^5 steps\n"
         "  mlp          layers Relu(Add(MatMul(x, W), b)) on float[16, 256]\n"
         "               n = 10 .. 10^5 layers\n"
         "  shapes       Shape -> Gather -> Concat -> Reshape of an argument with known dims\n"
         "               n = 10 .. 10^5 steps (10^6 when named without all: 30 s a row)\n"
         "Then, in this process:\n"
         "  boundary     a chain of n Adds built, exported, serialized and imported, beside\n"
         "               protobuf's SerializeToString and ONNX's InferShapes on the same model\n"
         "               n = 10^3 .. 10^6 nodes\n"
         "  comparisons  the chain against a hand-written loop (each run in a child of its own),\n"
         "               collect() against graph size\n"
         "Only when named (not in all):\n"
         "  recompute    an MLP of n layers over float[3584, 256] keeps all 3n values (2.1 GiB at\n"
         "               n = 200) and reads them back, without a budget and under 64 MiB, 256 MiB\n"
         "               and 1 GiB with OnBudget::kEvictAndRecompute, each row in a child: time,\n"
         "               peak RSS, values computed again, every value's bytes against the\n"
         "               unbudgeted row's; n = 25, 50, 100, 200 layers\n"
         "  big-model    graphgc::fold with external data on generated language models of 256 MiB\n"
         "               of weights, doubling up to --big-model-max-bytes, half behind a\n"
         "               Transpose: time, GB/s and peak RSS against cp of the same data\n"
         "\n"
         "Every table row reports value bytes (freed, live at the end and after a collect(),\n"
         "peak), arena bytes per node, peak RSS, and ns per op for building, propagating values,\n"
         "collect() and to_onnx. Exit code 1 when a row failed or is not correct.\n"
         "  --scenario=LIST        parts to run, comma separated: chain (or seed), fanout, mlp,\n"
         "                         shapes, boundary, comparisons, all (default: all), recompute,\n"
         "                         big-model\n"
         "  --json                 print one JSON document instead of tables\n"
         "  --plot=DIR             also write charts to DIR with gnuplot: memory and time per op\n"
         "                         against n for each scenario, boundary costs against n,\n"
         "                         recompute's time, RSS and recomputations against n,\n"
         "                         big-model's time and RSS against model size (PNG,\n"
         "                         with the .dat data and the .gp script that drew them)\n"
         "  --n=LIST               sizes for every part run, comma separated\n"
         "  --big-model-max-bytes=B  big-model's largest weights (default 1G; K, M, G suffixes)\n"
         "  --big-model-dir=DIR    where big-model writes its models (default $TMPDIR or /tmp;\n"
         "                         it needs twice the largest size free)\n"
         "  --modes=LIST           keep-all,collect-each-step,automatic (default: all three)\n"
         "  --keep-all-cap-bytes=B skip keep-all rows that would hold more than B value bytes\n"
         "                         (default 2147483648)\n"
         "  --micro                run the registered Google Benchmark micro benchmarks\n"
         "  --kernels              time value propagation of twelve ops against a plain loop and\n"
         "                         ONNX Runtime (one thread), side by side in one run\n"
         "  --gemm                 time the packed matrix product against OpenBLAS on six\n"
         "                         shapes, side by side, and count position-dependent values\n"
         "  --python               the seed in Python, graphgc's package against spox with value\n"
         "                         propagation, in one process (bench/python/seed_vs_spox.py;\n"
         "                         `tools/run-bench --python` installs the package first)\n";
}

}  // namespace graphgc::bench
