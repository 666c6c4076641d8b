// Where ONNX's own shape inference is wrong, the shapes graphgc gives instead.
//
//   STFT  ONNX 1.12 reads an absent `onesided` as 0 (its default is 1) and, when onesided is 1,
//         counts frames from the number of frequency bins instead of the frame length. The
//         output is [batch, frames, bins, 2] with frames = (signal_length - frame_length) /
//         frame_step + 1 and bins = frame_length / 2 + 1 (onesided) or frame_length.
//   Einsum  ONNX 1.19 gives a label whose operands' dims are 1 and n the first operand's dim
//         (numpy and ONNX Runtime broadcast it to n); graphgc leaves dims of 1 unknown when an
//         operand has a dim of 1, and the computed value gives them.
//   GroupNormalization  ONNX infers it through the function body, whose Reshapes to computed
//         shapes lose the rank; the output is X's shape.
//
// Each fix replaces what it can compute from the operands and leaves the rest unknown (-1).
//
// Where ONNX's inference cannot read an operand its schema admits, WidenedForOnnxInference gives
// the operands as it can read them:
//   Pad   ONNX 1.19's Pad-18 inference parses a known `axes` as int64 only (Tind admits int32,
//         which it refuses: "ParseData type mismatch"); it gets the same axes as int64 data.
//         And it pads every axis in order when `axes` has neither a value nor a shape (pads meant
//         for axes [1, 0] went to [0, 1]): such axes are given as 1-D of unknown length.
//   Slice ONNX's inference (10 to 24) takes an axes or steps input that has neither a value nor
//         a shape as left out, and slices the leading axes (a wrong shape, and Shape of it a
//         wrong value): it gets them as 1-D of unknown length, their only rank. And it counts
//         a sliced dim in double ([2^53 + 3] sliced whole came out [2^53 + 4]): dims past 2^53
//         reach it unknown (Slice-13's native rule counts in int64).
//   Range ONNX's inference wants scalar operands; ONNX Runtime and ONNX's reference read a
//         [1]-shaped one as its element (ONNX's AffineGrid body passes such limits): it gets
//         them as scalars.
// and where reading an operand costs ONNX's inference unbounded time, less of it:
//   MaxUnpool  ONNX reads the indices' dim 1 even when their shape is unknown: they get X's
//         rank of unknown dims (the indices have X's shape).
//   Split  ONNX's inference (every version) reads the split dim into an int: a dim past int32
//         was split as its low 32 bits ([2^32 + 4] into two parts of 2). Before 13 (13 and 18
//         have native rules, in int64), it reaches the inference unknown, and so do the parts
//         along it.
//   MaxPool, AveragePool, LpPool  before 22, ceil_mode 1 counts positions through a float
//         division, which rounds a padded spatial dim past 2^24 ([1, 1, 2^24 + 3] by 2s: one
//         position short): such a dim reaches the inference unknown.
//   Conv, pools  with auto_pad given and no pads, ONNX counts each spatial dim down by the
//         stride one step at a time: a dim past 2^24 reaches it unknown, and so does the
//         output's.
// Internal to the opset module.
#ifndef GRAPHGC_OPSET_INFERENCE_FIXES_H_
#define GRAPHGC_OPSET_INFERENCE_FIXES_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc::internal {

// Corrects `types` (as ONNX inferred them) for ai.onnx `op_type` at `since_version`.
void FixInferredTypes(absl::string_view op_type, int since_version,
                      absl::Span<const OperandInfo> operands,
                      const std::vector<Attribute>& attributes, OutputTypes& types);

// The operands of ai.onnx `op_type` at `since_version` as ONNX's inference can read them (see
// above), or nullopt when they need nothing.
std::optional<std::vector<OperandInfo>> WidenedForOnnxInference(
    absl::string_view op_type, int since_version, absl::Span<const OperandInfo> operands,
    absl::Span<const Attribute> attributes);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_FIXES_H_
