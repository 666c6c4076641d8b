// Symbolic dims in an export: the names of an argument's dims (Graph::argument with Dims) written
// as dim_param in the model's input, and carried to every dim of the model's outputs and
// value_info that ONNX's own shape inference derives from them (graphgc's inference knows such a
// dim only as unknown). Only exports of graphs with named dims pay for the inference run.
// Internal to the export module; thread-compatible.
#ifndef GRAPHGC_SYMBOLIC_DIMS_H_
#define GRAPHGC_SYMBOLIC_DIMS_H_

#include <vector>

#include "graphgc/ir/arena.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// Writes `names` (an invalid StringId for a dim without one) as the dim_params of `type`'s dims.
void NameDims(const Arena& arena, const std::vector<StringId>& names, onnx::TypeProto& type);

// Runs ONNX's shape inference on a copy of `model` and gives each dim of the main graph's outputs
// and value_info that graphgc left unknown the dim_param inference found for it. A model ONNX's
// inference fails on is left as it is.
void CarrySymbolicDims(onnx::ModelProto& model);

}  // namespace graphgc::internal

#endif  // GRAPHGC_SYMBOLIC_DIMS_H_
