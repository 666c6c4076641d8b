// ChunkedVector<T>: append-only storage in fixed-size chunks, addressed by index.
//
// Growing never moves existing elements (a new chunk is added instead), and the memory held is the
// elements in use plus at most one partly filled chunk, so capacity() reports the real footprint
// without a vector's doubling slack. Callers address elements by index and copy them out; no
// pointer into the storage leaves the caller's function. Thread-compatible.
#ifndef GRAPHGC_CHUNKED_VECTOR_H_
#define GRAPHGC_CHUNKED_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "graphgc/valuestore/check.h"

namespace graphgc {
namespace internal {

template <class T, int kChunkBits = 10>
class ChunkedVector {
 public:
  static constexpr size_t kChunkSize = size_t{1} << kChunkBits;

  size_t size() const { return size_; }

  // Index of the appended element.
  uint32_t push_back(T value) {
    // The arena refuses new nodes once a table holds kMaxArenaEntries (Arena::full), far below.
    GRAPHGC_CHECK(size_ < UINT32_MAX, "ChunkedVector index space exhausted");
    if ((size_ & (kChunkSize - 1)) == 0 && (size_ >> kChunkBits) == chunks_.size()) {
      // Not zeroed: every element is assigned by push_back before it can be read.
      chunks_.push_back(std::make_unique_for_overwrite<T[]>(kChunkSize));
    }
    const size_t index = size_++;
    chunks_[index >> kChunkBits][index & (kChunkSize - 1)] = std::move(value);
    return static_cast<uint32_t>(index);
  }

  // Appends `count` default values; returns the index of the first.
  uint32_t grow(size_t count) {
    const uint32_t first = static_cast<uint32_t>(size_);
    for (size_t i = 0; i < count; ++i) push_back(T());
    return first;
  }

  // Indices come from the arena's own records, never from a caller.
  T& operator[](size_t index) {
    GRAPHGC_CHECK(index < size_, "ChunkedVector index out of range");
    return chunks_[index >> kChunkBits][index & (kChunkSize - 1)];
  }
  const T& operator[](size_t index) const {
    GRAPHGC_CHECK(index < size_, "ChunkedVector index out of range");
    return chunks_[index >> kChunkBits][index & (kChunkSize - 1)];
  }

  // The `count` elements from `index` as one run, when they lie in one chunk (else nullptr): the
  // pointer is only for reading them at once, within the caller's function (the arena grows).
  const T* run(size_t index, size_t count) const {
    GRAPHGC_CHECK(index + count <= size_, "ChunkedVector run out of range");
    if (count == 0 || (index >> kChunkBits) != ((index + count - 1) >> kChunkBits)) return nullptr;
    return &chunks_[index >> kChunkBits][index & (kChunkSize - 1)];
  }

  // Bytes held: every allocated chunk plus the chunk table.
  size_t capacity_bytes() const {
    return chunks_.size() * kChunkSize * sizeof(T) + chunks_.capacity() * sizeof(chunks_[0]);
  }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  size_t size_ = 0;
};

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_CHUNKED_VECTOR_H_
