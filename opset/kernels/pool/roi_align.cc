// RoiAlign (10, 16): each region [x1, y1, x2, y2] of image batch_indices[r], scaled by
// spatial_scale (and shifted by -0.5 in RoiAlign-16's default half_pixel mode), is split into
// output_height x output_width bins; each bin samples a sampling_ratio^2 grid (adaptive:
// ceil(region / bins) per axis when 0) by bilinear interpolation and averages the samples, or in
// max mode takes the largest weighted corner of all samples, as ONNX Runtime (and ONNX's
// reference) compute it. The arithmetic follows ONNX Runtime's CPU kernel step by step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/pool/pool_dispatch.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::Load;
using internal::Store;

// One sample point: the four input positions around it and their bilinear weights (all zero for
// a point outside the input).
template <class C>
struct Sample {
  int64_t position[4] = {0, 0, 0, 0};
  C weight[4] = {0, 0, 0, 0};
};

template <class C>
Sample<C> Interpolate(C y, C x, int64_t height, int64_t width) {
  Sample<C> s;
  // Outside the input (a NaN coordinate too): all weights 0.
  if (!(y >= C{-1} && y <= static_cast<C>(height) && x >= C{-1} && x <= static_cast<C>(width))) {
    return s;
  }
  y = std::max(y, C{0});
  x = std::max(x, C{0});
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = static_cast<C>(y_low);
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = static_cast<C>(x_low);
  }
  const C ly = y - static_cast<C>(y_low), lx = x - static_cast<C>(x_low);
  const C hy = C{1} - ly, hx = C{1} - lx;
  s.position[0] = y_low * width + x_low;
  s.position[1] = y_low * width + x_high;
  s.position[2] = y_high * width + x_low;
  s.position[3] = y_high * width + x_high;
  s.weight[0] = hy * hx;
  s.weight[1] = hy * lx;
  s.weight[2] = ly * hx;
  s.weight[3] = ly * lx;
  return s;
}

struct RoiAlignParams {
  int64_t out_h;
  int64_t out_w;
  int64_t sampling_ratio;
  float spatial_scale;
  bool half_pixel;
  bool max_mode;
};

template <class T>
absl::Status AlignRegions(const KernelContext& ctx, const Tensor& x, const Tensor& rois,
                          absl::Span<const int64_t> batch_indices, const RoiAlignParams& params,
                          T* y) {
  using C = internal::ComputeType<T>;
  const int64_t channels = x.shape()[1], height = x.shape()[2], width = x.shape()[3];
  const int64_t out_h = params.out_h, out_w = params.out_w;
  const T* px = x.data<T>().data();
  const T* region = rois.data<T>().data();
  const C offset = params.half_pixel ? C{0.5} : C{0};
  const C scale = static_cast<C>(params.spatial_scale);
  std::vector<Sample<C>> samples;
  for (int64_t r = 0; r < rois.shape()[0]; ++r, region += 4) {
    const int64_t n = batch_indices[static_cast<size_t>(r)];
    const C start_w = Load(region[0]) * scale - offset, start_h = Load(region[1]) * scale - offset;
    C roi_w = Load(region[2]) * scale - offset - start_w;
    C roi_h = Load(region[3]) * scale - offset - start_h;
    if (!params.half_pixel) {  // output_half_pixel (and RoiAlign-10) force a region to be 1x1
      roi_w = std::max(roi_w, C{1});
      roi_h = std::max(roi_h, C{1});
    }
    const C bin_h = roi_h / static_cast<C>(out_h), bin_w = roi_w / static_cast<C>(out_w);
    const auto grid = [&](C roi, int64_t bins) {
      return params.sampling_ratio > 0
                 ? params.sampling_ratio
                 : static_cast<int64_t>(std::ceil(roi / static_cast<C>(bins)));
    };
    // A huge or NaN region would make the adaptive grid overflow (ONNX Runtime's cast is
    // undefined there).
    if (!(roi_h / static_cast<C>(out_h) < C{1e6} && roi_w / static_cast<C>(out_w) < C{1e6})) {
      return Decline("a region too large (or NaN) to sample");
    }
    const int64_t grid_h = grid(roi_h, out_h), grid_w = grid(roi_w, out_w);
    const int64_t count = grid_h * grid_w * out_h * out_w;
    if (!ctx.within_budget(DataType::kInt64, count * 8)) {
      return absl::ResourceExhaustedError("RoiAlign's sample table exceeds the value budget");
    }
    samples.clear();
    for (int64_t ph = 0; ph < out_h; ++ph) {
      for (int64_t pw = 0; pw < out_w; ++pw) {
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          const C sy =
              start_h + static_cast<C>(ph) * bin_h +
              static_cast<C>(static_cast<float>(iy) + .5f) * bin_h / static_cast<C>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            const C sx =
                start_w + static_cast<C>(pw) * bin_w +
                static_cast<C>(static_cast<float>(ix) + .5f) * bin_w / static_cast<C>(grid_w);
            samples.push_back(Interpolate(sy, sx, height, width));
          }
        }
      }
    }
    const int64_t per_bin = grid_h * grid_w;
    const C divisor = static_cast<C>(std::max(per_bin, int64_t{1}));
    for (int64_t c = 0; c < channels; ++c) {
      const T* plane = px + (n * channels + c) * height * width;
      const Sample<C>* s = samples.data();
      for (int64_t b = 0; b < out_h * out_w; ++b) {
        C value = 0;
        for (int64_t k = 0; k < per_bin; ++k, ++s) {
          C corners[4];
          for (int i = 0; i < 4; ++i) corners[i] = s->weight[i] * Load(plane[s->position[i]]);
          if (params.max_mode) {
            const C largest =
                std::max(std::max(std::max(corners[0], corners[1]), corners[2]), corners[3]);
            value = k == 0 ? largest : std::max(value, largest);
          } else {
            value += corners[0] + corners[1] + corners[2] + corners[3];
          }
        }
        *y++ = Store<T>(params.max_mode ? value : value / divisor);
      }
    }
  }
  return absl::OkStatus();
}

KernelResult RoiAlign(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& rois = ctx.input(1);
  const Tensor& batch = ctx.input(2);
  if (x.rank() != 4) return ctx.input_error(0, "must be 4-D [N, C, H, W]");
  if (rois.rank() != 2 || rois.shape()[1] != 4) return ctx.input_error(1, "must be [num_rois, 4]");
  if (batch.rank() != 1 || batch.shape()[0] != rois.shape()[0]) {
    return ctx.input_error(2, "must be [num_rois], one batch index per region");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const size_t mode, ChooseAttribute(ctx, "mode", "avg", {"avg", "max"}));
  bool half_pixel = false;
  if (ctx.version() >= 16) {
    GRAPHGC_ASSIGN_OR_RETURN(const size_t transform,
                             ChooseAttribute(ctx, "coordinate_transformation_mode", "half_pixel",
                                             {"half_pixel", "output_half_pixel"}));
    half_pixel = transform == 0;
  }
  const RoiAlignParams params{.out_h = ctx.int_attribute("output_height", 1),
                              .out_w = ctx.int_attribute("output_width", 1),
                              .sampling_ratio = ctx.int_attribute("sampling_ratio", 0),
                              .spatial_scale = ctx.float_attribute("spatial_scale", 1.0f),
                              .half_pixel = half_pixel,
                              .max_mode = mode == 1};
  if (params.out_h <= 0 || params.out_w <= 0 || params.sampling_ratio < 0) {
    return absl::InvalidArgumentError(
        "attributes output_height and output_width must be positive, sampling_ratio >= 0");
  }
  const std::vector<int64_t> batch_indices = ReadInt64s(batch);
  for (size_t r = 0; r < batch_indices.size(); ++r) {
    if (batch_indices[r] < 0 || batch_indices[r] >= x.shape()[0]) {
      return ctx.input_error(2, absl::StrCat("batch index ", batch_indices[r], " of region ", r,
                                             " is out of range for ", x.shape()[0], " images"));
    }
  }
  const Shape shape = {rois.shape()[0], x.shape()[1], params.out_h, params.out_w};
  return DispatchPoolType<FloatTypes>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), shape));
    GRAPHGC_RETURN_IF_ERROR(
        AlignRegions<T>(ctx, x, rois, batch_indices, params, y.mutable_data<T>().data()));
    return KernelOutputs{std::move(y).freeze()};
  });
}

}  // namespace

void RegisterRoiAlignKernels(KernelTable& table) {
  table.add("", "RoiAlign", 10, KernelTable::kLatest, {{"T1", FloatTypes::kSet}}, RoiAlign);
}

}  // namespace graphgc::kernels
