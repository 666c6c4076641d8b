// graphgc-bench --python: the side-by-side benchmark of the Python package against spox
// (bench/python/seed_vs_spox.py), run by the venv's interpreter that tools/bootstrap makes. The
// package must be installed in that venv (`tools/run-bench --python` does it: pip install .).
#ifndef GRAPHGC_BENCH_PYTHON_BENCH_H_
#define GRAPHGC_BENCH_PYTHON_BENCH_H_

#include <vector>

namespace graphgc::bench {

// Replaces this process with the script, passing `script_args` on; returns (2) only when it
// cannot start, after saying why.
int RunPythonBenchmark(const std::vector<char*>& script_args);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_PYTHON_BENCH_H_
