#include "graphgc/graph.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/graph_core.h"

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

Graph::Graph(Graph&& other) noexcept : core_(std::exchange(other.core_, nullptr)) {}

Graph& Graph::operator=(Graph&& other) noexcept {
  if (this != &other) {
    Graph dying(std::move(*this));
    core_ = std::exchange(other.core_, nullptr);
  }
  return *this;
}

Graph::~Graph() {
  if (core_ == nullptr) return;
  core_->shutdown();
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
      if (dim < -1) return fail(absl::StrCat("dimension ", dim, " in shape ", ShapeToString(*shape)));
    }
    if (shape->size() > INT16_MAX) return fail("rank is too large");
  }
  internal::Arena& arena = core_->arena();
  const std::optional<StringId> existing = arena.find_string(name);
  if (existing.has_value() && arena.is_argument_name(*existing)) {
    return fail("an argument of this name already exists");
  }
  return Var(core_, core_->add_argument(arena.intern(name), dtype, shape));
}

Var Graph::argument(absl::string_view name, DataType dtype, absl::Span<const int64_t> shape) {
  return add_argument(name, dtype, shape);
}

Var Graph::argument_unranked(absl::string_view name, DataType dtype) {
  return add_argument(name, dtype, std::nullopt);
}

Var Graph::constant(const Tensor& tensor) {
  if (core_ == nullptr) return Var::Detached(MovedFromError("Constant"));
  if (tensor.dtype() == DataType::kUndefined) {
    return Var::Detached(
        absl::InvalidArgumentError("Constant: the tensor is empty (element type undefined)"));
  }
  internal::Arena& arena = core_->arena();
  const OpKindId op = arena.intern_op("Constant", "", kNewestOnnxOpset);
  const Attribute value{"value", tensor};
  const NodeId node = core_->add_node(op, {}, absl::Span<const Attribute>(&value, 1), 1);
  const VarId out = arena.node_output(node, 0);
  arena.set_var_type(out, tensor.dtype(), tensor.shape());
  return Var(core_, out);
}

CollectStats Graph::collect() { return collect(CollectMode::kIncremental); }

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
