#include "graphgc/buffer.h"

#include <mimalloc.h>

#include <new>
#include <string>

namespace graphgc {
namespace internal {

Buffer* Buffer::Allocate(DataType type, int64_t count) {
  const size_t nbytes = static_cast<size_t>(count) * ElementSize(type);
  void* memory = mi_malloc_aligned(kDataOffset + nbytes, kDataOffset);
  if (memory == nullptr) return nullptr;
  Buffer* buffer = new (memory) Buffer(type, count, nbytes);
  if (type == DataType::kString) {
    auto* strings = static_cast<std::string*>(buffer->data());
    for (int64_t i = 0; i < count; ++i) new (strings + i) std::string();
  }
  return buffer;
}

void Buffer::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (type_ == DataType::kString) {
    auto* strings = static_cast<std::string*>(data());
    for (int64_t i = 0; i < count_; ++i) strings[i].~basic_string();
  }
  this->~Buffer();
  mi_free(this);
}

}  // namespace internal
}  // namespace graphgc
