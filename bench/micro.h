// graphgc-bench --micro: Google Benchmark micro benchmarks of the pieces behind the default suite.
#ifndef GRAPHGC_BENCH_MICRO_H_
#define GRAPHGC_BENCH_MICRO_H_

#include <vector>

namespace graphgc::bench {

// Runs the registered benchmarks; `args` is argv[0] followed by Google Benchmark's flags.
// Returns the process exit code.
int RunMicroBenchmarks(std::vector<char*> args);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_MICRO_H_
