// The hand-written baseline for the seed chain: what one squaring step costs with no graph at all.
//
// Each step allocates a fresh buffer and squares the previous one into it, then frees the previous
// one — the same allocation pattern as a propagated Mul whose input dies, minus everything graphgc
// adds (type inference, the arena, the value store, the collector).
#ifndef GRAPHGC_BENCH_HAND_LOOP_H_
#define GRAPHGC_BENCH_HAND_LOOP_H_

#include <cstdint>
#include <memory>

namespace graphgc::bench {

class HandSquareChain {
 public:
  HandSquareChain();  // starts from kSeedElements zeros

  void Step();
  // Sum of the current buffer: reading every element keeps the last step observable.
  double Checksum() const;

 private:
  std::unique_ptr<double[]> current_;
};

// Runs `steps` steps on a fresh chain and returns the wall time of the steps in nanoseconds.
double TimeHandSquareChain(int64_t steps);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_HAND_LOOP_H_
