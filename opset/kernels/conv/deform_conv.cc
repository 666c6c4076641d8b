// DeformConv (opset 19; 22 admits bfloat16): a convolution whose kernel taps read X away from the
// regular grid. Tap k of output position o reads X at o * stride - pad_begin + k * dilation plus
// its offset (offset [N, offset_group * prod(kernel) * r, out...], one value per spatial axis),
// interpolated linearly between the pixels around that location, times mask [N, offset_group *
// prod(kernel), out...] (ones when omitted); Y = W applied to those samples, plus B.
//
// As ONNX's reference (GridSample, linear, zeros, align_corners over the same pixels): a location
// reads the two pixels floor(x) and floor(x) + 1 on each axis, the innermost axis blended first,
// each pixel outside the image reading 0, so a location within one pixel of the border keeps
// part of the edge pixel. Locations are computed in the type products are (float for float and
// the 16-bit floats, double for double, as ONNX Runtime; the reference rounds them to float).
// ONNX's reference and ONNX Runtime compute 2-D images only; other spatial ranks follow the same
// rule per axis. An image axis of extent 1 computes as ONNX Runtime does (the reference divides
// by extent - 1 there and fails). Non-finite offsets get no value (the reference fails on them),
// nor does a non-finite X: ONNX Runtime 1.32 weighs a tap outside the image by 0 instead of
// skipping it, so NaN and infinity reach outputs the reference keeps finite.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/conv/conv_gemm.h"
#include "graphgc/opset/kernels/conv/conv_geometry.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::conv {
namespace {

using Reals = internal::TypeList<float, double, Float16, BFloat16>;

// The convolution's geometry (conv_geometry.h) and what DeformConv adds to it.
struct DeformPlan {
  ConvPlan conv;
  int64_t offset_groups = 1;
  int64_t channels_per_offset_group = 0;
  int64_t taps = 0;       // prod(kernel)
  int64_t positions = 0;  // prod(output spatial dims)
};

// `tensor` (input `index`) must have shape `expected`. ONNX's reference reshapes a mask of the
// right element count and broadcasts a one-element B where ONNX Runtime fails: those get no
// value; any other shape makes the op fail.
absl::Status CheckOperandShape(const KernelContext& ctx, int index, const Shape& expected,
                               bool broadcasts) {
  const Tensor& tensor = ctx.input(index);
  if (tensor.shape() == absl::MakeConstSpan(expected)) return absl::OkStatus();
  if ((broadcasts && tensor.size() == 1) || (!broadcasts && tensor.size() == Product(expected))) {
    return Decline(absl::StrCat(
        "DeformConv's ", ctx.input_label(index), " of shape ", ShapeToString(tensor.shape()),
        " (ONNX's reference reshapes or broadcasts it, ONNX Runtime fails)"));
  }
  return ctx.input_error(index, absl::StrCat("has shape ", ShapeToString(tensor.shape()),
                                             ", expected ", ShapeToString(expected)));
}

absl::StatusOr<DeformPlan> PlanDeformConv(const KernelContext& ctx) {
  DeformPlan plan;
  GRAPHGC_ASSIGN_OR_RETURN(plan.conv, PlanConv(ctx, 0, 1));
  const ConvPlan& conv = plan.conv;
  const int64_t rank = static_cast<int64_t>(conv.patches.kernel.size());
  plan.offset_groups = ctx.int_attribute("offset_group", 1);
  if (plan.offset_groups < 1 || conv.in_channels % plan.offset_groups != 0) {
    return absl::InvalidArgumentError(absl::StrCat("attribute offset_group is ", plan.offset_groups,
                                                   ", which does not divide the ", conv.in_channels,
                                                   " input channels"));
  }
  plan.channels_per_offset_group = conv.in_channels / plan.offset_groups;
  // Every count below is a product of these (an empty W may carry huge kernel dims).
  Shape factors = {plan.offset_groups, rank, conv.in_channels};
  factors.insert(factors.end(), conv.patches.kernel.begin(), conv.patches.kernel.end());
  factors.insert(factors.end(), conv.output_shape.begin() + 2, conv.output_shape.end());
  if (!DimsMultiplySafely(factors)) return Decline("a DeformConv this large");
  plan.taps = conv.patches.kernel_size();
  plan.positions = conv.output_spatial_size();
  Shape offset_shape = {conv.batch, plan.offset_groups * plan.taps * rank};
  offset_shape.insert(offset_shape.end(), conv.output_shape.begin() + 2, conv.output_shape.end());
  if (ctx.input(2).shape() != absl::MakeConstSpan(offset_shape)) {
    return ctx.input_error(2, absl::StrCat("has shape ", ShapeToString(ctx.input(2).shape()),
                                           ", expected ", ShapeToString(offset_shape)));
  }
  if (ctx.has_input(3)) {
    GRAPHGC_RETURN_IF_ERROR(CheckOperandShape(ctx, 3, {conv.out_channels}, /*broadcasts=*/true));
  }
  if (ctx.has_input(4)) {
    Shape mask_shape = offset_shape;
    mask_shape[1] = plan.offset_groups * plan.taps;
    GRAPHGC_RETURN_IF_ERROR(CheckOperandShape(ctx, 4, mask_shape, /*broadcasts=*/false));
  }
  return plan;
}

// Whether every element is finite (offsets: a location must be compared and floored).
template <class T>
bool AllFinite(const Tensor& tensor) {
  for (const T& v : tensor.data<T>()) {
    if (!std::isfinite(static_cast<double>(internal::Load<T>(v)))) return false;
  }
  return true;
}

// Linear interpolation of one channel of X at a location, over any spatial rank.
template <class W>
class Sampler {
 public:
  explicit Sampler(const PatchGeometry& geometry)
      : dims_(geometry.image), strides_(ContiguousStrides(geometry.image)) {}

  // The value at `location` (one coordinate per spatial axis) of `image`.
  W At(const W* image, const std::vector<W>& location) {
    low_.resize(dims_.size());
    fraction_.resize(dims_.size());
    for (size_t a = 0; a < dims_.size(); ++a) {
      // Past these both pixels are outside: the sample is 0 (and the floor needs no int64).
      if (location[a] < W(-1) || location[a] >= static_cast<W>(dims_[a])) return W{0};
      const W floor = std::floor(location[a]);
      low_[a] = static_cast<int64_t>(floor);
      fraction_[a] = location[a] - floor;
    }
    return Blend(image, 0, 0);
  }

 private:
  // The interpolation along `axis` and the axes inside it, at element `offset` of the axes
  // before it. A pixel outside reads 0; pixels of weight 0 still count (0 * NaN is NaN).
  W Blend(const W* image, size_t axis, int64_t offset) const {
    W taps[2];
    for (int64_t t = 0; t < 2; ++t) {
      const int64_t i = low_[axis] + t;
      if (i < 0 || i >= dims_[axis]) {
        taps[t] = W{0};
        continue;
      }
      const int64_t at = offset + i * strides_[axis];
      taps[t] = axis + 1 == dims_.size() ? image[at] : Blend(image, axis + 1, at);
    }
    return (W{1} - fraction_[axis]) * taps[0] + fraction_[axis] * taps[1];
  }

  const Shape& dims_;
  Shape strides_;
  std::vector<int64_t> low_;
  std::vector<W> fraction_;
};

// Advances a row-major multi-index over `dims`.
void Next(std::vector<int64_t>& index, absl::Span<const int64_t> dims) {
  for (size_t a = index.size(); a-- > 0;) {
    if (++index[a] < dims[a]) return;
    index[a] = 0;
  }
}

// The column matrix of image n: row (c, k) holds, for each output position, channel c sampled
// at tap k's deformed location times its mask. Its layout is Conv's (groups of channels in
// order), so that W multiplies it group by group.
template <class W>
void DeformedColumns(const DeformPlan& plan, int64_t n, const W* x, const W* offsets, const W* mask,
                     W* columns) {
  const PatchGeometry& p = plan.conv.patches;
  const size_t rank = p.kernel.size();
  const absl::Span<const int64_t> out_dims = absl::MakeConstSpan(plan.conv.output_shape).subspan(2);
  const int64_t image_size = p.image_size();
  const int64_t channels = plan.conv.in_channels;
  Sampler<W> sampler(p);
  std::vector<int64_t> k(rank), o(rank);
  std::vector<W> location(rank);
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t group = c / plan.channels_per_offset_group;
    const W* image = x + (n * channels + c) * image_size;
    std::fill(k.begin(), k.end(), 0);
    for (int64_t tap = 0; tap < plan.taps; ++tap, Next(k, p.kernel)) {
      const int64_t tap_row = (n * plan.offset_groups + group) * plan.taps + tap;
      const W* tap_offsets = offsets + tap_row * static_cast<int64_t>(rank) * plan.positions;
      const W* tap_mask = mask == nullptr ? nullptr : mask + tap_row * plan.positions;
      W* row = columns + (c * plan.taps + tap) * plan.positions;
      std::fill(o.begin(), o.end(), 0);
      for (int64_t at = 0; at < plan.positions; ++at, Next(o, out_dims)) {
        for (size_t a = 0; a < rank; ++a) {
          const int64_t grid = o[a] * p.strides[a] - p.pad_begin[a] + k[a] * p.dilations[a];
          location[a] =
              static_cast<W>(grid) + tap_offsets[static_cast<int64_t>(a) * plan.positions + at];
        }
        const W sample = sampler.At(image, location);
        row[at] = tap_mask == nullptr ? sample : sample * tap_mask[at];
      }
    }
  }
}

// Y = W x columns, group by group, for each image.
template <class W>
absl::Status DeformConvolve(const KernelContext& ctx, const DeformPlan& plan, const W* x,
                            const W* w, const W* offsets, const W* mask, W* y) {
  const ConvPlan& conv = plan.conv;
  const linalg::GemmDims dims = {
      .m = conv.out_channels / conv.group, .n = plan.positions, .k = conv.patches.rows()};
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> columns,
                           linalg::Scratch<W>(ctx, conv.group * dims.k * dims.n));
  std::vector<int64_t> w_offsets, column_offsets;
  for (int64_t g = 0; g < conv.group; ++g) {
    w_offsets.push_back(g * dims.m * dims.k);
    column_offsets.push_back(g * dims.k * dims.n);
  }
  for (int64_t n = 0; n < conv.batch; ++n) {
    DeformedColumns(plan, n, x, offsets, mask, columns.data());
    linalg::BatchedGemm<W>(dims, W{1}, w, w_offsets, columns.data(), column_offsets, W{0},
                           y + n * conv.out_channels * plan.positions, ctx.threads());
  }
  return absl::OkStatus();
}

template <class T>
KernelResult DeformConvOfType(const KernelContext& ctx) {
  using W = linalg::WorkType<T>;
  GRAPHGC_ASSIGN_OR_RETURN(const DeformPlan plan, PlanDeformConv(ctx));
  if (!AllFinite<T>(ctx.input(2))) return Decline("DeformConv with non-finite offsets");
  if (!AllFinite<T>(ctx.input(0))) {
    return Decline("DeformConv of a non-finite X (ONNX Runtime spreads it further than ONNX)");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out,
                           ctx.allocate(ctx.output(0).dtype, plan.conv.output_shape));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> x, linalg::WorkView<T>::Of(ctx, ctx.input(0)));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> w, linalg::WorkView<T>::Of(ctx, ctx.input(1)));
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> offsets, linalg::WorkView<T>::Of(ctx, ctx.input(2)));
  std::optional<linalg::WorkView<T>> mask;
  if (ctx.has_input(4)) {
    GRAPHGC_ASSIGN_OR_RETURN(mask, linalg::WorkView<T>::Of(ctx, ctx.input(4)));
  }
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkOutput<T> y, linalg::WorkOutput<T>::Of(ctx, out));
  GRAPHGC_RETURN_IF_ERROR(DeformConvolve<W>(ctx, plan, x.data(), w.data(), offsets.data(),
                                            mask.has_value() ? mask->data() : nullptr, y.data()));
  if (ctx.has_input(3)) {
    GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> b, linalg::WorkView<T>::Of(ctx, ctx.input(3)));
    AddBias(plan.conv, b.data(), y.data());
  }
  y.finish();
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult DeformConvKernel(const KernelContext& ctx) {
  KernelResult result = Decline("DeformConv of this element type");
  Reals::Dispatch(ctx.input(0).dtype(),
                  [&](auto tag) { result = DeformConvOfType<typename decltype(tag)::type>(ctx); });
  return result;
}

}  // namespace
}  // namespace graphgc::kernels::conv

namespace graphgc::kernels {

void RegisterDeformConvKernels(KernelTable& table) {
  // One kernel: DeformConv-22 only admits bfloat16.
  table.add("", "DeformConv", 19, KernelTable::kLatest, {{"T", conv::Reals::kSet}},
            conv::DeformConvKernel);
}

}  // namespace graphgc::kernels
