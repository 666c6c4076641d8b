// Symbolic dim names through a node: an argument declared {"N", 4} makes Relu's output
// {"N", 4}, MatMul's of it by a [4, 3] weight {"N", 3}, as ONNX's own inference derives
// dim_params; and a shape computation's unknown elements: Shape(x)'s element 0 is "N", and
// Gather, Unsqueeze and Concat carry it on as ONNX's data propagation does. Graphs without names
// never pay for it; with names, a node whose inputs carry some runs the schema's inference (and
// data propagation) once more on inputs that carry them. Internal to the opset module; called by
// BuildNode once the node is typed.
#ifndef GRAPHGC_OPSET_BUILD_DIM_NAMES_H_
#define GRAPHGC_OPSET_BUILD_DIM_NAMES_H_

#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc::internal {

// Gives `outputs` (the node's, typed as `types` say) the names inference derives from the
// inputs'. Only dims the types leave unknown get a name, and only elements their shape data
// leaves unknown.
void CarryDimNames(GraphCore& core, const OpSignature& signature, int version,
                   absl::Span<const Var* const> inputs, absl::Span<const OperandInfo> infos,
                   absl::Span<const Attribute> attributes, absl::Span<const VarId> outputs,
                   absl::Span<const OutputType> types);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_DIM_NAMES_H_
