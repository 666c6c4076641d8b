// What the quantize kernels share: reading 8-bit and 32-bit integer tensors as int32, where a
// scale or zero point applies (per tensor or per axis), the requantizing multipliers of integer
// products, and rounding to a saturated 8-bit value.
#ifndef GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_PARAMS_H_
#define GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_PARAMS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/data_type_set.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::quantize {

// The 8-bit integer types of the quantized values the kernels compute (x, w, a, b, their zero
// points, a quantized y).
inline constexpr DataTypeSet kQuantizedIntegers = {DataType::kInt8, DataType::kUint8};

// The elements of an int8, uint8 or int32 tensor as int32.
std::vector<int32_t> ReadInt32s(const Tensor& tensor);

// A scalar or a 1-D tensor of one element: a per-tensor parameter (as ONNX Runtime reads it).
bool IsScalarLike(const Tensor& tensor);

// x viewed as [outer, channels, inner], the parameters indexed by channel (per axis) or all
// equal (per tensor: channels == 1).
struct AxisBlocks {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};

// The blocks of x for `scale` (input `scale_input`) and the optional zero point that follows it.
// A 1-D scale is per axis (`axis` attribute) where `per_axis` (opset 13+); a zero point must
// match the scale's element count. Shapes outside these forms make the op fail, except a 1-D
// scale before opset 13, which ONNX does not define (declined).
absl::StatusOr<AxisBlocks> PlanAxisParams(const KernelContext& ctx,
                                          absl::Span<const int64_t> x_shape, int scale_input,
                                          bool per_axis);

// Where each element of x finds its scale and zero point: x viewed as [outer, channels, inner]
// around `axis`, one parameter for all (per tensor), one per channel (per axis, opset 13 on) or,
// blocked (opset 21 on, `block_size` > 0), one per `block_size` consecutive channels at each
// outer and inner position (the scale shaped like x but for ceil(channels / block_size) along
// `axis`).
struct ParamLayout {
  AxisBlocks blocks;
  int64_t block_size = 0;  // 0: per tensor or per axis (blocks.channels == 1 for per tensor)
  int64_t block_count = 0;

  // The parameter of element [o, c, i].
  int64_t index(int64_t o, int64_t c, int64_t i) const {
    if (block_size == 0) return blocks.channels == 1 ? 0 : c;
    return (o * block_count + c / block_size) * blocks.inner + i;
  }
};

// The layout of the scale (input `scale_input`) and the optional zero point after it. Blocked
// where `blocked` (opset 21 on) and block_size is given; else PlanAxisParams'. A scale or zero
// point of another shape, a negative block_size, make the op fail.
absl::StatusOr<ParamLayout> PlanParamLayout(const KernelContext& ctx,
                                            absl::Span<const int64_t> x_shape, int scale_input,
                                            bool per_axis, bool blocked);

// The factors that take a sum of products of a and b (quantized with scales `a_scale` and
// `b_scales`, one or one per output channel) to y's scale: a_scale * b_scales[i] / y_scale, in
// float as ONNX Runtime computes them.
std::vector<float> RequantizeMultipliers(float a_scale, absl::Span<const float> b_scales,
                                         float y_scale);

// round(value) to the nearest, ties to even, then saturated to Q's range. `value` is not NaN.
template <class Q, class F>
Q RoundAndSaturate(F value, int32_t zero_point) {
  const F rounded = std::nearbyint(value) + static_cast<F>(zero_point);
  const F low = static_cast<F>(std::numeric_limits<Q>::min());
  const F high = static_cast<F>(std::numeric_limits<Q>::max());
  return static_cast<Q>(std::clamp(rounded, low, high));
}

}  // namespace graphgc::kernels::quantize

#endif  // GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_PARAMS_H_
