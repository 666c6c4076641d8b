// Folding inside the functions a folded model keeps (ModelProto.functions): in each body, the
// nodes computed from constants alone — Constant nodes whose value is not an attribute reference,
// and nodes of ONNX's domains or calls of the model's functions whose inputs all come from such
// nodes — are computed with graphgc's kernels, and the values the rest of the body reads become
// Constant nodes (of types the function's opset's Constant holds). A call's inputs and
// attributes stay unknown here, so nothing that depends on them folds (a call whose inputs are all
// known folds as a whole, in the model's graph). Internal to the fold; thread-compatible.
#ifndef GRAPHGC_EXPORT_FOLD_FUNCTION_BODIES_H_
#define GRAPHGC_EXPORT_FOLD_FUNCTION_BODIES_H_

#include <cstdint>
#include <optional>

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// `function` (of `model`, or to be added to it) with its constant part computed, when there is
// one to compute, every value it writes is known and at most `max_fold_bytes`, and the body is no
// larger once written; nullopt otherwise.
std::optional<onnx::FunctionProto> FoldFunctionBody(const onnx::ModelProto& model,
                                                    const onnx::FunctionProto& function,
                                                    int64_t max_fold_bytes);

// Folds every function of `model` whose constant part is worth it: each value it writes known and
// at most `max_fold_bytes`, the body no larger once written. A function is left as it was
// otherwise. Returns the nodes the bodies lost.
int64_t FoldFunctionBodies(onnx::ModelProto& model, int64_t max_fold_bytes);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_FOLD_FUNCTION_BODIES_H_
