#include "graphgc/valuestore/value_store.h"

#include <algorithm>
#include <atomic>

#include "graphgc/valuestore/check.h"

namespace graphgc {
namespace internal {

namespace {

// Even and never 0, so that a buffer's claim word has its low bit free; never reused, so that a
// claim left on a buffer by a store that is gone matches no other store.
uint64_t NewStoreId() {
  static std::atomic<uint64_t> next{2};
  return next.fetch_add(2, std::memory_order_relaxed);
}

}  // namespace

ValueStore::ValueStore() : id_(NewStoreId()) {}

uint32_t ValueStore::take_free_slot() {
  if (free_head_ != kNoSlot) {
    const uint32_t index = free_head_;
    free_head_ = slots_[index].next_free;
    slots_[index].next_free = kNoSlot;
    return index;
  }
  // A slot per var with a value at most; the arena refuses vars long before 2^32 (Arena::full).
  GRAPHGC_CHECK(slots_.size() < kNoSlot, "value store is out of slot indices");
  slots_.emplace_back();
  return static_cast<uint32_t>(slots_.size() - 1);
}

ValueRef ValueStore::insert(Tensor tensor) {
  count_buffer(tensor);
  const uint32_t index = take_free_slot();
  Slot& slot = slots_[index];
  slot.tensor = std::move(tensor);
  ++live_values_;
  return ValueRef{index, slot.generation};
}

ValueRef ValueStore::insert(Value value) {
  if (value.is_tensor()) return insert(value.tensor());
  for (const Tensor& tensor : value.tensors()) count_buffer(tensor);
  const uint32_t index = take_free_slot();
  Slot& slot = slots_[index];
  slot.composite = std::make_shared<const Value>(std::move(value));
  ++live_values_;
  return ValueRef{index, slot.generation};
}

bool ValueStore::contains(ValueRef ref) const {
  return !ref.is_null() && ref.slot < slots_.size() &&
         slots_[ref.slot].generation == ref.generation && occupied(slots_[ref.slot]);
}

std::optional<Tensor> ValueStore::get(ValueRef ref) const {
  if (!contains(ref) || slots_[ref.slot].composite != nullptr) return std::nullopt;
  return slots_[ref.slot].tensor;
}

const Tensor* ValueStore::view(ValueRef ref) const {
  if (!contains(ref) || slots_[ref.slot].composite != nullptr) return nullptr;
  return &slots_[ref.slot].tensor;
}

std::optional<Value> ValueStore::get_value(ValueRef ref) const {
  if (!contains(ref)) return std::nullopt;
  const Slot& slot = slots_[ref.slot];
  if (slot.composite != nullptr) return *slot.composite;
  return Value(slot.tensor);
}

void ValueStore::note_transient_bytes(int64_t bytes) {
  peak_bytes_ = std::max(peak_bytes_, live_bytes_ + bytes);
}

size_t ValueStore::release(ValueRef ref) {
  // Only the collector releases, once per ref it holds (GraphCore::sweep).
  GRAPHGC_CHECK(contains(ref), "ValueStore::release of a stale or null reference");
  Slot& slot = slots_[ref.slot];
  size_t freed = 0;
  if (slot.composite != nullptr) {
    for (const Tensor& tensor : slot.composite->tensors()) freed += uncount_buffer(tensor);
    slot.composite.reset();
  } else {
    freed = uncount_buffer(slot.tensor);
    slot.tensor = Tensor();
  }
  --live_values_;
  eviction_order_.remove(ref.slot);
  if (slot.generation == UINT32_MAX) return freed;  // retired: its generations are used up
  ++slot.generation;
  slot.next_free = free_head_;
  free_head_ = ref.slot;
  return freed;
}

void ValueStore::make_evictable(ValueRef ref, uint32_t owner) {
  GRAPHGC_CHECK(contains(ref), "ValueStore::make_evictable of a stale or null reference");
  eviction_order_.push_newest(ref.slot, owner);
}

void ValueStore::make_unevictable(ValueRef ref) {
  if (contains(ref)) eviction_order_.remove(ref.slot);
}

void ValueStore::touch(ValueRef ref) {
  if (contains(ref)) eviction_order_.touch(ref.slot);
}

bool ValueStore::evictable(ValueRef ref) const {
  return contains(ref) && eviction_order_.contains(ref.slot);
}

void ValueStore::visit_evictable(absl::FunctionRef<bool(ValueRef, uint32_t owner)> visit) const {
  for (std::optional<uint32_t> index = eviction_order_.oldest(); index.has_value();
       index = eviction_order_.newer(*index)) {
    if (!visit(ValueRef{*index, slots_[*index].generation}, eviction_order_.tag(*index))) return;
  }
}

size_t ValueStore::freeable_bytes(ValueRef ref) const {
  if (!contains(ref)) return 0;
  const Slot& slot = slots_[ref.slot];
  if (slot.composite == nullptr) return freeable_bytes_of(slot.tensor);
  size_t bytes = 0;
  for (const Tensor& tensor : slot.composite->tensors()) bytes += freeable_bytes_of(tensor);
  return bytes;
}

size_t ValueStore::freeable_bytes_of(const Tensor& tensor) const {
  const Buffer* buffer = tensor.buffer();
  if (buffer == nullptr || buffer->use_count() != 1) return 0;
  if (buffer->ClaimedBy(id_)) {
    return buffer->claimed_uses() == 1 && !buffer->ClaimedAsExternal() ? tensor.buffer_bytes() : 0;
  }
  auto it = buffer_uses_.find(buffer);
  if (it == buffer_uses_.end()) return 0;
  return it->second.slots == 1 && !it->second.external ? tensor.buffer_bytes() : 0;
}

bool ValueStore::holds_claim(const Buffer* buffer) const {
  if (buffer->ClaimedBy(id_)) return true;
  if (!buffer_uses_.empty() && buffer_uses_.contains(buffer)) return false;
  return buffer->TryClaim(id_);
}

void ValueStore::add_live_bytes(size_t bytes) {
  live_bytes_ += static_cast<int64_t>(bytes);
  peak_bytes_ = std::max(peak_bytes_, live_bytes_);
}

void ValueStore::adopt_external(const Tensor& tensor) {
  const Buffer* buffer = tensor.buffer();
  if (buffer == nullptr) return;
  if (!holds_claim(buffer)) return adopt_external_in_table(tensor);
  if (buffer->ClaimedAsExternal()) return;
  buffer->MarkClaimedAsExternal(id_);
  // A propagated value turned into a constant: its buffer is the arena's from now on.
  if (buffer->claimed_uses() > 0) live_bytes_ -= static_cast<int64_t>(tensor.buffer_bytes());
}

void ValueStore::adopt_external_in_table(const Tensor& tensor) {
  BufferUse& use = buffer_uses_[tensor.buffer()];
  if (use.external) return;
  use.external = true;
  if (use.slots > 0) live_bytes_ -= static_cast<int64_t>(tensor.buffer_bytes());
}

void ValueStore::count_buffer(const Tensor& tensor) {
  const Buffer* buffer = tensor.buffer();
  if (buffer == nullptr) return;
  if (!holds_claim(buffer)) return count_in_table(tensor);
  if (buffer->claimed_uses()++ == 0 && !buffer->ClaimedAsExternal()) {
    add_live_bytes(tensor.buffer_bytes());
  }
}

void ValueStore::count_in_table(const Tensor& tensor) {
  BufferUse& use = buffer_uses_[tensor.buffer()];
  if (use.slots++ == 0 && !use.external) add_live_bytes(tensor.buffer_bytes());
}

size_t ValueStore::uncount_buffer(const Tensor& tensor) {
  const Buffer* buffer = tensor.buffer();
  if (buffer == nullptr) return 0;
  if (!buffer->ClaimedBy(id_)) return uncount_in_table(tensor);
  int64_t& uses = buffer->claimed_uses();
  GRAPHGC_CHECK(uses > 0, "buffer accounting underflow");
  if (--uses > 0 || buffer->ClaimedAsExternal()) return 0;
  buffer->ReleaseClaim();
  const size_t bytes = tensor.buffer_bytes();
  live_bytes_ -= static_cast<int64_t>(bytes);
  return bytes;
}

size_t ValueStore::uncount_in_table(const Tensor& tensor) {
  auto it = buffer_uses_.find(tensor.buffer());
  GRAPHGC_CHECK(it != buffer_uses_.end() && it->second.slots > 0, "buffer accounting underflow");
  if (--it->second.slots > 0 || it->second.external) return 0;
  buffer_uses_.erase(it);
  const size_t bytes = tensor.buffer_bytes();
  live_bytes_ -= static_cast<int64_t>(bytes);
  return bytes;
}

int64_t ValueStore::overhead_bytes() const {
  return static_cast<int64_t>(slots_.capacity() * sizeof(Slot) +
                              buffer_uses_.capacity() *
                                  (sizeof(std::pair<const Buffer*, BufferUse>) + 1)) +
         eviction_order_.overhead_bytes();
}

}  // namespace internal
}  // namespace graphgc
