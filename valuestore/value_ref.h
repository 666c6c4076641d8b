// ValueRef: a generational reference to a slot of a ValueStore.
//
//   bits 63..32  generation  (0 = never valid; a slot's generation starts at 1)
//   bits 31..0   slot index
//
// A reference is valid while its generation equals the slot's current one; freeing a slot bumps the
// generation, so every reference to the old value becomes detectably stale rather than pointing at
// whatever reuses the slot. A slot whose generation would wrap around is retired, never reused.
// Plain value type.
#ifndef GRAPHGC_VALUE_REF_H_
#define GRAPHGC_VALUE_REF_H_

#include <cstdint>

namespace graphgc {

struct ValueRef {
  uint32_t slot = 0;
  uint32_t generation = 0;  // 0: the null reference

  bool is_null() const { return generation == 0; }
  uint64_t packed() const { return (static_cast<uint64_t>(generation) << 32) | slot; }
  static ValueRef FromPacked(uint64_t bits) {
    return ValueRef{static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  }
  friend bool operator==(ValueRef a, ValueRef b) {
    return a.slot == b.slot && a.generation == b.generation;
  }
  friend bool operator!=(ValueRef a, ValueRef b) { return !(a == b); }
};
static_assert(sizeof(ValueRef) == 8, "ValueRef is one 64-bit word");

}  // namespace graphgc

#endif  // GRAPHGC_VALUE_REF_H_
