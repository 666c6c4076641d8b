// Collector: frees the propagated values that no Var handle can reach any more — a mark-and-sweep
// collector whose roots are the handles and whose heap is the value store.
//
// Roots (root_set.h). A Var handle holds one root on its var. Nodes never hold values, so a value
// is reachable exactly when its own var is rooted: marking needs no walk of the graph, it is the
// root test of each candidate.
//
// Candidates (remembered_set.h). A collection in the default mode, kChangedSinceLast, looks only
// at the remembered set: the vars that got a value since the last collection (young) and those
// that lost their last root since then (dropped; removing a root is the write barrier). That is
// exact: a value outside both lists was there at the last collection and survived it, so its var
// was rooted then; had the var lost its last root since, it would be in `dropped`; so it is still
// rooted, and live. Every garbage value is a candidate, and a collection costs what changed
// since the last one, not the size of the graph. kEveryVar takes every var as a candidate: the
// reference the tests check the remembered-set collection against. (No ages and no interleaving
// with the program: this is neither a generational nor an incremental collector; "generation"
// in graphgc is the value store's slot counter, valuestore/value_ref.h.)
//
// Phases, one function each: gather the candidates -> mark (the root test) -> sweep the unmarked
// values out of the store -> finish (empty the remembered set, re-arm the trigger, count).
// When a collection runs on its own is the trigger's to say (collect_trigger.h).
//
// Ownership: owned by GraphCore, which keeps the per-var value slots and the value store and
// lends them to each collection. Threading: as its graph (one thread at a time).
#ifndef GRAPHGC_IR_COLLECTOR_H_
#define GRAPHGC_IR_COLLECTOR_H_

#include <cstdint>

#include "graphgc/ir/chunked_vector.h"
#include "graphgc/ir/collect_trigger.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/remembered_set.h"
#include "graphgc/ir/root_set.h"
#include "graphgc/valuestore/value_ref.h"
#include "graphgc/valuestore/value_store.h"

namespace graphgc::internal {

// The value slot of every var (null where the var holds no store value): the heap the collector
// sweeps, owned by GraphCore.
using ValueSlots = ChunkedVector<ValueRef>;

class Collector {
 public:
  explicit Collector(const GraphOptions& options);

  // Roots and bookkeeping for `count` new vars (the arena appended them).
  void add_vars(size_t count) { roots_.add_vars(count); }
  void add_root(VarId var) { roots_.add(var); }
  void remove_root(VarId var) {
    if (roots_.remove(var) && !keep_all_values_) remembered_.note_dropped(var);
  }
  int32_t root_count(VarId var) const { return roots_.count(var); }
  // `var` just got a value in the store.
  void note_new_value(VarId var) {
    if (!keep_all_values_) remembered_.note_young(var);
  }

  // Runs a collection if the trigger says so.
  void maybe_collect(ValueSlots& values, ValueStore& store);
  CollectStats collect(CollectMode mode, ValueSlots& values, ValueStore& store);
  // Whether the library may collect on its own (every policy but kManual).
  bool collects_automatically() const { return trigger_.automatic(); }

  // The graph is gone: frees the roots and the remembered set.
  void release_tables() {
    roots_ = {};
    remembered_ = {};
  }

  int64_t collections() const { return collections_; }
  size_t table_bytes() const { return roots_.capacity_bytes(); }

 private:
  // Calls `visit` on every candidate of a collection in `mode`; returns how many there were.
  // (A visitor rather than a list: the remembered set is walked in place, with no copy.)
  template <class Visit>
  int64_t for_each_candidate(CollectMode mode, size_t num_vars, Visit&& visit) const;
  bool is_marked(VarId var) const { return keep_all_values_ || roots_.is_rooted(var); }
  // Frees the value of an unmarked candidate, if it holds one.
  void sweep(VarId var, ValueSlots& values, ValueStore& store, CollectStats& stats) const;
  void finish(const ValueStore& store, CollectStats& stats);

  bool keep_all_values_;
  size_t max_pending_;
  RootSet roots_;
  RememberedSet remembered_;
  CollectTrigger trigger_;
  int64_t collections_ = 0;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_IR_COLLECTOR_H_
