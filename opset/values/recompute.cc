#include "graphgc/opset/values/recompute.h"

#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/kernel_run.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/values/shape_only_ops.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// The nodes to run, in NodeId order, and how many of them read each var (the target: one more).
struct Plan {
  std::vector<NodeId> nodes;
  absl::flat_hash_map<uint32_t, int> readers;
  std::vector<VarId> held_inputs;  // values the store holds that the plan reads
};

bool NodeReadsShapesOnly(const Arena& arena, NodeId node) {
  return ReadsShapesOnly(arena.op_kind(arena.node_op(node)).op_type);
}

absl::Status Bug(absl::string_view what) {
  return absl::InternalError(absl::StrCat("graphgc bug: recomputing a value: ", what));
}

absl::StatusOr<Plan> MakePlan(const GraphCore& core, VarId target) {
  const Arena& arena = core.arena();
  Plan plan;
  absl::flat_hash_set<uint32_t> planned;
  absl::flat_hash_set<uint32_t> held;
  std::vector<VarId> work = {target};
  while (!work.empty()) {
    const NodeId node = arena.var_producer(work.back());
    work.pop_back();
    if (!planned.insert(node.value()).second) continue;
    plan.nodes.push_back(node);
    if (NodeReadsShapesOnly(arena, node)) continue;  // the arena has its inputs' shapes
    for (VarId input : arena.node_inputs(node)) {
      if (!input.valid()) continue;
      ++plan.readers[input.value()];
      if (core.has_value(input)) {
        if (!core.value_in_arena(input) && held.insert(input.value()).second) {
          plan.held_inputs.push_back(input);
        }
        continue;
      }
      if (!core.can_recompute_from(input)) {
        return Bug(absl::StrCat("an input of ", arena.op_kind(arena.node_op(node)).op_type,
                                " can be computed again no more"));
      }
      work.push_back(input);
    }
  }
  std::sort(plan.nodes.begin(), plan.nodes.end(),
            [](NodeId a, NodeId b) { return a.value() < b.value(); });
  ++plan.readers[target.value()];
  return plan;
}

// Roots and pins what a recomputation holds; lets all of it go on any way out.
class Holds {
 public:
  explicit Holds(GraphCore& core) : core_(core) {}
  Holds(const Holds&) = delete;
  Holds& operator=(const Holds&) = delete;
  ~Holds() {
    for (uint32_t var : held_) core_.let_go(VarId(var));
  }
  void hold(VarId var) {
    if (held_.insert(var.value()).second) core_.hold(var);
  }
  void let_go(VarId var) {
    if (held_.erase(var.value()) > 0) core_.let_go(var);
  }

 private:
  GraphCore& core_;
  absl::flat_hash_set<uint32_t> held_;
};

OperandInfos OperandsFromArena(const GraphCore& core, NodeId node, bool shapes_only) {
  const Arena& arena = core.arena();
  const VarIdList inputs = arena.node_inputs(node);
  OperandInfos infos(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    OperandInfo& info = infos[i];
    if (!inputs[i].valid()) {
      info.present = false;
      continue;
    }
    info.dtype = arena.var_dtype(inputs[i]);
    arena.read_var_shape(inputs[i], info.shape);
    if (!shapes_only) info.value = core.value(inputs[i]);
  }
  return infos;
}

// Runs `node` again; its outputs that `plan` reads, or `target`, go back into their vars.
absl::Status RunNode(GraphCore& core, const Plan& plan, NodeId node, Holds& holds) {
  const Arena& arena = core.arena();
  const OpKindId op = arena.node_op(node);
  const std::string& op_type = arena.op_kind(op).op_type;
  const ResolvedOp* resolution = arena.op_resolution(op);
  if (resolution == nullptr) return Bug(absl::StrCat(op_type, " was never resolved"));
  OutputTypes types;
  for (int k = 0; k < arena.node_num_outputs(node); ++k) {
    const VarId output = arena.node_output(node, k);
    types.push_back(TensorOutput(arena.var_dtype(output), arena.var_shape(output)));
  }
  const absl::Status room = core.make_room(KnownOutputBytes(types));
  if (!room.ok()) {
    return absl::Status(room.code(), absl::StrCat("its ", op_type, " (node ", node.value(),
                                                  ") does not fit: ", room.message()));
  }
  const bool shapes_only = ReadsShapesOnly(op_type);
  const OperandInfos infos = OperandsFromArena(core, node, shapes_only);
  const KernelOp kernel_op{resolution, op_type, {}, shapes_only, core.options().kernel_threads};
  OutputValues values(types.size());
  GRAPHGC_RETURN_IF_ERROR(RunKernel(kernel_op, infos, arena.node_attributes(node),
                                    core.max_value_bytes(), types, values));
  for (int k = 0; k < arena.node_num_outputs(node); ++k) {
    const VarId output = arena.node_output(node, k);
    if (!plan.readers.contains(output.value()) || core.has_value(output)) continue;
    if (!values[k].has_value()) return Bug(absl::StrCat(op_type, " gave no value this time"));
    core.restore_value(output, *std::move(values[k]));
    holds.hold(output);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Value> RecomputeValue(GraphCore& core, VarId var) {
  GRAPHGC_ASSIGN_OR_RETURN(Plan plan, MakePlan(core, var));
  Holds holds(core);
  for (VarId input : plan.held_inputs) holds.hold(input);
  absl::flat_hash_map<uint32_t, int> readers_left = plan.readers;
  const Arena& arena = core.arena();
  for (NodeId node : plan.nodes) {
    GRAPHGC_RETURN_IF_ERROR(RunNode(core, plan, node, holds));
    if (NodeReadsShapesOnly(arena, node)) continue;
    for (VarId input : arena.node_inputs(node)) {
      if (input.valid() && --readers_left[input.value()] == 0) holds.let_go(input);
    }
  }
  std::optional<Value> value = core.any_value(var);
  if (!value.has_value()) return Bug("the value is not there after its node ran");
  return *std::move(value);
}

void InstallValueRecomputer() {
  static const bool installed = [] {
    GraphCore::set_value_recomputer(&RecomputeValue);
    return true;
  }();
  (void)installed;
}

}  // namespace graphgc::internal
