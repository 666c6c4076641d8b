#include "graphgc/opset/build/binary_without_values.h"

#include <algorithm>
#include <utility>

#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/opset/kernels/common/broadcast.h"
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

// The inputs' element type if both are tensors of one numeric type (what Binary's inference
// accepts); kUndefined otherwise.
DataType SharedNumericType(const Arena& arena, VarId a, VarId b) {
  if (!arena.var_is_tensor(a) || !arena.var_is_tensor(b)) return DataType::kUndefined;
  const DataType dtype = arena.var_dtype(a);
  if (arena.var_dtype(b) != dtype ||
      std::find(kAllNumeric.begin(), kAllNumeric.end(), dtype) == kAllNumeric.end()) {
    return DataType::kUndefined;
  }
  return dtype;
}

}  // namespace

std::optional<Var> BuildBinaryWithoutValues(const OpSignature& signature, const Var& a,
                                            const Var& b) {
  if (general_build_only) return std::nullopt;
  GraphCore* core = SharedUsableCore(a, b);
  if (core == nullptr) return std::nullopt;
  Arena& arena = core->arena();
  // BuildOp computes a value when both inputs have one; has_value may say so of a value the
  // store no longer holds, which only sends more nodes to BuildOp.
  if (core->options().propagate_values && core->has_value(a.id()) && core->has_value(b.id())) {
    return std::nullopt;
  }
  if (arena.full() || arena.has_dim_names()) return std::nullopt;
  OutputType type;
  type.dtype = SharedNumericType(arena, a.id(), b.id());
  if (type.dtype == DataType::kUndefined) return std::nullopt;
  std::optional<Shape> shape_a;
  std::optional<Shape> shape_b;
  arena.read_var_shape(a.id(), shape_a);
  arena.read_var_shape(b.id(), shape_b);
  if (!BroadcastShapesInto(shape_a, shape_b, type.shape).ok() || !CheckOutputType(0, type).ok()) {
    return std::nullopt;
  }
  const GraphCore::BusyScope busy(*core);
  InstallValueExplainer();
  const int version = signature.opset_version > 0 ? signature.opset_version : kNewestOnnxOpset;
  const OpKindId op = arena.intern_op(signature.op_type, signature.domain, version);
  if (!op.valid()) return std::nullopt;
  const VarId inputs[] = {a.id(), b.id()};
  const NodeId node = core->add_node(op, inputs, {}, 1);
  const VarId out = arena.node_output(node, 0);
  if (type.shape.has_value()) {
    arena.set_ranked_var_type(out, type.dtype, *type.shape);
  } else {
    arena.set_var_type(out, type.dtype, std::nullopt);
  }
  Var result(core, out);
  core->maybe_collect();
  return result;
}

ScopedGeneralBuildOnly::ScopedGeneralBuildOnly() : was_(general_build_only) {
  general_build_only = true;
}
ScopedGeneralBuildOnly::~ScopedGeneralBuildOnly() { general_build_only = was_; }

}  // namespace graphgc::internal
