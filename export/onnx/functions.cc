#include "graphgc/export/onnx/functions.h"

#include <algorithm>
#include <exception>
#include <set>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/function_calls.h"
#include "graphgc/export/onnx/local_functions.h"
#include "graphgc/export/onnx/node_visitor.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/build/attribute_refs.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {

struct Function::Definitions {
  onnx::ModelProto model;  // functions: the function, then its callees
  internal::LocalFunctions index;
};

namespace {

absl::Status DefineError(const FunctionSpec& spec, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("define_function ", spec.domain, ".", spec.name, ": ", why));
}

bool IsGraph(const AttributeValue& value) {
  return std::holds_alternative<Subgraph>(value) || std::holds_alternative<SubgraphId>(value);
}

absl::Status CheckSpec(const FunctionSpec& spec) {
  if (spec.name.empty()) return DefineError(spec, "the function needs a name");
  if (spec.domain.empty() || internal::IsOnnxDefinedDomain(spec.domain) ||
      spec.domain == "ai.onnx") {
    return DefineError(spec, "give the function a domain of your own (not ai.onnx's or ONNX's)");
  }
  std::set<std::string> names;
  for (const FunctionInput& input : spec.inputs) {
    if (input.name.empty()) return DefineError(spec, "an input has no name");
    if (!names.insert(input.name).second) {
      return DefineError(spec, absl::StrCat("two inputs are named '", input.name, "'"));
    }
  }
  std::set<std::string> attributes;
  for (const Attribute& attribute : spec.attributes) {
    if (attribute.name.empty()) return DefineError(spec, "an attribute has no name");
    if (!attributes.insert(attribute.name).second) {
      return DefineError(spec, absl::StrCat("two attributes are named '", attribute.name, "'"));
    }
    if (IsGraph(attribute.value)) {
      return DefineError(spec, absl::StrCat("attribute '", attribute.name,
                                            "': a function's attribute is not a graph"));
    }
  }
  return absl::OkStatus();
}

// Every reference to a function attribute in `graph` (and its bodies) names one of `spec`'s.
absl::Status CheckReferences(const FunctionSpec& spec, const onnx::GraphProto& graph) {
  absl::Status status;
  internal::ForEachNode(graph.node(), [&](const onnx::NodeProto& node) {
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      const std::string& ref = attribute.ref_attr_name();
      if (status.ok() && !ref.empty() &&
          std::none_of(spec.attributes.begin(), spec.attributes.end(),
                       [&](const Attribute& a) { return a.name == ref; })) {
        status = DefineError(spec, absl::StrCat("a ", node.op_type(), " node refers to attribute '",
                                                ref, "', which the function does not declare"));
      }
    }
  });
  return status;
}

// The body's outputs, checked: at least one, each made in `trace` and not failed.
absl::StatusOr<NamedVars> NamedOutputs(const FunctionSpec& spec, const Graph& trace,
                                       const std::vector<Var>& outputs) {
  if (outputs.empty()) return DefineError(spec, "the body returned no Var");
  if (!spec.output_names.empty() && spec.output_names.size() != outputs.size()) {
    return DefineError(spec, absl::StrCat("the body returned ", outputs.size(), " Vars for ",
                                          spec.output_names.size(), " output names"));
  }
  NamedVars named;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string name =
        spec.output_names.empty() ? absl::StrCat("output_", i) : spec.output_names[i];
    if (!outputs[i].empty() && !outputs[i].ok()) {
      return DefineError(spec,
                         absl::StrCat("output ", i, " failed: ", outputs[i].status().message()));
    }
    if (outputs[i].empty() || outputs[i].core() != trace.core()) {
      return DefineError(
          spec, absl::StrCat("output ", i, " is not a Var the body made from its arguments"));
    }
    named.emplace_back(name, outputs[i]);
  }
  return named;
}

// The traced graph as a function: its nodes, with any initializer as a Constant node (a
// function has no initializers).
onnx::FunctionProto FunctionOf(const FunctionSpec& spec, const onnx::ModelProto& traced) {
  onnx::FunctionProto function;
  function.set_domain(spec.domain);
  function.set_name(spec.name);
  for (const onnx::ValueInfoProto& input : traced.graph().input()) function.add_input(input.name());
  for (const onnx::ValueInfoProto& output : traced.graph().output()) {
    function.add_output(output.name());
  }
  for (const onnx::TensorProto& initializer : traced.graph().initializer()) {
    onnx::NodeProto* constant = function.add_node();
    constant->set_op_type("Constant");
    constant->add_output(initializer.name());
    onnx::AttributeProto* value = constant->add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    *value->mutable_t() = initializer;
  }
  for (const onnx::NodeProto& node : traced.graph().node()) *function.add_node() = node;
  *function.mutable_opset_import() = traced.opset_import();
  for (const Attribute& attribute : spec.attributes) {
    internal::ToAttributeProto(attribute, function.add_attribute_proto());
  }
  return function;
}

std::vector<Var> FailedOutputs(const absl::Status& status, size_t count) {
  return std::vector<Var>(std::max<size_t>(count, 1), Var::Detached(status));
}

}  // namespace

const std::string& Function::domain() const { return definitions_->model.functions(0).domain(); }
const std::string& Function::name() const { return definitions_->model.functions(0).name(); }
int Function::num_inputs() const { return definitions_->model.functions(0).input_size(); }
int Function::num_outputs() const { return definitions_->model.functions(0).output_size(); }
const google::protobuf::RepeatedPtrField<onnx::FunctionProto>& Function::definitions() const {
  return definitions_->model.functions();
}

absl::StatusOr<Function> define_function(const FunctionSpec& spec, const FunctionBody& body) {
  GRAPHGC_RETURN_IF_ERROR(CheckSpec(spec));
  if (!body) return DefineError(spec, "no body");
  Graph trace;
  std::vector<Var> arguments;
  for (const FunctionInput& input : spec.inputs) {
    arguments.push_back(trace.argument(input.name, input.type));
    if (!arguments.back().ok()) {
      return DefineError(
          spec, absl::StrCat("input '", input.name, "': ", arguments.back().status().message()));
    }
  }
  std::vector<Var> outputs;
  try {
    outputs = body(trace, arguments);
  } catch (const std::exception& e) {
    return DefineError(spec, absl::StrCat("the body threw: ", e.what()));
  } catch (...) {
    return DefineError(spec, "the body threw");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const NamedVars named, NamedOutputs(spec, trace, outputs));
  ExportOptions options;
  options.inputs = arguments;
  absl::StatusOr<onnx::ModelProto> traced = internal::ExportFunctionBody(trace, named, options);
  if (!traced.ok()) return DefineError(spec, traced.status().message());
  GRAPHGC_RETURN_IF_ERROR(CheckReferences(spec, traced->graph()));
  auto definitions = std::make_shared<Function::Definitions>();
  *definitions->model.add_functions() = FunctionOf(spec, *traced);
  for (const onnx::FunctionProto& callee : traced->functions()) {
    *definitions->model.add_functions() = callee;
  }
  *definitions->model.mutable_opset_import() = traced->opset_import();
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : traced->opset_import()) {
    opsets[opset.domain()] = static_cast<int>(opset.version());
  }
  absl::StatusOr<internal::LocalFunctions> index =
      internal::LocalFunctions::Index(definitions->model, opsets);
  if (!index.ok()) return DefineError(spec, index.status().message());
  definitions->index = *std::move(index);
  return Function(std::move(definitions));
}

std::vector<Var> call(const Function& function, absl::Span<const Var> inputs,
                      const std::vector<Attribute>& attributes, const CallOptions& options) {
  const size_t num_outputs = function.empty() ? 1 : static_cast<size_t>(function.num_outputs());
  for (const Var& input : inputs) {  // a failed input fails the call, as it fails any op
    if (!input.empty() && !input.ok()) return FailedOutputs(input.status(), num_outputs);
  }
  internal::GraphCore* core = nullptr;
  for (const Var& input : inputs) {
    if (!input.empty() && input.core() != nullptr) {
      core = input.core();
      break;
    }
  }
  if (core == nullptr) {
    return FailedOutputs(
        absl::InvalidArgumentError(
            "call: no input belongs to a graph; give the graph: call(graph, function, inputs)"),
        num_outputs);
  }
  Graph graph = internal::BorrowGraph(core);
  return call(graph, function, inputs, attributes, options);
}

std::vector<Var> call(Graph& graph, const Function& function, absl::Span<const Var> inputs,
                      const std::vector<Attribute>& attributes, const CallOptions& options) {
  if (function.empty()) {
    return FailedOutputs(absl::InvalidArgumentError("call: the Function is empty"), 1);
  }
  const size_t num_outputs = static_cast<size_t>(function.num_outputs());
  auto fail = [&](absl::string_view why) {
    return FailedOutputs(absl::InvalidArgumentError(absl::StrCat("call ", function.domain(), ".",
                                                                 function.name(), ": ", why)),
                         num_outputs);
  };
  internal::GraphCore* core = graph.core();
  if (core == nullptr || !core->alive()) return fail("the Graph is gone or was moved from");
  if (inputs.size() > static_cast<size_t>(function.num_inputs())) {
    return fail(absl::StrCat(inputs.size(), " inputs; the function takes ", function.num_inputs()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].empty()) continue;
    if (!inputs[i].ok()) return FailedOutputs(inputs[i].status(), num_outputs);
    if (inputs[i].core() != core)
      return fail(absl::StrCat("input ", i, " belongs to another graph"));
  }
  if (absl::Status refs = internal::CheckAttributeRefs(absl::StrCat("call ", function.name()),
                                                       attributes, options.attribute_refs);
      !refs.ok()) {
    return FailedOutputs(refs, num_outputs);
  }
  internal::FunctionLibrary& library = core->functions();
  for (const onnx::FunctionProto& definition : function.definitions()) {
    const std::string* held = library.Find(definition.domain(), definition.name());
    if (held != nullptr && *held != definition.SerializeAsString()) {
      return fail(absl::StrCat("the graph already holds another function ",
                               internal::LocalFunctions::NameOf(definition)));
    }
  }
  for (const onnx::FunctionProto& definition : function.definitions()) {
    library.Add(definition.domain(), definition.name(), definition.SerializeAsString());
  }
  const onnx::FunctionProto& definition = function.definitions().Get(0);
  onnx::NodeProto node;
  node.set_domain(definition.domain());
  node.set_op_type(definition.name());
  for (size_t i = 0; i < inputs.size(); ++i) node.add_input(absl::StrCat("input_", i));
  for (size_t i = 0; i < num_outputs; ++i) node.add_output(absl::StrCat("output_", i));
  for (const Attribute& attribute : attributes) {
    if (IsGraph(attribute.value)) {
      return fail(
          absl::StrCat("attribute '", attribute.name, "': a function's attribute is not a graph"));
    }
    internal::ToAttributeProto(attribute, node.add_attribute());
  }
  auto hooks = std::make_shared<internal::InlineHooks>();
  hooks->functions = std::shared_ptr<const internal::LocalFunctions>(function.definitions_,
                                                                     &function.definitions_->index);
  absl::StatusOr<onnx::GraphProto> body = internal::LocalFunctions::BodyFor(definition, node);
  if (!body.ok()) return fail(body.status().message());
  absl::StatusOr<std::vector<Var>> results =
      internal::BuildFunctionBody(graph, definition, *body, node, inputs,
                                  function.definitions_->index.OpsetsOf(definition), hooks);
  if (!results.ok()) return fail(results.status().message());
  std::vector<Var> outputs =
      internal::MakeCallNode(graph, node, inputs, attributes, /*version=*/1, *results);
  if (!options.attribute_refs.empty() && !outputs.empty() && outputs[0].ok()) {
    internal::RecordAttributeRefs(outputs[0], options.attribute_refs);
  }
  return outputs;
}

}  // namespace graphgc
