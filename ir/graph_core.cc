#include "graphgc/ir/graph_core.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/check.h"

namespace graphgc {
namespace internal {

GraphCore::GraphCore(const GraphOptions& options)
    : options_(options),
      arena_(std::make_unique<Arena>()),
      store_(std::make_unique<ValueStore>()),
      collector_(options) {}

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
  collector_.release_tables();  // Var handles of a dead graph no longer touch roots (var.cc)
}

void GraphCore::add_var_entries(size_t count) {
  values_.grow(count);
  collector_.add_vars(count);
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
