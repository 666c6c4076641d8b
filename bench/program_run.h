// Runs a program as a child process and waits for it.
//
// The program is an ordinary one found on PATH (gnuplot, cp): not found, killed, or failing are
// errors the caller reports, never a crash. Its output goes where the benchmark's goes.
#ifndef GRAPHGC_BENCH_PROGRAM_RUN_H_
#define GRAPHGC_BENCH_PROGRAM_RUN_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace graphgc::bench {

// Runs argv[0] with `argv`, in `directory` when it is not empty. FailedPrecondition when the
// program cannot be started at all (not installed, or `directory` is not there); Internal when
// it is killed or exits with a code other than 0.
absl::Status RunProgram(const std::vector<std::string>& argv, const std::string& directory = "");

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_PROGRAM_RUN_H_
