// Conv (opsets 1 and 11) and ConvTranspose (1 and 11) on float, double and float16 (computed in
// float), lowered to GEMM (conv_gemm.h), with the optional bias B [M].
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/conv/conv_gemm.h"
#include "graphgc/opset/kernels/conv/conv_geometry.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::conv {
namespace {

using Reals = internal::TypeList<float, double, Float16>;

template <class T, bool kTranspose>
KernelResult ConvOfType(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const ConvPlan plan,
                           kTranspose ? PlanConvTranspose(ctx) : PlanConv(ctx, 0, 1));
  const Tensor* bias = ctx.optional_input(2);
  if (bias != nullptr && (bias->rank() != 1 || bias->shape()[0] != plan.out_channels)) {
    return ctx.input_error(2, absl::StrCat("has shape ", ShapeToString(bias->shape()),
                                           ", expected [", plan.out_channels, "]"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, plan.output_shape));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> x, linalg::WorkView<T>::Of(ctx, ctx.input(0)));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> w, linalg::WorkView<T>::Of(ctx, ctx.input(1)));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkOutput<T> y, linalg::WorkOutput<T>::Of(ctx, out));
  if constexpr (kTranspose) {
    GRAPHGC_RETURN_IF_ERROR(ConvolveTransposed(ctx, plan, x.data(), w.data(), y.data()));
  } else {
    GRAPHGC_RETURN_IF_ERROR(Convolve(ctx, plan, x.data(), w.data(), y.data()));
  }
  if (bias != nullptr) {
    GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> b, linalg::WorkView<T>::Of(ctx, *bias));
    AddBias(plan, b.data(), y.data());
  }
  y.finish();
  return KernelOutputs{std::move(out).freeze()};
}

template <bool kTranspose>
KernelResult ConvKernel(const KernelContext& ctx) {
  KernelResult result = Decline("a convolution of this element type");
  Reals::Dispatch(ctx.input(0).dtype(), [&](auto tag) {
    result = ConvOfType<typename decltype(tag)::type, kTranspose>(ctx);
  });
  return result;
}

}  // namespace
}  // namespace graphgc::kernels::conv

namespace graphgc::kernels {

void RegisterConvFloatKernels(KernelTable& table) {
  const KernelTypes reals = {{"T", conv::Reals::kSet}};
  table.add("", "Conv", 1, KernelTable::kLatest, reals, conv::ConvKernel<false>);
  table.add("", "ConvTranspose", 1, KernelTable::kLatest, reals, conv::ConvKernel<true>);
}

}  // namespace graphgc::kernels
