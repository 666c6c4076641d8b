// OutputVars: the Vars a node's construction hands back, one per output, before they become the
// std::vector make_node returns or the Var a typed constructor returns. One is inline, as most
// ops have one output: a node then allocates nothing for its result. Internal to the opset module.
#ifndef GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_
#define GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_

#include "absl/container/inlined_vector.h"
#include "graphgc/ir/var.h"

namespace graphgc::internal {

using OutputVars = absl::InlinedVector<Var, 1>;

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_
