// Conv and ConvTranspose lowered to GEMM (the linalg family's BatchedGemm: the position-independent
// packed product for floating point): per image, the column matrix of every group (patches.h) and
// one batched product over the groups. A 1x1 kernel at stride 1 without padding multiplies X
// directly, for all images in one batched call. Elements are in the type products are computed in
// (linalg::WorkType): float, double, or uint32 for the integer convolutions (int32 arithmetic that
// wraps).
#ifndef GRAPHGC_OPSET_KERNELS_CONV_CONV_GEMM_H_
#define GRAPHGC_OPSET_KERNELS_CONV_CONV_GEMM_H_

#include <cstdint>

#include "absl/status/status.h"
#include "graphgc/opset/kernels/conv/conv_geometry.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels::conv {

// y = Conv(x, w) without bias; padding reads 0. x, w and y are laid out as X, W and Y. The
// column matrix is sized within the value budget (kResourceExhausted past it).
template <class W>
absl::Status Convolve(const KernelContext& ctx, const ConvPlan& plan, const W* x, const W* w, W* y);

// y = ConvTranspose(x, w) without bias.
template <class W>
absl::Status ConvolveTransposed(const KernelContext& ctx, const ConvPlan& plan, const W* x,
                                const W* w, W* y);

// y[n, m, ...] += bias[m] for Y [N, M, spatial...].
template <class W>
void AddBias(const ConvPlan& plan, const W* bias, W* y) {
  const int64_t spatial = plan.output_spatial_size();
  for (int64_t n = 0; n < plan.batch; ++n) {
    for (int64_t m = 0; m < plan.out_channels; ++m) {
      W* row = y + (n * plan.out_channels + m) * spatial;
      const W b = bias[m];
      for (int64_t i = 0; i < spatial; ++i) row[i] += b;
    }
  }
}

}  // namespace graphgc::kernels::conv

#endif  // GRAPHGC_OPSET_KERNELS_CONV_CONV_GEMM_H_
