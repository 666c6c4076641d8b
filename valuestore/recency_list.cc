#include "graphgc/valuestore/recency_list.h"

#include "graphgc/valuestore/check.h"

namespace graphgc::internal {

void RecencyList::push_newest(uint32_t index, uint32_t tag) {
  GRAPHGC_CHECK(index != kNone, "RecencyList index out of range");
  if (index >= links_.size()) links_.resize(static_cast<size_t>(index) + 1);
  if (links_[index].in_list) unlink(index);
  links_[index].tag = tag;
  link_newest(index);
}

void RecencyList::touch(uint32_t index) {
  if (!contains(index) || index == newest_) return;
  unlink(index);
  link_newest(index);
}

void RecencyList::remove(uint32_t index) {
  if (contains(index)) unlink(index);
}

std::optional<uint32_t> RecencyList::oldest() const {
  if (oldest_ == kNone) return std::nullopt;
  return oldest_;
}

std::optional<uint32_t> RecencyList::newer(uint32_t index) const {
  GRAPHGC_CHECK(contains(index), "RecencyList::newer of an index not in the list");
  const uint32_t next = links_[index].newer;
  if (next == kNone) return std::nullopt;
  return next;
}

void RecencyList::link_newest(uint32_t index) {
  Link& link = links_[index];
  link.older = newest_;
  link.newer = kNone;
  link.in_list = true;
  if (newest_ != kNone) links_[newest_].newer = index;
  newest_ = index;
  if (oldest_ == kNone) oldest_ = index;
  ++size_;
}

void RecencyList::unlink(uint32_t index) {
  Link& link = links_[index];
  if (link.older != kNone) {
    links_[link.older].newer = link.newer;
  } else {
    oldest_ = link.newer;
  }
  if (link.newer != kNone) {
    links_[link.newer].older = link.older;
  } else {
    newest_ = link.older;
  }
  link.older = link.newer = kNone;
  link.in_list = false;
  --size_;
}

}  // namespace graphgc::internal
