// GraphCore: the state behind a Graph and its Vars — the arena, the value store, each var's value
// slot and the collector (collector.h), and their lifetime.
//
// Ownership: reference-counted by the Graph and by every Var handle (non-atomic: a graph and its
// handles are used from one thread at a time). When the Graph is destroyed, shutdown() frees the
// arena and every value at once; the core itself stays until the last Var goes, so a Var that
// outlives its Graph sees a dead graph (alive() == false) instead of freed memory.
// Collection is the Collector's: GraphCore routes roots and new values to it and lends it the
// value slots and the store.
#ifndef GRAPHGC_GRAPH_CORE_H_
#define GRAPHGC_GRAPH_CORE_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/arena.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/chunked_vector.h"
#include "graphgc/ir/collector.h"
#include "graphgc/ir/evictor.h"
#include "graphgc/ir/function_library.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "graphgc/ir/ids.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value_ref.h"
#include "graphgc/valuestore/value_store.h"

namespace graphgc {

namespace internal {

class GraphCore {
 public:
  explicit GraphCore(const GraphOptions& options);
  GraphCore(const GraphCore&) = delete;
  GraphCore& operator=(const GraphCore&) = delete;

  void ref() { ++refs_; }
  void unref() {
    if (--refs_ == 0) delete this;
  }
  bool alive() const { return alive_; }
  // The Graph is gone: frees the arena and every value, or, while a node is being made, marks the
  // graph dead and frees them once that is done.
  void shutdown();

  // Held while a node (or a body) is being made. User code runs meanwhile — a body builder, a
  // custom op's functions — and may destroy the Graph; the core and its storage stay until the
  // outermost scope ends, so the code making the node never touches freed memory.
  class BusyScope {
   public:
    explicit BusyScope(GraphCore& core) : core_(core) {
      core_.ref();
      ++core_.busy_;
    }
    BusyScope(const BusyScope&) = delete;
    BusyScope& operator=(const BusyScope&) = delete;
    ~BusyScope() {
      if (--core_.busy_ == 0 && core_.shutdown_pending_) core_.free_storage();
      core_.unref();
    }

   private:
    GraphCore& core_;
  };

  Arena& arena() { return *arena_; }
  const Arena& arena() const { return *arena_; }
  // The functions the graph's call nodes call, as their definitions came (function_library.h).
  FunctionLibrary& functions() { return functions_; }
  const FunctionLibrary& functions() const { return functions_; }
  const GraphOptions& options() const { return options_; }
  // The most bytes a value computed now may take: GraphOptions::max_value_bytes, or less while a
  // ValueLimitScope is open.
  int64_t max_value_bytes() const { return std::min(options_.max_value_bytes, value_limit_); }

  // Narrows max_value_bytes() for the nodes made while it is open: graphgc-fold's planning pass
  // builds a model with only its small values (what shape inference needs) and leaves the large
  // ones uncomputed until it knows they will be written.
  class ValueLimitScope {
   public:
    ValueLimitScope(GraphCore& core, int64_t limit) : core_(core), saved_(core.value_limit_) {
      core_.value_limit_ = std::min(saved_, limit);
    }
    ValueLimitScope(const ValueLimitScope&) = delete;
    ValueLimitScope& operator=(const ValueLimitScope&) = delete;
    ~ValueLimitScope() { core_.value_limit_ = saved_; }

   private:
    GraphCore& core_;
    int64_t saved_;
  };

  // Roots: one count per var, kept by Var handles (the collector's roots).
  void add_root(VarId var) { collector_.add_root(var); }
  void remove_root(VarId var) {
    collector_.remove_root(var);
    if (!pins_.empty() && collector_.root_count(var) == 0) pins_.erase(var.value());
  }
  int32_t root_count(VarId var) const { return collector_.root_count(var); }

  // Arena growth goes through the core so that every var gets its value slot and root count, and
  // every constant tensor is registered as arena-owned with the value store.
  NodeId add_node(OpKindId op, absl::Span<const VarId> inputs, absl::Span<const Attribute> attrs,
                  int num_outputs);
  VarId add_argument(StringId name, DataType dtype, std::optional<absl::Span<const int64_t>> shape);
  VarId add_subgraph_argument(SubgraphId subgraph, DataType dtype,
                              std::optional<absl::Span<const int64_t>> shape);
  // Whether a node made now may use `var`: it belongs to the open subgraph or one enclosing it.
  bool visible_here(VarId var) const {
    const SubgraphTable& subgraphs = arena_->subgraphs();
    return subgraphs.empty() || subgraphs.encloses(arena_->var_subgraph(var), subgraphs.current());
  }

  // The var's propagated value: a constant's tensor, or the value store's, if it is still held.
  std::optional<Tensor> value(VarId var) const;
  // A value the store holds for `var`, viewed in place (ValueStore::view): valid until the store
  // next changes; nullptr for constants and for vars without a stored tensor.
  const Tensor* stored_tensor(VarId var) const;
  // The same for a value of any kind (sequence, optional, map values are never constants).
  std::optional<Value> any_value(VarId var) const;
  bool has_value(VarId var) const;
  void set_value(VarId var, Tensor tensor);
  void set_value(VarId var, Value value);
  // A value that can be computed again from the arena (a deterministic kernel's, from arena
  // constants and such values): under OnBudget::kEvictAndRecompute it may be evicted. `cost_ns`:
  // what its kernel took (EvictionPolicy::kCheapestToRecomputePerByte weighs it).
  void set_recomputable_value(VarId var, Value value, int64_t cost_ns);
  // Whether the eviction policy wants kernels timed (set_recomputable_value's cost).
  bool weighs_recompute_cost() const { return evictor_ != nullptr && evictor_->weighs_cost(); }
  // Values a computation holds outside the store for a while count towards the peak.
  void note_transient_bytes(int64_t bytes) { store_->note_transient_bytes(bytes); }

  // Var::set_name: names `var` for the export; see there for the errors.
  absl::Status name_var(VarId var, absl::string_view name);

  // Why a var holds no value, for Var::value_status. The ir module can tell arguments and
  // switched-off propagation; the rest (kernels, opsets) is the opset module's to say, which
  // installs its explainer when it builds its first node.
  using ValueExplainer = absl::Status (*)(const GraphCore& core, VarId var);
  static void set_value_explainer(ValueExplainer explainer);
  absl::Status explain_missing_value(VarId var) const;
  int64_t skipped_for_budget() const { return skipped_for_budget_; }

  // Runs an automatic collection if the trigger says so. Callers make sure that every value they
  // still need is rooted first (op constructors call it after wrapping their outputs in Vars).
  void maybe_collect() { collector_.maybe_collect(values_, *store_); }
  CollectStats collect(CollectMode mode) { return collector_.collect(mode, values_, *store_); }
  GraphStats stats() const;
  // Bytes new values may still take under GraphOptions::max_live_value_bytes; INT64_MAX without a
  // cap. When `wanted` more bytes would pass the cap, collects first (unless the policy is
  // kManual, which leaves freeing to the user).
  int64_t live_budget_left(int64_t wanted);
  void note_skipped_for_budget() { ++skipped_for_budget_; }

  // OnBudget::kEvictAndRecompute, with a cap and values that may be freed (evictor.h).
  bool evicts() const { return evictor_ != nullptr; }
  // What counts against max_live_value_bytes: the store's live values, and when the graph evicts
  // also the constants held in memory (which are never evicted; GraphOptions::
  // budget_counts_constants).
  int64_t budget_used() const {
    return store_->live_bytes() + (evictor_ != nullptr && options_.budget_counts_constants
                                       ? arena_->owned_tensor_bytes()
                                       : 0);
  }
  // Makes `bytes` more value bytes fit under max_live_value_bytes: collects first (unless the
  // policy is kManual), then evicts as the evictor chooses when the graph evicts. OK when they
  // fit; otherwise why not, and nothing is evicted.
  absl::Status make_room(int64_t bytes);
  // Whether `var`'s value can always be had from the arena: a constant's tensor, or a value that
  // can be computed again (false when the graph does not evict).
  bool can_recompute_from(VarId var) const;
  // A constant whose value is the arena's tensor (not a copy in the store): nothing to hold.
  bool value_in_arena(VarId var) const;
  bool evicted(VarId var) const { return evictor_ != nullptr && evictor_->evicted(var); }
  // Evicted, or dropped: value_status is the graph's to explain.
  bool lost_to_budget(VarId var) const {
    return evictor_ != nullptr && !has_value(var) &&
           (evictor_->evicted(var) || evictor_->dropped(var));
  }
  // Its node's values did not fit (evict mode): value_status says `why`.
  void mark_dropped(VarId var, absl::Status why);

  // The value of `var` for a reader: a value the store holds (the most recently used now), a
  // constant's, or an evicted one computed again; nullopt when it has none or cannot get it
  // back (value_status says why).
  std::optional<Value> read_value(VarId var);
  // Pins (Var::pin): a pinned value is never evicted. pin makes the value resident first; its
  // error is why the var has no value. unpin of a var not pinned is FailedPrecondition. Pins go
  // with the var's last root.
  absl::Status pin(VarId var);
  absl::Status unpin(VarId var);
  bool pinned(VarId var) const { return !pins_.empty() && pins_.contains(var.value()); }

  // For a recomputation (opset/values/recompute.h): a value computed again goes back in its var;
  // hold keeps a var's value (a root and a pin) until let_go, which frees it at once when no
  // other root is left.
  void restore_value(VarId var, Value value);
  void hold(VarId var);
  void let_go(VarId var);
  // Computes an evicted value again (installed by the opset module, which runs kernels).
  using ValueRecomputer = absl::StatusOr<Value> (*)(GraphCore& core, VarId var);
  static void set_value_recomputer(ValueRecomputer recomputer);

 private:
  ~GraphCore() = default;
  void add_var_entries(size_t count);

  void free_storage();
  // Whether a value of `var` may be in the store's eviction order now.
  bool evictable(VarId var) const;
  void add_pin(VarId var);
  void remove_pin(VarId var);
  std::optional<Value> recompute(VarId var);
  absl::Status explain_evicted(VarId var) const;

  int64_t refs_ = 0;
  bool alive_ = true;
  int busy_ = 0;  // open BusyScopes
  bool shutdown_pending_ = false;
  GraphOptions options_;
  std::unique_ptr<Arena> arena_;
  std::unique_ptr<ValueStore> store_;
  ValueSlots values_;  // per var; null when the var holds no store value
  Collector collector_;
  std::unique_ptr<Evictor> evictor_;  // OnBudget::kEvictAndRecompute only
  absl::flat_hash_map<uint32_t, int32_t> pins_;
  FunctionLibrary functions_;
  int64_t skipped_for_budget_ = 0;
  int64_t value_limit_ = std::numeric_limits<int64_t>::max();  // ValueLimitScope
};

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_GRAPH_CORE_H_
