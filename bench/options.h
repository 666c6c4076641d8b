// Command line of graphgc-bench.
//
//   graphgc-bench [--json] [--n=10,100] [--modes=keep-all,automatic] [--keep-all-cap-bytes=B]
//   graphgc-bench --scenario boundary [--json] [--n=1000,1000000]
//   graphgc-bench --micro [Google Benchmark flags]
//   graphgc-bench --kernels
#ifndef GRAPHGC_BENCH_OPTIONS_H_
#define GRAPHGC_BENCH_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "seed_scenario.h"

namespace graphgc::bench {

struct BenchOptions {
  bool help = false;
  bool json = false;
  bool micro = false;
  bool kernels = false;
  std::string scenario = "seed";
  std::vector<int64_t> sizes = {10, 100, 1000, 10000, 100000};
  bool sizes_given = false;  // --n was given (each scenario has its own default sizes)
  std::vector<SeedMode> modes = {kAllSeedModes.begin(), kAllSeedModes.end()};
  // keep-all holds n * 80 000 bytes at the end; rows that would pass this are skipped.
  int64_t keep_all_cap_bytes = int64_t{2} << 30;
  // For --micro: argv[0] and every argument that is not ours, for benchmark::Initialize.
  std::vector<char*> benchmark_args;
};

absl::StatusOr<BenchOptions> ParseOptions(int argc, char** argv);
std::string Usage();

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_OPTIONS_H_
