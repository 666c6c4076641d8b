// Peak RSS of the seed chain (a = Mul(a, a) on 10000 doubles), of a graph under a live-value budget
// and of a deep MLP whose values are evicted and computed again, measured in forked children so
// that each run has its own high-water mark. These are memory bounds, not timings.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "graphgc/graphgc.h"
#include "proc_status.h"

namespace graphgc {
namespace {

enum class Mode { kCollectEachStep, kCollectAtEnd, kAutomatic };

int64_t PeakRssKib() { return graphgc_tests::ProcStatusKib("VmHWM"); }

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

// Runs `run` in a child process and returns the words it returned; none if the child failed.
std::vector<uint64_t> WordsFromChild(const std::function<std::vector<uint64_t>()>& run) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const std::vector<uint64_t> words = run();
    const size_t bytes = words.size() * sizeof(uint64_t);
    size_t sent = 0;
    while (sent < bytes) {
      const ssize_t written =
          write(fds[1], reinterpret_cast<const char*>(words.data()) + sent, bytes - sent);
      if (written <= 0) _exit(1);
      sent += static_cast<size_t>(written);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string received;
  char chunk[4096];
  for (ssize_t got; (got = read(fds[0], chunk, sizeof chunk)) > 0;) received.append(chunk, got);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return {};
  std::vector<uint64_t> words(received.size() / sizeof(uint64_t));
  std::memcpy(words.data(), received.data(), words.size() * sizeof(uint64_t));
  return words;
}

// Runs `run` in a child process and returns what it returned (the child's peak RSS in KiB, or -1).
int64_t InChild(const std::function<int64_t()>& run) {
  const std::vector<uint64_t> words =
      WordsFromChild([&] { return std::vector<uint64_t>{static_cast<uint64_t>(run())}; });
  return words.size() == 1 ? static_cast<int64_t>(words[0]) : -1;
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

// Values on demand (OnBudget::kEvictAndRecompute): a 200-layer MLP, Relu(Add(MatMul(x, W), b))
// over float[3584, 256], keeps a Var for each of its 600 values (3.5 MiB each, 2.1 GiB in all)
// under a 64 MiB budget and reads every one back, each equal to what a graph without a budget
// computed, in under 128 MiB of RSS. The reference hashes each value as it is made and lets it
// go, so it never holds the 2.1 GiB either.
constexpr int kMlpLayers = 200;
constexpr int64_t kMlpBatch = 3584;
constexpr int64_t kMlpWidth = 256;

Tensor Uniform(std::vector<int64_t> shape, float scale, unsigned seed) {
  std::minstd_rand generator(seed);
  std::uniform_real_distribution<float> draw(-scale, scale);
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& value : values) value = draw(generator);
  return Tensor::from_vector(std::move(values), shape);
}

struct MlpConstants {
  Var weights, bias, input;
};

MlpConstants MakeMlpConstants(Graph& g) {
  // Variance 1/width keeps 200 tied layers' activations finite and far from zero.
  return {g.constant(Uniform({kMlpWidth, kMlpWidth}, std::sqrt(3.0f / kMlpWidth), 1)),
          g.constant(Uniform({kMlpWidth}, 0.5f, 2)),
          g.constant(Uniform({kMlpBatch, kMlpWidth}, 1.0f, 3))};
}

uint64_t HashOf(const std::optional<Tensor>& value) {
  if (!value.has_value()) return 0;
  return std::hash<std::string_view>{}(
      std::string_view(static_cast<const char*>(value->raw_data()), value->nbytes()));
}

std::vector<uint64_t> MlpHashesWithoutBudget() {
  Graph g;
  const MlpConstants mlp = MakeMlpConstants(g);
  Var x = mlp.input;
  std::vector<uint64_t> hashes;
  for (int layer = 0; layer < kMlpLayers; ++layer) {
    const Var product = op::MatMul(x, mlp.weights);
    const Var sum = op::Add(product, mlp.bias);
    x = op::Relu(sum);
    for (const Var& var : {product, sum, x}) hashes.push_back(HashOf(var.value()));
  }
  return hashes;
}

// The peak RSS in KiB, or -1 when a value could not be read or differs from `reference`.
int64_t MlpReadBackUnderBudget(const std::vector<uint64_t>& reference) {
  constexpr int64_t kBudget = int64_t{64} << 20;
  GraphOptions options;
  options.max_live_value_bytes = kBudget;
  options.on_budget = OnBudget::kEvictAndRecompute;
  Graph g(options);
  const MlpConstants mlp = MakeMlpConstants(g);
  std::vector<Var> kept;
  Var x = mlp.input;
  for (int layer = 0; layer < kMlpLayers; ++layer) {
    kept.push_back(op::MatMul(x, mlp.weights));
    kept.push_back(op::Add(kept.back(), mlp.bias));
    kept.push_back(op::Relu(kept.back()));
    x = kept.back();
  }
  int64_t differ = 0;
  for (size_t i = 0; i < kept.size(); ++i) {
    const std::optional<Tensor> value = kept[i].value();
    if (!value.has_value()) {
      std::printf("value %zu: %s\n", i, kept[i].value_status().ToString().c_str());
      return -1;
    }
    if (HashOf(value) != reference[i]) ++differ;
  }
  const GraphStats stats = g.stats();
  const int64_t rss = PeakRssKib();
  std::printf(
      "MLP of %d layers under a 64 MiB budget: %zu values read, %lld differ, %lld evicted, %lld "
      "computed again, peak value bytes %lld, peak RSS %lld KiB\n",
      kMlpLayers, kept.size(), static_cast<long long>(differ),
      static_cast<long long>(stats.values_evicted), static_cast<long long>(stats.values_recomputed),
      static_cast<long long>(stats.peak_value_bytes), static_cast<long long>(rss));
  std::fflush(stdout);
  const bool evicted_and_recomputed = stats.values_evicted > 0 && stats.values_recomputed > 0;
  if (differ > 0 || !evicted_and_recomputed || stats.peak_value_bytes > kBudget) return -1;
  return rss;
}

TEST(MemoryBudgetTest, EvictedMlpValuesComeBackBitForBitUnder128MiBOfRss) {
  const std::vector<uint64_t> reference = WordsFromChild(MlpHashesWithoutBudget);
  ASSERT_EQ(reference.size(), size_t{3 * kMlpLayers});
  for (uint64_t hash : reference) ASSERT_NE(hash, 0u) << "the reference lacks a value";
  const int64_t peak = InChild([&] { return MlpReadBackUnderBudget(reference); });
  ASSERT_GT(peak, 0) << "a value could not be read, differs, or the budget was passed";
  EXPECT_LT(peak, 128 * 1024);
}

}  // namespace
}  // namespace graphgc
