// Building the bodies of If, Loop, Scan and SequenceMap. Before such a node is made, each of its
// Subgraph attributes is run once, in a subgraph of the node's graph (ir/subgraph_table.h), on
// arguments typed as the op defines them:
//   If     then_branch, else_branch: no arguments;
//   Loop   body: iteration number (int64 scalar), condition (bool scalar), then one argument per
//          loop-carried value, of its element type and rank (its dims may change between
//          iterations, so they are unknown, as ONNX's own Loop inference has them);
//   Scan   body: one argument per state variable, of its type, then one per scan input, of its
//          type less the scanned axis (scan_input_axes, default 0);
//   SequenceMap  body: an element of each sequence input, and each other input as it is.
// The attribute is then replaced by the built body's SubgraphId. Internal to the opset module.
#ifndef GRAPHGC_SUBGRAPH_BUILDER_H_
#define GRAPHGC_SUBGRAPH_BUILDER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/inference/schema_inference.h"

namespace graphgc::internal {

struct BuiltBody {
  BodyTypes types;
  SubgraphId subgraph;
  // Held until the node is made, so that their values live on for If's propagation.
  std::vector<Var> results;
};
using BuiltBodies = std::vector<BuiltBody>;

bool HasSubgraphAttributes(absl::Span<const Attribute> attributes);

// Builds every Subgraph among `attributes` (of a node of ai.onnx `op_type`, schema of opset
// `since_version`, whose operands are `operands`) in `core` and replaces it with its SubgraphId.
// Errors name the op and the body: an op whose body arguments graphgc does not know, a malformed
// Scan, a builder that returns an empty, failed, foreign or out-of-scope Var. A failed build keeps
// the nodes the builder made (unreachable from any result) and changes nothing else.
absl::StatusOr<BuiltBodies> BuildBodies(GraphCore& core, absl::string_view op_type,
                                        int since_version, absl::Span<const OperandInfo> operands,
                                        std::vector<Attribute>& attributes);

// The node's number of outputs as its bodies give it: If, then_branch's results; Loop, the body's
// results less the condition; Scan, the body's results. -1 when the op has no body.
int OutputCountFromBodies(absl::string_view op_type, const BuiltBodies& bodies);

// ONNX 1.12's Loop inference leaves loop-carried outputs without a shape. The final value is the
// initial value (no iteration) or the body's result, so where those two agree on the rank, the
// output has that rank, with the dims on which they agree.
void RefineLoopOutputs(absl::Span<const OperandInfo> operands, const BuiltBodies& bodies,
                       OutputTypes& types);

// ONNX 1.12's If inference takes one branch's type for a sequence output even where the other
// branch's elements differ; the output is given the union of the branches' types instead.
void RefineIfOutputs(const BuiltBodies& bodies, OutputTypes& types);
// If's value: with a known condition, the values of the chosen branch's results.
OutputValues PropagateIf(absl::Span<const OperandInfo> operands, absl::Span<const OutputType> types,
                         const BuiltBodies& bodies);

}  // namespace graphgc::internal

#endif  // GRAPHGC_SUBGRAPH_BUILDER_H_
