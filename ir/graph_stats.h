// GraphStats and CollectStats: what a graph holds, and what one collection did.
//
// Plain value types, returned by Graph::stats() and Graph::collect().
#ifndef GRAPHGC_GRAPH_STATS_H_
#define GRAPHGC_GRAPH_STATS_H_

#include <cstdint>

namespace graphgc {

struct CollectStats {
  int64_t freed_values = 0;  // value slots freed
  int64_t freed_bytes = 0;   // bytes of buffers the value store released
  int64_t live_values = 0;   // value slots still held
  int64_t live_bytes = 0;    // bytes of distinct buffers still held
  // Vars the collector looked at: the values made since the last collection plus the vars whose
  // last handle went away since then (every var, for CollectMode::kEveryVar). Independent of graph
  // size.
  int64_t scanned = 0;
};

struct GraphStats {
  int64_t nodes = 0;
  int64_t vars = 0;
  // Bytes held by the arena (record tables, pools, names, constants) and the per-var collector
  // tables, measured as the capacity of their storage.
  int64_t arena_bytes = 0;
  int64_t live_value_bytes = 0;  // value-store buffers now held, each counted once
  int64_t peak_value_bytes = 0;  // the largest live_value_bytes ever reached
  int64_t live_values = 0;       // value slots now held
  int64_t collections = 0;       // collections run so far, explicit and automatic
  // Ops whose values were not computed because of GraphOptions::max_live_value_bytes.
  int64_t values_skipped_for_budget = 0;
  // OnBudget::kEvictAndRecompute: values of live vars evicted to make room, and the bytes that
  // gave back; values computed again when read (the values they needed included), their bytes,
  // and the time that took.
  int64_t values_evicted = 0;
  int64_t evicted_bytes = 0;
  int64_t values_recomputed = 0;
  int64_t recomputed_bytes = 0;
  int64_t recompute_ns = 0;
};

}  // namespace graphgc

#endif  // GRAPHGC_GRAPH_STATS_H_
