// Resize (10, 11, 13, 18, 19) and Upsample (7, 9): each output element samples the input at a
// coordinate computed per axis (axis_taps.h), by nearest, N-linear or N-cubic interpolation.
//
// Resize-11 to 19 follow ONNX's reference (the backend test data). From 18 the `axes` attribute
// names the dims roi, scales and sizes list (the others are left alone), keep_aspect_ratio_policy
// scales every listed axis alike when `sizes` is given (not_larger: by the smallest out / in,
// not_smaller: by the largest; each output dim rounded half up), and antialias widens linear and
// cubic filters on the axes that shrink; 19 adds the half_pixel_symmetric coordinates. Resize-10
// and Upsample, which the reference leaves undefined beyond integer nearest scales, follow ONNX
// Runtime: asymmetric coordinates, nearest rounding down when an axis grows and up when it shrinks.
// Axes with scale 1 (and, for tf_crop_and_resize, the full roi) are copied unchanged.
// Linear and cubic interpolation of integers decline: ONNX Runtime truncates the blended value
// while ONNX's reference rounds it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/resample/axis_taps.h"
#include "graphgc/opset/kernels/resample/resample.h"
#include "graphgc/opset/kernels/resample/resample_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using resample::AxisExtent;
using resample::AxisTaps;
using resample::CoordinateMode;
using resample::InterpolationMode;
using resample::NearestMode;
using resample::Sampling;

// Where the node's scales come from: an input, or (Upsample-7) the `scales` attribute.
struct ScaleSource {
  int input = -1;             // -1: the attribute
  bool at_least_one = false;  // Upsample: every scale must be >= 1
  // Resize-10 and Upsample: output dims floor(in * scale) in float, as ONNX Runtime computes them.
  bool float_dims = false;
};

// The scales as doubles, each finite and positive (>= 1 for Upsample); none when the input is
// omitted or empty (Resize-11 and 13 then take `sizes`).
absl::StatusOr<std::vector<double>> ReadScales(const KernelContext& ctx, ScaleSource source,
                                               int64_t rank) {
  std::vector<double> scales;
  if (source.input < 0) {
    for (float s : ctx.floats_attribute("scales").value_or(std::vector<float>())) {
      scales.push_back(s);
    }
  } else {
    const Tensor* tensor = ctx.optional_input(source.input);
    if (tensor == nullptr || tensor->size() == 0) return scales;
    if (tensor->dtype() != DataType::kFloat) return Decline("scales of a type other than float");
    for (float s : tensor->data<float>()) scales.push_back(s);
  }
  const auto error = [&](const std::string& why) {
    return source.input < 0 ? absl::InvalidArgumentError("attribute 'scales' " + why)
                            : ctx.input_error(source.input, why);
  };
  if (static_cast<int64_t>(scales.size()) != rank) {
    return error(absl::StrCat("has ", scales.size(), " values for ", rank, " resized dims"));
  }
  for (double s : scales) {
    if (!std::isfinite(s) || s <= 0 || (source.at_least_one && s < 1)) {
      return error(absl::StrCat("holds ", s, "; scales must be ",
                                source.at_least_one ? "at least 1" : "positive and finite"));
    }
  }
  return scales;
}

// The dims roi, scales and sizes list: the `axes` attribute (Resize-18 on; negative ones count
// from the end, none may repeat), else every dim.
absl::StatusOr<std::vector<int64_t>> ResizedAxes(const KernelContext& ctx, int64_t rank) {
  std::vector<int64_t> axes;
  const std::optional<std::vector<int64_t>> listed =
      ctx.version() >= 18 ? ctx.ints_attribute("axes") : std::nullopt;
  if (!listed.has_value()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    return axes;
  }
  for (int64_t axis : *listed) {
    GRAPHGC_ASSIGN_OR_RETURN(const int64_t d, NormalizeAxis(ctx, "axes", axis, rank));
    axes.push_back(d);
  }
  if (const std::optional<size_t> repeat = RepeatedAxis(axes, rank); repeat.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'axes' repeats axis ", (*listed)[*repeat]));
  }
  return axes;
}

// Resize-18's keep_aspect_ratio_policy with `sizes`: every listed axis takes the smallest
// (not_larger) or largest (not_smaller) out / in, and its output dim is that scale times its
// input dim, rounded half up.
absl::Status KeepAspectRatio(const KernelContext& ctx, absl::Span<const int64_t> axes,
                             std::vector<AxisExtent>& extents) {
  GRAPHGC_ASSIGN_OR_RETURN(const size_t policy,
                           ChooseAttribute(ctx, "keep_aspect_ratio_policy", "stretch",
                                           {"stretch", "not_larger", "not_smaller"}));
  if (policy == 0 || axes.empty()) return absl::OkStatus();
  double scale = extents[static_cast<size_t>(axes[0])].scale;
  for (int64_t d : axes) {
    const double s = extents[static_cast<size_t>(d)].scale;
    scale = policy == 1 ? std::min(scale, s) : std::max(scale, s);
  }
  if (!std::isfinite(scale)) return Decline("an aspect ratio from an empty input dim");
  for (int64_t d : axes) {
    AxisExtent& axis = extents[static_cast<size_t>(d)];
    const double out = std::floor(scale * static_cast<double>(axis.in) + 0.5);
    if (out > static_cast<double>(int64_t{1} << 62)) {
      return absl::ResourceExhaustedError("Resize output dims past the value budget");
    }
    axis.scale = scale;
    axis.out = static_cast<int64_t>(out);
  }
  return absl::OkStatus();
}

// Each axis's extents from the scales (output dim floor(scale * in), computed in double as ONNX's
// reference does, or in float) or from the sizes (scale out / in); the dims `axes` leaves out keep
// scale 1.
absl::StatusOr<std::vector<AxisExtent>> ReadExtents(const KernelContext& ctx, ScaleSource scales,
                                                    int sizes_input) {
  const Tensor& x = ctx.input(0);
  const int64_t rank = x.rank();
  if (rank == 0) return Decline("Resize of a scalar");
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, ResizedAxes(ctx, rank));
  const int64_t listed = static_cast<int64_t>(axes.size());
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<double> scale_values, ReadScales(ctx, scales, listed));
  const bool has_scales = !scale_values.empty();
  const Tensor* sizes = sizes_input < 0 ? nullptr : ctx.optional_input(sizes_input);
  if (sizes != nullptr && sizes->size() == 0) sizes = nullptr;
  if (has_scales == (sizes != nullptr)) {
    return absl::InvalidArgumentError(
        "exactly one of 'scales' and 'sizes' must be given (non-empty)");
  }
  std::vector<AxisExtent> extents(static_cast<size_t>(rank));
  for (int64_t d = 0; d < rank; ++d) {
    AxisExtent& axis = extents[static_cast<size_t>(d)];
    axis.in = axis.out = x.shape()[static_cast<size_t>(d)];
  }
  for (int64_t i = 0; i < listed; ++i) {
    AxisExtent& axis = extents[static_cast<size_t>(axes[static_cast<size_t>(i)])];
    if (has_scales) {
      axis.scale = scale_values[static_cast<size_t>(i)];
      const double out = scales.float_dims
                             ? std::floor(static_cast<double>(static_cast<float>(axis.scale) *
                                                              static_cast<float>(axis.in)))
                             : std::floor(axis.scale * static_cast<double>(axis.in));
      if (out > static_cast<double>(int64_t{1} << 62)) {
        return absl::ResourceExhaustedError("Resize output dims past the value budget");
      }
      axis.out = static_cast<int64_t>(out);
    }
  }
  if (sizes != nullptr) {
    const std::vector<int64_t> dims = ReadInt64s(*sizes);
    if (static_cast<int64_t>(dims.size()) != listed) {
      return ctx.input_error(
          sizes_input, absl::StrCat("has ", dims.size(), " values for ", listed, " resized dims"));
    }
    for (int64_t i = 0; i < listed; ++i) {
      AxisExtent& axis = extents[static_cast<size_t>(axes[static_cast<size_t>(i)])];
      axis.out = dims[static_cast<size_t>(i)];
      if (axis.out < 0) {
        return ctx.input_error(sizes_input, absl::StrCat("holds the negative size ", axis.out));
      }
      axis.scale = static_cast<double>(axis.out) / static_cast<double>(axis.in);
    }
    if (ctx.version() >= 18) GRAPHGC_RETURN_IF_ERROR(KeepAspectRatio(ctx, axes, extents));
  }
  return extents;
}

// The roi (tf_crop_and_resize): [start_1 .. start_k, end_1 .. end_k] in normalized coordinates,
// for the k resized dims.
absl::Status ReadRoi(const KernelContext& ctx, std::vector<AxisExtent>& extents) {
  const Tensor* roi = ctx.optional_input(1);
  if (roi == nullptr || roi->size() == 0) {
    return Decline("tf_crop_and_resize without a roi");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> axes,
                           ResizedAxes(ctx, static_cast<int64_t>(extents.size())));
  const size_t rank = axes.size();
  if (static_cast<size_t>(roi->size()) != 2 * rank) {
    return ctx.input_error(
        1, absl::StrCat("has ", roi->size(), " values; tf_crop_and_resize needs ", 2 * rank));
  }
  std::vector<double> values;
  internal::TypeList<float, double, Float16, BFloat16>::Dispatch(roi->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (const T& v : roi->data<T>()) values.push_back(static_cast<double>(internal::Load<T>(v)));
  });
  if (values.size() != 2 * rank) return Decline("a roi of a type other than floating point");
  for (size_t i = 0; i < rank; ++i) {
    AxisExtent& axis = extents[static_cast<size_t>(axes[i])];
    axis.roi_start = values[i];
    axis.roi_end = values[i + rank];
  }
  return absl::OkStatus();
}

// The node's sampling attributes; Resize-10 and Upsample have only `mode` (nearest or linear).
absl::StatusOr<Sampling> ReadSampling(const KernelContext& ctx, bool legacy) {
  Sampling sampling;
  sampling.legacy = legacy;
  if (legacy) {
    GRAPHGC_ASSIGN_OR_RETURN(const size_t mode,
                             ChooseAttribute(ctx, "mode", "nearest", {"nearest", "linear"}));
    sampling.mode = static_cast<InterpolationMode>(mode);
    sampling.coordinates = CoordinateMode::kAsymmetric;
    return sampling;
  }
  GRAPHGC_ASSIGN_OR_RETURN(const size_t mode,
                           ChooseAttribute(ctx, "mode", "nearest", {"nearest", "linear", "cubic"}));
  sampling.mode = static_cast<InterpolationMode>(mode);
  const absl::string_view coordinate_modes[] = {
      "half_pixel",    "asymmetric",         "pytorch_half_pixel",  "tf_half_pixel_for_nn",
      "align_corners", "tf_crop_and_resize", "half_pixel_symmetric"};
  const size_t known_modes = ctx.version() >= 19 ? 7 : 6;
  GRAPHGC_ASSIGN_OR_RETURN(const size_t coordinates,
                           ChooseAttribute(ctx, "coordinate_transformation_mode", "half_pixel",
                                           absl::MakeConstSpan(coordinate_modes, known_modes)));
  sampling.coordinates = static_cast<CoordinateMode>(coordinates);
  GRAPHGC_ASSIGN_OR_RETURN(
      const size_t nearest,
      ChooseAttribute(ctx, "nearest_mode", "round_prefer_floor",
                      {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"}));
  sampling.nearest = static_cast<NearestMode>(nearest);
  sampling.cubic_coeff_a = ctx.float_attribute("cubic_coeff_a", -0.75f);
  sampling.exclude_outside = ctx.int_attribute("exclude_outside", 0) != 0;
  sampling.antialias = ctx.version() >= 18 && ctx.int_attribute("antialias", 0) != 0;
  if (sampling.antialias && sampling.mode == InterpolationMode::kNearest) {
    return Decline("antialias with nearest sampling (ONNX's reference refuses it)");
  }
  return sampling;
}

// The extrapolation value as one element of `dtype`, for nearest resampling; declines where the
// conversion is not exact (an integer type and a fractional or out-of-range value, bool, string).
absl::StatusOr<Tensor> ExtrapolationElement(DataType dtype, double value) {
  std::optional<Tensor> element;
  internal::DispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      if (value != std::floor(value) ||
          value < static_cast<double>(std::numeric_limits<T>::lowest()) ||
          value > static_cast<double>(std::numeric_limits<T>::max())) {
        return;
      }
    }
    element = Tensor::scalar<T>(internal::Store<T>(static_cast<internal::ComputeType<T>>(value)));
  });
  if (!element.has_value()) return Decline("an extrapolation value this type cannot hold");
  return *std::move(element);
}

bool AnyOutside(const std::vector<AxisTaps>& axes) {
  for (const AxisTaps& taps : axes) {
    if (!taps.outside.empty()) return true;
  }
  return false;
}

KernelResult Resample(const KernelContext& ctx, const Sampling& sampling,
                      std::vector<AxisExtent> extents) {
  const Tensor& x = ctx.input(0);
  const bool weighted = sampling.mode != InterpolationMode::kNearest;
  if (weighted && !IsFloatingPoint(x.dtype())) {
    return Decline("linear and cubic Resize of integers (ONNX Runtime truncates, ONNX rounds)");
  }
  if (!sampling.legacy && sampling.coordinates == CoordinateMode::kTfCropAndResize) {
    GRAPHGC_RETURN_IF_ERROR(ReadRoi(ctx, extents));
  }
  Shape out_dims;
  for (const AxisExtent& axis : extents) out_dims.push_back(axis.out);
  const std::optional<Shape>& inferred = ctx.output(0).shape;
  if (inferred.has_value()) {
    for (size_t d = 0; d < out_dims.size() && d < inferred->size(); ++d) {
      if ((*inferred)[d] >= 0 && (*inferred)[d] != out_dims[d]) {
        return Decline("inference gave other output dims");
      }
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), out_dims));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  if (x.size() == 0) return Decline("Resize of an empty input to a non-empty output");
  std::vector<AxisTaps> axes;
  bool all_identity = true;
  for (const AxisExtent& axis : extents) {
    if (resample::TapCount(sampling, axis) == 0) return Decline("an antialiasing filter that wide");
    if (!ctx.within_budget(DataType::kUint8, resample::AxisTapsBytes(sampling, axis))) {
      return absl::ResourceExhaustedError("Resize sampling tables past the value budget");
    }
    axes.push_back(resample::MakeAxisTaps(sampling, axis));
    all_identity = all_identity && axes.back().identity;
  }
  if (all_identity) {
    CopyElements(x, 0, out, 0, x.size());
    return KernelOutputs{std::move(out).freeze()};
  }
  if (!ctx.within_budget(DataType::kDouble, x.size())) {
    return absl::ResourceExhaustedError("Resize scratch past the value budget");
  }
  const double extrapolation = ctx.float_attribute("extrapolation_value", 0.0f);
  if (weighted) {
    resample::ResampleWeighted(x, axes, extrapolation, out);
  } else if (AnyOutside(axes)) {
    GRAPHGC_ASSIGN_OR_RETURN(const Tensor fill, ExtrapolationElement(x.dtype(), extrapolation));
    resample::ResampleNearest(x, axes, &fill, out);
  } else {
    resample::ResampleNearest(x, axes, nullptr, out);
  }
  return KernelOutputs{std::move(out).freeze()};
}

// Resize-11 to 19: X, roi, scales, sizes (roi and scales required but possibly empty in 11).
KernelResult ResizeKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Sampling sampling, ReadSampling(ctx, /*legacy=*/false));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<AxisExtent> extents,
                           ReadExtents(ctx, ScaleSource{.input = 2}, /*sizes_input=*/3));
  return Resample(ctx, sampling, std::move(extents));
}

// Resize-10 (scales may shrink an axis), Upsample-9 (scales >= 1): X, scales.
KernelResult LegacyResizeKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Sampling sampling, ReadSampling(ctx, /*legacy=*/true));
  const ScaleSource scales{
      .input = 1, .at_least_one = ctx.op_type() == "Upsample", .float_dims = true};
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<AxisExtent> extents,
                           ReadExtents(ctx, scales, /*sizes_input=*/-1));
  return Resample(ctx, sampling, std::move(extents));
}

// Upsample-7: the scales are an attribute.
KernelResult Upsample7Kernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Sampling sampling, ReadSampling(ctx, /*legacy=*/true));
  GRAPHGC_ASSIGN_OR_RETURN(
      std::vector<AxisExtent> extents,
      ReadExtents(ctx, ScaleSource{.input = -1, .at_least_one = true, .float_dims = true},
                  /*sizes_input=*/-1));
  return Resample(ctx, sampling, std::move(extents));
}

}  // namespace

void RegisterResizeKernels(KernelTable& table) {
  // Nearest sampling moves elements of any type; linear and cubic decline all but floating point.
  const KernelTypes legacy = {{"T", data_types::kAll}};
  table.add("", "Upsample", 7, 8, legacy, Upsample7Kernel);
  table.add("", "Upsample", 9, 9, legacy, LegacyResizeKernel);
  table.add("", "Resize", 10, 10, legacy, LegacyResizeKernel);
  // One kernel; a range per version that changed what it reads (18: antialias, axes,
  // keep_aspect_ratio_policy; 19: half_pixel_symmetric). The roi (T2) is read as any
  // floating-point type.
  const KernelTypes types = {{"T1", data_types::kAll}, {"T2", data_types::kFloatingPoint}};
  table.add("", "Resize", 11, 17, types, ResizeKernel);
  table.add("", "Resize", 18, 18, types, ResizeKernel);
  table.add("", "Resize", 19, KernelTable::kLatest, types, ResizeKernel);
}

}  // namespace graphgc::kernels
