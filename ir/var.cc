#include "graphgc/ir/var.h"

#include <ostream>
#include <string>
#include <utility>

#include "graphgc/ir/graph_core.h"

namespace graphgc {
namespace {

absl::Status GraphGoneError() {
  return absl::FailedPreconditionError("this Var's Graph has been destroyed");
}

}  // namespace

Var::Var(internal::GraphCore* core, VarId id) : core_(core), id_(id) {
  core_->ref();
  core_->add_root(id_);
}

Var Var::Detached(absl::Status status) {
  Var var;
  var.detached_ = std::move(status);
  return var;
}

Var::Var(const Var& other) : core_(other.core_), id_(other.id_), detached_(other.detached_) {
  if (core_ == nullptr) return;
  core_->ref();
  if (core_->alive()) core_->add_root(id_);
}

Var::Var(Var&& other) noexcept
    : core_(std::exchange(other.core_, nullptr)),
      id_(std::exchange(other.id_, VarId())),
      detached_(std::exchange(other.detached_, absl::OkStatus())) {}

Var& Var::operator=(const Var& other) {
  if (this != &other) *this = Var(other);
  return *this;
}

Var& Var::operator=(Var&& other) noexcept {
  if (this != &other) {
    release();
    core_ = std::exchange(other.core_, nullptr);
    id_ = std::exchange(other.id_, VarId());
    detached_ = std::exchange(other.detached_, absl::OkStatus());
  }
  return *this;
}

Var::~Var() { release(); }

void Var::release() {
  if (core_ == nullptr) return;
  if (core_->alive()) core_->remove_root(id_);
  core_->unref();
  core_ = nullptr;
}

bool Var::attached() const { return core_ != nullptr && core_->alive(); }

absl::Status Var::status() const {
  if (core_ == nullptr) {
    return detached_.ok()
               ? absl::InvalidArgumentError("empty Var (default-constructed or moved-from)")
               : detached_;
  }
  if (!core_->alive()) return GraphGoneError();
  return absl::OkStatus();
}

bool Var::ok() const { return attached(); }

absl::Status Var::value_status() const {
  if (!attached()) return status();
  return core_->explain_missing_value(id_);
}

std::optional<std::string> Var::name() const {
  if (!attached()) return std::nullopt;
  const internal::Arena& arena = core_->arena();
  if (arena.var_kind(id_) == internal::VarKind::kArgument && !arena.var_subgraph(id_).valid()) {
    return std::string(arena.string(arena.var_name(id_)));
  }
  const std::optional<StringId> name = arena.var_user_name(id_);
  if (!name.has_value()) return std::nullopt;
  return std::string(arena.string(*name));
}

absl::Status Var::set_name(absl::string_view name) {
  if (!attached()) return status();
  return core_->name_var(id_, name);
}

DataType Var::dtype() const {
  return attached() ? core_->arena().var_dtype(id_) : DataType::kUndefined;
}

std::optional<std::vector<int64_t>> Var::shape() const {
  if (!attached()) return std::nullopt;
  std::optional<Shape> shape = core_->arena().var_shape(id_);
  if (!shape.has_value()) return std::nullopt;
  return std::vector<int64_t>(shape->begin(), shape->end());
}

std::optional<int64_t> Var::rank() const {
  return attached() ? core_->arena().var_rank(id_) : std::nullopt;
}

VarType Var::type() const {
  if (!attached()) return VarType::Tensor(DataType::kUndefined);
  const internal::Arena& arena = core_->arena();
  VarType type = arena.var_type(id_);
  const std::vector<StringId>* names = arena.has_dim_names() ? arena.dim_names(id_) : nullptr;
  return names == nullptr ? type : type.WithDimNames(arena.names(*names));
}

std::optional<std::vector<Dim>> Var::dims() const { return type().dims(); }

std::optional<Tensor> Var::value() const {
  if (!attached()) return std::nullopt;
  if (!core_->evicts()) return core_->value(id_);
  std::optional<Value> value = core_->read_value(id_);
  if (!value.has_value() || !value->is_tensor()) return std::nullopt;
  return std::move(*value).take_tensor();
}

std::optional<Value> Var::any_value() const {
  if (!attached()) return std::nullopt;
  return core_->evicts() ? core_->read_value(id_) : core_->any_value(id_);
}

absl::Status Var::pin() const {
  if (!attached()) return status();
  return core_->pin(id_);
}

absl::Status Var::unpin() const {
  if (!attached()) return status();
  return core_->unpin(id_);
}

bool Var::pinned() const { return attached() && core_->pinned(id_); }

std::ostream& operator<<(std::ostream& out, const Var& var) {
  if (var.empty()) return out << "Var(empty)";
  if (!var.ok()) return out << "Var(failed: " << var.status() << ")";
  out << "Var(" << var.type();
  // Printing never computes a value again: it shows what is held.
  if (var.core()->evicted(var.id())) return out << " (value evicted))";
  if (const std::optional<Value> value = var.core()->any_value(var.id()); value.has_value()) {
    if (value->is_tensor()) {
      out << " = " << value->tensor();
    } else {
      out << " with a value";
    }
  }
  return out << ")";
}

}  // namespace graphgc
