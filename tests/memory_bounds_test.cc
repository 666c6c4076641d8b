// Peak RSS of the seed chain (a = Mul(a, a) on 10000 doubles), measured in forked children so that
// each run has its own high-water mark. These are memory bounds from the core issue, not timings.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

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

// Runs `run` in a child process and returns what it returned (the child's peak RSS in KiB, or -1).
int64_t InChild(const std::function<int64_t()>& run) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const int64_t peak = run();
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

// Runs the chain in a child process and returns the child's peak RSS in KiB.
int64_t PeakRssOfChildKib(Mode mode, int n) {
  return InChild([=] { return RunChain(mode, n); });
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

// 2048 ops of 4 MiB each would hold 8 GiB of values. Under a 64 MiB live budget, with the last 24
// handles kept alive (96 MiB of would-be values), the graph collects first when a value would
// pass the budget, computes what fits and skips the rest: it never holds more than 64 MiB.
int64_t RunUnderBudget(int64_t* computed, int64_t* skipped, int64_t* peak_value_bytes) {
  constexpr int64_t kBudget = int64_t{64} << 20;
  constexpr int kOps = 2048;
  constexpr size_t kKept = 24;
  GraphOptions options;
  options.max_live_value_bytes = kBudget;
  Graph g(options);
  const Var weight = g.constant(Tensor::zeros(DataType::kFloat, {1 << 20}));  // 4 MiB, arena data
  std::vector<Var> kept(kKept);
  for (int i = 0; i < kOps; ++i) {
    // Every input is a constant, so every op may propagate whatever came before.
    Var a = op::Add(weight, g.constant(Tensor::scalar<float>(static_cast<float>(i))));
    if (!a.ok() || a.shape() != std::vector<int64_t>{1 << 20}) return -1;
    if (a.value().has_value()) ++*computed;
    kept[static_cast<size_t>(i) % kKept] = std::move(a);
  }
  const GraphStats stats = g.stats();
  *skipped = stats.values_skipped_for_budget;
  *peak_value_bytes = stats.peak_value_bytes;
  if (stats.peak_value_bytes > kBudget) return -2;
  return PeakRssKib();
}

TEST(MemoryBudgetTest, EightGiBOfWouldBeValuesStayUnder128MiBOfRss) {
  const int64_t peak = InChild([] {
    int64_t computed = 0, skipped = 0, peak_values = 0;
    const int64_t rss = RunUnderBudget(&computed, &skipped, &peak_values);
    std::printf(
        "under a 64 MiB budget: %lld of 2048 values computed, %lld skipped, peak value bytes "
        "%lld, peak RSS %lld KiB\n",
        static_cast<long long>(computed), static_cast<long long>(skipped),
        static_cast<long long>(peak_values), static_cast<long long>(rss));
    std::fflush(stdout);
    // Values must keep flowing (the collector makes room) and some must be skipped.
    return computed >= 1024 && skipped > 0 ? rss : -3;
  });
  ASSERT_GT(peak, 0) << "the build failed (-1), passed the budget (-2) or computed too few (-3)";
  EXPECT_LT(peak, 128 * 1024);
}

}  // namespace
}  // namespace graphgc
