#include "graphgc/inline_model.h"

#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/attribute_proto.h"
#include "graphgc/node.h"
#include "graphgc/status_macros.h"
#include "graphgc/tensor_proto.h"

namespace graphgc {
namespace {

absl::Status ModelError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("inline_model: ", why));
}

// Domain -> opset version the model imports, each one this library supports.
absl::StatusOr<std::map<std::string, int>> ImportedOpsets(const onnx::ModelProto& model) {
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    const int supported = SupportedOpsetVersion(domain);
    if (opset.version() < 1 || opset.version() > supported) {
      return ModelError(absl::StrCat("the model imports opset ", opset.version(), " of domain '",
                                     domain, "'; this library supports ",
                                     supported == 0 ? std::string("none")
                                                    : absl::StrCat("1 to ", supported)));
    }
    opsets[domain] = static_cast<int>(opset.version());
  }
  return opsets;
}

// The element type and shape a graph input declares (dim_param and missing dims are unknown).
absl::StatusOr<std::pair<DataType, std::optional<Shape>>> DeclaredType(
    const onnx::ValueInfoProto& info) {
  if (info.type().value_case() != onnx::TypeProto::kTensorType) {
    return ModelError(absl::StrCat("input '", info.name(), "' is not a tensor"));
  }
  const auto& tensor = info.type().tensor_type();
  if (!IsSupportedDataType(tensor.elem_type())) {
    return ModelError(absl::StrCat("input '", info.name(), "' has the unsupported element type ",
                                   tensor.elem_type()));
  }
  std::optional<Shape> shape;
  if (tensor.has_shape()) {
    shape.emplace();
    for (const auto& dim : tensor.shape().dim()) {
      shape->push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
    }
  }
  return std::make_pair(static_cast<DataType>(tensor.elem_type()), std::move(shape));
}

// Node indices in an order where every node comes after the producers of its inputs (Kahn's
// algorithm); errors name a dangling input or the nodes on a cycle.
absl::StatusOr<std::vector<int>> TopologicalOrder(const onnx::GraphProto& graph,
                                                  const absl::flat_hash_set<std::string>& sources) {
  absl::flat_hash_map<std::string, int> producer;
  for (int n = 0; n < graph.node_size(); ++n) {
    for (const std::string& output : graph.node(n).output()) {
      if (output.empty()) continue;
      if (sources.contains(output) || !producer.emplace(output, n).second) {
        return ModelError(absl::StrCat("'", output, "' is defined more than once"));
      }
    }
  }
  std::vector<int> pending(graph.node_size(), 0);
  std::vector<std::vector<int>> consumers(graph.node_size());
  for (int n = 0; n < graph.node_size(); ++n) {
    for (const std::string& input : graph.node(n).input()) {
      if (input.empty() || sources.contains(input)) continue;
      auto it = producer.find(input);
      if (it == producer.end()) {
        return ModelError(absl::StrCat("node ", n, " (", graph.node(n).op_type(), ") reads '",
                                       input, "', which nothing defines"));
      }
      ++pending[n];
      consumers[it->second].push_back(n);
    }
  }
  std::deque<int> ready;
  for (int n = 0; n < graph.node_size(); ++n) {
    if (pending[n] == 0) ready.push_back(n);
  }
  std::vector<int> order;
  while (!ready.empty()) {
    const int n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (int consumer : consumers[n]) {
      if (--pending[consumer] == 0) ready.push_back(consumer);
    }
  }
  if (static_cast<int>(order.size()) != graph.node_size()) {
    return ModelError("the graph has a cycle");
  }
  return order;
}

class Inliner {
 public:
  Inliner(Graph& graph, const onnx::GraphProto& model_graph, std::map<std::string, int> opsets)
      : graph_(graph), model_(model_graph), opsets_(std::move(opsets)) {}

  absl::StatusOr<std::map<std::string, Var>> Run(const std::map<std::string, Var>& given) {
    GRAPHGC_RETURN_IF_ERROR(CheckGiven(given));
    GRAPHGC_RETURN_IF_ERROR(CheckSparse());
    absl::flat_hash_set<std::string> sources;
    for (const auto& input : model_.input()) sources.insert(input.name());
    for (const auto& initializer : model_.initializer()) sources.insert(initializer.name());
    GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int> order, TopologicalOrder(model_, sources));
    // Everything that can fail without touching the graph is checked before anything is built.
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<Tensor> initializers, LoadInitializers());
    GRAPHGC_RETURN_IF_ERROR(BindInputs(given, initializers));
    for (int n : order) GRAPHGC_RETURN_IF_ERROR(BuildNode(model_.node(n)));
    return Outputs();
  }

 private:
  absl::Status CheckGiven(const std::map<std::string, Var>& given) const {
    for (const auto& [name, var] : given) {
      bool known = false;
      for (const auto& input : model_.input()) known = known || input.name() == name;
      if (!known) return ModelError(absl::StrCat("the model has no input '", name, "'"));
      if (!var.ok()) {
        return ModelError(absl::StrCat("input '", name, "': ", var.status().message()));
      }
      if (var.core() != graph_.core()) {
        return ModelError(absl::StrCat("input '", name, "' belongs to another Graph"));
      }
    }
    return absl::OkStatus();
  }

  absl::Status CheckSparse() const {
    if (model_.sparse_initializer_size() > 0) {
      return absl::UnimplementedError("inline_model: sparse initializers are not supported");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<Tensor>> LoadInitializers() const {
    std::vector<Tensor> tensors;
    for (const onnx::TensorProto& proto : model_.initializer()) {
      absl::StatusOr<Tensor> tensor = internal::FromTensorProto(proto);
      if (!tensor.ok()) {
        return absl::Status(tensor.status().code(),
                            absl::StrCat("inline_model: ", tensor.status().message()));
      }
      tensors.push_back(*std::move(tensor));
    }
    return tensors;
  }

  absl::Status BindInputs(const std::map<std::string, Var>& given,
                          const std::vector<Tensor>& initializers) {
    for (const auto& input : model_.input()) {
      GRAPHGC_ASSIGN_OR_RETURN(auto declared, DeclaredType(input));
      auto it = given.find(input.name());
      if (it != given.end()) {
        if (it->second.dtype() != declared.first) {
          return ModelError(absl::StrCat("input '", input.name(), "' is ",
                                         DataTypeName(declared.first), " in the model but the Var "
                                         "given is ", DataTypeName(it->second.dtype())));
        }
        vars_[input.name()] = it->second;
      }
    }
    for (int i = 0; i < model_.initializer_size(); ++i) {
      const std::string& name = model_.initializer(i).name();
      if (!vars_.contains(name)) vars_[name] = graph_.constant(initializers[i]);
    }
    for (const auto& input : model_.input()) {
      if (vars_.contains(input.name())) continue;
      GRAPHGC_ASSIGN_OR_RETURN(auto declared, DeclaredType(input));
      Var argument = declared.second.has_value()
                         ? graph_.argument(input.name(), declared.first, *declared.second)
                         : graph_.argument_unranked(input.name(), declared.first);
      if (!argument.ok()) return ModelError(argument.status().message());
      vars_[input.name()] = std::move(argument);
    }
    return absl::OkStatus();
  }

  absl::Status BuildNode(const onnx::NodeProto& node) {
    std::vector<Var> inputs;
    for (const std::string& name : node.input()) {
      inputs.push_back(name.empty() ? Var() : vars_.at(name));
    }
    std::vector<Attribute> attributes;
    for (const onnx::AttributeProto& proto : node.attribute()) {
      absl::StatusOr<Attribute> attribute = internal::FromAttributeProto(proto);
      if (!attribute.ok()) return NodeError(node, attribute.status());
      attributes.push_back(*std::move(attribute));
    }
    const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
    auto opset = opsets_.find(domain);
    if (opset == opsets_.end()) {
      return ModelError(absl::StrCat("node '", node.name(), "' uses domain '", domain,
                                     "', which the model does not import"));
    }
    std::vector<Var> outputs = make_node(
        graph_, node.op_type(), inputs, attributes,
        NodeOptions{.domain = domain, .version = opset->second,
                    .num_outputs = node.output_size()});
    for (int i = 0; i < node.output_size(); ++i) {
      if (!outputs[i].ok()) return NodeError(node, outputs[i].status());
      if (!node.output(i).empty()) vars_[node.output(i)] = outputs[i];
    }
    return absl::OkStatus();
  }

  static absl::Status NodeError(const onnx::NodeProto& node, const absl::Status& cause) {
    return absl::Status(cause.code(), absl::StrCat("inline_model: node '", node.name(), "' (",
                                                   node.op_type(), "): ", cause.message()));
  }

  absl::StatusOr<std::map<std::string, Var>> Outputs() const {
    std::map<std::string, Var> outputs;
    for (const auto& output : model_.output()) {
      auto it = vars_.find(output.name());
      if (it == vars_.end()) {
        return ModelError(absl::StrCat("output '", output.name(), "' is not defined"));
      }
      outputs[output.name()] = it->second;
    }
    return outputs;
  }

  Graph& graph_;
  const onnx::GraphProto& model_;
  const std::map<std::string, int> opsets_;
  absl::flat_hash_map<std::string, Var> vars_;
};

}  // namespace

absl::StatusOr<std::map<std::string, Var>> inline_model(Graph& graph,
                                                        const onnx::ModelProto& model,
                                                        const std::map<std::string, Var>& inputs) {
  if (graph.core() == nullptr) {
    return absl::FailedPreconditionError("inline_model: the Graph was moved from");
  }
  using Opsets = std::map<std::string, int>;
  GRAPHGC_ASSIGN_OR_RETURN(Opsets opsets, ImportedOpsets(model));
  if (opsets.empty()) opsets[""] = kNewestOnnxOpset;
  try {
    return Inliner(graph, model.graph(), std::move(opsets)).Run(inputs);
  } catch (const std::exception& e) {  // the public API never throws
    return absl::InternalError(absl::StrCat("inline_model: ", e.what()));
  }
}

}  // namespace graphgc
