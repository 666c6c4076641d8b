// Peak RSS of the seed chain (a = Mul(a, a) on 10000 doubles), measured in forked children so that
// each run has its own high-water mark. These are memory bounds from the core issue, not timings.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

enum class Mode { kCollectEachStep, kCollectAtEnd, kAutomatic };

// VmHWM from /proc/self/status, in KiB.
int64_t PeakRssKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoll(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

int64_t RunChain(Mode mode, int n) {
  GraphOptions options;
  if (mode == Mode::kCollectEachStep) options.collect_policy = CollectPolicy::kManual;
  Graph g(options);
  Var a = g.constant(Tensor::zeros(DataType::kDouble, {10000}));
  for (int i = 0; i < n; ++i) {
    a = op::Mul(a, a);
    if (mode == Mode::kCollectEachStep) g.collect();
  }
  if (mode == Mode::kCollectAtEnd) g.collect();
  if (!a.ok() || g.collect().live_bytes != 80000) return -1;
  return PeakRssKib();
}

// Runs the chain in a child process and returns the child's peak RSS in KiB.
int64_t PeakRssOfChildKib(Mode mode, int n) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const int64_t peak = RunChain(mode, n);
    const ssize_t written = write(fds[1], &peak, sizeof peak);
    _exit(written == sizeof peak ? 0 : 1);
  }
  close(fds[1]);
  int64_t peak = -1;
  if (read(fds[0], &peak, sizeof peak) != sizeof peak) peak = -1;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return peak;
}

TEST(MemoryBoundsTest, CollectEachStepGrowsWellUnder512BytesPerOp) {
  const int64_t small = PeakRssOfChildKib(Mode::kCollectEachStep, 200);
  const int64_t large = PeakRssOfChildKib(Mode::kCollectEachStep, 20000);
  ASSERT_GT(small, 0);
  ASSERT_GT(large, 0);
  const double bytes_per_op = (large - small) * 1024.0 / (20000 - 200);
  std::printf("collect each step: peak RSS %lld KiB at N=200, %lld KiB at N=20000: %.1f B/op\n",
              static_cast<long long>(small), static_cast<long long>(large), bytes_per_op);
  EXPECT_LT(bytes_per_op, 256.0);  // "well under 512"
}

// Peak RSS at N = 20000 minus peak RSS at N = 200, in KiB.
int64_t PeakRssGrowthKib(Mode mode, const char* label) {
  const int64_t small = PeakRssOfChildKib(mode, 200);
  const int64_t large = PeakRssOfChildKib(mode, 20000);
  EXPECT_GT(small, 0);
  EXPECT_GT(large, 0);
  std::printf("%s: peak RSS %lld KiB at N=200, %lld KiB at N=20000\n", label,
              static_cast<long long>(small), static_cast<long long>(large));
  return large - small;
}

TEST(MemoryBoundsTest, CollectOnlyAtTheEndStaysWithin16MiB) {
  EXPECT_LT(PeakRssGrowthKib(Mode::kCollectAtEnd, "collect at end"), 16 * 1024);
}

TEST(MemoryBoundsTest, AutomaticPolicyStaysWithin16MiB) {
  EXPECT_LT(PeakRssGrowthKib(Mode::kAutomatic, "automatic"), 16 * 1024);
}

}  // namespace
}  // namespace graphgc
