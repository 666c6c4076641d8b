// The value explainer: why a var holds no value (Var::value_status), as the opset module knows
// it — random ops, ops without a kernel at their opset, inputs without values (followed back to
// where the chain starts), outputs over GraphOptions::max_value_bytes, the live value budget, and
// kernels that give no value for some inputs (undefined or implementation-defined results).
// Installed into the ir module (GraphCore::set_value_explainer) when the first node is built.
// Threading: reads one graph; call it from the graph's thread.
#ifndef GRAPHGC_VALUE_EXPLAINER_H_
#define GRAPHGC_VALUE_EXPLAINER_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/ids.h"

namespace graphgc::internal {

// Why `var` of `core` holds no value (GraphCore::ValueExplainer).
absl::Status ExplainMissingValue(const GraphCore& core, VarId var);

// Installs ExplainMissingValue; idempotent. Inline: BuildNode calls it for every node, and after
// the first call it is one test of a flag.
inline void InstallValueExplainer() {
  static const bool installed = [] {
    GraphCore::set_value_explainer(&ExplainMissingValue);
    return true;
  }();
  (void)installed;
}

// The ai.onnx ops whose values differ from run to run (RandomNormal, ..., Bernoulli): they never
// get values, whatever kernel or function body they have.
bool IsRandomOp(absl::string_view domain, absl::string_view op_type);

}  // namespace graphgc::internal

#endif  // GRAPHGC_VALUE_EXPLAINER_H_
