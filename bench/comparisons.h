// The two comparisons the default suite prints after the seed scenario table: the chain against
// the hand loop (each run in a forked child, so that each starts from the same heap), and the
// cost of collect() (in the benchmark's own process).
#ifndef GRAPHGC_BENCH_COMPARISONS_H_
#define GRAPHGC_BENCH_COMPARISONS_H_

#include <cstdint>
#include <vector>

#include "collect_cost.h"

namespace graphgc::bench {

// "seed chain vs hand loop": ns per step of the graphgc chain (two modes) and of the hand-written
// squaring loop, each the minimum of `repetitions` runs, the three run in turn, each run in a
// child process of its own. Each chain child first makes one step in a throwaway graph, which pays
// the process's one-time initialization; that step's time is reported apart (first_step_ns, the
// minimum over the chain children). `correct` is false if a chain's value was wrong or a child
// failed.
struct ChainVsHandLoop {
  int64_t n = 0;
  int repetitions = 0;
  double collect_each_step_ns = 0;
  double automatic_ns = 0;
  double hand_loop_ns = 0;
  double first_step_ns = 0;
  bool correct = false;  // every run reported, and every graphgc run ended with the right value
};

ChainVsHandLoop CompareChainWithHandLoop(int64_t n, int repetitions);

// "collect() cost vs graph size": one row per graph size, in the order given.
std::vector<CollectCostRow> CompareCollectCost(const std::vector<int64_t>& graph_sizes,
                                               int64_t samples);

// a / b, or 0 when b is not positive (so that reports never print inf or nan).
double Ratio(double a, double b);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_COMPARISONS_H_
