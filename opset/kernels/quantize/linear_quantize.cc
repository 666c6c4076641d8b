// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear, computed as ONNX Runtime does:
//   quantize:   y = saturate(round_half_even(x / scale) + zero_point)   (float: in float; int32
//               x: in double, as numpy's int32 / float32 does)
//   dequantize: y = float(x - zero_point) * scale
//   dynamic:    the range [min(x, 0), max(x, 0)] sets scale = range / 255 (1 for an all-zero x)
//               and zero_point = saturate(round(0 - min / scale)), then x is quantized.
// Scale and zero point are per tensor, or from opset 13 per axis (a 1-D scale). A NaN quotient
// has no defined 8-bit value (runtimes disagree), so it leaves the op without one.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/quantize/quantize_kernels.h"
#include "graphgc/opset/kernels/quantize/quantize_params.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::quantize {
namespace {

// The zero points of input `input` (0 where omitted), one per scale element.
std::vector<int32_t> ZeroPoints(const KernelContext& ctx, int input, int64_t count) {
  const Tensor* zero_point = ctx.optional_input(input);
  return zero_point == nullptr ? std::vector<int32_t>(static_cast<size_t>(count), 0)
                               : ReadInt32s(*zero_point);
}

// Calls f(o, c, base) for each [outer, channel] block of x, whose elements start at `base`.
template <class F>
void ForEachBlock(const AxisBlocks& blocks, F f) {
  for (int64_t o = 0; o < blocks.outer; ++o) {
    for (int64_t c = 0; c < blocks.channels; ++c) f(c, (o * blocks.channels + c) * blocks.inner);
  }
}

template <class X, class Q>
KernelResult Quantize(const KernelContext& ctx, const AxisBlocks& blocks) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const float> scales = ctx.input(1).data<float>();
  const std::vector<int32_t> zero_points = ZeroPoints(ctx, 2, ctx.input(1).size());
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, x.shape()));
  const X* in = x.data<X>().data();
  Q* y = out.mutable_data<Q>().data();
  // float x divides in float (as ONNX Runtime); int32 x in double (as numpy's reference).
  using Real = std::conditional_t<std::is_same_v<X, float>, float, double>;
  bool has_nan = false;
  ForEachBlock(blocks, [&](int64_t c, int64_t base) {
    const Real scale = scales[static_cast<size_t>(c)];
    for (int64_t i = base; i < base + blocks.inner; ++i) {
      const Real quotient = static_cast<Real>(in[i]) / scale;
      has_nan |= std::isnan(quotient);
      if (!std::isnan(quotient))
        y[i] = RoundAndSaturate<Q>(quotient, zero_points[static_cast<size_t>(c)]);
    }
  });
  if (has_nan) return Decline("x / scale is NaN");
  return KernelOutputs{std::move(out).freeze()};
}

// QuantizeLinearKernel's x types; y is int8, or else uint8.
constexpr DataTypeSet kQuantizeInputTypes = {DataType::kFloat, DataType::kInt32};

Kernel QuantizeLinearKernel(bool per_axis) {
  return [per_axis](const KernelContext& ctx) -> KernelResult {
    GRAPHGC_ASSIGN_OR_RETURN(const AxisBlocks blocks,
                             PlanAxisParams(ctx, ctx.input(0).shape(), 1, per_axis));
    const bool to_int8 = ctx.output(0).dtype == DataType::kInt8;
    if (ctx.input(0).dtype() == DataType::kFloat) {
      return to_int8 ? Quantize<float, int8_t>(ctx, blocks) : Quantize<float, uint8_t>(ctx, blocks);
    }
    if (ctx.input(0).dtype() == DataType::kInt32) {
      return to_int8 ? Quantize<int32_t, int8_t>(ctx, blocks)
                     : Quantize<int32_t, uint8_t>(ctx, blocks);
    }
    return Decline("QuantizeLinear of this element type");
  };
}

template <class X>
KernelResult Dequantize(const KernelContext& ctx, const AxisBlocks& blocks) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const float> scales = ctx.input(1).data<float>();
  const std::vector<int32_t> zero_points = ZeroPoints(ctx, 2, ctx.input(1).size());
  if (std::is_same_v<X, int32_t> &&
      std::any_of(zero_points.begin(), zero_points.end(), [](int32_t z) { return z != 0; })) {
    return Decline("an int32 x with a nonzero zero point");  // ONNX: int32 has none
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, x.shape()));
  const X* in = x.data<X>().data();
  float* y = out.mutable_data<float>().data();
  ForEachBlock(blocks, [&](int64_t c, int64_t base) {
    const float scale = scales[static_cast<size_t>(c)];
    const int32_t zero_point = zero_points[static_cast<size_t>(c)];
    for (int64_t i = base; i < base + blocks.inner; ++i) {
      y[i] = static_cast<float>(static_cast<int32_t>(in[i]) - zero_point) * scale;
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

// DequantizeLinearKernel's cases.
constexpr DataTypeSet kDequantizeTypes = {DataType::kInt8, DataType::kUint8, DataType::kInt32};

Kernel DequantizeLinearKernel(bool per_axis) {
  return [per_axis](const KernelContext& ctx) -> KernelResult {
    GRAPHGC_ASSIGN_OR_RETURN(const AxisBlocks blocks,
                             PlanAxisParams(ctx, ctx.input(0).shape(), 1, per_axis));
    switch (ctx.input(0).dtype()) {
      case DataType::kInt8:
        return Dequantize<int8_t>(ctx, blocks);
      case DataType::kUint8:
        return Dequantize<uint8_t>(ctx, blocks);
      case DataType::kInt32:
        return Dequantize<int32_t>(ctx, blocks);
      default:
        return Decline("DequantizeLinear of this element type");
    }
  };
}

KernelResult DynamicQuantizeLinearKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const float> in = x.data<float>();
  if (in.empty()) return Decline("the range of an empty x");
  float low = 0.0f, high = 0.0f;  // the range always includes 0
  for (float v : in) {
    if (!std::isfinite(v)) return Decline("x holds a NaN or an infinity");
    low = std::min(low, v);
    high = std::max(high, v);
  }
  const float scale = high == low ? 1.0f : (high - low) / 255.0f;
  // A range of a few denormals rounds the scale to 0, a range past FLT_MAX takes it to infinity;
  // dividing by either gives NaN, which no uint8 holds (found by kernel_fuzzer).
  if (!(scale > 0.0f) || !std::isfinite(scale)) {
    return Decline("the range of x gives a scale of 0 or infinity");
  }
  const uint8_t zero_point = RoundAndSaturate<uint8_t>(0.0f - low / scale, 0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataType::kUint8, x.shape()));
  uint8_t* out = y.mutable_data<uint8_t>().data();
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = RoundAndSaturate<uint8_t>(in[i] / scale, zero_point);
  return KernelOutputs{std::move(y).freeze(), Tensor::scalar<float>(scale),
                       Tensor::scalar<uint8_t>(zero_point)};
}

}  // namespace
}  // namespace graphgc::kernels::quantize

namespace graphgc::kernels {

void RegisterLinearQuantizeKernels(KernelTable& table) {
  // Opset 13 adds per-axis parameters (a 1-D scale along `axis`).
  const KernelTypes quantize = {{"T1", quantize::kQuantizeInputTypes},
                                {"T2", quantize::kQuantizedIntegers}};
  table.add("", "QuantizeLinear", 10, 12, quantize, quantize::QuantizeLinearKernel(false));
  // Opsets 19, 21 and 23 add saturate, block quantization, output_dtype and precision.
  table.add("", "QuantizeLinear", 13, kLastKnownOpset, quantize,
            quantize::QuantizeLinearKernel(true));
  const KernelTypes dequantize = {{"T", quantize::kDequantizeTypes}};
  table.add("", "DequantizeLinear", 10, 12, dequantize, quantize::DequantizeLinearKernel(false));
  table.add("", "DequantizeLinear", 13, kLastKnownOpset, dequantize,
            quantize::DequantizeLinearKernel(true));
  table.add("", "DynamicQuantizeLinear", 11, KernelTable::kLatest,
            {{"T1", {DataType::kFloat}}, {"T2", {DataType::kUint8}}},
            quantize::DynamicQuantizeLinearKernel);
}

}  // namespace graphgc::kernels
