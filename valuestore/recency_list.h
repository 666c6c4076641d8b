// RecencyList: an order of recency over small dense indices (value store slots), least recently
// used first, with O(1) insert, remove, touch and oldest. The links live in one vector indexed by
// the index itself (intrusive), so an entry costs 16 bytes and no allocation of its own; each
// entry carries a 32-bit tag for its owner's use.
//
// A graph that may evict values under its memory budget orders its evictable values here (which
// to evict first); nothing else uses it, and a store that never evicts never allocates one.
// Threading: thread-compatible, like the store that owns it.
#ifndef GRAPHGC_VALUESTORE_RECENCY_LIST_H_
#define GRAPHGC_VALUESTORE_RECENCY_LIST_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace graphgc::internal {

class RecencyList {
 public:
  // Inserts `index` as the most recently used, with `tag`; moves it there if already in.
  void push_newest(uint32_t index, uint32_t tag);
  // Moves `index` to the most recently used end; nothing if it is not in the list.
  void touch(uint32_t index);
  // Takes `index` out; nothing if it is not in.
  void remove(uint32_t index);
  bool contains(uint32_t index) const { return index < links_.size() && links_[index].in_list; }
  uint32_t tag(uint32_t index) const { return links_[index].tag; }
  size_t size() const { return size_; }

  // The least recently used index, and the next more recently used after `index`.
  std::optional<uint32_t> oldest() const;
  std::optional<uint32_t> newer(uint32_t index) const;

  int64_t overhead_bytes() const { return static_cast<int64_t>(links_.capacity() * sizeof(Link)); }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Link {
    uint32_t older = kNone;
    uint32_t newer = kNone;
    uint32_t tag = 0;
    bool in_list = false;
  };

  void link_newest(uint32_t index);
  void unlink(uint32_t index);

  std::vector<Link> links_;
  uint32_t oldest_ = kNone;
  uint32_t newest_ = kNone;
  size_t size_ = 0;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_VALUESTORE_RECENCY_LIST_H_
