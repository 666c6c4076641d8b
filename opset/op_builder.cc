#include "graphgc/op_builder.h"

#include <utility>

#include "absl/container/inlined_vector.h"

#include "absl/strings/str_cat.h"
#include "graphgc/graph_core.h"

namespace graphgc::internal {
namespace {

struct Operands {
  GraphCore* core = nullptr;  // the graph of the call; nullptr if no operand has a live graph
  absl::Status problem;       // OK when every operand is usable
};

GraphCore* FirstLiveCore(absl::Span<const Var* const> inputs) {
  for (const Var* input : inputs) {
    if (input->core() != nullptr && input->core()->alive()) return input->core();
  }
  return nullptr;
}

absl::Status CheckOperand(const OpSignature& signature, size_t index, const Var& input,
                          const GraphCore* core) {
  if (input.ok() && input.core() == core) return absl::OkStatus();  // the common case, no strings
  const std::string prefix = absl::StrCat(signature.op_type, ": ", InputLabel(signature, index));
  if (input.empty()) return absl::InvalidArgumentError(absl::StrCat(prefix, " is an empty Var"));
  if (input.core() == nullptr) {  // a failure: chain its cause, keep its code
    const absl::Status cause = input.status();
    return absl::Status(cause.code(), absl::StrCat(prefix, " is a failed Var: ", cause.message()));
  }
  if (!input.core()->alive()) {
    return absl::FailedPreconditionError(
        absl::StrCat(prefix, " belongs to a Graph that was destroyed"));
  }
  return absl::InvalidArgumentError(absl::StrCat(prefix, " belongs to another Graph"));
}

Operands ResolveOperands(const OpSignature& signature, absl::Span<const Var* const> inputs) {
  Operands operands;
  operands.core = FirstLiveCore(inputs);
  for (size_t i = 0; i < inputs.size() && operands.problem.ok(); ++i) {
    operands.problem = CheckOperand(signature, i, *inputs[i], operands.core);
  }
  return operands;
}


using OperandInfos = absl::InlinedVector<OperandInfo, 3>;

OperandInfos DescribeOperands(const GraphCore& core, absl::Span<const Var* const> inputs) {
  OperandInfos infos(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const VarId id = inputs[i]->id();
    infos[i].dtype = core.arena().var_dtype(id);
    infos[i].shape = core.arena().var_shape(id);
    infos[i].value = core.value(id);
  }
  return infos;
}

bool AllValuesKnown(absl::Span<const OperandInfo> infos) {
  for (const OperandInfo& info : infos) {
    if (!info.value.has_value()) return false;
  }
  return true;
}

// Whether the output's value may be computed: known shape and within the size budget.
bool WithinValueBudget(const OutputType& type, int64_t max_bytes) {
  if (!type.shape.has_value()) return false;
  absl::StatusOr<int64_t> count = ElementCount(*type.shape);
  if (!count.ok()) return false;
  const int64_t element_size = static_cast<int64_t>(ElementSize(type.dtype));
  return element_size == 0 || *count <= max_bytes / element_size;
}

}  // namespace

std::string InputLabel(const OpSignature& signature, size_t index) {
  if (index < signature.input_names.size()) {
    return absl::StrCat("input ", index, " (", signature.input_names[index], ")");
  }
  return absl::StrCat("input ", index);
}

Var BuildOp(const OpSignature& signature, absl::Span<const Var* const> inputs,
            std::vector<Attribute> attributes, InferFn infer, KernelFn kernel) {
  const Operands operands = ResolveOperands(signature, inputs);
  if (!operands.problem.ok()) return Var::Detached(operands.problem);
  GraphCore& core = *operands.core;

  OperandInfos infos = DescribeOperands(core, inputs);
  absl::StatusOr<OutputType> type = infer(infos);
  if (!type.ok()) {
    return Var::Detached(absl::Status(
        type.status().code(), absl::StrCat(signature.op_type, ": ", type.status().message())));
  }

  absl::InlinedVector<VarId, 4> input_ids;
  for (const Var* input : inputs) input_ids.push_back(input->id());
  Arena& arena = core.arena();
  const OpKindId op = arena.intern_op(signature.op_type, "", signature.since_version);
  const NodeId node = core.add_node(op, input_ids, attributes, 1);
  const VarId out = arena.node_output(node, 0);
  arena.set_var_type(out, type->dtype, type->shape);

  if (core.options().propagate_values && AllValuesKnown(infos) &&
      WithinValueBudget(*type, core.options().max_value_bytes)) {
    std::optional<Tensor> value = kernel(infos, *type);
    if (value.has_value()) core.set_value(out, *std::move(value));
  }
  Var result(&core, out);
  infos.clear();  // drop the input tensors before an automatic collection may run
  core.maybe_collect();
  return result;
}

}  // namespace graphgc::internal
