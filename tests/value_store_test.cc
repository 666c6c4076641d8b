// The value store: generational slots (stale detection, reuse, retirement) and buffer accounting.
#include "graphgc/valuestore/value_store.h"

#include <gtest/gtest.h>

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

TEST(ValueStoreDeathTest, DoubleReleaseAborts) {
  ValueStore store;
  const ValueRef ref = store.insert(Doubles(1));
  store.release(ref);
  EXPECT_DEATH(store.release(ref), "stale");
}

}  // namespace
}  // namespace graphgc::internal
