// Gemm: Y = alpha * A' * B' + beta * C, with A' = transpose(A) if transA, B' likewise.
//
// Versions 7+ broadcast C unidirectionally to [M, N] (optional from 11: absent is 0). Versions 1-6
// take C of shape [M, N], or with the `broadcast` attribute a scalar or a trailing slice ([N]) as
// that era's limited broadcasting allowed; other shapes there get no value.
//
// Like ONNX Runtime: beta == 0 ignores C (a NaN in C does not leak), while alpha == 0 still
// multiplies the product (0 * NaN is NaN). With an empty inner dim (K = 0) ONNX Runtime returns C
// without beta, against ONNX's beta * C: those cases get no value unless beta is 1. Integer Gemm
// computes with alpha and beta as integers (wrapping) and declines non-integral ones, whose result
// ONNX leaves undefined.
#include <cmath>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using linalg::GemmDims;
using linalg::WorkType;

enum class BiasRule {
  kUnidirectional,  // 7+: numpy broadcasting of C to [M, N]
  kLegacy,          // 1-6: [M, N] exactly, or with `broadcast` a scalar or a trailing slice
};

// Element strides of C read as an [M, N] matrix (0 along broadcast dims).
struct BiasStrides {
  int64_t row = 0;
  int64_t col = 0;
};

absl::StatusOr<BiasStrides> PlanBias(const KernelContext& ctx, BiasRule rule,
                                     absl::Span<const int64_t> c, int64_t m, int64_t n) {
  const std::string target = ShapeToString({m, n});
  if (rule == BiasRule::kLegacy) {
    const bool exact = c.size() == 2 && c[0] == m && c[1] == n;
    const bool broadcast = ctx.int_attribute("broadcast") != 0;
    if (broadcast && Product(c) == 1) return BiasStrides{0, 0};  // any one-element tensor
    const bool slice = c.size() == 1 && c[0] == n;
    if (!exact && !(broadcast && slice)) {
      return Decline(absl::StrCat("C of shape ", ShapeToString(c), " for Y of shape ", target,
                                  " before opset 7"));
    }
  }
  if (c.size() > 2) {
    return ctx.input_error(
        2, absl::StrCat("shape ", ShapeToString(c), " does not broadcast to ", target));
  }
  const int64_t rows = c.size() == 2 ? c[0] : 1;
  const int64_t cols = c.empty() ? 1 : c.back();
  if ((rows != 1 && rows != m) || (cols != 1 && cols != n)) {
    return ctx.input_error(
        2, absl::StrCat("shape ", ShapeToString(c), " does not broadcast to ", target));
  }
  return BiasStrides{rows == 1 ? 0 : cols, cols == 1 ? 0 : 1};
}

// alpha or beta in the work type W; nullopt for an integer W and a non-integral value.
template <class W>
std::optional<W> Coefficient(float value) {
  if constexpr (std::is_integral_v<W>) {
    if (!(std::fabs(value) < 9.2e18f) || std::trunc(value) != value) return std::nullopt;
    return static_cast<W>(static_cast<int64_t>(value));
  } else {
    return static_cast<W>(value);
  }
}

template <class T>
KernelResult GemmOfType(const KernelContext& ctx, BiasRule rule) {
  using W = WorkType<T>;
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  if (a.rank() != 2) return ctx.input_error(0, absl::StrCat("has rank ", a.rank(), ", not 2"));
  if (b.rank() != 2) return ctx.input_error(1, absl::StrCat("has rank ", b.rank(), ", not 2"));
  GemmDims dims;
  dims.trans_a = ctx.int_attribute("transA") != 0;
  dims.trans_b = ctx.int_attribute("transB") != 0;
  dims.m = a.shape()[dims.trans_a ? 1 : 0];
  dims.k = a.shape()[dims.trans_a ? 0 : 1];
  dims.n = b.shape()[dims.trans_b ? 0 : 1];
  const int64_t b_k = b.shape()[dims.trans_b ? 1 : 0];
  if (b_k != dims.k) {
    return ctx.input_error(
        1, absl::StrCat("gives ", b_k, " rows to multiply, A' has ", dims.k, " columns"));
  }
  const std::optional<W> alpha = Coefficient<W>(ctx.float_attribute("alpha", 1.0f));
  const std::optional<W> beta = Coefficient<W>(ctx.float_attribute("beta", 1.0f));
  if (!alpha.has_value() || !beta.has_value())
    return Decline("integer Gemm with a fractional alpha or beta");
  const Tensor* c = ctx.optional_input(2);
  const bool has_bias = c != nullptr && *beta != W{0};
  if (has_bias && dims.k == 0 && *beta != W{1}) {
    // ONNX gives beta * C; ONNX Runtime 1.30 returns C unscaled when A' * B' sums nothing.
    return Decline("an empty inner dim with beta other than 1 (ONNX Runtime ignores beta)");
  }
  BiasStrides bias;
  if (c != nullptr) {
    GRAPHGC_ASSIGN_OR_RETURN(bias, PlanBias(ctx, rule, c->shape(), dims.m, dims.n));
  }

  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, {dims.m, dims.n}));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> wa, linalg::WorkView<T>::Of(ctx, a));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> wb, linalg::WorkView<T>::Of(ctx, b));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkOutput<T> wout, linalg::WorkOutput<T>::Of(ctx, out));
  W* y = wout.data();
  if (has_bias) {
    GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> wc, linalg::WorkView<T>::Of(ctx, *c));
    for (int64_t i = 0; i < dims.m; ++i) {
      for (int64_t j = 0; j < dims.n; ++j) {
        y[i * dims.n + j] = *beta * wc.data()[i * bias.row + j * bias.col];
      }
    }
  }
  const W gemm_beta = has_bias ? W{1} : W{0};
  const int64_t zero = 0;
  if (std::is_integral_v<W> || *alpha != W{0}) {
    linalg::BatchedGemm<W>(dims, *alpha, wa.data(), {&zero, 1}, wb.data(), {&zero, 1}, gemm_beta, y,
                           ctx.threads());
  } else {
    // The product skips A * B when alpha is 0, as BLAS does; ONNX (and ONNX Runtime) still
    // multiply it, so a NaN or an infinity in A * B gives NaN.
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> product, linalg::Scratch<W>(ctx, dims.m * dims.n));
    linalg::BatchedGemm<W>(dims, W{1}, wa.data(), {&zero, 1}, wb.data(), {&zero, 1}, W{0},
                           product.data(), ctx.threads());
    for (size_t i = 0; i < product.size(); ++i) y[i] = W{0} * product[i] + (has_bias ? y[i] : W{0});
  }
  wout.finish();
  return KernelOutputs{std::move(out).freeze()};
}

Kernel GemmKernel(BiasRule rule) {
  return [rule](const KernelContext& ctx) -> KernelResult {
    KernelResult result = Decline("Gemm of this element type");
    internal::DispatchNumeric(ctx.input(0).dtype(), [&](auto tag) {
      result = GemmOfType<typename decltype(tag)::type>(ctx, rule);
    });
    return result;
  };
}

}  // namespace

void RegisterGemmKernels(KernelTable& table) {
  // Every numeric type (DispatchNumeric); integers decline a fractional alpha or beta.
  const KernelTypes numeric = {{"T", data_types::kNumeric}};
  table.add("", "Gemm", 1, 6, numeric, GemmKernel(BiasRule::kLegacy));
  table.add("", "Gemm", 7, KernelTable::kLatest, numeric, GemmKernel(BiasRule::kUnidirectional));
}

}  // namespace graphgc::kernels
