#include "graphgc/opset/build/op_builder.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/limits.h"
#include "graphgc/opset/build/dim_names.h"
#include "graphgc/opset/build/kernel_run.h"
#include "graphgc/opset/inference/shape_data.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/opset/values/recompute.h"
#include "graphgc/opset/values/value_explainer.h"
#include "graphgc/valuestore/check.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

struct Operands {
  GraphCore* core = nullptr;  // the graph of the call; nullptr if no operand has a live graph
  absl::Status problem;       // OK when every operand is usable
};

GraphCore* FirstLiveCore(absl::Span<const Var* const> inputs) {
  for (const Var* input : inputs) {
    if (input != nullptr && input->core() != nullptr && input->core()->alive())
      return input->core();
  }
  return nullptr;
}

absl::Status CheckOperand(const OpSignature& signature, size_t index, const Var& input,
                          const GraphCore* core) {
  // The common case, no strings; `core` is alive (FirstLiveCore), so the input is attached.
  if (core != nullptr && input.core() == core && core->visible_here(input.id())) {
    return absl::OkStatus();
  }
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
  if (input.core() != core) {
    return absl::InvalidArgumentError(absl::StrCat(prefix, " belongs to another Graph"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat(prefix,
                   " was made inside the body of an If, Loop or Scan, and can only be used there "
                   "(return it from the body to use it outside)"));
}

Operands ResolveOperands(const OpSignature& signature, absl::Span<const Var* const> inputs,
                         GraphCore* graph) {
  Operands operands;
  operands.core = FirstLiveCore(inputs);
  if (operands.core == nullptr && graph != nullptr && graph->alive()) operands.core = graph;
  for (size_t i = 0; i < inputs.size() && operands.problem.ok(); ++i) {
    if (inputs[i] != nullptr)
      operands.problem = CheckOperand(signature, i, *inputs[i], operands.core);
  }
  if (operands.problem.ok() && operands.core == nullptr) {
    operands.problem = absl::InvalidArgumentError(
        absl::StrCat(signature.op_type,
                     ": no input belongs to a Graph (an op without inputs is "
                     "made with Graph::constant or a graph-taking constructor)"));
  }
  return operands;
}

OperandInfos DescribeOperandsOf(const GraphCore& core, absl::Span<const Var* const> inputs) {
  const Arena& arena = core.arena();
  OperandInfos infos(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    OperandInfo& info = infos[i];
    if (inputs[i] == nullptr) {
      info.present = false;
      continue;
    }
    const VarId id = inputs[i]->id();
    if (!arena.var_is_tensor(id)) {
      info.non_tensor = arena.var_type(id);
      info.non_tensor_value = core.any_value(id);
      continue;
    }
    info.dtype = arena.var_dtype(id);
    arena.read_var_shape(id, info.shape);
    info.value = core.value(id);
    if (!info.value.has_value() && arena.has_shape_data()) {
      info.shape_data = arena.var_shape_data(id);
    }
  }
  return infos;
}

// Whether the output's value may be computed: known shape and within the size budget.
bool WithinValueBudget(const OutputType& type, int64_t max_bytes) {
  if (!type.shape.has_value()) return false;
  absl::StatusOr<int64_t> count = ElementCount(*type.shape);
  if (!count.ok()) return false;
  const int64_t element_size = static_cast<int64_t>(ElementSize(type.dtype));
  return element_size == 0 || *count <= max_bytes / element_size;
}

bool AllShapesKnown(absl::Span<const OperandInfo> infos) {
  for (const OperandInfo& info : infos) {
    if (!info.present || !info.shape.has_value()) return false;
    for (int64_t dim : *info.shape) {
      if (dim < 0) return false;
    }
  }
  return true;
}

// Whether inference knows every element of an int64 tensor output of known shape (its shape
// data), which then is its value.
bool ShapeDataIsComplete(const OutputType& type) {
  if (!type.shape_data.has_value() || type.non_tensor.has_value() ||
      type.dtype != DataType::kInt64 || !type.shape.has_value()) {
    return false;
  }
  const Shape& elements = *type.shape_data;
  if (std::find(elements.begin(), elements.end(), Arena::kUnknownElement) != elements.end()) {
    return false;
  }
  absl::StatusOr<int64_t> count = ElementCount(*type.shape);
  return count.ok() && *count == static_cast<int64_t>(elements.size());
}

// The value of an output whose shape data is complete (ShapeDataIsComplete); nullopt only when
// its buffer cannot be allocated.
std::optional<Tensor> ShapeDataValue(const OutputType& type) {
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(DataType::kInt64, *type.shape);
  if (!out.ok()) return std::nullopt;
  std::copy(type.shape_data->begin(), type.shape_data->end(), out->mutable_data<int64_t>().begin());
  return std::move(*out).freeze();
}

// ONNX's data propagation result for an output without a value: fully known elements of an int64
// output of known shape become its value (so that value propagation goes on from there), partly
// known ones are kept for the next shape computation.
void KeepShapeData(GraphCore& core, VarId var, const OutputType& type) {
  if (!type.shape_data.has_value() || core.has_value(var)) return;
  // Data the output's own type cannot hold is not its value (ONNX computes data in int64 for
  // every type): none is kept, so no later op makes a value of it.
  if (!ElementsHold(type.dtype, *type.shape_data)) return;
  if (ShapeDataIsComplete(type) && core.options().propagate_values) {
    if (std::optional<Tensor> value = ShapeDataValue(type)) {
      core.set_value(var, *std::move(value));
      return;
    }
  }
  core.arena().set_var_shape_data(var, *type.shape_data);
}

thread_local bool kernel_values_only = false;

// For an op that only moves elements (ResolvedOp::value_is_shape_data): every output's value from
// its complete shape data, in place of the kernel's. False (and `values` untouched) unless every
// output has complete data.
bool TakeShapeDataAsValues(const OutputTypes& types, OutputValues& values) {
  if (kernel_values_only) return false;
  for (const OutputType& type : types) {
    if (!ShapeDataIsComplete(type)) return false;
  }
  for (size_t i = 0; i < types.size(); ++i) {
    if (std::optional<Tensor> value = ShapeDataValue(types[i]))
      values[i].emplace(*std::move(value));
  }
  return true;
}

}  // namespace

// Whether every output's value may be computed: within the size budget where its shape is
// known (a kernel allocating an output of data-dependent size, or a sequence, checks the budget
// itself).
bool OutputsFitBudget(absl::Span<const OutputType> types, int64_t max_bytes) {
  for (const OutputType& type : types) {
    if (type.non_tensor.has_value() || !type.shape.has_value()) continue;
    bool known = true;
    for (int64_t dim : *type.shape) known = known && dim >= 0;
    if (known && !WithinValueBudget(type, max_bytes)) return false;
  }
  return true;
}

// The bytes the outputs of fully known shape take together (saturating).
int64_t KnownOutputBytes(absl::Span<const OutputType> types) {
  int64_t total = 0;
  for (const OutputType& type : types) {
    if (type.non_tensor.has_value() || !type.shape.has_value()) continue;
    absl::StatusOr<int64_t> count = ElementCount(*type.shape);
    if (!count.ok()) continue;
    const int64_t element_size = static_cast<int64_t>(ElementSize(type.dtype));
    if (element_size > 0 && *count > (std::numeric_limits<int64_t>::max() - total) / element_size) {
      return std::numeric_limits<int64_t>::max();
    }
    total += *count * element_size;
  }
  return total;
}

namespace {

// The most a value of this op may take: the per-value budget, and what the live cap has left
// (GraphOptions::max_live_value_bytes). 0 when the outputs cannot fit, which counts as skipped.
// Under OnBudget::kEvictAndRecompute room is made by evicting; `dropped` says why it could not be.
int64_t ValueBytesAllowed(GraphCore& core, absl::Span<const OutputType> types,
                          absl::Status& dropped) {
  const int64_t per_value = core.max_value_bytes();
  if (!OutputsFitBudget(types, per_value)) return 0;
  const int64_t cap = core.options().max_live_value_bytes;
  if (cap <= 0) return per_value;  // no cap: nothing to add up
  const int64_t wanted = KnownOutputBytes(types);
  if (core.evicts()) {
    dropped = core.make_room(wanted);
    if (!dropped.ok()) {
      core.note_skipped_for_budget();
      return 0;
    }
    return std::min(per_value, std::max<int64_t>(cap - core.budget_used(), 0));
  }
  const int64_t left = core.live_budget_left(wanted);
  if (left == 0 || wanted > left) {
    core.note_skipped_for_budget();
    return 0;
  }
  return std::min(per_value, left);
}

}  // namespace

bool AllValuesKnown(absl::Span<const OperandInfo> infos) {
  for (const OperandInfo& info : infos) {
    if (info.present && !info.value.has_value() && !info.non_tensor_value.has_value()) {
      return false;
    }
  }
  return true;
}

std::optional<Value> OperandValue(const OperandInfo& info) {
  if (info.non_tensor.has_value()) return info.non_tensor_value;
  if (info.value.has_value()) return Value(*info.value);
  return std::nullopt;
}

absl::Status CheckOutputValue(size_t index, const Value& value, OutputType& type) {
  if (value.is_tensor() && !type.non_tensor.has_value()) {
    return CheckTensorValue(index, value.tensor(), type);
  }
  if (type.non_tensor.has_value() && ValueHasType(value, *type.non_tensor)) {
    return absl::OkStatus();
  }
  return absl::InternalError(
      absl::StrCat("graphgc bug: the kernel's output ", index, " is a ", value.KindName(),
                   " value but inference gave ",
                   type.non_tensor.has_value() ? type.non_tensor->ToString() : "a tensor"));
}

OutputType OutputTypeOf(const VarType& type) {
  if (!type.is_tensor()) return AnyOutput(DataType::kUndefined, std::nullopt, type);
  std::optional<Shape> shape;
  if (type.shape().has_value()) shape.emplace(type.shape()->begin(), type.shape()->end());
  return TensorOutput(type.dtype(), std::move(shape));
}

std::string InputLabel(const OpSignature& signature, size_t index) {
  if (index < signature.input_names.size()) {
    return absl::StrCat("input ", index, " (", signature.input_names[index], ")");
  }
  return absl::StrCat("input ", index);
}

absl::StatusOr<GraphCore*> ResolveGraph(const OpSignature& signature,
                                        absl::Span<const Var* const> inputs, GraphCore* graph) {
  const Operands operands = ResolveOperands(signature, inputs, graph);
  if (!operands.problem.ok()) return operands.problem;
  return operands.core;
}

OperandInfos DescribeOperands(const GraphCore& core, absl::Span<const Var* const> inputs) {
  return DescribeOperandsOf(core, inputs);
}

namespace {
// Each output was allocated within what the live cap had left, but together they may pass it
// (outputs of unknown size): then none is kept. Buffers of the inputs (views) add nothing.
void DropValuesOverTheLiveCap(GraphCore& core, absl::Span<const OperandInfo> infos,
                              OutputValues& values, absl::Status& dropped) {
  if (core.options().max_live_value_bytes <= 0) return;
  absl::flat_hash_set<const void*> buffers;
  for (const OperandInfo& info : infos) {
    if (info.value.has_value()) buffers.insert(info.value->buffer());
  }
  int64_t added = 0;
  for (const std::optional<Value>& value : values) {
    if (!value.has_value() || !value->is_tensor()) continue;
    const Tensor& tensor = value->tensor();
    if (tensor.buffer() != nullptr && buffers.insert(tensor.buffer()).second) {
      added += static_cast<int64_t>(tensor.buffer_bytes());
    }
  }
  if (core.evicts()) {
    dropped = core.make_room(added);
    if (dropped.ok()) return;
  } else if (added <= core.live_budget_left(0)) {
    return;
  }
  for (std::optional<Value>& value : values) value.reset();
  core.note_skipped_for_budget();
}

// The most bytes of an evicted operand's value that inference could want when the node's values
// cannot be computed anyway: shapes, axes, repeats and the like are far smaller.
constexpr int64_t kInferenceOnlyValueBytes = int64_t{64} << 10;

// Under OnBudget::kEvictAndRecompute: the values of evicted operands, computed again (before
// inference, which reads values too, so that types are those of a graph that kept everything).
// When another operand has no value (a model's input, say) only small ones are: the node's
// values cannot be computed, and a weight read by a MatMul of an input need not come back.
// One that cannot be had stays without a value; value_status of the input says why.
void ReadEvictedOperands(GraphCore& core, absl::Span<const Var* const> inputs,
                         OperandInfos& infos) {
  bool all_known = true;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !infos[i].present || core.evicted(inputs[i]->id())) continue;
    all_known = all_known && (infos[i].value.has_value() || infos[i].non_tensor_value.has_value());
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !core.evicted(inputs[i]->id())) continue;
    // An evicted value's type is a known dtype and shape: KnownOutputBytes gives its bytes.
    const OutputType type = TensorOutput(infos[i].dtype, infos[i].shape);
    if (!all_known &&
        (!type.shape.has_value() || KnownOutputBytes({&type, 1}) > kInferenceOnlyValueBytes)) {
      continue;
    }
    if (std::optional<Value> value = core.read_value(inputs[i]->id())) {
      infos[i].value = std::move(*value).take_tensor();
      infos[i].shape_data.reset();
    }
  }
}

// Whether the values a kernel just computed can be computed again from the arena (and so may be
// evicted): a deterministic kernel, tensors only (not strings, whose heap the store does not
// count), and inputs that are constants or can be computed again themselves, or only shapes.
bool ValuesCanBeComputedAgain(const GraphCore& core, const OpSignature& signature,
                              const ResolvedOp& resolution, absl::Span<const Var* const> inputs,
                              absl::Span<const OperandInfo> infos, const OutputTypes& types) {
  if (!core.evicts() || !resolution.deterministic) return false;
  for (const OutputType& type : types) {
    if (type.non_tensor.has_value() || type.dtype == DataType::kString) return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr) continue;
    if (infos[i].non_tensor.has_value()) return false;
    if (!signature.kernel_reads_shapes_only && !core.can_recompute_from(inputs[i]->id())) {
      return false;
    }
  }
  return true;
}

// What ONNX's checker requires of every attribute, so that any node exports: a name, and at
// least one element in a list (an empty list is no attribute: leave it out).
absl::Status CheckAttributesWritable(absl::Span<const Attribute> attributes) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name.empty()) return absl::InvalidArgumentError("an attribute has no name");
    const bool empty_list = ListLength(attribute) == size_t{0};
    if (empty_list) {
      return absl::InvalidArgumentError(absl::StrCat(
          "attribute '", attribute.name,
          "' is an empty list, which an ONNX model cannot hold (the checker wants at least one "
          "element); leave the attribute out"));
    }
  }
  return absl::OkStatus();
}

// Inference functions (user ones too: custom ops) may give any types; the arena takes only those
// within its limits.
absl::Status CheckOutputTypes(const OutputTypes& types, int num_outputs) {
  if (types.size() != static_cast<size_t>(num_outputs)) {
    return absl::InternalError(absl::StrCat("inference gave ", types.size(), " output types for ",
                                            num_outputs, " outputs"));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    GRAPHGC_RETURN_IF_ERROR(CheckOutputType(i, types[i]));
  }
  return absl::OkStatus();
}
}  // namespace

absl::Status CheckOutputType(size_t index, const OutputType& type) {
  // The label is built only for an error: this runs for every output of every op.
  auto what = [index] { return absl::StrCat("output ", index); };
  if (type.non_tensor.has_value()) return CheckTypeLimits(*type.non_tensor, what());
  if (!type.shape.has_value()) return absl::OkStatus();
  const Shape& shape = *type.shape;
  if (shape.size() > kMaxRank) return CheckRank(shape.size(), what());
  // Counted in the same pass: ElementCount decides only for a count that may be past its bound
  // (far above 2^32), which a shape seldom has.
  bool unknown_dims = false;
  bool large = false;
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < -1) {
      return absl::InvalidArgumentError(
          absl::StrCat(what(), " would have the dimension ", dim, " in ", ShapeToString(shape)));
    }
    unknown_dims = unknown_dims || dim == -1;
    large = large ||
            __builtin_mul_overflow(count, static_cast<uint64_t>(std::max<int64_t>(dim, 0)), &count);
  }
  large = large || count > (uint64_t{1} << 32);
  if (!unknown_dims && large && !ElementCount(shape).ok()) return CheckElementCount(shape, what());
  return absl::OkStatus();
}

OutputVars BuildNode(const OpSignature& signature, absl::Span<const Var* const> inputs,
                     std::vector<Attribute> attributes, int num_outputs, MultiInferFn infer,
                     GraphCore* graph, const BodyValuesFn& body_values) {
  auto fail = [&](const absl::Status& status) {
    return FailedOutputs(status, static_cast<size_t>(std::max(num_outputs, 0)));
  };
  auto prefixed = [&](const absl::Status& status) {
    return absl::Status(status.code(), absl::StrCat(signature.op_type, ": ", status.message()));
  };
  if (!NodeArityFits(inputs.size(), attributes.size(), num_outputs)) {
    return fail(prefixed(CheckNodeArity(inputs.size(), attributes.size(), num_outputs)));
  }
  if (!attributes.empty()) {
    if (absl::Status lists = CheckAttributeLists(attributes); !lists.ok()) {
      return fail(prefixed(lists));
    }
    if (absl::Status writable = CheckAttributesWritable(attributes); !writable.ok()) {
      return fail(prefixed(writable));
    }
  }
  absl::StatusOr<GraphCore*> resolved = ResolveGraph(signature, inputs, graph);
  if (!resolved.ok()) return fail(resolved.status());
  GraphCore& core = **resolved;
  const GraphCore::BusyScope busy(core);  // user code (custom ops) may destroy the Graph
  InstallValueExplainer();
  if (core.evicts()) InstallValueRecomputer();
  // An automatic collection runs before the op makes its values, not after: there the caller
  // still holds the operands (a = Mul(a, a) assigns only once the op returns) while the new value
  // is live too, and the trigger, re-armed at growth_factor times that, would let twice as much
  // garbage pile up before the next collection.
  core.maybe_collect();
  OperandInfos infos = DescribeOperandsOf(core, inputs);
  if (core.evicts()) ReadEvictedOperands(core, inputs, infos);
  absl::StatusOr<OutputTypes> types = infer(infos);
  if (!types.ok()) return fail(prefixed(types.status()));
  if (absl::Status fits = CheckOutputTypes(*types, num_outputs); !fits.ok()) {
    return fail(prefixed(fits));
  }

  Arena& arena = core.arena();
  if (arena.full()) return fail(ArenaFullError(signature.op_type));
  const int version = signature.opset_version > 0 ? signature.opset_version : kNewestOnnxOpset;
  const OpKindId op = arena.intern_op(signature.op_type, signature.domain, version);
  if (!op.valid()) return fail(TooManyOpKindsError(signature.op_type));
  OutputValues values;  // sized only where values are computed: most nodes have none
  const bool inputs_known =
      signature.kernel_reads_shapes_only ? AllShapesKnown(infos) : AllValuesKnown(infos);
  absl::Status dropped;  // OnBudget::kEvictAndRecompute: why the values did not fit
  bool can_compute_again = false;
  int64_t kernel_ns = 0;  // what the kernel took, when the eviction policy weighs it
  const int64_t allowed_bytes = core.options().propagate_values && inputs_known
                                    ? ValueBytesAllowed(core, *types, dropped)
                                    : 0;
  if (allowed_bytes > 0) {
    values.resize(types->size());
    if (body_values) {
      absl::StatusOr<OutputValues> body = body_values(infos, *types);
      if (!body.ok()) return fail(prefixed(body.status()));
      body->resize(types->size());
      const absl::Status checked = TakeOutputValues(*body, *types, values);
      if (!checked.ok()) return fail(prefixed(checked));
    } else if (const ResolvedOp& resolution = ResolveFor(arena, op, signature);
               resolution.kernel != nullptr || resolution.value_kernel != nullptr) {
      // Inference may have found the kernel's value already, as shape data.
      const bool from_shape_data =
          resolution.value_is_shape_data && TakeShapeDataAsValues(*types, values);
      if (!from_shape_data) {
        const KernelOp kernel_op{&resolution, signature.op_type, signature.input_names,
                                 signature.kernel_reads_shapes_only, core.options().kernel_threads};
        // The clock is read only where the eviction policy weighs what values cost.
        const bool timed = core.weighs_recompute_cost();
        const auto start =
            timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
        const absl::Status ran =
            RunKernel(kernel_op, infos, attributes, allowed_bytes, *types, values);
        if (!ran.ok()) return fail(prefixed(ran));
        if (timed) {
          kernel_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
        }
      }
      can_compute_again =
          ValuesCanBeComputedAgain(core, signature, resolution, inputs, infos, *types);
    }
    DropValuesOverTheLiveCap(core, infos, values, dropped);
  }

  absl::InlinedVector<VarId, 4> input_ids;
  for (const Var* input : inputs) input_ids.push_back(input == nullptr ? VarId() : input->id());
  const NodeId node = core.add_node(op, input_ids, attributes, num_outputs);
  absl::InlinedVector<VarId, 1> outputs;
  for (int i = 0; i < num_outputs; ++i) outputs.push_back(arena.node_output(node, i));
  for (int i = 0; i < num_outputs; ++i) {
    const OutputType& type = (*types)[i];
    const VarId out = outputs[i];
    if (type.non_tensor.has_value()) {
      arena.set_var_type(out, *type.non_tensor);
    } else if (type.shape.has_value()) {
      arena.set_ranked_var_type(out, type.dtype, *type.shape);
    } else {
      arena.set_var_type(out, type.dtype, std::nullopt);
    }
    if (!dropped.ok()) core.mark_dropped(out, dropped);
    if (i >= static_cast<int>(values.size()) || !values[i].has_value()) continue;
    // A Constant's `value` is the arena's tensor already; its value_* attributes are not.
    const bool held = arena.var_kind(out) == VarKind::kConstant && core.value(out).has_value();
    if (held) continue;
    if (can_compute_again) {
      core.set_recomputable_value(out, *std::move(values[i]), kernel_ns);
    } else {
      core.set_value(out, *std::move(values[i]));
    }
  }
  for (int i = 0; i < num_outputs; ++i) KeepShapeData(core, outputs[i], (*types)[i]);
  if (arena.has_dim_names())
    CarryDimNames(core, signature, version, inputs, infos, attributes, outputs, *types);
  OutputVars results;
  for (VarId out : outputs) results.emplace_back(&core, out);
  return results;
}

const ResolvedOp& ResolveFor(Arena& arena, OpKindId op, const OpSignature& signature) {
  const ResolvedOp* cached = arena.op_resolution(op);
  if (cached == nullptr) {
    cached = ResolveOp(signature.domain, signature.op_type, signature.since_version);
    arena.set_op_resolution(op, cached);
  }
  return *cached;
}

ScopedKernelValuesOnly::ScopedKernelValuesOnly() : was_(kernel_values_only) {
  kernel_values_only = true;
}
ScopedKernelValuesOnly::~ScopedKernelValuesOnly() { kernel_values_only = was_; }

Var BuildOp(const OpSignature& signature, absl::Span<const Var* const> inputs,
            std::vector<Attribute> attributes, InferFn infer) {
  OutputVars outputs =
      BuildNode(signature, inputs, std::move(attributes), 1,
                [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputTypes> {
                  for (size_t i = 0; i < in.size() && !signature.takes_non_tensors; ++i) {
                    if (in[i].non_tensor.has_value()) {
                      return absl::InvalidArgumentError(
                          absl::StrCat(InputLabel(signature, i), " is a ",
                                       in[i].non_tensor->ToString(), ", not a tensor"));
                    }
                  }
                  absl::StatusOr<OutputType> type = infer(in);
                  if (!type.ok()) return type.status();
                  // Built where it is returned: each copy of a just-written shape stalls.
                  absl::StatusOr<OutputTypes> types(absl::in_place);
                  types->push_back(*std::move(type));
                  return types;
                });
  return std::move(outputs[0]);
}

}  // namespace graphgc::internal
