#include "program_run.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc::bench {
namespace {

// What the child exits with when it cannot start the program at all (the shell's "not found").
constexpr int kCannotRun = 127;

}  // namespace

absl::Status RunProgram(const std::vector<std::string>& argv, const std::string& directory) {
  if (argv.empty()) return absl::InvalidArgumentError("RunProgram: no program");
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  if (child == 0) {
    if (!directory.empty() && chdir(directory.c_str()) != 0) _exit(kCannotRun);
    execvp(args[0], args.data());
    _exit(kCannotRun);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return absl::InternalError(absl::StrCat("waitpid: ", strerror(errno)));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  const std::string command = absl::StrJoin(argv, " ");
  if (WIFEXITED(status) && WEXITSTATUS(status) == kCannotRun) {
    return absl::FailedPreconditionError(absl::StrCat("could not run ", command));
  }
  if (WIFSIGNALED(status)) {
    return absl::InternalError(absl::StrCat(command, ": killed by signal ", WTERMSIG(status)));
  }
  return absl::InternalError(
      absl::StrCat(command, ": failed (exit code ", WEXITSTATUS(status), ")"));
}

}  // namespace graphgc::bench
