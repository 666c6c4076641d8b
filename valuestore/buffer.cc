#include "graphgc/valuestore/buffer.h"

#include <cstdlib>
#include <new>
#include <string>
#include <utility>

#if defined(GRAPHGC_MIMALLOC) && !defined(GRAPHGC_SANITIZE)
#define GRAPHGC_BUFFERS_FROM_MIMALLOC 1
#include <mimalloc.h>
#endif

namespace graphgc {
namespace internal {

namespace {

// Sanitized builds allocate through the C library so that AddressSanitizer sees every buffer
// (mimalloc's pages are invisible to it), and so do builds without mimalloc (the Python
// extension: see GRAPHGC_MIMALLOC in CMakeLists.txt); all other builds use mimalloc.
void* AllocateBlock(size_t bytes) {
#ifdef GRAPHGC_BUFFERS_FROM_MIMALLOC
  return mi_malloc_aligned(bytes, 64);
#else
  const size_t rounded = (bytes + 63) / 64 * 64;
  return std::aligned_alloc(64, rounded);
#endif
}

void FreeBlock(void* block) {
#ifdef GRAPHGC_BUFFERS_FROM_MIMALLOC
  mi_free(block);
#else
  std::free(block);
#endif
}

}  // namespace

Buffer* Buffer::Allocate(DataType type, int64_t count) {
  const size_t nbytes = static_cast<size_t>(count) * ElementSize(type);
  void* memory = AllocateBlock(kDataOffset + nbytes);
  if (memory == nullptr) return nullptr;
  Buffer* buffer = new (memory)
      Buffer(type, count, nbytes, static_cast<char*>(memory) + kDataOffset, /*owner=*/nullptr);
  if (type == DataType::kString) {
    auto* strings = static_cast<std::string*>(buffer->data());
    for (int64_t i = 0; i < count; ++i) new (strings + i) std::string();
  }
  return buffer;
}

Buffer* Buffer::WrapExternal(DataType type, int64_t count, const void* data,
                             std::shared_ptr<const void> owner) {
  const size_t nbytes = static_cast<size_t>(count) * ElementSize(type);
  void* memory = AllocateBlock(kDataOffset);
  if (memory == nullptr) return nullptr;
  // The pointer loses its const only to share the field with owned buffers: nothing writes
  // through it, since a MutableTensor never holds an external buffer.
  return new (memory) Buffer(type, count, nbytes, const_cast<void*>(data), std::move(owner));
}

void Buffer::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (type_ == DataType::kString && !is_external()) {
    auto* strings = static_cast<std::string*>(data());
    for (int64_t i = 0; i < count_; ++i) strings[i].~basic_string();
  }
  this->~Buffer();
  FreeBlock(this);
}

}  // namespace internal
}  // namespace graphgc
