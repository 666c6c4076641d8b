// Down-conversion guard: where ONNX's version converter must not take a model down an opset.
//
// Some of its adapters going down are wrong for valid nodes. The ones that move an input back
// into an attribute (`axes` of ReduceSum, Squeeze and Unsqueeze and `split` of Split below 13,
// `axes` of the other Reduce ops below 18, `shape` of Reshape below 5) read input 1 even where
// the node omits it, past the end of its inputs (undefined behaviour: a crash, or an assertion
// on garbage). Where input 1 is an initializer, they read its values from int64_data only (raw
// data gives an empty attribute) and read the initializer's Value after erasing it (a
// heap-use-after-free in ONNX's Graph::eraseInitializerAndInput, which AddressSanitizer
// reports). The one for Softmax, LogSoftmax and Hardmax below 13 keeps the axis, though opset 12
// normalizes over every axis from it on (only the last axis means the same), and drops a Flatten
// that feeds the node. Such a model keeps its opset: the guard says why. Internal to the export
// module; stateless.
#ifndef GRAPHGC_EXPORT_ONNX_DOWN_CONVERSION_GUARD_H_
#define GRAPHGC_EXPORT_ONNX_DOWN_CONVERSION_GUARD_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The rank of a main-graph value, if known.
using RankOf = std::function<std::optional<int64_t>(const std::string& name)>;

// Why `model`'s ai.onnx nodes must not go from opset `from` down to `target`; nullopt when the
// guard knows of no reason.
std::optional<std::string> DownConversionHazard(const onnx::ModelProto& model, int64_t from,
                                                int target, const RankOf& rank_of);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_DOWN_CONVERSION_GUARD_H_
