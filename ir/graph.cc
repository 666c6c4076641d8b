#include "graphgc/ir/graph.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/limits.h"

namespace graphgc {
namespace {

absl::Status MovedFromError(absl::string_view what) {
  return absl::FailedPreconditionError(absl::StrCat(what, ": this Graph was moved from"));
}

}  // namespace

Graph::Graph() : Graph(GraphOptions{}) {}

Graph::Graph(const GraphOptions& options) : core_(new internal::GraphCore(options)) {
  core_->ref();
}

Graph::Graph(internal::GraphCore* core, Borrowed) : core_(core), owns_core_(false) {
  if (core_ != nullptr) core_->ref();
}

Graph internal::BorrowGraph(GraphCore* core) { return Graph(core, Graph::Borrowed{}); }

Graph::Graph(Graph&& other) noexcept
    : core_(std::exchange(other.core_, nullptr)), owns_core_(other.owns_core_) {}

Graph& Graph::operator=(Graph&& other) noexcept {
  if (this != &other) {
    Graph dying(std::move(*this));
    core_ = std::exchange(other.core_, nullptr);
    owns_core_ = other.owns_core_;
  }
  return *this;
}

Graph::~Graph() {
  if (core_ == nullptr) return;
  if (owns_core_) core_->shutdown();
  core_->unref();
}

Var Graph::add_argument(absl::string_view name, DataType dtype,
                        std::optional<absl::Span<const int64_t>> shape) {
  if (core_ == nullptr) return Var::Detached(MovedFromError("argument"));
  auto fail = [&](absl::string_view why) {
    return Var::Detached(absl::InvalidArgumentError(absl::StrCat("argument '", name, "': ", why)));
  };
  if (name.empty()) return fail("the name is empty");
  if (!IsSupportedDataType(static_cast<int32_t>(dtype))) {
    return fail(absl::StrCat("unsupported element type ", static_cast<int32_t>(dtype)));
  }
  if (shape.has_value()) {
    for (int64_t dim : *shape) {
      if (dim < -1)
        return fail(absl::StrCat("dimension ", dim, " in shape ", ShapeToString(*shape)));
    }
    if (absl::Status rank = CheckRank(shape->size(), "the shape"); !rank.ok()) {
      return fail(rank.message());
    }
    if (absl::Status count = CheckElementCount(*shape, "the type"); !count.ok()) {
      return fail(count.message());
    }
  }
  internal::Arena& arena = core_->arena();
  if (arena.full()) return Var::Detached(ArenaFullError(absl::StrCat("argument '", name, "'")));
  const std::optional<StringId> existing = arena.find_string(name);
  if (existing.has_value() && arena.is_argument_name(*existing)) {
    return fail("an argument of this name already exists");
  }
  if (existing.has_value() && arena.var_with_user_name(*existing).has_value()) {
    return fail("a var of the graph has this name (Var::set_name)");
  }
  return Var(core_, core_->add_argument(arena.intern(name), dtype, shape));
}

Var Graph::argument(absl::string_view name, DataType dtype, absl::Span<const int64_t> shape) {
  return add_argument(name, dtype, shape);
}

Var Graph::argument(absl::string_view name, DataType dtype, std::initializer_list<Dim> shape) {
  return argument(name, dtype, absl::Span<const Dim>(shape.begin(), shape.size()));
}

Var Graph::argument(absl::string_view name, DataType dtype, absl::Span<const Dim> shape) {
  return argument(name, VarType::TensorOfDims(dtype, std::vector<Dim>(shape.begin(), shape.end())));
}

Var Graph::argument_unranked(absl::string_view name, DataType dtype) {
  return add_argument(name, dtype, std::nullopt);
}

absl::Status Graph::CheckArgumentType(const VarType& type) const {
  switch (type.kind()) {
    case VarType::Kind::kTensor:
      return absl::OkStatus();  // add_argument checks it
    case VarType::Kind::kMap: {
      const DataType key = type.key();
      if (!IsSignedInteger(key) && !IsUnsignedInteger(key) && key != DataType::kString) {
        return absl::InvalidArgumentError(
            absl::StrCat("a map key must be an integer or a string, not ", DataTypeName(key)));
      }
      [[fallthrough]];
    }
    case VarType::Kind::kSequence:
    case VarType::Kind::kOptional: {
      const VarType& element = type.element();
      if (!element.is_tensor()) return CheckArgumentType(element);
      if (!IsSupportedDataType(static_cast<int32_t>(element.dtype()))) {
        return absl::InvalidArgumentError(
            absl::StrCat("unsupported element type ", static_cast<int32_t>(element.dtype())));
      }
      for (int64_t dim : element.shape().value_or(std::vector<int64_t>{})) {
        if (dim < -1) return absl::InvalidArgumentError(absl::StrCat("dimension ", dim));
      }
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

Var Graph::argument(absl::string_view name, const VarType& type) {
  if (absl::Status limits = CheckTypeLimits(type, "the type"); !limits.ok()) {
    return Var::Detached(
        absl::Status(limits.code(), absl::StrCat("argument '", name, "': ", limits.message())));
  }
  if (type.is_tensor()) {
    if (!type.shape().has_value()) return add_argument(name, type.dtype(), std::nullopt);
    Var var = add_argument(name, type.dtype(), absl::Span<const int64_t>(*type.shape()));
    if (var.ok() && !type.dim_names().empty()) {
      internal::Arena& arena = core_->arena();
      arena.set_dim_names(var.id(), arena.intern_names(type.dim_names()));
    }
    return var;
  }
  if (absl::Status valid = CheckArgumentType(type); !valid.ok()) {
    return Var::Detached(absl::InvalidArgumentError(
        absl::StrCat("argument '", name, "' of type ", type.ToString(), ": ", valid.message())));
  }
  // Registered as a tensor argument first (name checks), then given its type.
  Var var = add_argument(name, DataType::kFloat, std::nullopt);
  if (var.ok()) core_->arena().set_var_type(var.id(), type);
  return var;
}

absl::Status Graph::name(const Var& var, absl::string_view name) {
  if (core_ == nullptr) return MovedFromError("name");
  if (!var.ok()) return var.status();
  if (var.core() != core_) {
    return absl::InvalidArgumentError(
        absl::StrCat("naming a var '", name, "': the Var belongs to another Graph"));
  }
  return core_->name_var(var.id(), name);
}

Var Graph::constant(const Tensor& tensor) {
  if (core_ == nullptr) return Var::Detached(MovedFromError("Constant"));
  if (tensor.dtype() == DataType::kUndefined) {
    return Var::Detached(absl::InvalidArgumentError(
        "Constant: the tensor is empty (element type undefined); Tensor::from_vector, zeros "
        "and reshaped return it for a bad shape or value count, and Tensor::create and "
        "zeros_checked say why"));
  }
  if (absl::Status rank = CheckRank(tensor.shape().size(), "the tensor"); !rank.ok()) {
    return Var::Detached(absl::Status(rank.code(), absl::StrCat("Constant: ", rank.message())));
  }
  internal::Arena& arena = core_->arena();
  if (arena.full()) return Var::Detached(ArenaFullError("Constant"));
  const OpKindId op = arena.intern_op("Constant", "", kNewestOnnxOpset);
  if (!op.valid()) return Var::Detached(TooManyOpKindsError("Constant"));
  const Attribute value{"value", tensor};
  const NodeId node = core_->add_node(op, {}, absl::Span<const Attribute>(&value, 1), 1);
  const VarId out = arena.node_output(node, 0);
  arena.set_var_type(out, tensor.dtype(), tensor.shape());
  return Var(core_, out);
}

CollectStats Graph::collect() { return collect(CollectMode::kChangedSinceLast); }

CollectStats Graph::collect(CollectMode mode) {
  if (core_ == nullptr) return CollectStats{};
  return core_->collect(mode);
}

GraphStats Graph::stats() const {
  if (core_ == nullptr) return GraphStats{};
  return core_->stats();
}

const GraphOptions& Graph::options() const {
  static const GraphOptions kDefaults;
  return core_ == nullptr ? kDefaults : core_->options();
}

}  // namespace graphgc
