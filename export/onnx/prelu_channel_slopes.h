// PRelu before opset 7 applies a slope [C] per channel of X [N, C, D1, ...], as Caffe2 defined
// it; from opset 7 the slope broadcasts numpy-style, from X's last dim. ONNX's version converter
// bumps the node's version without changing it, so a converted model would read such a slope
// along the wrong axis (or not at all). Before conversion, UnsqueezeChannelSlopes gives each such
// PRelu its slope through an Unsqueeze to [C, 1, ...], which means the same at every opset.
// Internal to the export module; no shared state.
#ifndef GRAPHGC_EXPORT_ONNX_PRELU_CHANNEL_SLOPES_H_
#define GRAPHGC_EXPORT_ONNX_PRELU_CHANNEL_SLOPES_H_

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// For a model of ai.onnx opset 6 or older: every PRelu (bodies included) whose slope is 1-D and
// whose X has a known rank r >= 3 reads its slope through a new Unsqueeze (axes 1 .. r - 2).
// Ranks come from ONNX's shape inference over a copy; a PRelu whose ranks it cannot tell is
// left as it is. Returns how many slopes were rewritten.
int UnsqueezeChannelSlopes(onnx::ModelProto& model);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_PRELU_CHANNEL_SLOPES_H_
