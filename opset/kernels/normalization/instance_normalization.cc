// InstanceNormalization (opsets 1 and 6): y = scale[c] * (x - mean) / sqrt(var + epsilon) + B[c],
// with the mean and population variance of each (n, c) over its spatial elements.
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/normalization/channel_stats.h"
#include "graphgc/opset/kernels/normalization/normalization_kernels.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult InstanceNormalization(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) return ctx.input_error(0, "has rank < 2; there is no channel dim");
  const absl::Span<const int64_t> dims = x.shape();
  std::vector<std::vector<double>> parameters;  // scale, B
  for (int i = 1; i <= 2; ++i) {
    const Tensor& p = ctx.input(i);
    if (p.rank() != 1 || p.shape()[0] != dims[1]) {
      return ctx.input_error(
          i, absl::StrCat("shape ", ShapeToString(p.shape()), " is not [", dims[1], "]"));
    }
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<double> values, ReadAsDoubles(ctx, p));
    parameters.push_back(std::move(values));
  }
  // One channel per (n, c): [1, N * C, spatial].
  ChannelLayout layout{1, dims[0] * dims[1], 1};
  for (size_t d = 2; d < dims.size(); ++d) layout.inner *= dims[d];
  const double epsilon = ctx.float_attribute("epsilon", 1e-5f);
  return DispatchFloatingKernel(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    const T* px = x.data<T>().data();
    if (!ctx.within_budget(DataType::kDouble, 4 * layout.channels)) {
      return absl::ResourceExhaustedError("InstanceNormalization's statistics exceed the budget");
    }
    const Moments m = ChannelMoments(px, layout);
    std::vector<double> a(static_cast<size_t>(layout.channels));
    std::vector<double> b(a.size());
    for (size_t nc = 0; nc < a.size(); ++nc) {
      const size_t c = nc % static_cast<size_t>(dims[1]);
      a[nc] = parameters[0][c] / std::sqrt(m.variance[nc] + epsilon);
      b[nc] = parameters[1][c] - m.mean[nc] * a[nc];
    }
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), x.shape()));
    ApplyChannelAffine(px, y.mutable_data<T>().data(), layout, a, b);
    return KernelOutputs{std::move(y).freeze()};
  });
}

}  // namespace

void RegisterInstanceNormalizationKernels(KernelTable& table) {
  table.add("", "InstanceNormalization", 1, KernelTable::kLatest,
            {{"T", data_types::kFloatingPoint}}, InstanceNormalization);
}

}  // namespace graphgc::kernels
