#include "isolated_run.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace graphgc::bench {
namespace {

bool WriteAll(int fd, absl::string_view text) {
  while (!text.empty()) {
    const ssize_t written = write(fd, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    text.remove_prefix(static_cast<size_t>(written));
  }
  return true;
}

std::string ReadAll(int fd) {
  std::string text;
  char chunk[4096];
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(chunk, static_cast<size_t>(got));
  }
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    return absl::StrCat("child killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  if (WIFEXITED(status)) return absl::StrCat("child exited with code ", WEXITSTATUS(status));
  return "child ended abnormally";
}

// In the child: measure, report, and leave without running the parent's atexit handlers or
// flushing stdio buffers inherited from it.
[[noreturn]] void RunChild(int write_fd, const std::function<std::string()>& measure) {
  const bool sent = WriteAll(write_fd, measure());
  close(write_fd);
  _exit(sent ? 0 : 1);
}

absl::StatusOr<std::string> CollectChild(pid_t child, int read_fd) {
  std::string report = ReadAll(read_fd);
  close(read_fd);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return absl::InternalError(absl::StrCat("waitpid: ", strerror(errno)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::AbortedError(DescribeExit(status));
  }
  return report;
}

}  // namespace

absl::StatusOr<std::string> RunInChild(const std::function<std::string()>& measure) {
  int fds[2];
  if (pipe(fds) != 0) return absl::InternalError(absl::StrCat("pipe: ", strerror(errno)));
  // Whatever the parent has buffered must be written once, by the parent.
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    const std::string why = absl::StrCat("fork: ", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(why);
  }
  if (child == 0) {
    close(fds[0]);
    RunChild(fds[1], measure);
  }
  close(fds[1]);
  return CollectChild(child, fds[0]);
}

}  // namespace graphgc::bench
