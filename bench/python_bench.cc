#include "python_bench.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace graphgc::bench {

int RunPythonBenchmark(const std::vector<char*>& script_args) {
  static char python[] = GRAPHGC_VENV_PYTHON;
  static char script[] = GRAPHGC_SEED_VS_SPOX;
  std::vector<char*> argv = {python, script};
  argv.insert(argv.end(), script_args.begin(), script_args.end());
  argv.push_back(nullptr);
  execv(python, argv.data());
  std::fprintf(stderr,
               "graphgc-bench --python: cannot run %s (%s); tools/bootstrap makes the venv and "
               "`tools/run-bench --python` installs the package into it\n",
               python, std::strerror(errno));
  return 2;
}

}  // namespace graphgc::bench
