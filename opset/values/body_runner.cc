#include "graphgc/opset/values/body_runner.h"

#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::internal {
namespace {

// A tensor's exact type.
VarType TensorTypeOf(const Tensor& tensor) {
  return VarType::Tensor(tensor.dtype(),
                         std::vector<int64_t>(tensor.shape().begin(), tensor.shape().end()));
}

// The type of `value`, as precise as the value tells (a sequence's elements may change shape from
// trip to trip, so what the body was built with may be too precise); `declared` where the value
// does not tell (an empty sequence or optional, a map).
VarType TypeOf(const Value& value, const VarType& declared) {
  switch (value.kind()) {
    case Value::Kind::kTensor:
      return TensorTypeOf(value.tensor());
    case Value::Kind::kOptional:
      if (!value.has_element() || declared.kind() != VarType::Kind::kOptional) return declared;
      return VarType::Optional(TypeOf(value.elements()[0], declared.element()));
    case Value::Kind::kSequence: {
      if (value.elements().empty() || declared.kind() != VarType::Kind::kSequence) return declared;
      std::optional<VarType> common;
      for (const Value& element : value.elements()) {
        if (!element.is_tensor()) return declared;
        const VarType type = TensorTypeOf(element.tensor());
        if (common.has_value() && common->dtype() != type.dtype()) return declared;
        common = common.has_value() ? CommonType(*common, type) : type;
      }
      return VarType::Sequence(*common);
    }
    case Value::Kind::kMap:
      break;
  }
  return declared;
}

// The scratch graph of one trip and the Var each recorded var of the body has become there.
class Replay {
 public:
  Replay(const GraphCore& core, const GraphOptions& options) : core_(core), scratch_(options) {}

  Graph& scratch() { return scratch_; }

  // Binds a recorded var to a known value, as an argument of the scratch graph.
  absl::Status Bind(VarId recorded, const Value& given) {
    const VarType declared = core_.arena().var_type(recorded);
    // A value given where an optional is declared (a Loop's state that starts as an optional
    // and continues as what the body returns) is that optional, holding it.
    const Value value =
        declared.kind() == VarType::Kind::kOptional && given.kind() != Value::Kind::kOptional
            ? Value::Optional(given)
            : given;
    Var var = scratch_.argument(absl::StrCat("v", recorded.value()), TypeOf(value, declared));
    if (!var.ok()) return kernels::Decline(var.status().message());
    scratch_.core()->set_value(var.id(), value);
    env_[recorded] = std::move(var);
    return absl::OkStatus();
  }

  // Makes every node of `subgraph` (not those of nested bodies: their ops' builders do) anew.
  absl::Status Nodes(SubgraphId subgraph) {
    const Arena& arena = core_.arena();
    const auto [first, end] = arena.subgraphs().node_range(subgraph);
    for (uint32_t n = first; n < end; ++n) {
      const NodeId node(n);
      if (arena.subgraphs().of_node(node) != subgraph) continue;
      if (absl::Status made = Node(node); !made.ok()) return made;
    }
    return absl::OkStatus();
  }

  std::optional<Value> ValueOf(VarId recorded) const {
    auto it = env_.find(recorded);
    return it == env_.end() ? std::nullopt : it->second.any_value();
  }

 private:
  absl::Status Node(NodeId node) {
    const Arena& arena = core_.arena();
    const OpKind& kind = arena.op_kind(arena.node_op(node));
    std::vector<Var> inputs;
    for (VarId input : arena.node_inputs(node)) {
      if (!input.valid()) {
        inputs.emplace_back();
        continue;
      }
      auto it = env_.find(input);
      if (it == env_.end()) return kernels::Decline("the body reads a var it cannot see");
      inputs.push_back(it->second);
    }
    std::vector<Attribute> attributes = arena.node_attributes(node);
    for (Attribute& attribute : attributes) {
      if (const SubgraphId* nested = std::get_if<SubgraphId>(&attribute.value)) {
        attribute.value = NestedBody(*nested);
      }
    }
    const int outputs = arena.node_num_outputs(node);
    std::vector<Var> made =
        make_node(scratch_, kind.op_type, inputs, attributes,
                  {.domain = kind.domain, .version = kind.version, .num_outputs = outputs});
    for (int i = 0; i < outputs; ++i) {
      if (!made[static_cast<size_t>(i)].ok()) {
        return kernels::Decline(made[static_cast<size_t>(i)].status().message());
      }
      env_[arena.node_output(node, i)] = std::move(made[static_cast<size_t>(i)]);
    }
    return absl::OkStatus();
  }

  // A nested body (If's branch, a Loop in the loop) as a builder that replays it.
  Subgraph NestedBody(SubgraphId nested) {
    return Subgraph([this, nested](absl::Span<const Var> arguments) {
      const SubgraphTable& subgraphs = core_.arena().subgraphs();
      const std::vector<VarId> recorded = subgraphs.arguments(nested);
      for (size_t i = 0; i < recorded.size() && i < arguments.size(); ++i) {
        env_[recorded[i]] = arguments[i];
      }
      std::vector<Var> results;
      if (!Nodes(nested).ok()) return results;  // an empty body result fails the op: no value
      for (VarId result : subgraphs.results(nested)) {
        auto it = env_.find(result);
        results.push_back(it == env_.end() ? Var() : it->second);
      }
      return results;
    });
  }

  const GraphCore& core_;
  Graph scratch_;
  absl::flat_hash_map<VarId, Var> env_;
};

// The vars that nodes of `body` (nested bodies included) read from outside it.
std::vector<VarId> OuterVars(const Arena& arena, SubgraphId body) {
  std::vector<VarId> outer;
  const auto [first, end] = arena.subgraphs().node_range(body);
  for (uint32_t n = first; n < end; ++n) {
    for (VarId input : arena.node_inputs(NodeId(n))) {
      if (!input.valid() || arena.subgraphs().encloses(body, arena.var_subgraph(input))) continue;
      if (std::find(outer.begin(), outer.end(), input) == outer.end()) outer.push_back(input);
    }
  }
  return outer;
}

GraphOptions TripOptions(const GraphOptions& graph) {
  GraphOptions options = graph;
  options.collect_policy = CollectPolicy::kManual;  // the trip's graph lives for one trip
  options.keep_all_values = false;
  return options;
}

}  // namespace

BodyRunner::BodyRunner(GraphCore& core, SubgraphId body)
    : core_(core), body_(body), outer_vars_(OuterVars(core.arena(), body)) {}

absl::StatusOr<BodyResults> BodyRunner::Run(absl::Span<const Value> arguments) {
  const SubgraphTable& subgraphs = core_.arena().subgraphs();
  const std::vector<VarId> recorded = subgraphs.arguments(body_);
  if (recorded.size() != arguments.size()) return kernels::Decline("body argument count");
  BodyResults results;
  {
    Replay replay(core_, TripOptions(core_.options()));
    for (VarId outer : outer_vars_) {
      std::optional<Value> value = core_.any_value(outer);
      if (!value.has_value()) return kernels::Decline("the body reads a var without a value");
      if (absl::Status bound = replay.Bind(outer, *value); !bound.ok()) return bound;
    }
    for (size_t i = 0; i < arguments.size(); ++i) {
      if (absl::Status bound = replay.Bind(recorded[i], arguments[i]); !bound.ok()) return bound;
    }
    if (absl::Status made = replay.Nodes(body_); !made.ok()) return made;
    for (VarId result : subgraphs.results(body_)) results.push_back(replay.ValueOf(result));
    peak_trip_bytes_ = std::max(peak_trip_bytes_, replay.scratch().stats().peak_value_bytes);
  }
  return results;
}

}  // namespace graphgc::internal
