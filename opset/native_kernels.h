// Value propagation for nodes made through make_node: the native kernels by op type, including
// the shape computations (Shape, Size, Gather, Concat, Unsqueeze, Squeeze) whose values let a later
// Reshape or Expand infer a static shape. Internal to the opset module.
#ifndef GRAPHGC_NATIVE_KERNELS_H_
#define GRAPHGC_NATIVE_KERNELS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/attribute.h"
#include "graphgc/op_builder.h"

namespace graphgc::internal {

// Ops whose value follows from their inputs' static shapes alone (Shape, Size).
bool ReadsShapesOnly(absl::string_view op_type);

// One value per output, nullopt where no kernel exists or it declines; called when every present
// input has a value (or, for ReadsShapesOnly ops, a fully known shape) and the outputs' shapes
// are inferred.
OutputValues ComputeNative(absl::string_view op_type, absl::Span<const OperandInfo> inputs,
                           const std::vector<Attribute>& attributes,
                           absl::Span<const OutputType> outputs);

}  // namespace graphgc::internal

#endif  // GRAPHGC_NATIVE_KERNELS_H_
