#include "graphgc/ir/graph_core.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/check.h"

namespace graphgc {
namespace internal {

GraphCore::GraphCore(const GraphOptions& options)
    : options_(options),
      arena_(std::make_unique<Arena>()),
      store_(std::make_unique<ValueStore>()),
      collector_(options) {
  if (options.on_budget == OnBudget::kEvictAndRecompute && options.max_live_value_bytes > 0 &&
      !options.keep_all_values) {
    evictor_ = std::make_unique<Evictor>(options.eviction_policy);
  }
}

void GraphCore::shutdown() {
  alive_ = false;
  if (busy_ > 0) {
    shutdown_pending_ = true;
    return;
  }
  free_storage();
}

void GraphCore::free_storage() {
  shutdown_pending_ = false;
  store_.reset();
  arena_.reset();
  values_ = {};
  evictor_.reset();
  pins_ = {};
  collector_.release_tables();  // Var handles of a dead graph no longer touch roots (var.cc)
}

void GraphCore::add_var_entries(size_t count) {
  values_.grow(count);
  collector_.add_vars(count);
  if (evictor_ != nullptr) evictor_->add_vars(count);
}

NodeId GraphCore::add_node(OpKindId op, absl::Span<const VarId> inputs,
                           absl::Span<const Attribute> attrs, int num_outputs) {
  for (const Attribute& attr : attrs) {
    if (const Tensor* tensor = std::get_if<Tensor>(&attr.value)) store_->adopt_external(*tensor);
  }
  const NodeId node = arena_->add_node(op, inputs, attrs, num_outputs);
  add_var_entries(static_cast<size_t>(num_outputs));
  return node;
}

VarId GraphCore::add_argument(StringId name, DataType dtype,
                              std::optional<absl::Span<const int64_t>> shape) {
  const VarId var = arena_->add_argument(name, dtype, shape);
  add_var_entries(1);
  return var;
}

VarId GraphCore::add_subgraph_argument(SubgraphId subgraph, DataType dtype,
                                       std::optional<absl::Span<const int64_t>> shape) {
  const VarId var = arena_->add_subgraph_argument(subgraph, dtype, shape);
  add_var_entries(1);
  return var;
}

std::optional<Tensor> GraphCore::value(VarId var) const {
  const ValueRef ref = values_[var.value()];
  if (!ref.is_null()) return store_->get(ref);
  if (arena_->var_kind(var) != VarKind::kConstant) return std::nullopt;
  return arena_->node_value_tensor(arena_->var_producer(var));
}

const Tensor* GraphCore::stored_tensor(VarId var) const {
  const ValueRef ref = values_[var.value()];
  return ref.is_null() ? nullptr : store_->view(ref);
}

std::optional<Value> GraphCore::any_value(VarId var) const {
  const ValueRef ref = values_[var.value()];
  if (!ref.is_null()) return store_->get_value(ref);
  std::optional<Tensor> constant = value(var);
  if (!constant.has_value()) return std::nullopt;
  return Value(*std::move(constant));
}

bool GraphCore::has_value(VarId var) const {
  return !values_[var.value()].is_null() || arena_->var_kind(var) == VarKind::kConstant;
}

void GraphCore::set_value(VarId var, Tensor tensor) {
  ValueRef& ref = values_[var.value()];
  GRAPHGC_CHECK(ref.is_null(), "a var's value is set once");
  ref = store_->insert(std::move(tensor));
  collector_.note_new_value(var);
}

void GraphCore::set_value(VarId var, Value value) {
  if (value.is_tensor()) return set_value(var, std::move(value).take_tensor());
  ValueRef& ref = values_[var.value()];
  GRAPHGC_CHECK(ref.is_null(), "a var's value is set once");
  ref = store_->insert(std::move(value));
  collector_.note_new_value(var);
}

void GraphCore::set_recomputable_value(VarId var, Value value, int64_t cost_ns) {
  if (evictor_ != nullptr) {
    evictor_->set_recomputable(var);
    evictor_->set_cost(var, cost_ns);
  }
  set_value(var, std::move(value));
  if (evictable(var)) store_->make_evictable(values_[var.value()], var.value());
}

bool GraphCore::evictable(VarId var) const {
  return evictor_ != nullptr && evictor_->recomputable(var) && !pinned(var) &&
         arena_->var_kind(var) != VarKind::kConstant;
}

bool GraphCore::can_recompute_from(VarId var) const {
  if (evictor_ == nullptr) return false;
  return evictor_->recomputable(var) || value_in_arena(var);
}

bool GraphCore::value_in_arena(VarId var) const {
  return values_[var.value()].is_null() && arena_->var_kind(var) == VarKind::kConstant &&
         arena_->node_value_tensor(arena_->var_producer(var)).has_value();
}

void GraphCore::mark_dropped(VarId var, absl::Status why) {
  if (evictor_ == nullptr) return;
  evictor_->set_dropped(var);
  evictor_->note_failure(var, std::move(why));
}

absl::Status GraphCore::make_room(int64_t bytes) {
  const int64_t cap = options_.max_live_value_bytes;
  if (cap <= 0 || bytes <= cap - budget_used()) return absl::OkStatus();
  if (collector_.collects_automatically()) collect(CollectMode::kChangedSinceLast);
  const int64_t used = budget_used();
  if (bytes <= cap - used) return absl::OkStatus();
  if (evictor_ == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat(
        bytes, " more bytes do not fit under GraphOptions::max_live_value_bytes (", cap, ")"));
  }
  absl::StatusOr<Evictor::Choice> choice = evictor_->choose(
      *store_, used, options_.budget_counts_constants ? arena_->owned_tensor_bytes() : 0, bytes,
      cap);
  if (!choice.ok()) return choice.status();
  for (const auto& [var, ref] : *choice) {
    ValueRef& held = values_[var.value()];
    GRAPHGC_CHECK(held == ref, "an evictable value is not its var's");
    evictor_->note_evicted(store_->release(ref));
    held = ValueRef{};
    evictor_->set_evicted(var, true);
  }
  return absl::OkStatus();
}

std::optional<Value> GraphCore::read_value(VarId var) {
  const ValueRef ref = values_[var.value()];
  if (!ref.is_null()) {
    if (evictor_ != nullptr) store_->touch(ref);
    return store_->get_value(ref);
  }
  if (evicted(var)) return recompute(var);
  return any_value(var);
}

namespace {
std::atomic<GraphCore::ValueRecomputer> value_recomputer{nullptr};
}  // namespace

void GraphCore::set_value_recomputer(ValueRecomputer recomputer) {
  value_recomputer.store(recomputer, std::memory_order_release);
}

std::optional<Value> GraphCore::recompute(VarId var) {
  const ValueRecomputer recomputer = value_recomputer.load(std::memory_order_acquire);
  if (recomputer == nullptr) return std::nullopt;
  const BusyScope busy(*this);  // a deterministic custom kernel is user code
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Value> value = recomputer(*this, var);
  if (!alive_) return std::nullopt;
  evictor_->note_recompute_time(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count());
  if (!value.ok()) {
    evictor_->note_failure(var, value.status());
    return std::nullopt;
  }
  return *std::move(value);
}

void GraphCore::restore_value(VarId var, Value value) {
  ValueRef& ref = values_[var.value()];
  GRAPHGC_CHECK(ref.is_null() && evictor_ != nullptr, "restoring a value that is held");
  const int64_t before = store_->live_bytes();
  ref = store_->insert(std::move(value));
  collector_.note_new_value(var);
  evictor_->set_evicted(var, false);
  evictor_->note_recomputed(store_->live_bytes() - before);
  if (evictable(var)) store_->make_evictable(ref, var.value());
}

void GraphCore::add_pin(VarId var) {
  ++pins_[var.value()];
  const ValueRef ref = values_[var.value()];
  if (evictor_ != nullptr && !ref.is_null()) store_->make_unevictable(ref);
}

void GraphCore::remove_pin(VarId var) {
  auto it = pins_.find(var.value());
  GRAPHGC_CHECK(it != pins_.end(), "unpinning a var that is not pinned");
  if (--it->second > 0) return;
  pins_.erase(it);
  const ValueRef ref = values_[var.value()];
  if (!ref.is_null() && evictable(var)) store_->make_evictable(ref, var.value());
}

absl::Status GraphCore::pin(VarId var) {
  if (!read_value(var).has_value()) {
    absl::Status why = explain_missing_value(var);
    return why.ok() ? absl::InternalError("graphgc bug: a var without a value explains none") : why;
  }
  add_pin(var);
  return absl::OkStatus();
}

absl::Status GraphCore::unpin(VarId var) {
  if (!pinned(var)) return absl::FailedPreconditionError("unpin: the var is not pinned");
  remove_pin(var);
  return absl::OkStatus();
}

void GraphCore::hold(VarId var) {
  add_root(var);
  add_pin(var);
}

void GraphCore::let_go(VarId var) {
  remove_pin(var);
  remove_root(var);
  ValueRef& ref = values_[var.value()];
  if (collector_.root_count(var) == 0 && !ref.is_null() && !options_.keep_all_values) {
    store_->release(ref);
    ref = ValueRef{};
  }
}

int64_t GraphCore::live_budget_left(int64_t wanted) {
  const int64_t cap = options_.max_live_value_bytes;
  if (cap <= 0) return std::numeric_limits<int64_t>::max();
  const int64_t live = store_->live_bytes();
  if ((live >= cap || wanted > cap - live) && collector_.collects_automatically()) {
    collect(CollectMode::kChangedSinceLast);
  }
  return std::max<int64_t>(cap - store_->live_bytes(), 0);
}

GraphStats GraphCore::stats() const {
  GraphStats stats;
  stats.nodes = static_cast<int64_t>(arena_->num_nodes());
  stats.vars = static_cast<int64_t>(arena_->num_vars());
  stats.arena_bytes =
      arena_->bytes() + static_cast<int64_t>(values_.capacity_bytes() + collector_.table_bytes());
  stats.live_value_bytes = store_->live_bytes();
  stats.peak_value_bytes = store_->peak_bytes();
  stats.live_values = store_->live_values();
  stats.collections = collector_.collections();
  stats.values_skipped_for_budget = skipped_for_budget_;
  if (evictor_ != nullptr) {
    evictor_->fill(stats);
    stats.arena_bytes += evictor_->table_bytes();
  }
  return stats;
}

namespace {
std::atomic<GraphCore::ValueExplainer> value_explainer{nullptr};
}  // namespace

void GraphCore::set_value_explainer(ValueExplainer explainer) {
  value_explainer.store(explainer, std::memory_order_release);
}

absl::Status GraphCore::explain_missing_value(VarId var) const {
  if (has_value(var)) return absl::OkStatus();
  if (lost_to_budget(var)) return explain_evicted(var);
  if (arena_->var_kind(var) == VarKind::kArgument) {
    return absl::FailedPreconditionError(
        arena_->var_subgraph(var).valid()
            ? "no value: an argument of a body (If, Loop, Scan), which its op feeds at run time"
            : absl::StrCat("no value: '", arena_->string(arena_->var_name(var)),
                           "' is an argument (a graph input), known only at run time"));
  }
  if (!options_.propagate_values) {
    return absl::FailedPreconditionError(
        "no value: value propagation is off (GraphOptions::propagate_values)");
  }
  const ValueExplainer explainer = value_explainer.load(std::memory_order_acquire);
  if (explainer == nullptr) return absl::FailedPreconditionError("no value");
  return explainer(*this, var);
}

absl::Status GraphCore::explain_evicted(VarId var) const {
  const std::string budget =
      absl::StrCat("to keep live values under ", "GraphOptions::max_live_value_bytes (",
                   options_.max_live_value_bytes, ")");
  const absl::Status failure = evictor_->failure(var);
  if (evictor_->evicted(var) && failure.ok()) {
    return absl::UnavailableError(
        absl::StrCat("no value held: evicted ", budget, "; value() computes it again"));
  }
  if (evictor_->evicted(var)) {
    return absl::Status(failure.code(),
                        absl::StrCat("no value held: evicted ", budget,
                                     ", and computing it again failed: ", failure.message()));
  }
  return absl::ResourceExhaustedError(
      absl::StrCat("no value: dropped ", budget, ": ", failure.message()));
}

absl::Status GraphCore::name_var(VarId var, absl::string_view name) {
  auto fail = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("naming a var '", name, "': ", why));
  };
  if (name.empty()) return fail("the name is empty");
  if (arena_->var_kind(var) == VarKind::kArgument) {
    return fail(absl::StrCat("it is an argument, named '", arena_->string(arena_->var_name(var)),
                             "' when it was made"));
  }
  if (const std::optional<StringId> existing = arena_->find_string(name); existing.has_value()) {
    if (arena_->is_argument_name(*existing)) return fail("an argument of the graph has that name");
    const std::optional<VarId> named = arena_->var_with_user_name(*existing);
    if (named.has_value() && *named != var) return fail("another var of the graph has that name");
  }
  arena_->set_var_user_name(var, arena_->intern(name));
  return absl::OkStatus();
}

}  // namespace internal
}  // namespace graphgc
