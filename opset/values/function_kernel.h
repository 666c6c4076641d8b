// Values of function ops — operators ONNX defines by a body of other operators (Celu,
// LayerNormalization, SoftmaxCrossEntropyLoss, Range, ...) — that have no kernel of their own:
// the body is expanded in a scratch graph over the known inputs, at the opsets the body imports,
// so the body's ops compute the value with their kernels. A body op without a value, a graph
// attribute in the body (Range's Loop) or any failure inside leaves the outputs without values.
// Internal to the opset module.
#ifndef GRAPHGC_OPSET_FUNCTION_KERNEL_H_
#define GRAPHGC_OPSET_FUNCTION_KERNEL_H_

#include <optional>

#include "graphgc/opset/kernels/kernel.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {

// A kernel expanding `schema`'s function body, or nullopt when the schema has none.
std::optional<kernels::Kernel> FunctionBodyKernel(const onnx::OpSchema& schema);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_FUNCTION_KERNEL_H_
