// Legacy resampling across opset 11: what Resize-10 and Upsample (7 to 9) compute, written out
// in the attributes of the Resize nodes ONNX's version converter makes of them.
//
// Resize-10 and Upsample sample at asymmetric coordinates (x_in = x_out / scale), and nearest
// sampling rounds down on an axis that grows and up on one that shrinks: ONNX Runtime's meaning,
// which graphgc's kernels follow. The converter's Resize 10->11 adapter (and Upsample 9->10 before
// it) keeps only `mode`, so the node would take opset 11's defaults, half_pixel coordinates and
// round_prefer_floor, and compute other values for most scales. PinLegacyResampling writes
// coordinate_transformation_mode "asymmetric" on every Resize the converter made, and for nearest
// sampling the nearest_mode its scales need ("floor" when no axis shrinks, "ceil" when none
// grows). Opset 10 computes an output size floor(scale * size) in float, opset 11 in double, so
// the sizes must agree too: for a known input size they are compared; for an unknown one the
// scale must have at most 8 significant bits (then the float product is exact for every size
// below 65536). Where the meaning cannot be written (scales that are not constants: a graph
// input, or an initializer also listed as one, which a caller may override; nearest
// scales that grow one axis and shrink another, sizes that may differ) it says why, and the model
// keeps its opset.
// Internal to the export module; stateless.
#ifndef GRAPHGC_EXPORT_ONNX_LEGACY_RESAMPLING_H_
#define GRAPHGC_EXPORT_ONNX_LEGACY_RESAMPLING_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/export/onnx/opset_conversion.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// Whether converting from ai.onnx opset `from` to `target` turns legacy resampling into Resize-11
// or later.
bool CrossesLegacyResampling(int64_t from, int target);

// The dims of a value (-1 where unknown), if its rank is known.
using ShapeOf = std::function<std::optional<std::vector<int64_t>>(const std::string& name)>;

// Pins the meaning of every Resize node of `converted` (bodies too), each made by ONNX's converter
// from a Resize-10 or Upsample node of a model below opset 11. Returns why a node's meaning
// cannot be written in opset 11's attributes; `converted` is then partly changed and must be
// dropped. `load_initializer` reads scales held in external data; `shape_of` gives the input
// sizes known of the model at its own opset.
std::optional<std::string> PinLegacyResampling(onnx::ModelProto& converted,
                                               const InitializerLoader& load_initializer,
                                               const ShapeOf& shape_of);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_LEGACY_RESAMPLING_H_
