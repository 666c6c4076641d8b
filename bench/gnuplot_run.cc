#include "gnuplot_run.h"

#include "program_run.h"

namespace graphgc::bench {

absl::Status RunGnuplot(const std::string& directory, const std::string& script_name) {
  const absl::Status ran = RunProgram({"gnuplot", script_name}, directory);
  if (absl::IsFailedPrecondition(ran)) {
    return absl::FailedPreconditionError(
        "could not run gnuplot (is it installed? apt-get install gnuplot-nox)");
  }
  return ran;
}

}  // namespace graphgc::bench
