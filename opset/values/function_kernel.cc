#include "graphgc/opset/values/function_kernel.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// The opset whose body computes the op's values. A schema may carry one body per opset
// (MeanVarianceNormalization's reads ReduceMean-18 from opset 18), and any of them defines the
// op; the body of the newest opset the kernels were written against uses ops that have kernels,
// and an op introduced later (Mish-18) has only bodies of its own opset or later.
int BodyOpset(const onnx::OpSchema& schema) {
  return std::max(kernels::kLastKnownOpset, schema.SinceVersion());
}

// The schema's fixed body for BodyOpset, if it has one.
const onnx::FunctionProto* FixedBody(const onnx::OpSchema& schema) {
  return schema.HasFunction() ? schema.GetFunction(BodyOpset(schema)) : nullptr;
}

// A copy the scratch graph may own as a constant (the input may be the caller's stored value).
Tensor Copy(const Tensor& tensor) {
  absl::StatusOr<MutableTensor> copy = MutableTensor::allocate(tensor.dtype(), tensor.shape());
  if (!copy.ok()) return tensor;
  if (tensor.dtype() == DataType::kString) {
    auto from = tensor.data<std::string>();
    auto to = copy->mutable_data<std::string>();
    for (size_t i = 0; i < from.size(); ++i) to[i] = from[i];
  } else if (tensor.nbytes() > 0) {
    std::memcpy(copy->raw_mutable_data(), tensor.raw_data(), tensor.nbytes());
  }
  return std::move(*copy).freeze();
}

// The caller's node as ONNX sees it: inputs x<i> ("" when omitted), outputs y<i>, attributes.
onnx::NodeProto CallerNode(const onnx::OpSchema& schema, const kernels::KernelContext& ctx) {
  onnx::NodeProto node;
  node.set_op_type(schema.Name());
  node.set_domain(schema.domain());
  for (int i = 0; i < ctx.num_inputs(); ++i)
    node.add_input(ctx.has_input(i) ? absl::StrCat("x", i) : "");
  for (int i = 0; i < ctx.num_outputs(); ++i) node.add_output(absl::StrCat("y", i));
  for (const kernels::KernelAttribute& a : ctx.attributes()) {
    ToAttributeProto(ToAttribute(a), node.add_attribute());
  }
  return node;
}

absl::StatusOr<onnx::FunctionProto> Body(const onnx::OpSchema& schema, const onnx::NodeProto& node,
                                         const kernels::KernelContext& ctx) {
  if (const onnx::FunctionProto* fixed = FixedBody(schema)) return *fixed;
  std::vector<onnx::TypeProto> types;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    types.push_back(ctx.has_input(i)
                        ? ToTypeProto(ctx.input(i).dtype(), Shape(ctx.input(i).shape().begin(),
                                                                  ctx.input(i).shape().end()))
                        : onnx::TypeProto());
  }
  onnx::FunctionProto body;
  const onnx::FunctionBodyBuildContextImpl context(node, types);
  try {
    if (schema.BuildContextDependentFunction(context, body, BodyOpset(schema))) return body;
  } catch (const std::exception&) {  // ONNX's builders throw on inputs they cannot type
  }
  return kernels::Decline("the function body cannot be built for these inputs");
}

// The body node's attributes, with references to the caller's attributes resolved.
absl::StatusOr<std::vector<Attribute>> BodyAttributes(const onnx::NodeProto& body_node,
                                                      const onnx::NodeProto& caller) {
  std::vector<Attribute> attributes;
  for (const onnx::AttributeProto& a : body_node.attribute()) {
    if (a.ref_attr_name().empty()) {
      absl::StatusOr<Attribute> attribute = FromAttributeProto(a);
      if (!attribute.ok()) return kernels::Decline(attribute.status().message());
      attributes.push_back(*std::move(attribute));
      continue;
    }
    for (const onnx::AttributeProto& given : caller.attribute()) {
      if (given.name() != a.ref_attr_name()) continue;
      onnx::AttributeProto renamed = given;
      renamed.set_name(a.name());
      absl::StatusOr<Attribute> attribute = FromAttributeProto(renamed);
      if (!attribute.ok()) return kernels::Decline(attribute.status().message());
      attributes.push_back(*std::move(attribute));
    }
  }
  return attributes;
}

// A function body being run on constants in a scratch graph: its names so far.
struct BodyRun {
  Graph& scratch;
  const onnx::NodeProto& caller;
  const std::map<std::string, int>& opsets;
  std::map<std::string, Var> env;
};

absl::Status RunNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                      BodyRun& run);

// An If of the body (AffineGrid's picks its 2-D or 3-D branch by the rank): every input is a
// constant here, so it is run as the branch its condition takes, whose results become the If's.
absl::Status RunTakenBranch(const onnx::NodeProto& node, BodyRun& run) {
  auto condition = node.input_size() > 0 ? run.env.find(node.input(0)) : run.env.end();
  std::optional<Tensor> value;
  if (condition != run.env.end() && condition->second.dtype() == DataType::kBool) {
    value = condition->second.value();
  }
  if (!value.has_value() || value->size() != 1) {
    return kernels::Decline("the body's If has no known condition");
  }
  const char* taken = value->data<bool>()[0] ? "then_branch" : "else_branch";
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.name() != taken || !attribute.has_g()) continue;
    GRAPHGC_RETURN_IF_ERROR(RunNodes(attribute.g().node(), run));
    if (attribute.g().output_size() != node.output_size()) {
      return kernels::Decline("the body's If branch has another number of results");
    }
    for (int o = 0; o < node.output_size(); ++o) {
      auto result = run.env.find(attribute.g().output(o).name());
      if (result == run.env.end()) return kernels::Decline("the body's If branch misses a result");
      if (!node.output(o).empty()) run.env[node.output(o)] = result->second;
    }
    return absl::OkStatus();
  }
  return kernels::Decline(absl::StrCat("the body's If has no ", taken));
}

absl::Status RunNode(const onnx::NodeProto& node, BodyRun& run) {
  const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  if (domain.empty() && node.op_type() == "If") return RunTakenBranch(node, run);
  std::vector<Var> inputs;
  for (const std::string& name : node.input()) {
    if (name.empty()) {
      inputs.emplace_back();
    } else if (auto it = run.env.find(name); it != run.env.end()) {
      inputs.push_back(it->second);
    } else {
      return kernels::Decline(absl::StrCat("the body reads '", name, "', which is not given"));
    }
  }
  absl::StatusOr<std::vector<Attribute>> attributes = BodyAttributes(node, run.caller);
  if (!attributes.ok()) return attributes.status();
  const auto version = run.opsets.find(domain);
  const std::vector<Var> outputs =
      make_node(run.scratch, node.op_type(), inputs, *attributes,
                {.domain = domain,
                 .version = version == run.opsets.end() ? 0 : version->second,
                 .num_outputs = node.output_size()});
  for (int o = 0; o < node.output_size(); ++o) {
    if (!outputs[static_cast<size_t>(o)].ok()) {
      return kernels::Decline(outputs[static_cast<size_t>(o)].status().message());
    }
    if (!node.output(o).empty()) run.env[node.output(o)] = outputs[static_cast<size_t>(o)];
  }
  return absl::OkStatus();
}

absl::Status RunNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                      BodyRun& run) {
  for (const onnx::NodeProto& node : nodes) GRAPHGC_RETURN_IF_ERROR(RunNode(node, run));
  return absl::OkStatus();
}

kernels::KernelResult ExpandBody(const onnx::OpSchema& schema, const kernels::KernelContext& ctx) {
  const onnx::NodeProto caller = CallerNode(schema, ctx);
  absl::StatusOr<onnx::FunctionProto> body = Body(schema, caller, ctx);
  if (!body.ok()) return body.status();
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : body->opset_import()) {
    opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] = static_cast<int>(opset.version());
  }
  GraphOptions options;
  options.max_value_bytes = ctx.max_value_bytes();
  options.kernel_threads = ctx.threads();
  options.collect_policy = CollectPolicy::kManual;
  Graph scratch(options);
  BodyRun run{scratch, caller, opsets, {}};
  for (int i = 0; i < body->input_size() && i < ctx.num_inputs(); ++i) {
    if (ctx.has_input(i)) run.env[body->input(i)] = scratch.constant(Copy(ctx.input(i)));
  }
  if (absl::Status ran = RunNodes(body->node(), run); !ran.ok()) return ran;
  const std::map<std::string, Var>& env = run.env;
  kernels::KernelOutputs values(static_cast<size_t>(ctx.num_outputs()));
  for (int o = 0; o < ctx.num_outputs() && o < body->output_size(); ++o) {
    auto it = env.find(body->output(o));
    if (it == env.end()) continue;
    std::optional<Tensor> value = it->second.value();
    // A body may compute another shape than the op's inference gives (LayerNormalization's,
    // where a Reshape to a 0 dim copies the input's dim): then the op gets no value, not a lie.
    const kernels::OutputSpec& spec = ctx.output(o);
    if (value.has_value() && !kernels::Fits(*value, spec.dtype, spec.shape)) {
      return kernels::Decline("the function body's value does not have the op's inferred type");
    }
    values[static_cast<size_t>(o)] = std::move(value);
  }
  return values;
}

}  // namespace

std::optional<kernels::Kernel> FunctionBodyKernel(const onnx::OpSchema& schema) {
  if (!schema.HasFunction() && !schema.HasContextDependentFunction()) return std::nullopt;
  const onnx::OpSchema* function_op = &schema;  // schemas live as long as the process
  return kernels::Kernel(
      [function_op](const kernels::KernelContext& ctx) { return ExpandBody(*function_op, ctx); });
}

}  // namespace graphgc::internal
