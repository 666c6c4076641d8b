// ValueStore: the generational slot store that owns propagated tensors, apart from the arena.
//
// Each slot holds one value: a Tensor, or a sequence, optional or map (value.h). Slots are
// addressed by ValueRef{slot, generation}; release() frees a slot and bumps its generation, so
// stale references are detected, never followed. Freed slots are reused through a free list (LIFO,
// which keeps reuse cache-warm).
//
// Accounting is by buffer, not by slot: several slots may view one Buffer (Identity, Reshape), and
// it is counted once, when its first slot takes it, and released when its last slot goes. Buffers
// that the arena owns (constants) are registered with adopt_external() and never counted here.
// The count of a buffer lives in the buffer when this store holds its claim (buffer.h: one store
// at a time; a fresh buffer from a kernel is always unclaimed), and in buffer_uses_ when another
// store holds it (a tensor shared between graphs). A claim outlives its store only on a buffer
// someone else still holds; other stores then count that buffer in their tables.
//
// The store only stores; which values are garbage is decided by the Graph's collector.
// Threading: thread-compatible (one thread at a time), like the Graph that owns it.
#ifndef GRAPHGC_VALUE_STORE_H_
#define GRAPHGC_VALUE_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "graphgc/valuestore/recency_list.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"
#include "graphgc/valuestore/value_ref.h"

namespace graphgc {
namespace internal {

class ValueStore {
 public:
  ValueStore();
  ValueStore(const ValueStore&) = delete;
  ValueStore& operator=(const ValueStore&) = delete;

  ValueRef insert(Tensor tensor);
  ValueRef insert(Value value);
  // The tensor behind `ref`, or nullopt if `ref` is null or stale or holds another kind of value.
  std::optional<Tensor> get(ValueRef ref) const;
  // The same tensor viewed in place, without taking a reference to its buffer: valid until the
  // store next changes (insert, release), so the caller reads it and lets go before that.
  const Tensor* view(ValueRef ref) const;
  // The value behind `ref` of any kind, or nullopt if `ref` is null or stale.
  std::optional<Value> get_value(ValueRef ref) const;
  bool contains(ValueRef ref) const;
  // Frees the slot of a valid reference; returns the bytes this released (0 if its buffer is still
  // viewed by another slot or owned by the arena). Aborts on a stale reference: the collector must
  // never free twice.
  size_t release(ValueRef ref);

  // The eviction order, for a graph that may evict values to stay under its budget: the values
  // made evictable, least recently used first, each with its owner's tag (the graph's var).
  // release() takes a value out of it. A store nothing is made evictable in allocates nothing.
  void make_evictable(ValueRef ref, uint32_t owner);  // as the most recently used
  void make_unevictable(ValueRef ref);
  void touch(ValueRef ref);  // an evictable value was read: the most recently used now
  bool evictable(ValueRef ref) const;
  // Calls visit(ref, owner) for each evictable value, least recently used first, until it
  // returns false. `visit` must not change the store (release after the walk).
  void visit_evictable(absl::FunctionRef<bool(ValueRef, uint32_t owner)> visit) const;
  // The bytes release(ref) would give back now: those of its buffers that nothing else holds (no
  // other slot, the arena, a Tensor outside the store, another graph). 0 for a null or stale ref.
  size_t freeable_bytes(ValueRef ref) const;

  // Marks a buffer as owned by someone else (the arena): slots may view it, it is never counted.
  // A buffer already counted (a value made a constant) stops counting here.
  void adopt_external(const Tensor& tensor);

  int64_t live_bytes() const { return live_bytes_; }
  int64_t peak_bytes() const { return peak_bytes_; }
  // Values held outside the store for a while (a Loop's state and its body's temporaries while
  // the loop runs) count towards the peak as if they were live: the peak is live + `bytes`.
  void note_transient_bytes(int64_t bytes);
  int64_t live_values() const { return live_values_; }
  // Bytes of the store's own bookkeeping (slot table and buffer table capacity).
  int64_t overhead_bytes() const;

 private:
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  struct Slot {
    Tensor tensor;                           // a tensor value
    std::shared_ptr<const Value> composite;  // a sequence, optional or map value
    uint32_t generation = 1;
    uint32_t next_free = kNoSlot;
  };
  struct BufferUse {
    int64_t slots = 0;      // slots viewing the buffer
    bool external = false;  // owned by the arena: not counted
  };

  uint32_t take_free_slot();
  bool occupied(const Slot& slot) const {
    return slot.tensor.dtype() != DataType::kUndefined || slot.composite != nullptr;
  }
  void count_buffer(const Tensor& tensor);
  size_t uncount_buffer(const Tensor& tensor);
  // The table's side of the accounting, for buffers another store has claimed.
  void count_in_table(const Tensor& tensor);
  size_t uncount_in_table(const Tensor& tensor);
  void adopt_external_in_table(const Tensor& tensor);
  // Whether this store counts `buffer` in the buffer itself: it holds the claim, or takes it now
  // (the claim is free and the table does not count the buffer already).
  bool holds_claim(const Buffer* buffer) const;
  void add_live_bytes(size_t bytes);
  // Of one buffer of a slot: its bytes if that slot alone holds it and this store counts it.
  size_t freeable_bytes_of(const Tensor& tensor) const;

  std::vector<Slot> slots_;
  uint32_t free_head_ = kNoSlot;
  absl::flat_hash_map<const Buffer*, BufferUse> buffer_uses_;
  RecencyList eviction_order_;
  const uint64_t id_;  // the claim this store puts on buffers (buffer.h)
  int64_t live_bytes_ = 0;
  int64_t peak_bytes_ = 0;
  int64_t live_values_ = 0;
};

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_VALUE_STORE_H_
