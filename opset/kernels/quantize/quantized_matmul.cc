// MatMulInteger and QLinearMatMul: numpy.matmul of 8-bit operands less their zero points,
// accumulated in int32 (wrapping, as ONNX allows), through the linalg family's batched GEMM.
//
// MatMulInteger's zero points are per tensor (a scalar), per row of A ([M] for a 2-D A,
// [..., M, 1] otherwise) and per column of B ([N], or [..., 1, N]) as its schema describes.
// QLinearMatMul requantizes like ONNX Runtime: y = saturate(round_half_even(acc * multiplier) +
// y_zero_point) with multiplier = a_scale * b_scale / y_scale in float; its a and y parameters are
// per tensor and b's per tensor or per column (other forms, which ONNX describes ambiguously and
// ONNX Runtime rejects, get no value). From opset 21 the scales may be float16 or bfloat16: the
// multiplier is then rounded to that type at each step, as ONNX's reference computes it.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/matmul_layout.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/quantize/quantize_kernels.h"
#include "graphgc/opset/kernels/quantize/quantize_params.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::quantize {
namespace {

// Which elements of an operand one zero point (or scale) applies to (see ParamIndex).
enum class Granularity { kTensor, kRow, kColumn };

// The granularity of parameter `param` of operand `x` (the left operand rows, the right columns).
absl::StatusOr<Granularity> ParamGranularity(const KernelContext& ctx, int param, const Tensor& x,
                                             bool left) {
  const Tensor& p = ctx.input(param);
  if (IsScalarLike(p)) return Granularity::kTensor;
  const absl::Span<const int64_t> xs = x.shape(), ps = p.shape();
  const int64_t rank = x.rank();
  bool matches = false;
  if (rank == 2 && ps.size() == 1) {
    matches = ps[0] == (left ? xs[0] : xs[1]);  // [M] for A, [N] for B
  } else if (rank >= 2 && ps.size() == xs.size()) {
    matches = true;  // x's shape with the summed dim (A's last, B's second last) set to 1
    for (int64_t d = 0; d < rank; ++d) {
      const bool summed = d == (left ? rank - 1 : rank - 2);
      matches &= ps[static_cast<size_t>(d)] == (summed ? 1 : xs[static_cast<size_t>(d)]);
    }
  }
  if (!matches) {
    return ctx.input_error(
        param, absl::StrCat("has shape ", ShapeToString(ps), ", neither a scalar nor per ",
                            left ? "row" : "column", " of ", ShapeToString(xs)));
  }
  return left ? Granularity::kRow : Granularity::kColumn;
}

// Which parameter element applies to element `e` of an operand whose matrices are rows x cols.
int64_t ParamIndex(Granularity g, int64_t e, int64_t rows, int64_t cols) {
  switch (g) {
    case Granularity::kTensor:
      return 0;
    case Granularity::kRow:
      return e / cols;  // batch * rows + row
    case Granularity::kColumn:
      return e / (rows * cols) * cols + e % cols;
  }
  return 0;
}

// An operand less its zero point (absent: 0), as uint32 (int32 arithmetic that wraps).
absl::StatusOr<std::vector<uint32_t>> Centered(const KernelContext& ctx, const Tensor& x,
                                               const Tensor* zero_point, Granularity g,
                                               int64_t rows, int64_t cols) {
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<uint32_t> out, linalg::Scratch<uint32_t>(ctx, x.size()));
  const std::vector<int32_t> values = ReadInt32s(x);
  const std::vector<int32_t> zeros =
      zero_point != nullptr ? ReadInt32s(*zero_point) : std::vector<int32_t>{0};
  for (size_t e = 0; e < values.size(); ++e) {
    const int64_t z = ParamIndex(g, static_cast<int64_t>(e), rows, cols);
    out[e] = static_cast<uint32_t>(values[e] - zeros[static_cast<size_t>(z)]);
  }
  return out;
}

// The int32 accumulators of (A - a_zero_point) x (B - b_zero_point), row-major over the output.
struct Accumulated {
  linalg::MatMulLayout layout;
  std::vector<uint32_t> values;
};

absl::StatusOr<Accumulated> Accumulate(const KernelContext& ctx, int a_input, int b_input,
                                       const Tensor* a_zero, Granularity a_granularity,
                                       const Tensor* b_zero, Granularity b_granularity) {
  const Tensor& a = ctx.input(a_input);
  const Tensor& b = ctx.input(b_input);
  GRAPHGC_ASSIGN_OR_RETURN(linalg::MatMulLayout layout,
                           linalg::PlanMatMul(ctx, a_input, b_input, a.shape(), b.shape()));
  const linalg::GemmDims& d = layout.dims;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<uint32_t> ca,
                           Centered(ctx, a, a_zero, a_granularity, d.m, d.k));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<uint32_t> cb,
                           Centered(ctx, b, b_zero, b_granularity, d.k, d.n));
  layout = linalg::FoldSharedB(std::move(layout));
  Accumulated result{std::move(layout), {}};
  GRAPHGC_ASSIGN_OR_RETURN(
      result.values,
      linalg::Scratch<uint32_t>(ctx, static_cast<int64_t>(result.layout.a_offsets.size()) *
                                         result.layout.dims.m * result.layout.dims.n));
  linalg::BatchedGemm<uint32_t>(result.layout.dims, 1u, ca.data(), result.layout.a_offsets,
                                cb.data(), result.layout.b_offsets, 0u, result.values.data(),
                                ctx.threads());
  return result;
}

KernelResult MatMulIntegerKernel(const KernelContext& ctx) {
  Granularity a_granularity = Granularity::kTensor, b_granularity = Granularity::kTensor;
  if (ctx.has_input(2)) {
    GRAPHGC_ASSIGN_OR_RETURN(a_granularity, ParamGranularity(ctx, 2, ctx.input(0), true));
  }
  if (ctx.has_input(3)) {
    GRAPHGC_ASSIGN_OR_RETURN(b_granularity, ParamGranularity(ctx, 3, ctx.input(1), false));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
  GRAPHGC_ASSIGN_OR_RETURN(Accumulated acc,
                           Accumulate(ctx, 0, 1, ctx.optional_input(2), a_granularity,
                                      ctx.optional_input(3), b_granularity));
  int32_t* y = out.mutable_data<int32_t>().data();
  for (size_t i = 0; i < acc.values.size(); ++i) y[i] = static_cast<int32_t>(acc.values[i]);
  return KernelOutputs{std::move(out).freeze()};
}

template <class Q>
void Requantize(const Accumulated& acc, const std::vector<float>& multipliers,
                Granularity b_granularity, int32_t zero_point, Q* y) {
  const int64_t n = acc.layout.dims.n;
  for (size_t i = 0; i < acc.values.size(); ++i) {
    const float multiplier = multipliers[b_granularity == Granularity::kTensor ? 0 : i % n];
    // Per-column parameters of a batched b would index by batch too; only [N] and a shared b
    // reach here (see QLinearMatMulKernel).
    y[i] = RoundAndSaturate<Q>(static_cast<float>(static_cast<int32_t>(acc.values[i])) * multiplier,
                               zero_point);
  }
}

// a_scale * b_scale / y_scale per b scale, each step rounded to the scales' type as ONNX's
// reference computes it (numpy arithmetic in float16 or bfloat16 from opset 21).
using MatMulScaleTypes = internal::TypeList<float, Float16, BFloat16>;

std::vector<float> ScaleMultipliers(const Tensor& a_scale, const Tensor& b_scales,
                                    const Tensor& y_scale) {
  std::vector<float> multipliers;
  MatMulScaleTypes::Dispatch(a_scale.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto in_type = [](float v) {
      return static_cast<float>(internal::Load(internal::Store<T>(v)));
    };
    const float a = static_cast<float>(internal::Load(a_scale.data<T>()[0]));
    const float y = static_cast<float>(internal::Load(y_scale.data<T>()[0]));
    for (const T& b : b_scales.data<T>()) {
      multipliers.push_back(in_type(in_type(a * static_cast<float>(internal::Load(b))) / y));
    }
  });
  return multipliers;
}

KernelResult QLinearMatMulKernel(const KernelContext& ctx) {
  // Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
  for (int param : {1, 2, 6, 7}) {
    if (!IsScalarLike(ctx.input(param))) return Decline("per-row a or per-element y parameters");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const Granularity b_scale,
                           ParamGranularity(ctx, 4, ctx.input(3), false));
  GRAPHGC_ASSIGN_OR_RETURN(const Granularity b_zero, ParamGranularity(ctx, 5, ctx.input(3), false));
  if (b_scale != b_zero) return Decline("b's scale and zero point differ in granularity");
  if (b_scale == Granularity::kColumn && ctx.input(4).size() != ctx.input(3).shape().back()) {
    return Decline("per-column parameters of a batched b");
  }
  const std::vector<float> multipliers = ScaleMultipliers(ctx.input(1), ctx.input(4), ctx.input(6));
  const int32_t y_zero = ReadInt32s(ctx.input(7))[0];
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
  GRAPHGC_ASSIGN_OR_RETURN(
      Accumulated acc,
      Accumulate(ctx, 0, 3, &ctx.input(2), Granularity::kTensor, &ctx.input(5), b_zero));
  if (out.dtype() == DataType::kInt8) {
    Requantize(acc, multipliers, b_scale, y_zero, out.mutable_data<int8_t>().data());
  } else {
    Requantize(acc, multipliers, b_scale, y_zero, out.mutable_data<uint8_t>().data());
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace
}  // namespace graphgc::kernels::quantize

namespace graphgc::kernels {

void RegisterQuantizedMatMulKernels(KernelTable& table) {
  // a and b (and their zero points) of either 8-bit type; QLinearMatMul's y int8, or else uint8.
  table.add("", "MatMulInteger", 10, KernelTable::kLatest,
            {{"T1", quantize::kQuantizedIntegers}, {"T2", quantize::kQuantizedIntegers}},
            quantize::MatMulIntegerKernel);
  const KernelTypes operands = {{"T1", quantize::kQuantizedIntegers},
                                {"T2", quantize::kQuantizedIntegers},
                                {"T3", quantize::kQuantizedIntegers}};
  table.add("", "QLinearMatMul", 10, 20, operands, quantize::QLinearMatMulKernel);
  // Opset 21 takes the scales in float16 and bfloat16 too (TS), and float8 operands (which
  // get no value).
  table.add("", "QLinearMatMul", 21, KernelTable::kLatest,
            {{"T1", quantize::kQuantizedIntegers},
             {"T2", quantize::kQuantizedIntegers},
             {"T3", quantize::kQuantizedIntegers},
             {"TS", quantize::MatMulScaleTypes::kSet}},
            quantize::QLinearMatMulKernel);
}

}  // namespace graphgc::kernels
