// The value store: generational slots (stale detection, reuse, retirement), buffer accounting, and
// the eviction order with the bytes an eviction would free.
#include "graphgc/valuestore/value_store.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "graphgc/valuestore/recency_list.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {
namespace {

Tensor Doubles(int64_t count) { return Tensor::zeros(DataType::kDouble, {count}); }

TEST(ValueStoreTest, InsertAndGet) {
  ValueStore store;
  const Tensor t = Tensor::from_vector<float>({1, 2, 3});
  const ValueRef ref = store.insert(t);
  EXPECT_FALSE(ref.is_null());
  ASSERT_TRUE(store.get(ref).has_value());
  EXPECT_EQ(*store.get(ref), t);
  EXPECT_EQ(store.live_values(), 1);
  EXPECT_EQ(store.live_bytes(), 12);
}

TEST(ValueStoreTest, ReleasedReferenceIsStale) {
  ValueStore store;
  const ValueRef ref = store.insert(Doubles(4));
  EXPECT_EQ(store.release(ref), 32u);
  EXPECT_FALSE(store.contains(ref));
  EXPECT_FALSE(store.get(ref).has_value());
  EXPECT_EQ(store.live_bytes(), 0);
  EXPECT_EQ(store.live_values(), 0);
}

TEST(ValueStoreTest, ReusedSlotGetsNewGeneration) {
  ValueStore store;
  const ValueRef old_ref = store.insert(Doubles(4));
  store.release(old_ref);
  const ValueRef new_ref = store.insert(Doubles(8));
  EXPECT_EQ(new_ref.slot, old_ref.slot);
  EXPECT_EQ(new_ref.generation, old_ref.generation + 1);
  EXPECT_FALSE(store.contains(old_ref));
  EXPECT_TRUE(store.contains(new_ref));
  EXPECT_EQ(store.get(new_ref)->size(), 8);
}

TEST(ValueStoreTest, NullReferenceIsNeverValid) {
  ValueStore store;
  store.insert(Doubles(1));
  EXPECT_FALSE(store.contains(ValueRef{}));
  EXPECT_FALSE(store.contains(ValueRef{0, 0}));
  EXPECT_FALSE(store.contains(ValueRef{7, 1}));  // a slot that does not exist
}

TEST(ValueStoreTest, PackedLayoutRoundTrips) {
  const ValueRef ref{0x12345678u, 0x9abcdef0u};
  EXPECT_EQ(ref.packed(), 0x9abcdef012345678ull);
  EXPECT_EQ(ValueRef::FromPacked(ref.packed()), ref);
}

TEST(ValueStoreTest, SharedBufferCountedOnce) {
  ValueStore store;
  const Tensor t = Doubles(10);
  const ValueRef a = store.insert(t);
  const ValueRef b = store.insert(t.reshaped({2, 5}));
  EXPECT_EQ(store.live_values(), 2);
  EXPECT_EQ(store.live_bytes(), 80);
  EXPECT_EQ(store.release(a), 0u);  // still viewed by b
  EXPECT_EQ(store.live_bytes(), 80);
  EXPECT_EQ(store.release(b), 80u);
  EXPECT_EQ(store.live_bytes(), 0);
  EXPECT_EQ(store.peak_bytes(), 80);
}

TEST(ValueStoreTest, ExternalBuffersAreNotCounted) {
  ValueStore store;
  const Tensor constant = Doubles(10);
  store.adopt_external(constant);
  const ValueRef ref = store.insert(constant);
  EXPECT_EQ(store.live_bytes(), 0);
  EXPECT_EQ(store.live_values(), 1);
  EXPECT_EQ(store.release(ref), 0u);
}

// One buffer in two stores: the first to take it counts it in the buffer, the other in its table;
// each counts it once, frees it with its last slot, and can take the claim once it is free.
TEST(ValueStoreTest, ABufferSharedBetweenStoresIsCountedInEach) {
  const Tensor t = Doubles(10);
  ValueStore first;
  ValueStore second;
  const ValueRef a = first.insert(t);
  const ValueRef b = second.insert(t);
  const ValueRef c = second.insert(t.reshaped({5, 2}));
  EXPECT_EQ(first.live_bytes(), 80);
  EXPECT_EQ(second.live_bytes(), 80);
  EXPECT_EQ(first.release(a), 80u);
  EXPECT_EQ(second.live_bytes(), 80);
  // The claim is free, but the second store counts this buffer in its table, and goes on there.
  const ValueRef e = second.insert(t);
  EXPECT_EQ(second.live_bytes(), 80);
  const ValueRef d = first.insert(t);  // the first store takes the claim back
  EXPECT_EQ(first.live_bytes(), 80);
  EXPECT_EQ(second.release(b), 0u);
  EXPECT_EQ(second.release(c), 0u);
  EXPECT_EQ(second.release(e), 80u);
  EXPECT_EQ(second.live_bytes(), 0);
  EXPECT_EQ(first.release(d), 80u);
  EXPECT_EQ(first.live_bytes(), 0);
  EXPECT_EQ(first.peak_bytes(), 80);
  EXPECT_EQ(second.peak_bytes(), 80);
}

// A value that becomes a constant stops counting, in the claiming store and in a store that
// counts it in its table alike; a claim left by a store that is gone binds no other store.
TEST(ValueStoreTest, ExternalAfterCountedAndClaimsOfStoresThatAreGone) {
  const Tensor t = Doubles(10);
  ValueStore second;
  {
    ValueStore first;
    const ValueRef a = first.insert(t);
    const ValueRef b = second.insert(t);
    first.adopt_external(t);
    second.adopt_external(t);
    EXPECT_EQ(first.live_bytes(), 0);
    EXPECT_EQ(second.live_bytes(), 0);
    EXPECT_EQ(first.release(a), 0u);
    EXPECT_EQ(second.release(b), 0u);
  }  // `first` is gone with its claim on t's buffer, which t still holds
  ValueStore third;
  const ValueRef c = third.insert(t);
  EXPECT_EQ(third.live_bytes(), 80);
  EXPECT_EQ(third.release(c), 80u);
  const ValueRef d = second.insert(t);  // still external in the second store's table
  EXPECT_EQ(second.live_bytes(), 0);
  EXPECT_EQ(second.release(d), 0u);
}

TEST(ValueStoreTest, FreeListIsLifo) {
  ValueStore store;
  const ValueRef a = store.insert(Doubles(1));
  const ValueRef b = store.insert(Doubles(1));
  store.release(a);
  store.release(b);
  EXPECT_EQ(store.insert(Doubles(1)).slot, b.slot);
  EXPECT_EQ(store.insert(Doubles(1)).slot, a.slot);
}

std::vector<uint32_t> Order(const RecencyList& list) {
  std::vector<uint32_t> order;
  for (auto i = list.oldest(); i.has_value(); i = list.newer(*i)) order.push_back(*i);
  return order;
}

TEST(RecencyListTest, OldestFirstThroughTouchesAndRemovals) {
  RecencyList list;
  EXPECT_EQ(list.oldest(), std::nullopt);
  for (uint32_t i : {5u, 0u, 9u, 2u}) list.push_newest(i, 100 + i);
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{5, 0, 9, 2}));
  list.touch(2);  // the newest already: nothing moves
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{5, 0, 9, 2}));
  list.touch(5);
  list.touch(7);  // not in: nothing
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{0, 9, 2, 5}));
  list.remove(9);
  list.remove(9);
  list.remove(0);
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{2, 5}));
  list.push_newest(2, 7);  // again: moved, tag replaced
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{5, 2}));
  EXPECT_EQ(list.tag(2), 7u);
  EXPECT_EQ(list.tag(5), 105u);
  EXPECT_EQ(list.size(), 2u);
  list.remove(5);
  list.remove(2);
  EXPECT_EQ(list.oldest(), std::nullopt);
  EXPECT_EQ(list.size(), 0u);
  list.push_newest(3, 0);
  EXPECT_EQ(Order(list), (std::vector<uint32_t>{3}));
}

std::vector<uint32_t> EvictableOwners(const ValueStore& store) {
  std::vector<uint32_t> owners;
  store.visit_evictable([&](ValueRef, uint32_t owner) {
    owners.push_back(owner);
    return true;
  });
  return owners;
}

TEST(ValueStoreEvictionTest, LeastRecentlyUsedFirstAndReleaseTakesOut) {
  ValueStore store;
  const ValueRef a = store.insert(Doubles(1));
  const ValueRef b = store.insert(Doubles(1));
  const ValueRef c = store.insert(Doubles(1));
  store.make_evictable(a, 10);
  store.make_evictable(b, 11);
  store.make_evictable(c, 12);
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{10, 11, 12}));
  store.touch(a);
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{11, 12, 10}));
  store.make_unevictable(c);
  EXPECT_FALSE(store.evictable(c));
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{11, 10}));
  store.release(b);
  EXPECT_FALSE(store.evictable(b));  // stale
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{10}));
  // b's slot is reused by a value that is not evictable until it is made so.
  const ValueRef d = store.insert(Doubles(1));
  EXPECT_EQ(d.slot, b.slot);
  EXPECT_FALSE(store.evictable(d));
  store.make_evictable(d, 13);
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{10, 13}));
  // The walk gives current references and stops when asked.
  int visited = 0;
  store.visit_evictable([&](ValueRef ref, uint32_t) {
    EXPECT_TRUE(store.contains(ref));
    ++visited;
    return false;
  });
  EXPECT_EQ(visited, 1);
  store.touch(b);  // stale: nothing
  EXPECT_EQ(EvictableOwners(store), (std::vector<uint32_t>{10, 13}));
}

// An eviction frees a buffer only when nothing else holds it: not another slot (a view), not a
// Tensor outside the store, not the arena, not another store.
TEST(ValueStoreEvictionTest, FreeableBytesCountOnlyBuffersNothingElseHolds) {
  ValueStore store;
  const ValueRef alone = store.insert(Doubles(10));
  EXPECT_EQ(store.freeable_bytes(alone), 80u);

  Tensor shared = Doubles(10);
  const ValueRef base = store.insert(shared);
  const ValueRef view = store.insert(shared.reshaped({2, 5}));
  shared = Tensor();
  EXPECT_EQ(store.freeable_bytes(base), 0u);  // the view holds it
  EXPECT_EQ(store.freeable_bytes(view), 0u);
  store.release(base);
  EXPECT_EQ(store.freeable_bytes(view), 80u);

  const Tensor copy = Doubles(4);
  const ValueRef held = store.insert(copy);
  EXPECT_EQ(store.freeable_bytes(held), 0u);  // `copy` holds it

  const Tensor constant = Doubles(4);
  store.adopt_external(constant);
  const ValueRef of_constant = store.insert(constant);
  EXPECT_EQ(store.freeable_bytes(of_constant), 0u);

  ValueStore other;
  Tensor between = Doubles(3);
  const ValueRef in_other = other.insert(between);
  const ValueRef in_table = store.insert(between);  // counted in this store's table
  between = Tensor();
  EXPECT_EQ(store.freeable_bytes(in_table), 0u);  // the other store's slot holds it
  other.release(in_other);
  EXPECT_EQ(store.freeable_bytes(in_table), 24u);
  EXPECT_EQ(store.release(in_table), 24u);

  EXPECT_EQ(store.freeable_bytes(ValueRef{}), 0u);
  EXPECT_EQ(store.release(alone), 80u);
  EXPECT_EQ(store.freeable_bytes(alone), 0u);  // stale
}

TEST(ValueStoreDeathTest, DoubleReleaseAborts) {
  ValueStore store;
  const ValueRef ref = store.insert(Doubles(1));
  store.release(ref);
  EXPECT_DEATH(store.release(ref), "stale");
}

}  // namespace
}  // namespace graphgc::internal
