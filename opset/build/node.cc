#include "graphgc/opset/build/node.h"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/attribute_refs.h"
#include "graphgc/opset/build/custom_op_registry.h"
#include "graphgc/opset/build/generated_support.h"
#include "graphgc/opset/build/native_ops.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/build/subgraph_builder.h"
#include "graphgc/opset/inference/inference_fixes.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/values/control_flow_values.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/opset/values/shape_only_ops.h"
#include "graphgc/opset/values/value_explainer.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/defs/schema.h"

namespace graphgc {
namespace {

using internal::OperandInfo;
using internal::OutputType;
using internal::OutputTypes;
using internal::OutputValues;

constexpr int kNewestMlOpset = 5;

// NodeOptions::num_outputs is the user's int: a negative count must not become a huge size_t.
internal::OutputVars Failed(const absl::Status& status, int num_outputs) {
  return internal::FailedOutputs(status, static_cast<size_t>(std::max(num_outputs, 0)));
}

absl::Status NodeError(absl::string_view op_type, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(op_type, ": ", why));
}

// How many inputs were given: trailing empty Vars are omitted inputs, not inputs.
size_t GivenInputCount(absl::Span<const Var> inputs) {
  size_t count = inputs.size();
  while (count > 0 && inputs[count - 1].empty()) --count;
  return count;
}

// Inputs past the last given one are omitted; empty Vars in optional positions are omitted too.
// Inline capacities: a node's operands and names are built for every op, and most take few.
using OperandPointers = absl::InlinedVector<const Var*, 4>;
using FormalNames = absl::InlinedVector<absl::string_view, 4>;

OperandPointers PointersTo(const onnx::OpSchema& schema, absl::Span<const Var> inputs) {
  const size_t count = GivenInputCount(inputs);
  OperandPointers pointers;
  for (size_t i = 0; i < count; ++i) {
    const auto& formals = schema.inputs();
    const bool optional = i < formals.size() && formals[i].GetOption() == onnx::OpSchema::Optional;
    pointers.push_back(optional && inputs[i].empty() ? nullptr : &inputs[i]);
  }
  return pointers;
}

FormalNames NamesOfFormals(const onnx::OpSchema& schema, size_t count) {
  FormalNames names;
  for (size_t i = 0; i < count && !schema.inputs().empty(); ++i) {
    names.push_back(schema.inputs()[std::min(i, schema.inputs().size() - 1)].GetName());
  }
  return names;
}

absl::StatusOr<int> ResolveVersion(absl::string_view op_type, absl::string_view domain,
                                   int requested) {
  const int supported = SupportedOpsetVersion(domain);
  if (supported == 0) return NodeError(op_type, absl::StrCat("unknown domain '", domain, "'"));
  if (requested == 0) return supported;
  if (requested < 1 || requested > supported) {
    return NodeError(op_type, absl::StrCat("opset ", requested, " of domain '", domain,
                                           "' is not supported (1 to ", supported, ")"));
  }
  return requested;
}

}  // namespace

int SupportedOpsetVersion(absl::string_view domain) {
  if (domain.empty() || domain == "ai.onnx") return kNewestOnnxOpset;
  if (domain == "ai.onnx.ml") return kNewestMlOpset;
  if (domain == internal::kPreviewTrainingDomain) return internal::kNewestPreviewTrainingOpset;
  return internal::CustomDomainVersion(domain);
}

namespace internal {
namespace {

using graphgc::Failed;
using graphgc::GivenInputCount;

CustomOpContext ContextOf(absl::Span<const OperandInfo> in,
                          const std::vector<Attribute>& attributes, int num_outputs) {
  CustomOpContext context;
  for (const OperandInfo& info : in) {
    TensorType type{info.dtype, std::nullopt};
    if (info.shape.has_value()) type.shape.emplace(info.shape->begin(), info.shape->end());
    context.inputs.push_back(std::move(type));
    context.values.push_back(info.value);
  }
  context.attributes = attributes;
  context.num_outputs = num_outputs;
  return context;
}

absl::StatusOr<OutputTypes> InferCustom(const CustomOp& op, absl::Span<const OperandInfo> in,
                                        const std::vector<Attribute>& attributes, int num_outputs) {
  for (size_t i = 0; i < in.size(); ++i) {
    if (!in[i].present) return absl::InvalidArgumentError(absl::StrCat("input ", i, " is omitted"));
    if (in[i].non_tensor.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input ", i, " is a ", in[i].non_tensor->ToString(), "; custom ops take tensors"));
    }
  }
  absl::StatusOr<std::vector<TensorType>> types = absl::InternalError("");
  try {
    types = op.infer(ContextOf(in, attributes, num_outputs));
  } catch (const std::exception& thrown) {
    return absl::InternalError(absl::StrCat("the inference function threw: ", thrown.what()));
  } catch (...) {
    return absl::InternalError("the inference function threw");
  }
  if (!types.ok()) return types.status();
  if (types->size() != static_cast<size_t>(num_outputs)) {
    return absl::InternalError(absl::StrCat("the inference function returned ", types->size(),
                                            " types for ", num_outputs, " outputs"));
  }
  OutputTypes outputs;
  for (const TensorType& type : *types) {
    if (!IsSupportedDataType(static_cast<int32_t>(type.dtype))) {
      return absl::InternalError("the inference function returned an unsupported element type");
    }
    std::optional<Shape> shape;
    if (type.shape.has_value()) shape.emplace(type.shape->begin(), type.shape->end());
    outputs.push_back(TensorOutput(type.dtype, std::move(shape)));
  }
  return outputs;
}

OutputVars MakeCustomNode(GraphCore* graph, const CustomOp& op, int version,
                          absl::Span<const Var> inputs, const std::vector<Attribute>& attributes,
                          int requested_outputs) {
  const size_t count = GivenInputCount(inputs);
  const int num_outputs = requested_outputs >= 0 ? requested_outputs : op.min_outputs;
  if (static_cast<int>(count) < op.min_inputs || static_cast<int>(count) > op.max_inputs ||
      num_outputs < op.min_outputs || num_outputs > op.max_outputs) {
    return Failed(
        NodeError(op.op_type,
                  absl::StrCat(count, " inputs and ", num_outputs, " outputs; the op takes ",
                               op.min_inputs, " to ", op.max_inputs, " inputs and ", op.min_outputs,
                               " to ", op.max_outputs, " outputs")),
        requested_outputs);
  }
  OperandPointers operands;
  for (size_t i = 0; i < count; ++i) operands.push_back(inputs[i].empty() ? nullptr : &inputs[i]);
  const internal::OpSignature signature{op.op_type, op.version, {}, op.domain, version};
  return internal::BuildNode(
      signature, operands, attributes, num_outputs,
      [&](absl::Span<const OperandInfo> in) {
        return InferCustom(op, in, attributes, num_outputs);
      },
      graph);
}

// The bodies of a node's graph attributes (If, Loop, Scan, SequenceMap), built before the node
// itself (subgraph_builder.h), and in `with_bodies` the attributes with each Subgraph replaced by
// its built body. None for any other op (`with_bodies` is then left alone).
absl::StatusOr<BuiltBodies> BuildBodiesOf(GraphCore* graph, const onnx::OpSchema& schema,
                                          const OpSignature& signature,
                                          absl::Span<const Var* const> operands,
                                          const std::vector<Attribute>& attributes,
                                          std::vector<Attribute>& with_bodies) {
  if (!HasSubgraphAttributes(attributes)) return BuiltBodies();
  if (absl::Status valid = CheckAttributes(schema, attributes); !valid.ok()) {
    return absl::Status(valid.code(), absl::StrCat(schema.Name(), ": ", valid.message()));
  }
  GRAPHGC_ASSIGN_OR_RETURN(GraphCore * core, ResolveGraph(signature, operands, graph));
  with_bodies = attributes;
  return BuildBodies(*core, schema.Name(), schema.since_version(),
                     DescribeOperands(*core, operands), with_bodies);
}

// Whether the op's values come from its bodies: If, Loop, Scan, SequenceMap.
bool ComputesFromBodies(absl::string_view op_type) {
  return op_type == "If" || op_type == "Loop" || op_type == "SequenceMap" || op_type == "Scan";
}

// The graph a node with bodies is made in (nullptr if its operands have none).
GraphCore* BodyGraph(GraphCore* graph, const OpSignature& signature,
                     absl::Span<const Var* const> operands) {
  absl::StatusOr<GraphCore*> core = ResolveGraph(signature, operands, graph);
  return core.ok() ? *core : nullptr;
}

// If takes the value of its chosen branch; Loop, Scan (from opset 9) and SequenceMap run their
// body trip by trip (control_flow_values.h).
BodyValuesFn ValuesFromBodies(GraphCore* core, const onnx::OpSchema& schema,
                              const BuiltBodies& bodies, const std::vector<Attribute>& attributes) {
  if (bodies.empty()) return {};
  const std::string& name = schema.Name();
  if (name == "If") {
    return BodyValuesFn(
        [&bodies](absl::Span<const OperandInfo> in,
                  absl::Span<const OutputType> out) -> absl::StatusOr<OutputValues> {
          return PropagateIf(in, out, bodies);
        });
  }
  const SubgraphId body = bodies.front().subgraph;
  if (core == nullptr || bodies.size() != 1 || !ComputesFromBodies(name)) {
    return BodyValuesFn([](absl::Span<const OperandInfo>,
                           absl::Span<const OutputType> out) -> absl::StatusOr<OutputValues> {
      return OutputValues(out.size());
    });
  }
  const int version = schema.since_version();
  return BodyValuesFn([core, body, &name, &attributes, version](
                          absl::Span<const OperandInfo> in,
                          absl::Span<const OutputType> out) -> absl::StatusOr<OutputValues> {
    if (name == "Loop") return PropagateLoop(*core, body, in, out);
    if (name == "Scan" && version < 9) return PropagateScan8(*core, body, in, out, attributes);
    if (name == "Scan") return PropagateScan(*core, body, in, out, attributes);
    return PropagateSequenceMap(*core, body, in, out);
  });
}

// A node of an ai.onnx or ai.onnx.ml schema: checked and inferred by the schema (reading the
// bodies' types, if any), valued by a native kernel, or for If by the chosen branch.
OutputVars MakeSchemaNode(GraphCore* graph, const onnx::OpSchema& schema, int version,
                          absl::Span<const Var> inputs,
                          const std::vector<Attribute>& given_attributes, int requested_outputs) {
  const OperandPointers operands = PointersTo(schema, inputs);
  const FormalNames names = NamesOfFormals(schema, operands.size());
  const OpSignature signature{schema.Name(), schema.since_version(),        names, schema.domain(),
                              version,       ReadsShapesOnly(schema.Name())};
  std::vector<Attribute> with_bodies;
  absl::StatusOr<BuiltBodies> bodies =
      BuildBodiesOf(graph, schema, signature, operands, given_attributes, with_bodies);
  if (!bodies.ok()) return Failed(bodies.status(), requested_outputs);
  const std::vector<Attribute>& attributes = bodies->empty() ? given_attributes : with_bodies;
  const int default_outputs =
      bodies->empty() ? schema.min_output() : OutputCountFromBodies(schema.Name(), *bodies);
  const int num_outputs = requested_outputs >= 0 ? requested_outputs : std::max(default_outputs, 1);
  std::vector<BodyTypes> body_types;
  for (const BuiltBody& body : *bodies) body_types.push_back(body.types);
  // Resolved again only for a node with bodies: ValuesFromBodies reads the graph only then.
  GraphCore* const body_graph = bodies->empty() ? nullptr : BodyGraph(graph, signature, operands);
  return BuildNode(
      signature, operands, attributes, num_outputs,
      [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputTypes> {
        absl::StatusOr<OutputTypes> types =
            InferWithSchema(schema, in, attributes, num_outputs, body_types);
        if (types.ok() && schema.Name() == "Loop") RefineLoopOutputs(in, *bodies, *types);
        if (types.ok() && schema.Name() == "If") RefineIfOutputs(*bodies, *types);
        if (types.ok() && schema.domain().empty()) {
          FixInferredTypes(schema.Name(), schema.since_version(), in, attributes, *types);
        }
        return types;
      },
      graph, ValuesFromBodies(body_graph, schema, *bodies, attributes));
}

}  // namespace

OutputVars MakeNode(GraphCore* graph, absl::string_view op_type, absl::Span<const Var> inputs,
                    const std::vector<Attribute>& attributes, const NodeOptions& options) {
  absl::string_view domain = options.domain;
  if (domain == "ai.onnx") domain = "";
  const absl::StatusOr<int> version = ResolveVersion(op_type, domain, options.version);
  if (!version.ok()) return Failed(version.status(), options.num_outputs);
  for (const Attribute& attribute : attributes) {
    if (std::holds_alternative<SubgraphId>(attribute.value)) {
      return Failed(NodeError(op_type, absl::StrCat("attribute '", attribute.name,
                                                    "': give a body as a Subgraph; a SubgraphId "
                                                    "names one already built in an arena")),
                    options.num_outputs);
    }
  }
  if (!domain.empty() && HasSubgraphAttributes(attributes)) {
    return Failed(NodeError(op_type,
                            "graph attributes are supported for ai.onnx If, Loop, Scan "
                            "and SequenceMap only"),
                  options.num_outputs);
  }
  if (!IsOnnxDefinedDomain(domain)) {
    const std::shared_ptr<const CustomOp> custom = FindCustomOp(domain, op_type, *version);
    if (custom == nullptr) {
      return Failed(NodeError(op_type, absl::StrCat("no such operator in domain '", domain,
                                                    "' at opset ", *version)),
                    options.num_outputs);
    }
    return MakeCustomNode(graph, *custom, *version, inputs, attributes, options.num_outputs);
  }
  const onnx::OpSchema* schema = FindSchema(op_type, *version, domain);
  if (schema == nullptr) {
    return Failed(NodeError(op_type, absl::StrCat("no such operator in domain '", domain,
                                                  "' at opset ", *version)),
                  options.num_outputs);
  }
  if (schema->Deprecated()) {
    return Failed(
        NodeError(op_type,
                  absl::StrCat("deprecated at opset ", schema->SinceVersion(), " of domain '",
                               domain, "'; build it at an older opset (", *version, " was asked)")),
        options.num_outputs);
  }
  if (domain.empty() && options.num_outputs <= 1) {
    const int recorded = options.version == 0 ? 0 : *version;
    if (std::optional<Var> out =
            MakeNativeNode(schema->Name(), schema->since_version(), inputs, attributes, recorded)) {
      OutputVars made;
      made.push_back(*std::move(out));
      return made;
    }
  }
  return MakeSchemaNode(graph, *schema, *version, inputs, attributes, options.num_outputs);
}

}  // namespace internal

namespace {

// What has_kernel answers from: the op's resolution at `options`, or nullptr when it computes no
// values (unknown, random); `from_bodies` is set for If, Loop, Scan and SequenceMap, which
// compute what their bodies compute.
const internal::ResolvedOp* ResolveForHasKernel(absl::string_view op_type,
                                                const NodeOptions& options, bool& from_bodies) {
  from_bodies = false;
  // Not a conditional expression: `cond ? "" : options.domain` is a temporary std::string.
  absl::string_view domain = options.domain;
  if (domain == "ai.onnx") domain = "";
  if (internal::IsRandomOp(domain, op_type)) return nullptr;
  const absl::StatusOr<int> version = ResolveVersion(op_type, domain, options.version);
  if (!version.ok()) return nullptr;
  int since_version = 0;
  if (!internal::IsOnnxDefinedDomain(domain)) {
    const std::shared_ptr<const CustomOp> custom =
        internal::FindCustomOp(domain, op_type, *version);
    if (custom == nullptr) return nullptr;
    since_version = custom->version;
  } else {
    const onnx::OpSchema* schema = internal::FindSchema(op_type, *version, domain);
    if (schema == nullptr) return nullptr;
    since_version = schema->since_version();
    from_bodies = domain.empty() && internal::ComputesFromBodies(schema->Name());
  }
  const internal::ResolvedOp* op = internal::ResolveOp(domain, op_type, since_version);
  return op->kernel != nullptr || op->value_kernel != nullptr || from_bodies ? op : nullptr;
}

}  // namespace

bool has_kernel(absl::string_view op_type, const NodeOptions& options) {
  bool from_bodies = false;
  return ResolveForHasKernel(op_type, options, from_bodies) != nullptr;
}

bool has_kernel(absl::string_view op_type, const NodeOptions& options, DataType dtype) {
  bool from_bodies = false;
  const internal::ResolvedOp* op = ResolveForHasKernel(op_type, options, from_bodies);
  if (op == nullptr) return false;
  return from_bodies || op->computed_types.contains(dtype);
}

namespace {

// Builds the node, then records which of its attributes are references.
internal::OutputVars MakeNodeWithRefs(internal::GraphCore* graph, absl::string_view op_type,
                                      absl::Span<const Var> inputs,
                                      const std::vector<Attribute>& attributes,
                                      const NodeOptions& options) {
  if (options.attribute_refs.empty()) {
    return internal::MakeNode(graph, op_type, inputs, attributes, options);
  }
  if (absl::Status refs = internal::CheckAttributeRefs(op_type, attributes, options.attribute_refs);
      !refs.ok()) {
    return Failed(refs, options.num_outputs);
  }
  internal::OutputVars outputs = internal::MakeNode(graph, op_type, inputs, attributes, options);
  if (outputs.empty() || !outputs[0].ok() || outputs[0].core() == nullptr) return outputs;
  internal::RecordAttributeRefs(outputs[0], options.attribute_refs);
  return outputs;
}

}  // namespace

internal::OutputVars internal::MakeNodeIn(Graph& graph, absl::string_view op_type,
                                          absl::Span<const Var> inputs,
                                          const std::vector<Attribute>& attributes,
                                          const NodeOptions& options) {
  if (graph.core() == nullptr) {
    return Failed(
        absl::FailedPreconditionError(absl::StrCat(op_type, ": the Graph was moved from")),
        options.num_outputs);
  }
  return MakeNodeWithRefs(graph.core(), op_type, inputs, attributes, options);
}

std::vector<Var> make_node(absl::string_view op_type, absl::Span<const Var> inputs,
                           const std::vector<Attribute>& attributes, const NodeOptions& options) {
  return internal::ToVector(MakeNodeWithRefs(nullptr, op_type, inputs, attributes, options));
}

std::vector<Var> make_node(Graph& graph, absl::string_view op_type, absl::Span<const Var> inputs,
                           const std::vector<Attribute>& attributes, const NodeOptions& options) {
  return internal::ToVector(internal::MakeNodeIn(graph, op_type, inputs, attributes, options));
}

}  // namespace graphgc
