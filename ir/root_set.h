// RootSet: the collector's roots — one count per var of the Var handles that refer to it.
//
// A value is reachable only from its own var's handles (nodes never hold values), so a var's root
// count is all the marking the collector needs. Var handles add and remove roots through
// GraphCore; the count of a var with no handle is zero.
// Ownership: owned by the Collector. Threading: as its graph (one thread at a time).
#ifndef GRAPHGC_IR_ROOT_SET_H_
#define GRAPHGC_IR_ROOT_SET_H_

#include <cstdint>

#include "graphgc/ir/chunked_vector.h"
#include "graphgc/ir/ids.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::internal {

class RootSet {
 public:
  // One zero count for each of `count` new vars (the arena appended them).
  void add_vars(size_t count) { counts_.grow(count); }

  void add(VarId var) { ++counts_[var.value()]; }
  // Returns whether that was the var's last root.
  bool remove(VarId var) {
    int32_t& count = counts_[var.value()];
    // Each Var adds its root once and removes it once (var.cc); no public call touches counts.
    GRAPHGC_CHECK(count > 0, "root count underflow");
    return --count == 0;
  }
  int32_t count(VarId var) const { return counts_[var.value()]; }
  bool is_rooted(VarId var) const { return counts_[var.value()] > 0; }

  size_t size() const { return counts_.size(); }
  size_t capacity_bytes() const { return counts_.capacity_bytes(); }

 private:
  ChunkedVector<int32_t> counts_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_IR_ROOT_SET_H_
