#include "hand_loop.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <utility>

#include "seed_scenario.h"

namespace graphgc::bench {

HandSquareChain::HandSquareChain() : current_(new double[kSeedElements]()) {}

void HandSquareChain::Step() {
  // Default-initialized, as a kernel's output buffer is: every element is written below.
  std::unique_ptr<double[]> out(new double[kSeedElements]);
  const double* in = current_.get();
  for (int64_t i = 0; i < kSeedElements; ++i) out[i] = in[i] * in[i];
  // The pointer escapes into an opaque asm with a memory clobber, so the stores cannot be elided
  // and the allocation cannot be folded away.
  benchmark::DoNotOptimize(out.get());
  current_ = std::move(out);
}

double HandSquareChain::Checksum() const {
  double sum = 0;
  for (int64_t i = 0; i < kSeedElements; ++i) sum += current_[i];
  return sum;
}

double TimeHandSquareChain(int64_t steps) {
  using Clock = std::chrono::steady_clock;
  HandSquareChain chain;
  const Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < steps; ++i) chain.Step();
  const Clock::duration elapsed = Clock::now() - start;
  double checksum = chain.Checksum();
  benchmark::DoNotOptimize(checksum);
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
}

}  // namespace graphgc::bench
