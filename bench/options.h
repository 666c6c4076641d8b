// Command line of graphgc-bench.
//
//   graphgc-bench [--scenario LIST] [--json] [--plot DIR] [--n=LIST] [--modes=LIST]
//                 [--keep-all-cap-bytes=B]
//   graphgc-bench --micro [Google Benchmark flags]
//   graphgc-bench --kernels
//   graphgc-bench --gemm
//   graphgc-bench --python [seed_vs_spox.py flags]
//
// LIST of --scenario names parts of the suite: chain (or seed), fanout, mlp, shapes (the scenario
// tables, scenarios.h), boundary (boundary_scenario.h), comparisons (the chain against a hand
// loop, collect() against graph size), or all (the default: everything, in that order, at the
// default sizes that keep the whole run within a few minutes on two loaded cores). Default sizes:
// chain 10 .. 10^6 steps, fanout 10 .. 10^5, mlp 10 .. 10^5 layers, shapes 10 .. 10^5 steps
// (10^6 when shapes is named without all), boundary 10^3 .. 10^6 nodes; --n replaces them all.
// recompute (recompute_scenario.h) is not in all: it runs when named, at 25 .. 200 layers.
// big-model (big_model_scenario.h) neither: it runs when named, from 256 MiB of weights up to
// --big-model-max-bytes (default 1 GiB), its files in --big-model-dir.
#ifndef GRAPHGC_BENCH_OPTIONS_H_
#define GRAPHGC_BENCH_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "seed_scenario.h"

namespace graphgc::bench {

inline constexpr absl::string_view kBoundaryPart = "boundary";
inline constexpr absl::string_view kComparisonsPart = "comparisons";

struct BenchOptions {
  bool help = false;
  bool json = false;
  bool micro = false;
  bool kernels = false;
  bool gemm = false;    // --gemm
  bool python = false;  // the side-by-side benchmark against spox (python_bench.h)
  // The parts to run, in the suite's order, each once; "seed" is stored as "chain".
  std::vector<std::string> parts;
  bool whole_suite = true;  // --scenario all (or none): the parts' shorter default sizes
  std::vector<int64_t> sizes;
  bool sizes_given = false;  // --n was given (each part has its own default sizes)
  std::vector<SeedMode> modes = {kAllSeedModes.begin(), kAllSeedModes.end()};
  // A keep-all row holds n x (value bytes per step) at the end; rows past this are skipped.
  int64_t keep_all_cap_bytes = int64_t{2} << 30;
  std::string plot_dir;  // --plot: where to write the charts; empty: no charts
  // big-model: the largest model's weight bytes, and where its files go (default: $TMPDIR or
  // /tmp).
  int64_t big_model_max_bytes = int64_t{1} << 30;
  std::string big_model_dir;
  // For --micro: argv[0] and every argument that is not ours, for benchmark::Initialize.
  std::vector<char*> benchmark_args;
  // For --python: every argument that is not ours, for bench/python/seed_vs_spox.py.
  std::vector<char*> script_args;

  bool runs(absl::string_view part) const;
};

absl::StatusOr<BenchOptions> ParseOptions(int argc, char** argv);
std::string Usage();

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_OPTIONS_H_
