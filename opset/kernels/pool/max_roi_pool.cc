// MaxRoiPool (1): for each region [batch, x1, y1, x2, y2] (scaled by spatial_scale and rounded
// half away from zero), the maximum over each of pooled_shape bins of the region, as ONNX
// Runtime computes it: a region is at least 1x1, bin edges are floor/ceil of the bin size, and
// an empty bin (clipped away by the input's edge) gives 0.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/pool/pool_dispatch.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::Load;
using internal::Store;

// One bin's input range [begin, end) along an axis, clipped to [0, extent).
struct BinRange {
  int64_t begin;
  int64_t end;
};

BinRange Bin(int64_t bin, float bin_size, int64_t roi_start, int64_t extent) {
  const auto clip = [extent](int64_t v) { return std::min(std::max(v, int64_t{0}), extent); };
  return {
      clip(static_cast<int64_t>(std::floor(static_cast<float>(bin) * bin_size)) + roi_start),
      clip(static_cast<int64_t>(std::ceil(static_cast<float>(bin + 1) * bin_size)) + roi_start)};
}

template <class T>
absl::Status PoolRegions(const KernelContext& ctx, const Tensor& x, const Tensor& rois,
                         int64_t pooled_h, int64_t pooled_w, float scale, T* y) {
  using C = internal::ComputeType<T>;
  const int64_t batch = x.shape()[0], channels = x.shape()[1];
  const int64_t height = x.shape()[2], width = x.shape()[3];
  const T* px = x.data<T>().data();
  const T* region = rois.data<T>().data();
  for (int64_t r = 0; r < rois.shape()[0]; ++r, region += 5) {
    const C batch_value = Load(region[0]);
    if (!(batch_value >= 0 && batch_value < static_cast<C>(batch))) {
      return ctx.input_error(
          1, absl::StrCat("region ", r, " names batch ", batch_value, " of ", batch));
    }
    for (int i = 1; i < 5; ++i) {
      if (!(std::abs(static_cast<float>(Load(region[i])) * scale) < 1e9f)) {
        return Decline(absl::StrCat("region ", r, " has a coordinate too large (or NaN)"));
      }
    }
    const int64_t n = static_cast<int64_t>(batch_value);  // truncated, as ONNX Runtime does
    const auto scaled = [&](int i) {
      return static_cast<int64_t>(std::round(static_cast<float>(Load(region[i])) * scale));
    };
    const int64_t start_w = scaled(1), start_h = scaled(2);
    const int64_t roi_h = std::max(scaled(4) - start_h + 1, int64_t{1});
    const int64_t roi_w = std::max(scaled(3) - start_w + 1, int64_t{1});
    const float bin_h = static_cast<float>(roi_h) / static_cast<float>(pooled_h);
    const float bin_w = static_cast<float>(roi_w) / static_cast<float>(pooled_w);
    for (int64_t c = 0; c < channels; ++c) {
      const T* plane = px + (n * channels + c) * height * width;
      for (int64_t ph = 0; ph < pooled_h; ++ph) {
        const BinRange rows = Bin(ph, bin_h, start_h, height);
        for (int64_t pw = 0; pw < pooled_w; ++pw) {
          const BinRange cols = Bin(pw, bin_w, start_w, width);
          const bool empty = rows.end <= rows.begin || cols.end <= cols.begin;
          C max = empty ? C{0} : std::numeric_limits<C>::lowest();
          for (int64_t h = rows.begin; h < rows.end; ++h) {
            for (int64_t w = cols.begin; w < cols.end; ++w)
              max = std::max(max, Load(plane[h * width + w]));
          }
          *y++ = Store<T>(max);
        }
      }
    }
  }
  return absl::OkStatus();
}

KernelResult MaxRoiPool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& rois = ctx.input(1);
  if (x.rank() != 4) return Decline("MaxRoiPool of a non-4-D input");
  if (rois.rank() != 2 || rois.shape()[1] != 5) {
    return ctx.input_error(1, "must be [num_rois, 5]");
  }
  const std::vector<int64_t> pooled =
      ctx.ints_attribute("pooled_shape").value_or(std::vector<int64_t>{});
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0) {
    return absl::InvalidArgumentError("attribute 'pooled_shape' must be two positive sizes");
  }
  const float scale = ctx.float_attribute("spatial_scale", 1.0f);
  const Shape shape = {rois.shape()[0], x.shape()[1], pooled[0], pooled[1]};
  return DispatchPoolType<FloatTypes>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), shape));
    GRAPHGC_RETURN_IF_ERROR(
        PoolRegions<T>(ctx, x, rois, pooled[0], pooled[1], scale, y.mutable_data<T>().data()));
    return KernelOutputs{std::move(y).freeze()};
  });
}

}  // namespace

void RegisterMaxRoiPoolKernels(KernelTable& table) {
  table.add("", "MaxRoiPool", 1, KernelTable::kLatest, {{"T", FloatTypes::kSet}}, MaxRoiPool);
}

}  // namespace graphgc::kernels
