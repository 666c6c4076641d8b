// Runs gnuplot on a script, in the script's directory, as a child process.
//
// gnuplot is an ordinary program here (Debian's gnuplot-nox): not found, killed, or failing on
// the script are errors the caller reports, never a crash. gnuplot's own messages go to stderr.
#ifndef GRAPHGC_BENCH_GNUPLOT_RUN_H_
#define GRAPHGC_BENCH_GNUPLOT_RUN_H_

#include <string>

#include "absl/status/status.h"

namespace graphgc::bench {

absl::Status RunGnuplot(const std::string& directory, const std::string& script_name);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_GNUPLOT_RUN_H_
