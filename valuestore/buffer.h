// Buffer: one immutable, reference-counted block of tensor elements, allocated from mimalloc.
//
// Layout of one allocation (64-byte aligned):
//   [ Buffer header (refcount, byte size, element type) | padding to 64 | elements ... ]
// Ownership: shared by every Tensor that views it; freed when the last reference goes. The count is
// atomic because a Tensor may be handed to several graphs built on different threads. String
// elements are constructed in place and destroyed with the buffer.
#ifndef GRAPHGC_BUFFER_H_
#define GRAPHGC_BUFFER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "graphgc/valuestore/data_type.h"

namespace graphgc {
namespace internal {

class Buffer {
 public:
  // Allocates room for `count` elements of `type` (strings default-constructed, others
  // uninitialized), with one reference held by the caller. Returns nullptr if the allocator fails.
  static Buffer* Allocate(DataType type, int64_t count);

  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();

  size_t nbytes() const { return nbytes_; }
  void* data() { return reinterpret_cast<char*>(this) + kDataOffset; }
  const void* data() const { return reinterpret_cast<const char*>(this) + kDataOffset; }

 private:
  static constexpr size_t kDataOffset = 64;
  Buffer(DataType type, int64_t count, size_t nbytes)
      : refs_(1), count_(count), nbytes_(nbytes), type_(type) {}
  ~Buffer() = default;

  std::atomic<int32_t> refs_;
  int64_t count_;
  size_t nbytes_;
  DataType type_;
};
static_assert(sizeof(Buffer) <= 64, "Buffer header must fit before the data offset");

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_BUFFER_H_
