// OutputVars: the Vars a node's construction hands back, one per output, before they become the
// std::vector make_node returns or the Var a typed constructor returns. One is inline, as most
// ops have one output: a node then allocates nothing for its result. Internal to the opset module.
#ifndef GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_
#define GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "graphgc/ir/var.h"

namespace graphgc::internal {

using OutputVars = absl::InlinedVector<Var, 1>;

// The outputs as make_node's std::vector.
inline std::vector<Var> ToVector(OutputVars outputs) {
  return std::vector<Var>(std::make_move_iterator(outputs.begin()),
                          std::make_move_iterator(outputs.end()));
}

// A failed construction: `count` Vars (at least one) failed with `status`.
inline OutputVars FailedOutputs(const absl::Status& status, size_t count) {
  return OutputVars(std::max<size_t>(count, 1), Var::Detached(status));
}

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_OUTPUT_VARS_H_
