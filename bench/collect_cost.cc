#include "collect_cost.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "graphgc/opset/build/ops.h"
#include "graphgc/valuestore/tensor.h"
#include "median.h"

namespace graphgc::bench {

// Default options on purpose: propagation on, so each op leaves a value for the collector to
// free, and the adaptive policy's pending limit keeps the bookkeeping bounded while building.
ScalarChain::ScalarChain(int64_t nodes)
    : one_(graph_.constant(Tensor::scalar<double>(1.0))),
      a_(graph_.constant(Tensor::scalar<double>(0.0))) {
  for (int64_t built = 2; built < nodes; ++built) AddOne();
  graph_.collect();
}

void ScalarChain::AddOne() { a_ = op::Add(a_, one_); }

CollectCostRow MeasureCollectCost(int64_t nodes, int64_t samples) {
  using Clock = std::chrono::steady_clock;
  ScalarChain chain(nodes);
  CollectCostRow row;
  row.graph_nodes = chain.nodes();
  row.samples = samples;
  row.scanned_min = std::numeric_limits<int64_t>::max();
  std::vector<double> times;
  times.reserve(static_cast<size_t>(samples));
  for (int64_t i = 0; i < samples; ++i) {
    chain.AddOne();
    const Clock::time_point start = Clock::now();
    const CollectStats stats = chain.Collect();
    const Clock::duration elapsed = Clock::now() - start;
    times.push_back(
        static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()));
    row.scanned_min = std::min(row.scanned_min, stats.scanned);
    row.scanned_max = std::max(row.scanned_max, stats.scanned);
  }
  if (samples == 0) row.scanned_min = 0;
  row.median_ns = Median(std::move(times));
  row.ok = chain.ok();
  return row;
}

}  // namespace graphgc::bench
