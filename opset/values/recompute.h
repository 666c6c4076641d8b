// Computing an evicted value again (GraphOptions::on_budget = OnBudget::kEvictAndRecompute).
//
// The arena keeps every node with its op, attributes and inputs, and an evicted value was computed
// by a deterministic kernel from arena constants and values like it (GraphCore::
// set_recomputable_value), so the nodes back to values still held give it again. The plan is a
// worklist over those nodes, run in NodeId order (a topological order: a node comes after its
// inputs' producers), so no recursion: a chain of a million nodes costs a vector, not a stack.
// Each node runs its kernel through RunKernel (kernel_run.h), as when it was built, after making
// room for its outputs under the cap; what it reads is held (rooted and pinned) until its last
// reader ran, and values no user holds are freed then. Internal to the opset module.
#ifndef GRAPHGC_OPSET_VALUES_RECOMPUTE_H_
#define GRAPHGC_OPSET_VALUES_RECOMPUTE_H_

#include "absl/status/statusor.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/ids.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::internal {

// Installs RecomputeValue as the GraphCore's recomputer (once per process; BuildNode calls it).
void InstallValueRecomputer();

// The value of the evicted `var`, stored again in it. An error when a node on the way does not fit
// under the cap beside what is held (nothing is over the cap at any time), or a library bug.
absl::StatusOr<Value> RecomputeValue(GraphCore& core, VarId var);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_VALUES_RECOMPUTE_H_
