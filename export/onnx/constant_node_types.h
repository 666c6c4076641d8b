// Which element types ai.onnx's Constant node holds at an opset: only floating point before
// opset 9, no bfloat16 before 13, the float8 types from 19, the 4-bit ones from 21. A value the
// opset's Constant cannot hold is written as an initializer, or, inside a function (which has
// none), not written at all. Internal to the export module; thread-safe.
#ifndef GRAPHGC_EXPORT_ONNX_CONSTANT_NODE_TYPES_H_
#define GRAPHGC_EXPORT_ONNX_CONSTANT_NODE_TYPES_H_

#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {

// Whether a Constant node of ai.onnx opset `opset` may hold a tensor of `dtype`.
bool ConstantNodeHolds(DataType dtype, int opset);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_CONSTANT_NODE_TYPES_H_
