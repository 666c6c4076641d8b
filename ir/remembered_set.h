// RememberedSet: the vars that may have become garbage since the last collection.
//
//   young    vars that got a value since then;
//   dropped  vars whose last root went away since then (RootSet::remove is the write barrier).
//
// Any other value survived the last collection with its var rooted and its var has kept a root
// since, so it is live: the collector looks at these two lists alone (collector.h has the whole
// argument). A var may be on both lists, or on one twice; the sweep of an already freed value
// is a no-op.
// Ownership: owned by the Collector. Threading: as its graph (one thread at a time).
#ifndef GRAPHGC_IR_REMEMBERED_SET_H_
#define GRAPHGC_IR_REMEMBERED_SET_H_

#include <cstdint>
#include <vector>

#include "graphgc/ir/ids.h"

namespace graphgc::internal {

class RememberedSet {
 public:
  void note_young(VarId var) { young_.push_back(var); }
  void note_dropped(VarId var) { dropped_.push_back(var); }

  const std::vector<VarId>& young() const { return young_; }
  const std::vector<VarId>& dropped() const { return dropped_; }
  // Entries waiting for the next collection.
  int64_t pending() const { return static_cast<int64_t>(young_.size() + dropped_.size()); }

  // Empties both lists after a collection; storage beyond `keep_capacity` entries is returned, so
  // one burst of values does not pin its bookkeeping for the life of the graph.
  void clear(size_t keep_capacity) {
    young_.clear();
    dropped_.clear();
    if (young_.capacity() > keep_capacity) young_.shrink_to_fit();
    if (dropped_.capacity() > keep_capacity) dropped_.shrink_to_fit();
  }

 private:
  std::vector<VarId> young_;
  std::vector<VarId> dropped_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_IR_REMEMBERED_SET_H_
