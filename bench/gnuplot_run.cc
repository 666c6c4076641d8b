#include "gnuplot_run.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace graphgc::bench {
namespace {

// What the child exits with when it cannot start gnuplot at all (the shell's "not found").
constexpr int kCannotRun = 127;

}  // namespace

absl::Status RunGnuplot(const std::string& directory, const std::string& script_name) {
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  if (child == 0) {
    if (chdir(directory.c_str()) != 0) _exit(kCannotRun);
    execlp("gnuplot", "gnuplot", script_name.c_str(), static_cast<char*>(nullptr));
    _exit(kCannotRun);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return absl::InternalError(absl::StrCat("waitpid: ", strerror(errno)));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  if (WIFEXITED(status) && WEXITSTATUS(status) == kCannotRun) {
    return absl::FailedPreconditionError(
        "could not run gnuplot (is it installed? apt-get install gnuplot-nox)");
  }
  if (WIFSIGNALED(status)) {
    return absl::InternalError(absl::StrCat("gnuplot killed by signal ", WTERMSIG(status)));
  }
  return absl::InternalError(
      absl::StrCat("gnuplot failed on ", script_name, " (exit code ", WEXITSTATUS(status), ")"));
}

}  // namespace graphgc::bench
