// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear, computed as ONNX Runtime does:
//   quantize:   y = saturate(round_half_even(x / scale) + zero_point)   (float: in float; int32
//               x: in double, as numpy's int32 / float32 does)
//   dequantize: y = float(x - zero_point) * scale
//   dynamic:    the range [min(x, 0), max(x, 0)] sets scale = range / 255 (1 for an all-zero x)
//               and zero_point = saturate(round(0 - min / scale)), then x is quantized.
// Scale and zero point are per tensor, from opset 13 per axis (a 1-D scale), and from opset 21
// per block (block_size; quantize_params.h). A NaN quotient has no defined integer value
// (runtimes disagree), so it leaves the op without one.
//
// Opset 19 adds float16 and bfloat16 x and scales and the float8 quantized types, 21 int16,
// uint16, int4 and uint4, blocks and QuantizeLinear's output_dtype (inference reads it: the
// kernel takes its output's type), 23 float4e2m1, DequantizeLinear's output_dtype and
// QuantizeLinear's precision, 24 float8e8m0 scales. Every x and scale is computed in float (in
// double for int32 x); a 16-bit float `precision` (by default the scale's type, from opset 23)
// rounds x, the scale and the quotient to it, as numpy's division in that type does. To a narrow
// float, y = x / scale + zero_point rounds once to nearest even with `saturate` (opset 19 on,
// default 1; float4e2m1 always saturates). From float8, the zero point must be 0 (ONNX's
// reference fails otherwise).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/narrow_conversion.h"
#include "graphgc/opset/kernels/quantize/quantize_kernels.h"
#include "graphgc/opset/kernels/quantize/quantize_params.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::quantize {
namespace {

using internal::Load;

// What a version of QuantizeLinear or DequantizeLinear reads besides its inputs.
struct QdqVersion {
  bool per_axis = false;   // opset 13: a 1-D scale along `axis`
  bool saturate = false;   // opset 19: QuantizeLinear's `saturate`
  bool blocked = false;    // opset 21: `block_size`
  bool precision = false;  // opset 23: QuantizeLinear's `precision`
};

// The types x and scales are read from and y written to, and the quantized ones.
using RealTypes = internal::TypeList<float, Float16, BFloat16>;
using ScaleTypes = internal::TypeList<float, Float16, BFloat16, Float8E8M0>;
using QuantizeInputTypes = internal::TypeList<float, Float16, BFloat16, int32_t>;
using QuantizedTypes =
    internal::TypeList<int8_t, uint8_t, int16_t, uint16_t, int32_t, Int4, UInt4, Float8E4M3FN,
                       Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float4E2M1>;

// Elements of a tensor of any of Types as double (exact for every one of them); nullopt for
// another type.
template <class Types>
std::optional<std::vector<double>> ReadAsDoubles(const Tensor& tensor) {
  std::optional<std::vector<double>> values;
  Types::Dispatch(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    values.emplace();
    values->reserve(static_cast<size_t>(tensor.size()));
    for (const T& v : tensor.data<T>()) {
      if constexpr (kIsNarrow<T>) {
        values->push_back(static_cast<double>(Widen(v)));
      } else {
        values->push_back(static_cast<double>(Load(v)));
      }
    }
  });
  return values;
}

// The zero points of input `input` as doubles (0 where omitted), one per scale element; nullopt
// for a type no kernel declares (not reached: the declarations are checked before kernels run).
std::optional<std::vector<double>> ZeroPoints(const KernelContext& ctx, int input, int64_t count) {
  const Tensor* zero_point = ctx.optional_input(input);
  if (zero_point == nullptr) return std::vector<double>(static_cast<size_t>(count), 0.0);
  return ReadAsDoubles<QuantizedTypes>(*zero_point);
}

// Calls f(element, parameter) for every element of x in order.
template <class F>
void ForEachElement(const ParamLayout& layout, F f) {
  const AxisBlocks& blocks = layout.blocks;
  int64_t element = 0;
  for (int64_t o = 0; o < blocks.outer; ++o) {
    for (int64_t c = 0; c < blocks.channels; ++c) {
      for (int64_t i = 0; i < blocks.inner; ++i) f(element++, layout.index(o, c, i));
    }
  }
}

template <class Q>
inline constexpr bool kIsQuantizedInteger = std::is_integral_v<Q> || kIsInt4<Q>;

// The integer range of Q.
template <class Q>
constexpr double Lowest() {
  if constexpr (kIsInt4<Q>) {
    return static_cast<double>(Q::kMin);
  } else {
    return static_cast<double>(std::numeric_limits<Q>::min());
  }
}
template <class Q>
constexpr double Highest() {
  if constexpr (kIsInt4<Q>) {
    return static_cast<double>(Q::kMax);
  } else {
    return static_cast<double>(std::numeric_limits<Q>::max());
  }
}

// round(quotient), ties to even, plus the zero point, saturated to Q's range; quotient is not NaN.
template <class Q>
Q QuantizeInteger(double quotient, double zero_point) {
  const double value = std::clamp(std::nearbyint(quotient) + zero_point, Lowest<Q>(), Highest<Q>());
  if constexpr (kIsInt4<Q>) {
    return Q::FromInteger(static_cast<int64_t>(value));
  } else {
    return static_cast<Q>(value);
  }
}

// `value` rounded to the 16-bit float `precision` (unchanged for float and the others).
float RoundToPrecision(float value, DataType precision) {
  if (precision == DataType::kFloat16) return Float16::FromFloat(value).ToFloat();
  if (precision == DataType::kBfloat16) return BFloat16::FromFloat(value).ToFloat();
  return value;
}

template <class X, class Q>
KernelResult Quantize(const KernelContext& ctx, const ParamLayout& layout,
                      const std::vector<double>& scales, DataType precision,
                      const NarrowingOptions& options) {
  const Tensor& x = ctx.input(0);
  const std::optional<std::vector<double>> zero_points = ZeroPoints(ctx, 2, ctx.input(1).size());
  if (!zero_points.has_value()) return Decline("a zero point of this element type");
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, x.shape()));
  const X* in = x.data<X>().data();
  Q* y = out.mutable_data<Q>().data();
  bool has_nan = false;
  ForEachElement(layout, [&](int64_t e, int64_t p) {
    const auto at = static_cast<size_t>(p);
    double quotient = 0;
    if constexpr (std::is_same_v<X, int32_t>) {  // in double, as numpy's int32 / float32
      quotient = static_cast<double>(in[e]) / scales[at];
    } else {  // in float, as ONNX Runtime
      const float scale = RoundToPrecision(static_cast<float>(scales[at]), precision);
      quotient = RoundToPrecision(RoundToPrecision(Load(in[e]), precision) / scale, precision);
    }
    if constexpr (kIsQuantizedInteger<Q>) {
      has_nan |= std::isnan(quotient);
      if (!std::isnan(quotient)) y[e] = QuantizeInteger<Q>(quotient, (*zero_points)[at]);
    } else {
      y[e] = NarrowFloatFromDouble<Q>(quotient + (*zero_points)[at], options);
    }
  });
  if (has_nan) return Decline("x / scale is NaN");
  return KernelOutputs{std::move(out).freeze()};
}

// The type QuantizeLinear divides in: `precision` where given (opset 23 on), else the scale's.
absl::StatusOr<DataType> PrecisionOf(const KernelContext& ctx, bool has_precision) {
  const DataType scale_type = ctx.input(1).dtype();
  const int64_t precision = has_precision ? ctx.int_attribute("precision", 0) : 0;
  if (precision == 0) return has_precision ? scale_type : DataType::kFloat;
  for (DataType real : RealTypes::kSet.types()) {
    if (precision == static_cast<int64_t>(real)) return real;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("QuantizeLinear: precision ", precision, " is not float, float16 or bfloat16"));
}

Kernel QuantizeLinearKernel(QdqVersion version) {
  return [version](const KernelContext& ctx) -> KernelResult {
    GRAPHGC_ASSIGN_OR_RETURN(
        const ParamLayout layout,
        PlanParamLayout(ctx, ctx.input(0).shape(), 1, version.per_axis, version.blocked));
    const std::optional<std::vector<double>> scales = ReadAsDoubles<ScaleTypes>(ctx.input(1));
    if (!scales.has_value()) return Decline("QuantizeLinear with an int32 scale");
    GRAPHGC_ASSIGN_OR_RETURN(const DataType precision, PrecisionOf(ctx, version.precision));
    NarrowingOptions options;
    if (version.saturate && ctx.int_attribute("saturate", 1) == 0) {
      options.saturation = Saturation::kNoSaturate;
    }
    std::optional<KernelResult> result;
    QuantizeInputTypes::Dispatch(ctx.input(0).dtype(), [&](auto x_tag) {
      QuantizedTypes::Dispatch(ctx.output(0).dtype, [&](auto q_tag) {
        using Q = typename decltype(q_tag)::type;
        if constexpr (!std::is_same_v<Q, int32_t>) {
          result.emplace(Quantize<typename decltype(x_tag)::type, Q>(ctx, layout, *scales,
                                                                     precision, options));
        }
      });
    });
    if (!result.has_value()) return Decline("QuantizeLinear of these element types");
    return *std::move(result);
  };
}

template <class X, class Y>
KernelResult Dequantize(const KernelContext& ctx, const ParamLayout& layout,
                        const std::vector<double>& scales) {
  const Tensor& x = ctx.input(0);
  const std::optional<std::vector<double>> zero_points = ZeroPoints(ctx, 2, ctx.input(1).size());
  if (!zero_points.has_value()) return Decline("a zero point of this element type");
  const bool any_zero_point =
      std::any_of(zero_points->begin(), zero_points->end(), [](double z) { return z != 0; });
  if (std::is_same_v<X, int32_t> && any_zero_point) {
    return Decline("an int32 x with a nonzero zero point");  // ONNX: int32 has none
  }
  if (kIsSmallFloat<X> && !std::is_same_v<X, Float4E2M1> && any_zero_point) {
    return ctx.input_error(2, "is not zero; a float8 x has no zero point");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, x.shape()));
  const X* in = x.data<X>().data();
  Y* y = out.mutable_data<Y>().data();
  ForEachElement(layout, [&](int64_t e, int64_t p) {
    const auto at = static_cast<size_t>(p);
    float difference = 0;
    if constexpr (kIsNarrowFloat<X>) {
      difference = Widen(in[e]) - static_cast<float>((*zero_points)[at]);
    } else if constexpr (kIsInt4<X>) {
      difference = static_cast<float>(Widen(in[e]) - static_cast<int32_t>((*zero_points)[at]));
    } else {
      difference = static_cast<float>(static_cast<int32_t>(in[e]) -
                                      static_cast<int32_t>((*zero_points)[at]));
    }
    const float value = difference * static_cast<float>(scales[at]);
    if constexpr (std::is_same_v<Y, float>) {
      y[e] = value;
    } else {
      y[e] = Y::FromFloat(value);
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

Kernel DequantizeLinearKernel(QdqVersion version) {
  return [version](const KernelContext& ctx) -> KernelResult {
    GRAPHGC_ASSIGN_OR_RETURN(
        const ParamLayout layout,
        PlanParamLayout(ctx, ctx.input(0).shape(), 1, version.per_axis, version.blocked));
    const std::optional<std::vector<double>> scales = ReadAsDoubles<ScaleTypes>(ctx.input(1));
    if (!scales.has_value()) return Decline("DequantizeLinear of this scale type");
    std::optional<KernelResult> result;
    QuantizedTypes::Dispatch(ctx.input(0).dtype(), [&](auto x_tag) {
      RealTypes::Dispatch(ctx.output(0).dtype, [&](auto y_tag) {
        result.emplace(Dequantize<typename decltype(x_tag)::type, typename decltype(y_tag)::type>(
            ctx, layout, *scales));
      });
    });
    if (!result.has_value()) return Decline("DequantizeLinear of these element types");
    return *std::move(result);
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
  // The type parameters are renamed along the versions: QuantizeLinear's x and scale are T1 and
  // y T2 until opset 23, where the scale becomes T2 and y T3; DequantizeLinear's x is T until 19,
  // then T1 with the scale (and y) T2, and from 23 y is T3. Each range declares every type its
  // kernel computes; the schema at each version admits a part (float8 from 19, int4 from 21, ...).
  const DataTypeSet reals = {DataType::kFloat, DataType::kFloat16, DataType::kBfloat16};
  const DataTypeSet scales = reals | DataTypeSet{DataType::kFloat8E8M0};
  const DataTypeSet quantize_inputs = reals | DataTypeSet{DataType::kInt32};
  const DataTypeSet quantized = quantize::QuantizedTypes::kSet.without({DataType::kInt32});
  const DataTypeSet dequantize_inputs = quantize::QuantizedTypes::kSet;

  const KernelTypes quantize_10 = {{"T1", {DataType::kFloat, DataType::kInt32}},
                                   {"T2", quantize::kQuantizedIntegers}};
  const KernelTypes quantize_19 = {{"T1", quantize_inputs}, {"T2", quantized}};
  const KernelTypes quantize_23 = {{"T1", quantize_inputs}, {"T2", scales}, {"T3", quantized}};
  table.add("", "QuantizeLinear", 10, 12, quantize_10, quantize::QuantizeLinearKernel({}));
  table.add("", "QuantizeLinear", 13, 18, quantize_10,
            quantize::QuantizeLinearKernel({.per_axis = true}));
  table.add("", "QuantizeLinear", 19, 20, quantize_19,
            quantize::QuantizeLinearKernel({.per_axis = true, .saturate = true}));
  table.add("", "QuantizeLinear", 21, 22, quantize_19,
            quantize::QuantizeLinearKernel({.per_axis = true, .saturate = true, .blocked = true}));
  table.add("", "QuantizeLinear", 23, KernelTable::kLatest, quantize_23,
            quantize::QuantizeLinearKernel(
                {.per_axis = true, .saturate = true, .blocked = true, .precision = true}));

  const KernelTypes dequantize_10 = {{"T", {DataType::kInt8, DataType::kUint8, DataType::kInt32}}};
  const KernelTypes dequantize_19 = {{"T1", dequantize_inputs}, {"T2", scales}};
  const KernelTypes dequantize_23 = {{"T1", dequantize_inputs}, {"T2", scales}, {"T3", reals}};
  table.add("", "DequantizeLinear", 10, 12, dequantize_10, quantize::DequantizeLinearKernel({}));
  table.add("", "DequantizeLinear", 13, 18, dequantize_10,
            quantize::DequantizeLinearKernel({.per_axis = true}));
  table.add("", "DequantizeLinear", 19, 20, dequantize_19,
            quantize::DequantizeLinearKernel({.per_axis = true}));
  table.add("", "DequantizeLinear", 21, 22, dequantize_19,
            quantize::DequantizeLinearKernel({.per_axis = true, .blocked = true}));
  table.add("", "DequantizeLinear", 23, KernelTable::kLatest, dequantize_23,
            quantize::DequantizeLinearKernel({.per_axis = true, .blocked = true}));
  table.add("", "DynamicQuantizeLinear", 11, KernelTable::kLatest,
            {{"T1", {DataType::kFloat}}, {"T2", {DataType::kUint8}}},
            quantize::DynamicQuantizeLinearKernel);
}

}  // namespace graphgc::kernels
