// Evictor: what a graph under OnBudget::kEvictAndRecompute knows about its values beyond the
// store (which vars' values can be computed again, which were evicted or dropped, and why) and
// the choice of values to evict so that new bytes fit under the cap.
//
// A value can be computed again ("recomputable") when a deterministic kernel computed it from
// arena constants and recomputable values (the opset module decides when it stores the value),
// so the arena alone can give it back. Recomputable values that are not constants and not pinned
// are in the store's eviction order (ValueStore::make_evictable); the choice walks that order,
// least recently made or read first, and takes only values whose eviction gives bytes back
// (ValueStore::freeable_bytes); under EvictionPolicy::kCheapestToRecomputePerByte the oldest
// kEvictionWindow of them go by their kernel's nanoseconds per byte first. GraphCore owns one only
// in that mode, and carries out what it chooses. Threading: as its graph (thread-compatible).
#ifndef GRAPHGC_IR_EVICTOR_H_
#define GRAPHGC_IR_EVICTOR_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphgc/ir/chunked_vector.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "graphgc/ir/ids.h"
#include "graphgc/valuestore/value_ref.h"
#include "graphgc/valuestore/value_store.h"

namespace graphgc::internal {

class Evictor {
 public:
  explicit Evictor(EvictionPolicy policy) : policy_(policy) {}

  void add_vars(size_t count);

  void set_recomputable(VarId var) { states_[var.value()] |= kRecomputable; }
  bool recomputable(VarId var) const { return (states_[var.value()] & kRecomputable) != 0; }
  // What computing the value again costs: its kernel's time when it was made (kept only under
  // kCheapestToRecomputePerByte, which reads it).
  void set_cost(VarId var, int64_t ns);
  bool weighs_cost() const { return policy_ == EvictionPolicy::kCheapestToRecomputePerByte; }
  // Evicted while rooted: value() computes it again. Cleared when it is back.
  bool evicted(VarId var) const { return (states_[var.value()] & kEvicted) != 0; }
  void set_evicted(VarId var, bool evicted);
  // Its node's inputs and outputs did not fit under the cap when it was made: it has no value.
  bool dropped(VarId var) const { return (states_[var.value()] & kDropped) != 0; }
  void set_dropped(VarId var) { states_[var.value()] |= kDropped; }

  // Why an evicted var could not be computed again, or a dropped one got no value (OK: no
  // failure). Forgotten once the value is back.
  absl::Status failure(VarId var) const;
  void note_failure(VarId var, absl::Status status);

  // The values to evict, in the policy's order, so that `bytes` more fit under `cap` with `used`
  // bytes counted (`constants` of them the arena's): what gives back at least used + bytes - cap.
  // An error, choosing nothing, when even every evictable value would not.
  using Choice = std::vector<std::pair<VarId, ValueRef>>;
  absl::StatusOr<Choice> choose(const ValueStore& store, int64_t used, int64_t constants,
                                int64_t bytes, int64_t cap) const;

  void note_evicted(size_t bytes) {
    ++stats_.values_evicted;
    stats_.evicted_bytes += static_cast<int64_t>(bytes);
  }
  void note_recomputed(int64_t bytes) {
    ++stats_.values_recomputed;
    stats_.recomputed_bytes += bytes;
  }
  void note_recompute_time(int64_t ns) { stats_.recompute_ns += ns; }
  // The eviction and recomputation counts of GraphStats.
  void fill(GraphStats& stats) const;
  int64_t table_bytes() const;

 private:
  static constexpr uint8_t kRecomputable = 1;
  static constexpr uint8_t kEvicted = 2;
  static constexpr uint8_t kDropped = 4;

  // A value that may be evicted, and what evicting it gives back.
  struct Candidate {
    VarId var;
    ValueRef ref;
    int64_t freeable = 0;
  };
  // Under kCheapestToRecomputePerByte: the window's candidates by nanoseconds per byte (ties in
  // recency order), then the rest as they came.
  void order_by_cost(std::vector<Candidate>& candidates) const;

  EvictionPolicy policy_;
  ChunkedVector<uint8_t> states_;
  ChunkedVector<float> cost_ns_;  // kCheapestToRecomputePerByte only
  absl::flat_hash_map<uint32_t, absl::Status> failures_;
  GraphStats stats_;  // only the eviction fields
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_IR_EVICTOR_H_
