// GraphOptions: how a Graph propagates values and when it collects them.
//
// Plain value type, given to the Graph constructor.
#ifndef GRAPHGC_GRAPH_OPTIONS_H_
#define GRAPHGC_GRAPH_OPTIONS_H_

#include <cstdint>

namespace graphgc {

enum class CollectPolicy {
  // Collect when live value bytes reach growth_factor times what survived the last collection,
  // but never below min_trigger_bytes (like Go's GOGC=100 with a floor sized by the L2 cache).
  kAdaptive,
  // Collect whenever live value bytes reach threshold_bytes.
  kFixedThreshold,
  // Only explicit collect() calls free values.
  kManual,
};

// Which vars a collection looks at (ir/collector.h explains why the first is exact).
enum class CollectMode {
  // The remembered set: vars that got a value or lost their last handle since the last
  // collection (the default, and what automatic collections run).
  kChangedSinceLast,
  // Every var of the graph (the reference the remembered-set collection is tested against).
  kEveryVar,
  // The names of the first release, kept for one more.
  kIncremental [[deprecated("use CollectMode::kChangedSinceLast")]] = kChangedSinceLast,
  kFull [[deprecated("use CollectMode::kEveryVar")]] = kEveryVar,
};

// The default floor of the adaptive trigger: a quarter of the per-core L2 cache (sysconf, then
// sysfs; a 1 MiB cache when neither tells; kept within [64 KiB, 4 MiB]), computed once.
//
// Why the cache: dead values pile up between collections, and once they and the live values
// outgrow L2 every new value lands in memory the cache has evicted. Why a quarter: the op's inputs,
// its output and what the program keeps share the cache with the dead values. The seed chain
// (a = Mul(a, a) on 10 000 doubles, one 80 kB value per op; a collection costs 60-100 ns), on a
// machine with a 1 MiB L2, best of 5 in one process: collect() after every op 1569 ns/op;
// automatic with a floor of 2 MiB 2048, 1 MiB 1899, 512 KiB 1696, 256 KiB 1553, 128 KiB 1588,
// 64 KiB 1559. A floor of the whole L2 was 1.2x collect-each; a quarter of it matches it.
// graphgc-bench's "automatic / collect-each-step" line prints the ratio for the default.
// Collecting sooner costs almost nothing; the growth factor keeps a program with large live state
// from collecting after every op.
int64_t DefaultMinTriggerBytes();

// What a graph does when a value would pass GraphOptions::max_live_value_bytes.
enum class OnBudget {
  // The op gets its types but no value, and neither do the ops that read it; GraphStats counts it.
  kDropValues,
  // Room is made by evicting values of live vars, the least recently made or read (Var::value)
  // first: only values a deterministic kernel computed from constants or from other such values,
  // never a pinned one (Var::pin) or a constant. Reading an evicted value (Var::value) computes it
  // again, with the
  // values it needs that are gone too, under the same cap. Values that cannot be computed again
  // (a constant's, a body's, a custom op's that is not deterministic) count against the cap and
  // stay. An op whose own inputs and outputs cannot fit even so gets no value ("dropped").
  kEvictAndRecompute,
};

// Which values OnBudget::kEvictAndRecompute evicts first.
enum class EvictionPolicy {
  // The value least recently made or read (Var::value) first.
  kLeastRecentlyUsed,
  // Among the kEvictionWindow least recently used values, the one whose kernel took the fewest
  // nanoseconds per byte of value first (its time measured when it was made), then the rest least
  // recently used first: a MatMul's product is kept over an Add's sum of the same size. The window
  // keeps each choice O(window), not O(values held).
  kCheapestToRecomputePerByte,
};
inline constexpr int kEvictionWindow = 64;

struct GraphOptions {
  // Compute each op's output value when all its inputs have values (constant folding).
  bool propagate_values = true;
  // Never free a propagated value while the graph lives: spox's behaviour before its fix, kept to
  // compare against in benchmarks. collect() then frees nothing.
  bool keep_all_values = false;

  CollectPolicy collect_policy = CollectPolicy::kAdaptive;
  double growth_factor = 2.0;                            // kAdaptive
  int64_t min_trigger_bytes = DefaultMinTriggerBytes();  // kAdaptive floor: L2 / 4
  int64_t threshold_bytes = int64_t{64} << 20;           // kFixedThreshold
  // Automatic collection (any policy but kManual) also runs once this many new values or dropped
  // roots await a look, so that the collector's own bookkeeping stays bounded when values are tiny
  // or absent. Under kManual that bookkeeping (8 bytes per op) waits for the next collect().
  int64_t max_pending = 1 << 16;

  // A value larger than this is not propagated (the var gets no value, its type is still
  // inferred): propagation must never be what exhausts memory. Default: 1 GiB.
  int64_t max_value_bytes = int64_t{1} << 30;
  // Live value bytes past which no more values are computed (ops still get their types); 0: no
  // cap. When an op's outputs would pass the cap, the graph collects first (under any policy but
  // kManual); outputs that still do not fit are not computed, and GraphStats counts the op. So
  // propagation never holds more than this (an output of unknown size is computed under what the
  // cap has left, and dropped if it would not fit).
  int64_t max_live_value_bytes = 0;
  // Past max_live_value_bytes: forget new values (the default) or evict and recompute old ones.
  OnBudget on_budget = OnBudget::kDropValues;
  EvictionPolicy eviction_policy = EvictionPolicy::kLeastRecentlyUsed;  // kEvictAndRecompute
  // kEvictAndRecompute: constants held in memory (never evicted) count against
  // max_live_value_bytes too, so that the cap bounds everything the graph holds. A fold turns it
  // off: its budget is for the values it computes, the model's own weights being its input.
  bool budget_counts_constants = true;

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
