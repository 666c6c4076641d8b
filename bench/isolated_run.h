// Runs a measurement in a forked child process and brings its report back as text.
//
// Peak RSS (VmHWM) is a per-process high-water mark, so a measurement only gets its own peak in a
// process of its own: the child starts from the parent's small footprint (fork copies the resident
// size into the child's mark), measures, and writes its report to a pipe. A child that dies (say,
// killed for memory) or exits without reporting yields an error, never a crash of the parent.
#ifndef GRAPHGC_BENCH_ISOLATED_RUN_H_
#define GRAPHGC_BENCH_ISOLATED_RUN_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"

namespace graphgc::bench {

// Forks; the child calls `measure` and sends back what it returns.
absl::StatusOr<std::string> RunInChild(const std::function<std::string()>& measure);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_ISOLATED_RUN_H_
