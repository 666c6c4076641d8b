// GraphOptions: how a Graph propagates values and when it collects them.
//
// Plain value type, given to the Graph constructor.
#ifndef GRAPHGC_GRAPH_OPTIONS_H_
#define GRAPHGC_GRAPH_OPTIONS_H_

#include <cstdint>

namespace graphgc {

enum class CollectPolicy {
  // Collect when live value bytes reach growth_factor times what survived the last collection,
  // but never below min_trigger_bytes (like Go's GOGC=100 with a floor the size of the L2 cache).
  kAdaptive,
  // Collect whenever live value bytes reach threshold_bytes.
  kFixedThreshold,
  // Only explicit collect() calls free values.
  kManual,
};

enum class CollectMode {
  kIncremental,  // look at what changed since the last collection (the default)
  kFull,         // look at every var (a reference for the incremental form)
};

// The default floor of the adaptive trigger: the per-core L2 cache size (sysconf, then sysfs;
// 1 MiB when neither tells; kept within [256 KiB, 16 MiB]), computed once.
//
// Why the cache: dead values pile up between collections, and once they outgrow L2 every new value
// lands in memory the cache has evicted. The seed chain (a = Mul(a, a) on 10 000 doubles, one
// 80 kB value per op; a collection costs 60-100 ns), measured in one process on a machine with a
// 1 MiB L2: collect() after every op 4386-4741 ns/op; automatic with a 4 MiB floor 6133-6141
// (about 50 dead buffers cycle through the cache); with 1 MiB 4536-4751, 512 KiB 4631-4697,
// 256 KiB 4562-4655. graphgc-bench's "automatic / collect-each-step" line prints the ratio for
// the default (1.03x with this floor, the day it was set). Collecting sooner costs almost nothing;
// the growth factor keeps a program with large live state from collecting after every op.
int64_t DefaultMinTriggerBytes();

struct GraphOptions {
  // Compute each op's output value when all its inputs have values (constant folding).
  bool propagate_values = true;
  // Never free a propagated value while the graph lives: spox's behaviour before its fix, kept to
  // compare against in benchmarks. collect() then frees nothing.
  bool keep_all_values = false;

  CollectPolicy collect_policy = CollectPolicy::kAdaptive;
  double growth_factor = 2.0;                            // kAdaptive
  int64_t min_trigger_bytes = DefaultMinTriggerBytes();  // kAdaptive floor: the L2 size
  int64_t threshold_bytes = int64_t{64} << 20;           // kFixedThreshold
  // Automatic collection (any policy but kManual) also runs once this many new values or dropped
  // roots await a look, so that the collector's own bookkeeping stays bounded when values are tiny
  // or absent. Under kManual that bookkeeping (8 bytes per op) waits for the next collect().
  int64_t max_pending = 1 << 16;

  // A value larger than this is not propagated (the var gets no value, its type is still
  // inferred): propagation must never be what exhausts memory. Default: 1 GiB.
  int64_t max_value_bytes = int64_t{1} << 30;

  // Trips a Loop may make while computing its value. A Loop that has not finished by then (its
  // condition never turns false, or its trip count is larger) gets no value, its type is still
  // inferred: propagation must never be what hangs a program.
  int64_t max_loop_trips = 1'000'000;
  // Threads a kernel may use to compute one value (MatMul, Gemm, Conv). The library never starts
  // a thread the user did not ask for: 1 computes on the calling thread.
  int kernel_threads = 1;
};

}  // namespace graphgc

#endif  // GRAPHGC_GRAPH_OPTIONS_H_
