// ConvInteger (opset 10) and QLinearConv (10): Conv of 8-bit X and W less their zero points,
// accumulated in int32 (wrapping) through the same GEMM lowering as Conv (conv_gemm.h). Padding
// reads the zero point, i.e. 0 once centered, as in ONNX's reference and ONNX Runtime.
//
// X's zero point is per tensor, W's per tensor or per output channel ([M]). QLinearConv adds
// its int32 bias to the accumulator and requantizes like ONNX Runtime: y = saturate(
// round_half_even(acc * multiplier[m]) + y_zero_point), multiplier[m] = x_scale * w_scale[m] /
// y_scale in float.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/conv/conv_gemm.h"
#include "graphgc/opset/kernels/conv/conv_geometry.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/quantize/quantize_params.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::conv {
namespace {

// The positions of the parameters each op takes.
struct QuantizedInputs {
  int x, x_zero_point, w, w_zero_point;
};
constexpr QuantizedInputs kConvInteger{0, 2, 1, 3};
constexpr QuantizedInputs kQLinearConv{0, 2, 3, 5};

// Input `input`, when present, as one value per tensor or (if `per_channel` allows) one per
// output channel; absent: {fallback}.
template <class V>
absl::StatusOr<std::vector<V>> PerChannel(const KernelContext& ctx, int input, bool per_channel,
                                          int64_t channels, std::vector<V> fallback,
                                          std::vector<V> (*read)(const Tensor&)) {
  const Tensor* t = ctx.optional_input(input);
  if (t == nullptr) return fallback;
  if (quantize::IsScalarLike(*t) || (per_channel && t->rank() == 1 && t->shape()[0] == channels)) {
    return read(*t);
  }
  return ctx.input_error(
      input, absl::StrCat("has shape ", ShapeToString(t->shape()),
                          per_channel ? absl::StrCat(", neither a scalar nor [", channels, "]")
                                      : ", not a scalar"));
}

std::vector<float> ReadFloats(const Tensor& t) {
  return std::vector<float>(t.data<float>().begin(), t.data<float>().end());
}

// The 8-bit tensor input `input` less its zero point(s), one per block of `block` elements, as
// uint32 (int32 arithmetic that wraps).
absl::StatusOr<std::vector<uint32_t>> Centered(const KernelContext& ctx, int input,
                                               const std::vector<int32_t>& zero_points) {
  const Tensor& t = ctx.input(input);
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<uint32_t> out, linalg::Scratch<uint32_t>(ctx, t.size()));
  const std::vector<int32_t> values = quantize::ReadInt32s(t);
  const size_t block = values.size() / zero_points.size();
  for (size_t e = 0; e < values.size(); ++e) {
    out[e] = static_cast<uint32_t>(values[e] - zero_points[e / block]);
  }
  return out;
}

// The int32 accumulators of the convolution, as uint32, into `acc` (Y's element count).
absl::Status Accumulate(const KernelContext& ctx, const QuantizedInputs& in, const ConvPlan& plan,
                        uint32_t* acc) {
  GRAPHGC_ASSIGN_OR_RETURN(
      const std::vector<int32_t> x_zero,
      PerChannel<int32_t>(ctx, in.x_zero_point, false, 1, {0}, quantize::ReadInt32s));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int32_t> w_zero,
                           PerChannel<int32_t>(ctx, in.w_zero_point, true, plan.out_channels, {0},
                                               quantize::ReadInt32s));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<uint32_t> x, Centered(ctx, in.x, x_zero));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<uint32_t> w, Centered(ctx, in.w, w_zero));
  return Convolve<uint32_t>(ctx, plan, x.data(), w.data(), acc);
}

KernelResult ConvIntegerKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const ConvPlan plan, PlanConv(ctx, kConvInteger.x, kConvInteger.w));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kInt32, plan.output_shape));
  // int32 and uint32 may alias: the wrapped sums are the int32 results.
  GRAPHGC_RETURN_IF_ERROR(Accumulate(
      ctx, kConvInteger, plan, reinterpret_cast<uint32_t*>(out.mutable_data<int32_t>().data())));
  return KernelOutputs{std::move(out).freeze()};
}

template <class Q>
void Requantize(const ConvPlan& plan, const std::vector<uint32_t>& acc,
                const std::vector<int32_t>& bias, const std::vector<float>& multipliers,
                int32_t zero_point, Q* y) {
  const int64_t spatial = plan.output_spatial_size();
  for (int64_t row = 0; row < plan.batch * plan.out_channels; ++row) {
    const size_t m = static_cast<size_t>(row % plan.out_channels);
    const uint32_t b = static_cast<uint32_t>(bias.size() == 1 ? bias[0] : bias[m]);
    const float multiplier = multipliers[multipliers.size() == 1 ? 0 : m];
    for (int64_t i = row * spatial; i < (row + 1) * spatial; ++i) {
      const int32_t sum = static_cast<int32_t>(acc[static_cast<size_t>(i)] + b);
      y[i] = quantize::RoundAndSaturate<Q>(static_cast<float>(sum) * multiplier, zero_point);
    }
  }
}

KernelResult QLinearConvKernel(const KernelContext& ctx) {
  // Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B.
  GRAPHGC_ASSIGN_OR_RETURN(const ConvPlan plan, PlanConv(ctx, kQLinearConv.x, kQLinearConv.w));
  const int64_t channels = plan.out_channels;
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<float> x_scale,
                           PerChannel<float>(ctx, 1, false, 1, {}, ReadFloats));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<float> w_scale,
                           PerChannel<float>(ctx, 4, true, channels, {}, ReadFloats));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<float> y_scale,
                           PerChannel<float>(ctx, 6, false, 1, {}, ReadFloats));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int32_t> y_zero,
                           PerChannel<int32_t>(ctx, 7, false, 1, {0}, quantize::ReadInt32s));
  const Tensor* b = ctx.optional_input(8);
  if (b != nullptr && (b->rank() != 1 || b->shape()[0] != channels)) {
    return ctx.input_error(
        8, absl::StrCat("has shape ", ShapeToString(b->shape()), ", expected [", channels, "]"));
  }
  const std::vector<int32_t> bias =
      b != nullptr ? quantize::ReadInt32s(*b) : std::vector<int32_t>{0};
  const std::vector<float> multipliers =
      quantize::RequantizeMultipliers(x_scale[0], w_scale, y_scale[0]);
  for (float m : multipliers) {
    if (!std::isfinite(m)) return Decline("a scale ratio that is not finite");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, plan.output_shape));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<uint32_t> acc, linalg::Scratch<uint32_t>(ctx, out.size()));
  GRAPHGC_RETURN_IF_ERROR(Accumulate(ctx, kQLinearConv, plan, acc.data()));
  if (out.dtype() == DataType::kInt8) {
    Requantize(plan, acc, bias, multipliers, y_zero[0], out.mutable_data<int8_t>().data());
  } else {
    Requantize(plan, acc, bias, multipliers, y_zero[0], out.mutable_data<uint8_t>().data());
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace
}  // namespace graphgc::kernels::conv

namespace graphgc::kernels {

void RegisterQuantizedConvKernels(KernelTable& table) {
  // x and w (and their zero points) of either 8-bit type; QLinearConv's y int8, or else uint8.
  table.add("", "ConvInteger", 10, KernelTable::kLatest,
            {{"T1", quantize::kQuantizedIntegers}, {"T2", quantize::kQuantizedIntegers}},
            conv::ConvIntegerKernel);
  table.add("", "QLinearConv", 10, KernelTable::kLatest,
            {{"T1", quantize::kQuantizedIntegers},
             {"T2", quantize::kQuantizedIntegers},
             {"T3", quantize::kQuantizedIntegers}},
            conv::QLinearConvKernel);
}

}  // namespace graphgc::kernels
