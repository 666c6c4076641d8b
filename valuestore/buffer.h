// Buffer: one immutable, reference-counted block of tensor elements.
//
// Two kinds, told apart only when the last reference goes:
//   owned     one mimalloc allocation (64-byte aligned) holding header and elements:
//             [ Buffer header (refcount, sizes, element type) | padding to 64 | elements ... ]
//   external  the header alone, viewing elements in memory someone else owns (a memory-mapped
//             file region); `owner` keeps that memory alive until the buffer is freed. Never
//             strings, never written to.
// Both store the element pointer, so reading the elements costs the same.
// Ownership: shared by every Tensor that views it; freed when the last reference goes. The count is
// atomic because a Tensor may be handed to several graphs built on different threads. String
// elements are constructed in place and destroyed with the buffer.
//
// A buffer also carries one value store's count of the slots viewing it (value_store.h): the store
// that claims it counts there, without a table; a store that finds it claimed by another counts
// in a table of its own. The claim is atomic; the count behind it is read and written only by the
// claiming store, on the one thread that uses that store at a time.
#ifndef GRAPHGC_BUFFER_H_
#define GRAPHGC_BUFFER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "graphgc/valuestore/data_type.h"

namespace graphgc {
namespace internal {

class Buffer {
 public:
  // Allocates room for `count` elements of `type` (strings default-constructed, others
  // uninitialized), with one reference held by the caller. Returns nullptr if the allocator fails.
  static Buffer* Allocate(DataType type, int64_t count);
  // A buffer over `count` elements of `type` at `data`, which `owner` keeps alive; one reference
  // held by the caller. The caller has checked the type (not string), size and alignment. Returns
  // nullptr if the allocator fails.
  static Buffer* WrapExternal(DataType type, int64_t count, const void* data,
                              std::shared_ptr<const void> owner);

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();
  // How many references there are now (Tensors viewing it). A hint for the thread that holds one:
  // 1 means only the caller's; other threads may add or drop theirs at any time.
  int32_t use_count() const { return refs_.load(std::memory_order_relaxed); }

  size_t nbytes() const { return nbytes_; }
  bool is_external() const { return owner_ != nullptr; }
  // The value store's claim. Store ids are even, never 0 and never reused; TryClaim takes an
  // unclaimed buffer, ReleaseClaim gives it back with its count at 0. The external mark (the
  // claiming store holds the buffer as arena-owned: never counted) is the claim's low bit.
  bool TryClaim(uint64_t store) const {
    uint64_t unclaimed = 0;
    return claim_.compare_exchange_strong(unclaimed, store, std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }
  bool ClaimedBy(uint64_t store) const {
    return (claim_.load(std::memory_order_acquire) & ~uint64_t{1}) == store;
  }
  bool ClaimedAsExternal() const { return (claim_.load(std::memory_order_relaxed) & 1) != 0; }
  void MarkClaimedAsExternal(uint64_t store) const {
    claim_.store(store | 1, std::memory_order_relaxed);
  }
  void ReleaseClaim() const {
    claimed_uses_ = 0;
    claim_.store(0, std::memory_order_release);
  }
  int64_t& claimed_uses() const { return claimed_uses_; }

  // Writable only for an owned buffer, and only through a MutableTensor that has not been frozen.
  void* data() { return data_; }
  const void* data() const { return data_; }

 private:
  static constexpr size_t kDataOffset = 64;
  Buffer(DataType type, int64_t count, size_t nbytes, void* data, std::shared_ptr<const void> owner)
      : refs_(1),
        type_(type),
        count_(count),
        nbytes_(nbytes),
        data_(data),
        owner_(std::move(owner)) {}
  ~Buffer() = default;

  std::atomic<int32_t> refs_;
  DataType type_;
  int64_t count_;
  size_t nbytes_;
  void* data_;
  std::shared_ptr<const void> owner_;  // external buffers only
  mutable std::atomic<uint64_t> claim_{0};
  mutable int64_t claimed_uses_ = 0;
};
static_assert(sizeof(Buffer) <= 64, "Buffer header must fit before the data offset");

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_BUFFER_H_
