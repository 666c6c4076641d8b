#include "graphgc/opset/values/value_explainer.h"

#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/data_type.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

bool IsRandomOp(const OpKind& kind) { return internal::IsRandomOp(kind.domain, kind.op_type); }

std::string OpName(const OpKind& kind) {
  return kind.domain.empty() ? std::string(kind.op_type)
                             : absl::StrCat(kind.domain, ".", kind.op_type);
}

// The types of the node's outputs, as BuildNode saw them when it chose whether to compute values.
OutputTypes NodeOutputTypes(const Arena& arena, NodeId node) {
  OutputTypes types;
  for (int i = 0; i < arena.node_num_outputs(node); ++i) {
    const VarId output = arena.node_output(node, i);
    if (arena.var_is_tensor(output)) {
      types.push_back(TensorOutput(arena.var_dtype(output), arena.var_shape(output)));
    } else {
      types.emplace_back().non_tensor = arena.var_type(output);
    }
  }
  return types;
}

// The first input of the var's node that is given and holds no value; invalid if none.
VarId InputWithoutValue(const GraphCore& core, NodeId node, int* index) {
  const Arena& arena = core.arena();
  for (int i = 0; i < arena.node_num_inputs(node); ++i) {
    const VarId input = arena.node_input(node, i);
    if (input.valid() && !core.has_value(input)) {
      *index = i;
      return input;
    }
  }
  return VarId();
}

DataType OperandType(const Arena& arena, VarId var) {
  return var.valid() && arena.var_is_tensor(var) ? arena.var_dtype(var) : DataType::kUndefined;
}

// The op's resolution: BuildNode's, cached per op kind, or resolved here for a node whose inputs
// had no values (BuildNode resolves only to compute). nullptr for ops of other domains.
const ResolvedOp* ResolutionOf(const Arena& arena, NodeId node, const OpKind& kind) {
  if (const ResolvedOp* cached = arena.op_resolution(arena.node_op(node))) return cached;
  if (!IsOnnxDefinedDomain(kind.domain)) return nullptr;
  const onnx::OpSchema* schema = FindSchema(kind.op_type, kind.version, kind.domain);
  if (schema == nullptr) return nullptr;
  return ResolveOp(kind.domain, kind.op_type, schema->since_version());
}

// "graphgc's kernel for Conv computes T in {float, double}, and input 0 (X) is bfloat16" when an
// operand of the node has an element type its kernel does not declare.
std::optional<std::string> UndeclaredTypeReason(const Arena& arena, NodeId node,
                                                const OpKind& kind) {
  const ResolvedOp* op = ResolutionOf(arena, node, kind);
  if (op == nullptr) return std::nullopt;
  absl::InlinedVector<DataType, 4> inputs;
  absl::InlinedVector<DataType, 2> outputs;
  bool all_tensors = true;
  for (int i = 0; i < arena.node_num_inputs(node); ++i) {
    const VarId input = arena.node_input(node, i);
    if (input.valid() && !arena.var_is_tensor(input)) all_tensors = false;
    inputs.push_back(OperandType(arena, input));
  }
  for (int i = 0; i < arena.node_num_outputs(node); ++i) {
    const VarId output = arena.node_output(node, i);
    if (!arena.var_is_tensor(output)) all_tensors = false;
    outputs.push_back(OperandType(arena, output));
  }
  const bool value_kernel = !all_tensors || op->kernel == nullptr;
  const std::optional<UndeclaredOperand> undeclared = FindUndeclaredOperand(
      value_kernel ? op->value_kernel_checks : op->kernel_checks, inputs, outputs);
  if (!undeclared.has_value()) return std::nullopt;
  const OperandTypeCheck& check = *undeclared->check;
  std::string operand = absl::StrCat(check.output ? "output " : "input ", undeclared->index);
  if (!check.output && static_cast<size_t>(undeclared->index) < op->input_names.size()) {
    absl::StrAppend(&operand, " (", op->input_names[static_cast<size_t>(undeclared->index)], ")");
  }
  return absl::StrCat("graphgc's kernel for ", OpName(kind), " computes ", check.type_param, " in ",
                      check.types.ToString(), ", and ", operand, " is ",
                      DataTypeName(undeclared->dtype));
}

// Why the node's own computation gave the var no value, given that its inputs have values (or
// that it takes none).
absl::Status OwnReason(const GraphCore& core, VarId var, const OpKind& kind) {
  const std::string op = OpName(kind);
  if (IsRandomOp(kind)) {
    return absl::FailedPreconditionError(
        absl::StrCat("no value: ", op, " is random: its value differs from run to run"));
  }
  if (!has_kernel(kind.op_type, {.domain = std::string(kind.domain), .version = kind.version})) {
    return absl::UnimplementedError(
        absl::StrCat("no value: graphgc has no kernel for ", op, " at opset ", kind.version,
                     IsOnnxDefinedDomain(kind.domain) ? "" : " (an op of another domain)",
                     " (README: Ops that compute values)"));
  }
  const NodeId node = core.arena().var_producer(var);
  if (std::optional<std::string> reason = UndeclaredTypeReason(core.arena(), node, kind)) {
    return absl::UnimplementedError(absl::StrCat("no value: ", *reason));
  }
  const GraphOptions& options = core.options();
  const OutputTypes outputs = NodeOutputTypes(core.arena(), node);
  if (!OutputsFitBudget(outputs, options.max_value_bytes)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("no value: the ", outputs.size() == 1 ? "output" : "outputs", " of ", op,
                     " would be ", KnownOutputBytes(outputs),
                     " bytes, over GraphOptions::max_value_bytes (", options.max_value_bytes, ")"));
  }
  if (options.max_live_value_bytes > 0 && core.skipped_for_budget() > 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("no value: ", op,
                     " was not computed, or its value was dropped, to keep live values under "
                     "GraphOptions::max_live_value_bytes (",
                     options.max_live_value_bytes, "); the graph has ", core.skipped_for_budget(),
                     " such values"));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("no value: ", op,
                   "'s kernel gives none for these inputs (the result is undefined, or ONNX "
                   "and ONNX Runtime disagree on it, or it is too large for max_value_bytes)"));
}

// Drops the "no value: " every reason starts with, to chain it after another.
absl::string_view Cause(const absl::Status& status) {
  absl::string_view message = status.message();
  absl::ConsumePrefix(&message, "no value: ");
  return message;
}

// The reason of the var where a chain of inputs without values starts.
absl::Status RootReason(const GraphCore& core, VarId var) {
  const Arena& arena = core.arena();
  const NodeId node = arena.var_producer(var);
  // An argument, or a value evicted or dropped for the budget: the graph itself knows why.
  if (!node.valid() || core.lost_to_budget(var)) return core.explain_missing_value(var);
  return OwnReason(core, var, arena.op_kind(arena.node_op(node)));
}

}  // namespace

absl::Status ExplainMissingValue(const GraphCore& core, VarId var) {
  const Arena& arena = core.arena();
  if (arena.var_subgraph(var).valid()) {
    return absl::FailedPreconditionError(
        "no value: a var inside the body of an If, Loop or Scan has no value of its own (the op "
        "computes its outputs from the body)");
  }
  // Inputs without values are followed back to where the chain starts: iteratively, since a
  // chain may be millions of nodes long.
  std::string first_hop;
  int64_t hops = 0;
  VarId at = var;
  while (true) {
    const NodeId node = arena.var_producer(at);
    if (!node.valid() || core.lost_to_budget(at)) break;
    const OpKind& kind = arena.op_kind(arena.node_op(node));
    int index = -1;
    const VarId input = InputWithoutValue(core, node, &index);
    if (!input.valid() || IsRandomOp(kind)) break;
    if (hops == 0) first_hop = absl::StrCat("input ", index, " of ", OpName(kind), " has no value");
    ++hops;
    at = input;
  }
  const absl::Status root = RootReason(core, at);
  if (hops == 0) return root;
  if (hops == 1) {
    return absl::Status(root.code(), absl::StrCat("no value: ", first_hop, ": ", Cause(root)));
  }
  return absl::Status(root.code(),
                      absl::StrCat("no value: ", first_hop, "; ", hops,
                                   " inputs without values back up the chain: ", Cause(root)));
}

bool IsRandomOp(absl::string_view domain, absl::string_view op_type) {
  static const absl::flat_hash_set<absl::string_view> kRandom = {
      "RandomNormal",      "RandomNormalLike", "RandomUniform",
      "RandomUniformLike", "Multinomial",      "Bernoulli"};
  return (domain.empty() || domain == "ai.onnx") && kRandom.contains(op_type);
}

}  // namespace graphgc::internal
