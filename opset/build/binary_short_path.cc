#include "graphgc/opset/build/binary_short_path.h"

#include <algorithm>
#include <utility>

#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/math/same_shape_arithmetic.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/opset/values/value_explainer.h"

namespace graphgc::internal {
namespace {

thread_local bool general_build_only = false;

// What BuildOp would resolve the operands to, when that is one graph that may use both.
GraphCore* SharedUsableCore(const Var& a, const Var& b) {
  GraphCore* core = a.core();
  if (core == nullptr || b.core() != core || !core->alive()) return nullptr;
  if (!core->visible_here(a.id()) || !core->visible_here(b.id())) return nullptr;
  return core;
}

// The output type Binary's inference gives two tensors of one numeric type that broadcast, within
// the arena's limits; nullopt for anything else (BuildOp then words the error).
std::optional<OutputType> InferredType(const Arena& arena, VarId a, VarId b) {
  if (!arena.var_is_tensor(a) || !arena.var_is_tensor(b)) return std::nullopt;
  OutputType type;
  type.dtype = arena.var_dtype(a);
  if (arena.var_dtype(b) != type.dtype ||
      std::find(kAllNumeric.begin(), kAllNumeric.end(), type.dtype) == kAllNumeric.end()) {
    return std::nullopt;
  }
  if (arena.var_type_key(a) == arena.var_type_key(b)) {
    // One interned shape (x op x, or a chain of one shape): the broadcast is that shape, as
    // BroadcastShapesInto gives for equal dims, without reading it twice.
    arena.read_var_shape(a, type.shape);
  } else {
    std::optional<Shape> shape_a;
    std::optional<Shape> shape_b;
    arena.read_var_shape(a, shape_a);
    arena.read_var_shape(b, shape_b);
    if (!BroadcastShapesInto(shape_a, shape_b, type.shape).ok()) return std::nullopt;
  }
  if (!CheckOutputType(0, type).ok()) return std::nullopt;
  return type;
}

// What BuildOp's kernel run (RunKernel in op_builder.cc) ends in for two operands with values.
// kValue comes with the value in the caller's `value`; the tensor is made there and moved once
// more, into the store.
enum class Outcome { kValue, kNoValue, kAskBuildOp };

// The tensor value of `var` for the length of one call: a stored one viewed in place (until the
// store changes), a constant's held in `held`; nullptr when there is none.
const Tensor* ValueForCall(const GraphCore& core, VarId var, std::optional<Tensor>& held) {
  if (const Tensor* stored = core.stored_tensor(var)) return stored;
  held = core.value(var);
  return held.has_value() ? &*held : nullptr;
}

// What the registered kernel of Add, Sub, Mul or Div gives operands of one shape, computed with
// its element function and loop but without its KernelContext, result vector and broadcasting
// (same_shape_arithmetic.h); nullopt for other ops and shapes, which run the kernel itself.
std::optional<Outcome> SameShapeOutcome(const OpSignature& signature, const Tensor& a,
                                        const Tensor& b, const OutputType& type,
                                        std::optional<Tensor>& value) {
  const std::optional<kernels::Arithmetic> op = kernels::ArithmeticOf(signature.op_type);
  if (!op.has_value() || !signature.domain.empty() || a.dtype() != b.dtype() ||
      a.shape() != b.shape() || !kernels::Fits(a, type.dtype, type.shape)) {
    return std::nullopt;
  }
  if (const absl::Status computed = kernels::ComputeArithmetic(*op, a, b, value); !computed.ok()) {
    return kernels::MeansNoValue(computed) ? Outcome::kNoValue : Outcome::kAskBuildOp;
  }
  return Outcome::kValue;
}

// The same steps as RunKernel for a tensor kernel without attributes, in the same order: the
// value budget, dims the kernel may multiply, the kernel's declared types, the kernel itself and
// the check of its value. Where RunKernel would fail the op, BuildOp is asked to (it words it).
Outcome RunOpKernel(GraphCore& core, OpKindId op, const OpSignature& signature, const Tensor& a,
                    const Tensor& b, const OutputType& type, std::optional<Tensor>& value) {
  // ValueBytesAllowed without a live cap: BuildNode computes nothing when that is 0.
  const int64_t max_bytes = core.max_value_bytes();
  if (max_bytes <= 0 || !OutputsFitBudget({&type, 1}, max_bytes)) return Outcome::kNoValue;
  if (!DimsMultiplySafely(a.shape()) || !DimsMultiplySafely(b.shape()) ||
      !DimsMultiplySafely(*type.shape)) {
    return Outcome::kNoValue;
  }
  const ResolvedOp& resolution = ResolveFor(core.arena(), op, signature);
  if (resolution.kernel == nullptr || resolution.value_is_shape_data) return Outcome::kAskBuildOp;
  const DataType input_types[] = {type.dtype, type.dtype};
  if (!resolution.kernel_checks.empty() &&
      !resolution.types_every_kernel_check_admits.contains(type.dtype) &&
      FindUndeclaredOperand(resolution.kernel_checks, input_types, {&type.dtype, 1})) {
    return Outcome::kNoValue;
  }
  if (std::optional<Outcome> outcome = SameShapeOutcome(signature, a, b, type, value)) {
    return *outcome;
  }
  const Tensor* inputs[] = {&a, &b};
  const kernels::OutputSpec outputs[] = {{type.dtype, type.shape}};
  kernels::KernelCall call;
  call.op_type = signature.op_type;
  call.version = signature.since_version;
  call.inputs = inputs;
  call.input_names = signature.input_names.empty() ? absl::MakeConstSpan(resolution.input_names)
                                                   : signature.input_names;
  call.defaults = resolution.defaults;
  call.outputs = outputs;
  call.max_value_bytes = max_bytes;
  call.threads = std::max(core.options().kernel_threads, 1);
  kernels::KernelResult result = (*resolution.kernel)(kernels::KernelContext(call));
  if (!result.ok()) {
    return kernels::MeansNoValue(result.status()) ? Outcome::kNoValue : Outcome::kAskBuildOp;
  }
  if (result->size() != 1) return Outcome::kAskBuildOp;
  std::optional<Tensor>& computed = (*result)[0];
  if (!computed.has_value()) return Outcome::kNoValue;
  if (!kernels::Fits(*computed, type.dtype, type.shape)) return Outcome::kAskBuildOp;
  value = std::move(computed);
  return Outcome::kValue;
}

}  // namespace

std::optional<Var> BuildBinaryShortPath(const OpSignature& signature, const Var& a, const Var& b) {
  if (general_build_only) return std::nullopt;
  GraphCore* core = SharedUsableCore(a, b);
  if (core == nullptr) return std::nullopt;
  // An evicted operand must be computed again first (OnBudget::kEvictAndRecompute): BuildOp does.
  if (core->evicts()) return std::nullopt;
  Arena& arena = core->arena();
  if (arena.full() || arena.has_dim_names()) return std::nullopt;
  // Before the op's value is made, as in BuildNode: what the trigger then sees is what the
  // caller's handles hold, not the operands plus a value no handle has taken yet.
  core->maybe_collect();
  // BuildOp computes a value when both inputs have one. has_value may say so of a value the
  // store no longer holds; the lookup then tells.
  std::optional<Tensor> constant_a;
  std::optional<Tensor> constant_b;
  const Tensor* value_a = nullptr;
  const Tensor* value_b = nullptr;
  if (core->options().propagate_values && core->has_value(a.id()) && core->has_value(b.id())) {
    // A live cap (GraphOptions::max_live_value_bytes) adds checks only BuildOp makes.
    if (core->options().max_live_value_bytes > 0) return std::nullopt;
    value_a = ValueForCall(*core, a.id(), constant_a);
    if (value_a != nullptr) value_b = ValueForCall(*core, b.id(), constant_b);
  }
  const std::optional<OutputType> type = InferredType(arena, a.id(), b.id());
  if (!type.has_value()) return std::nullopt;
  const GraphCore::BusyScope busy(*core);
  InstallValueExplainer();
  const int version = signature.opset_version > 0 ? signature.opset_version : kNewestOnnxOpset;
  const OpKindId op = arena.intern_op(signature.op_type, signature.domain, version);
  if (!op.valid()) return std::nullopt;
  std::optional<Tensor> computed;
  if (value_a != nullptr && value_b != nullptr &&
      RunOpKernel(*core, op, signature, *value_a, *value_b, *type, computed) ==
          Outcome::kAskBuildOp) {
    return std::nullopt;
  }
  // The views end here: the node and its value change the arena and the store.
  value_a = value_b = nullptr;
  const VarId inputs[] = {a.id(), b.id()};
  const NodeId node = core->add_node(op, inputs, {}, 1);
  const VarId out = arena.node_output(node, 0);
  if (type->shape.has_value()) {
    arena.set_ranked_var_type(out, type->dtype, *type->shape);
  } else {
    arena.set_var_type(out, type->dtype, std::nullopt);
  }
  if (computed.has_value()) core->set_value(out, *std::move(computed));
  return Var(core, out);
}

ScopedGeneralBuildOnly::ScopedGeneralBuildOnly() : was_(general_build_only) {
  general_build_only = true;
}
ScopedGeneralBuildOnly::~ScopedGeneralBuildOnly() { general_build_only = was_; }

}  // namespace graphgc::internal
