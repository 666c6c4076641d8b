// A Reshape's target from its data's own dims. Exporters compute many targets from the data's
// shape (PyTorch's x.view(x.size(0), -1) is Shape -> Gather -> Unsqueeze -> Concat -> Reshape);
// where the gathered dim is symbolic ("batch"), the target is not a known value, so nothing
// folds. But ONNX's Reshape copies the data's dim for a 0 entry (allowzero = 0): a target whose
// every entry is known, or is — by dim name, as the shape computation carried it — the data's
// own dim at the same place, is the constant with 0 at those places, for every size the dims
// take. Internal to the export module; a pure function of the vars.
#ifndef GRAPHGC_EXPORT_ONNX_RESHAPE_TARGET_H_
#define GRAPHGC_EXPORT_ONNX_RESHAPE_TARGET_H_

#include <optional>

#include "graphgc/ir/var.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// The constant target `shape` equals as Reshape's target of `data`, as above; nullopt when it has
// a value already, when allowzero is set, or when an entry is neither known nor the data's dim
// at its place.
std::optional<Tensor> ReshapeTargetFromDims(const Var& data, const Var& shape, bool allowzero);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_RESHAPE_TARGET_H_
