#include "graphgc/opset/build/opaque_node.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc {
namespace {

std::vector<Var> OpaqueNodeFailed(absl::string_view op_type, absl::string_view why,
                                  size_t num_outputs) {
  const absl::Status status = absl::InvalidArgumentError(absl::StrCat(op_type, " (opaque): ", why));
  return internal::ToVector(internal::FailedOutputs(status, num_outputs));
}

bool IsReservedDomain(absl::string_view domain) { return internal::IsOnnxDefinedDomain(domain); }

absl::string_view Problem(absl::string_view op_type, const std::vector<Attribute>& attributes,
                          const OpaqueNodeOptions& options) {
  if (op_type.empty()) return "the op type is empty";
  if (options.version < 1) return "the domain's version must be at least 1";
  if (options.output_types.empty()) return "an opaque node needs at least one output";
  if (options.output_types.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return "too many outputs";
  }
  for (const Attribute& attribute : attributes) {
    if (std::holds_alternative<Subgraph>(attribute.value) ||
        std::holds_alternative<SubgraphId>(attribute.value)) {
      return "graph attributes are not supported on opaque nodes";
    }
  }
  return "";
}

internal::OutputType OutputOf(const std::optional<VarType>& type) {
  if (!type.has_value()) return internal::TensorOutput(DataType::kUndefined, std::nullopt);
  return internal::OutputTypeOf(*type);
}

}  // namespace

std::vector<Var> make_opaque_node(Graph& graph, absl::string_view op_type,
                                  absl::Span<const Var> inputs,
                                  const std::vector<Attribute>& attributes,
                                  const OpaqueNodeOptions& options) {
  if (IsReservedDomain(options.domain)) {
    return OpaqueNodeFailed(op_type,
                            "an opaque node needs a domain other than ai.onnx and ai.onnx.ml",
                            options.output_types.size());
  }
  return internal::MakeOpaqueNode(graph, op_type, inputs, attributes, options);
}

namespace {

std::vector<Var> BuildOpaque(Graph& graph, absl::string_view op_type, absl::Span<const Var> inputs,
                             const std::vector<Attribute>& attributes,
                             const OpaqueNodeOptions& options,
                             std::vector<std::optional<Value>> values) {
  const absl::string_view problem = Problem(op_type, attributes, options);
  if (!problem.empty()) return OpaqueNodeFailed(op_type, problem, options.output_types.size());
  if (graph.core() == nullptr) {
    return OpaqueNodeFailed(op_type, "the Graph was moved from", options.output_types.size());
  }
  std::vector<const Var*> operands;
  for (const Var& input : inputs) operands.push_back(input.empty() ? nullptr : &input);
  const internal::OpSignature signature{
      .op_type = op_type,
      .since_version = options.version,
      .input_names = {},
      .domain = options.domain,
      .opset_version = options.version,
      .takes_non_tensors = true,
  };
  const int num_outputs = static_cast<int>(options.output_types.size());
  internal::OutputVars outputs = internal::BuildNode(
      signature, operands, attributes, num_outputs,
      [&](absl::Span<const internal::OperandInfo>) -> absl::StatusOr<internal::OutputTypes> {
        internal::OutputTypes types;
        for (const auto& type : options.output_types) types.push_back(OutputOf(type));
        return types;
      },
      graph.core(),
      // No kernel may compute an opaque op's outputs, whatever is registered under its name:
      // its values are those given, if any.
      [&values](absl::Span<const internal::OperandInfo>,
                absl::Span<const internal::OutputType>) -> absl::StatusOr<internal::OutputValues> {
        internal::OutputValues given;
        for (std::optional<Value>& value : values) given.push_back(std::move(value));
        return given;
      });
  // The types given may name dims ("N"); inference, which would carry names, has no schema here.
  internal::Arena& arena = graph.core()->arena();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::optional<VarType>& type = options.output_types[i];
    if (!outputs[i].ok() || !type.has_value() || !type->is_tensor()) continue;
    if (type->dim_names().empty() || !type->shape().has_value()) continue;
    arena.set_dim_names(outputs[i].id(), arena.intern_names(type->dim_names()));
  }
  return std::vector<Var>(std::make_move_iterator(outputs.begin()),
                          std::make_move_iterator(outputs.end()));
}

}  // namespace

std::vector<Var> internal::MakeOpaqueNode(Graph& graph, absl::string_view op_type,
                                          absl::Span<const Var> inputs,
                                          const std::vector<Attribute>& attributes,
                                          const OpaqueNodeOptions& options) {
  return BuildOpaque(graph, op_type, inputs, attributes, options, {});
}

std::vector<Var> internal::MakeOpaqueNodeWithValues(Graph& graph, absl::string_view op_type,
                                                    absl::Span<const Var> inputs,
                                                    const std::vector<Attribute>& attributes,
                                                    const OpaqueNodeOptions& options,
                                                    std::vector<std::optional<Value>> values) {
  if (values.size() != options.output_types.size()) {
    return OpaqueNodeFailed(op_type, "one value (or none) per output", options.output_types.size());
  }
  return BuildOpaque(graph, op_type, inputs, attributes, options, std::move(values));
}

}  // namespace graphgc
