// Native inference of the reductions whose ONNX rule is ReduceOpGenerator's: ReduceMax, ReduceMin
// (13, 18, 20), ReduceSum (13), ReduceMean, ReduceProd, ReduceSumSquare, ReduceL1, ReduceL2,
// ReduceLogSum, ReduceLogSumExp (13, 18). The axes come from the attribute (13) or from a known
// axes input; an input without a known value leaves the output's shape unknown, as ONNX's does.
// No shape data: ONNX propagates none through them.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {

absl::StatusOr<OutputTypes> InferReduce13(absl::Span<const OperandInfo> inputs,
                                          absl::Span<const Attribute> attributes, int num_outputs) {
  const DataType dtype = inputs[0].dtype;
  if (!inputs[0].shape.has_value()) return OneOutput(dtype, std::nullopt, std::nullopt);
  const Shape& in = *inputs[0].shape;
  // Read as ONNX reads them: keepdims keeps only when it is exactly 1.
  const bool keep_dims = IntAttribute(attributes, "keepdims").value_or(1) == 1;
  const bool noop_with_empty_axes = IntAttribute(attributes, "noop_with_empty_axes").value_or(0);
  const std::vector<int64_t>* axes_attribute = IntsAttribute(attributes, "axes");
  std::vector<int64_t> axes;
  if (inputs.size() > 1 && inputs[1].present) {
    if (axes_attribute != nullptr) {
      return ShapeInferenceError(
          "axes as an input and attribute cannot be specified at the same time.");
    }
    std::optional<std::vector<int64_t>> known = KnownInt64Elements(inputs[1]);
    if (!known.has_value()) return OneOutput(dtype, std::nullopt, std::nullopt);
    axes = *std::move(known);
  } else if (axes_attribute != nullptr) {
    axes = *axes_attribute;
  }
  if (noop_with_empty_axes && axes.empty()) return OneOutput(dtype, in, std::nullopt);
  const int64_t rank = static_cast<int64_t>(in.size());
  for (int64_t& axis : axes) {
    if (axis < -rank || axis >= rank) {
      return ShapeInferenceError("axis must be in [-rank, rank-1]. Input rank was ", rank);
    }
    if (axis < 0) axis += rank;
  }
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    const bool reduced = axes.empty() || std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced) {
      out.push_back(in[static_cast<size_t>(i)]);
    } else if (keep_dims) {
      out.push_back(1);
    }
  }
  return OneOutput(dtype, std::move(out), std::nullopt);
}

}  // namespace graphgc::internal
