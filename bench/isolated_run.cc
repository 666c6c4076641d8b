#include "isolated_run.h"

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "process_stats.h"

namespace graphgc::bench {
namespace {

// The child's figures in the order the parent expects them.
std::string MeasureInThisProcess(SeedMode mode, int64_t n) {
  const ProcessMemory at_start = ReadProcessMemory();
  const SeedChainRun run = RunSeedChain(mode, n);
  const ProcessMemory at_end = ReadProcessMemory();
  const GraphStats& stats = run.at_end;
  const double per_node =
      stats.nodes > 0 ? static_cast<double>(stats.arena_bytes) / static_cast<double>(stats.nodes)
                      : 0.0;
  const double per_op = n > 0 ? run.loop_ns / static_cast<double>(n) : 0.0;
  return absl::StrCat("nodes=", stats.nodes, "\ncollections=", stats.collections,
                      "\nlive_bytes_end=", stats.live_value_bytes,
                      "\nlive_bytes_collected=", run.live_bytes_after_collect,
                      "\npeak_value_bytes=", stats.peak_value_bytes,
                      "\narena_bytes_per_node=", per_node, "\nrss_start_kib=", at_start.rss_kib,
                      "\npeak_rss_kib=", at_end.peak_rss_kib, "\nns_per_op=", per_op,
                      "\ncorrect=", run.correct ? 1 : 0, "\n");
}

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

// Sets the field named `key`; false for an unknown key or a malformed number.
bool SetField(ScenarioRow& row, absl::string_view key, absl::string_view value) {
  if (key == "arena_bytes_per_node") return absl::SimpleAtod(value, &row.arena_bytes_per_node);
  if (key == "ns_per_op") return absl::SimpleAtod(value, &row.ns_per_op);
  int64_t number = 0;
  if (!absl::SimpleAtoi(value, &number)) return false;
  const std::pair<absl::string_view, int64_t*> integers[] = {
      {"nodes", &row.nodes},
      {"collections", &row.collections},
      {"live_bytes_end", &row.live_bytes_end},
      {"live_bytes_collected", &row.live_bytes_collected},
      {"peak_value_bytes", &row.peak_value_bytes},
      {"rss_start_kib", &row.rss_start_kib},
      {"peak_rss_kib", &row.peak_rss_kib},
  };
  for (const auto& [name, field] : integers) {
    if (name == key) {
      *field = number;
      return true;
    }
  }
  if (key != "correct") return false;
  row.correct = number != 0;
  return true;
}

// Fills `row` from the child's report; false if any line is malformed or one is missing.
bool ParseReport(absl::string_view report, ScenarioRow& row) {
  constexpr int kFields = 10;
  int fields = 0;
  for (absl::string_view line : absl::StrSplit(report, '\n', absl::SkipEmpty())) {
    const std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(line, '=');
    if (!SetField(row, kv.first, kv.second)) return false;
    ++fields;
  }
  return fields == kFields;
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    return absl::StrCat("child killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  if (WIFEXITED(status)) return absl::StrCat("child exited with code ", WEXITSTATUS(status));
  return "child ended abnormally";
}

ScenarioRow FailedRow(SeedMode mode, int64_t n, std::string why) {
  ScenarioRow row;
  row.mode = mode;
  row.n = n;
  row.outcome = RowOutcome::kFailed;
  row.note = std::move(why);
  return row;
}

// In the child: measure, report, and leave without running the parent's atexit handlers or
// flushing stdio buffers inherited from it.
[[noreturn]] void RunChild(int write_fd, SeedMode mode, int64_t n) {
  const bool sent = WriteAll(write_fd, MeasureInThisProcess(mode, n));
  close(write_fd);
  _exit(sent ? 0 : 1);
}

ScenarioRow CollectChild(pid_t child, int read_fd, SeedMode mode, int64_t n) {
  const std::string report = ReadAll(read_fd);
  close(read_fd);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return FailedRow(mode, n, absl::StrCat("waitpid: ", strerror(errno)));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return FailedRow(mode, n, DescribeExit(status));
  }
  ScenarioRow row;
  row.mode = mode;
  row.n = n;
  if (!ParseReport(report, row)) return FailedRow(mode, n, "malformed report from the child");
  return row;
}

}  // namespace

ScenarioRow RunScenarioInChild(SeedMode mode, int64_t n) {
  int fds[2];
  if (pipe(fds) != 0) return FailedRow(mode, n, absl::StrCat("pipe: ", strerror(errno)));
  // Whatever the parent has buffered must be written once, by the parent.
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    const std::string why = absl::StrCat("fork: ", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return FailedRow(mode, n, why);
  }
  if (child == 0) {
    close(fds[0]);
    RunChild(fds[1], mode, n);
  }
  close(fds[1]);
  return CollectChild(child, fds[0], mode, n);
}

ScenarioRow SkippedRow(SeedMode mode, int64_t n, std::string why) {
  ScenarioRow row;
  row.mode = mode;
  row.n = n;
  row.outcome = RowOutcome::kSkipped;
  row.note = std::move(why);
  return row;
}

}  // namespace graphgc::bench
