// The cost of one collect() as a function of graph size.
//
// The incremental collector looks only at what changed since the last collection (values made,
// handles dropped), so a collection after one op should cost the same in a graph of a thousand
// nodes as in one of a million. ScalarChain builds such graphs cheaply — a = Add(a, one) on scalar
// doubles — and grows them one op at a time.
#ifndef GRAPHGC_BENCH_COLLECT_COST_H_
#define GRAPHGC_BENCH_COLLECT_COST_H_

#include <cstdint>
#include <vector>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/graph_stats.h"
#include "graphgc/ir/var.h"

namespace graphgc::bench {

class ScalarChain {
 public:
  // A graph of `nodes` nodes (two constants, then Adds), collected once at the end so that the
  // next collection sees only what comes after.
  explicit ScalarChain(int64_t nodes);

  void AddOne();  // a = Add(a, one): one node, one new value, one dropped handle
  CollectStats Collect() { return graph_.collect(); }
  int64_t nodes() const { return graph_.stats().nodes; }
  bool ok() const { return a_.ok(); }

 private:
  Graph graph_;
  Var one_;
  Var a_;
};

struct CollectCostRow {
  int64_t graph_nodes = 0;  // before the timed collections
  int64_t samples = 0;
  double median_ns = 0;  // of one collect() after one op
  int64_t scanned_min = 0;
  int64_t scanned_max = 0;
  bool ok = false;  // the chain built without a failed var
};

// Builds a ScalarChain of `nodes` nodes, then `samples` times adds one op and times collect().
CollectCostRow MeasureCollectCost(int64_t nodes, int64_t samples);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_COLLECT_COST_H_
