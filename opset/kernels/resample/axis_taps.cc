#include "graphgc/opset/kernels/resample/axis_taps.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace graphgc::kernels::resample {
namespace {

// ONNX's transformation of output position x into an input coordinate, as its reference computes
// it (but for pytorch_half_pixel to a single sample, below).
double OriginalCoordinate(const Sampling& sampling, const AxisExtent& axis, int64_t x) {
  if (sampling.legacy) {
    return static_cast<double>(static_cast<float>(x) / static_cast<float>(axis.scale));
  }
  const double in = static_cast<double>(axis.in);
  const double position = static_cast<double>(x);
  const double width = axis.scale * in;  // the reference's "output_width", a real number
  switch (sampling.coordinates) {
    case CoordinateMode::kHalfPixel:
      return (position + 0.5) / axis.scale - 0.5;
    case CoordinateMode::kPytorchHalfPixel:
      // An output of one sample takes the input's first, as ONNX's text and ONNX Runtime say
      // (the 1.12 reference samples at -0.5, which only cubic can tell apart).
      return axis.out == 1 ? 0.0 : (position + 0.5) / axis.scale - 0.5;
    case CoordinateMode::kAlignCorners:
      return width == 1.0 ? 0.0 : position * (in - 1) / (width - 1);
    case CoordinateMode::kAsymmetric:
      return position / axis.scale;
    case CoordinateMode::kTfHalfPixelForNn:
      return (position + 0.5) / axis.scale;
    case CoordinateMode::kTfCropAndResize: {
      const double span = axis.roi_end - axis.roi_start;
      const double x_ori =
          width == 1.0 ? span * (in - 1) / 2 : position * span * (in - 1) / (width - 1);
      return x_ori + axis.roi_start * (in - 1);
    }
    case CoordinateMode::kHalfPixelSymmetric: {
      // The implicit roi's center maps to the output's: differs from half_pixel only when the
      // integer output dim is not scale * in.
      const double adjustment = static_cast<double>(axis.out) / width;
      const double offset = in / 2 * (1 - adjustment);
      return offset + (position + 0.5) / axis.scale - 0.5;
    }
  }
  return 0.0;
}

// The input position nearest to `x_ori` by the sampling's rounding rule.
int64_t NearestIndex(const Sampling& sampling, const AxisExtent& axis, double x_ori) {
  const double lower = std::floor(x_ori);
  if (sampling.legacy) return static_cast<int64_t>(axis.scale < 1.0 ? std::ceil(x_ori) : lower);
  if (x_ori == lower) return static_cast<int64_t>(lower);
  const double ratio = x_ori - lower;
  bool up = false;
  switch (sampling.nearest) {
    case NearestMode::kRoundPreferFloor:
      up = ratio > 0.5;
      break;
    case NearestMode::kRoundPreferCeil:
      up = ratio >= 0.5;
      break;
    case NearestMode::kFloor:
      up = false;
      break;
    case NearestMode::kCeil:
      up = true;
      break;
  }
  return static_cast<int64_t>(lower) + (up ? 1 : 0);
}

// Keys' cubic convolution weights of the taps at floor(x) - 1 .. floor(x) + 2, for
// ratio = x - floor(x) in [0, 1).
std::array<double, 4> CubicWeights(double ratio, double a) {
  const double r0 = ratio + 1;
  const double r3 = (1 - ratio) + 1;
  return {((a * r0 - 5 * a) * r0 + 8 * a) * r0 - 4 * a,
          ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1,
          ((a + 2) * (1 - ratio) - (a + 3)) * (1 - ratio) * (1 - ratio) + 1,
          ((a * r3 - 5 * a) * r3 + 8 * a) * r3 - 4 * a};
}

bool Antialiased(const Sampling& sampling, const AxisExtent& axis) {
  return sampling.antialias && sampling.mode != InterpolationMode::kNearest && axis.scale < 1.0;
}

// The antialiasing filter's first tap relative to the position below the coordinate: the filter
// (support 1 for linear, 2 for cubic) stretched by 1 / scale; its window is 2 - 2 * start wide.
double AntialiasStart(const Sampling& sampling, double scale) {
  const double support = sampling.mode == InterpolationMode::kCubic ? 2.0 : 1.0;
  return std::floor(-support / scale) + 1;
}

// Keys' cubic kernel at distance x.
double Keys(double x, double a) {
  x = std::abs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0.0;
}

// Fills output position j's taps of the widened filter around `x_ori`, as ONNX's reference: the
// coordinate's ratio is taken in (0, 1] above the tap `base` = ceil(x_ori) - 1, the weights are
// normalized, and the window is the taps nearest the coordinate within [-pad, in + pad).
void FillAntialiasTaps(const Sampling& sampling, const AxisExtent& axis, double x_ori, int64_t j,
                       AxisTaps& taps) {
  const int n = taps.count;
  const size_t first_tap = static_cast<size_t>(j) * static_cast<size_t>(n);
  const double ceiling = std::ceil(x_ori);
  const double ratio = x_ori - (ceiling - 1);
  const double start = AntialiasStart(sampling, axis.scale);
  double sum = 0;
  for (int t = 0; t < n; ++t) {
    const double distance = (start + t - ratio) * axis.scale;
    const double w = sampling.mode == InterpolationMode::kCubic
                         ? Keys(distance, sampling.cubic_coeff_a)
                         : std::clamp(1 - std::abs(distance), 0.0, 1.0);
    taps.weight[first_tap + static_cast<size_t>(t)] = w;
    sum += w;
  }
  const int64_t pad = n / 2;
  const double lowest = static_cast<double>(-pad);
  const double highest = static_cast<double>(axis.in + pad - n);
  const auto window = static_cast<int64_t>(std::clamp(ceiling - 1 + start, lowest, highest));
  double kept = 0;
  for (int t = 0; t < n; ++t) {
    const size_t tap = first_tap + static_cast<size_t>(t);
    const int64_t i = window + t;
    taps.weight[tap] /= sum;
    if (sampling.exclude_outside && (i < 0 || i >= axis.in)) taps.weight[tap] = 0;
    kept += taps.weight[tap];
    taps.index[tap] = std::clamp<int64_t>(i, 0, axis.in - 1);
  }
  if (sampling.exclude_outside) {
    for (int t = 0; t < n; ++t) taps.weight[first_tap + static_cast<size_t>(t)] /= kept;
  }
}

// Fills output position j's taps around coordinate `x_ori` (finite, within a few positions of
// the input).
void FillTaps(const Sampling& sampling, const AxisExtent& axis, double x_ori, int64_t j,
              AxisTaps& taps) {
  if (Antialiased(sampling, axis)) return FillAntialiasTaps(sampling, axis, x_ori, j, taps);
  const size_t first = static_cast<size_t>(j) * static_cast<size_t>(taps.count);
  const auto clamp = [&](int64_t i) { return std::clamp<int64_t>(i, 0, axis.in - 1); };
  if (sampling.mode == InterpolationMode::kNearest) {
    taps.index[first] = clamp(NearestIndex(sampling, axis, x_ori));
    return;
  }
  const double lower = std::floor(x_ori);
  const double ratio = x_ori - lower;
  const int64_t base = static_cast<int64_t>(lower);
  if (sampling.mode == InterpolationMode::kLinear) {
    taps.index[first] = clamp(base);
    taps.index[first + 1] = clamp(base + 1);
    taps.weight[first] = 1 - ratio;
    taps.weight[first + 1] = ratio;
    return;
  }
  std::array<double, 4> weights = CubicWeights(ratio, sampling.cubic_coeff_a);
  double sum = 0;
  for (int t = 0; t < 4; ++t) {
    const int64_t i = base - 1 + t;
    if (sampling.exclude_outside && (i < 0 || i >= axis.in)) weights[t] = 0;
    sum += weights[t];
    taps.index[first + t] = clamp(i);
  }
  for (int t = 0; t < 4; ++t) {
    taps.weight[first + t] = sampling.exclude_outside ? weights[t] / sum : weights[t];
  }
}

}  // namespace

int TapCount(const Sampling& sampling, const AxisExtent& extent) {
  if (Antialiased(sampling, extent)) {
    const double start = AntialiasStart(sampling, extent.scale);
    return 2 - 2 * start > kMaxTaps ? 0 : static_cast<int>(2 - 2 * start);
  }
  switch (sampling.mode) {
    case InterpolationMode::kNearest:
      return 1;
    case InterpolationMode::kLinear:
      return 2;
    case InterpolationMode::kCubic:
      return 4;
  }
  return 1;
}

int64_t AxisTapsBytes(const Sampling& sampling, const AxisExtent& extent) {
  const int64_t count = TapCount(sampling, extent);
  return extent.out * (count * static_cast<int64_t>(sizeof(int64_t) + sizeof(double)) + 1);
}

AxisTaps MakeAxisTaps(const Sampling& sampling, const AxisExtent& extent) {
  AxisTaps taps;
  taps.out = extent.out;
  std::vector<double> coordinates(static_cast<size_t>(extent.out));
  bool identity = extent.out == extent.in;
  bool any_outside = false;
  for (int64_t j = 0; j < extent.out; ++j) {
    const double x_ori = OriginalCoordinate(sampling, extent, j);
    coordinates[static_cast<size_t>(j)] = x_ori;
    identity = identity && x_ori == static_cast<double>(j);
    any_outside = any_outside || !(x_ori >= 0 && x_ori <= static_cast<double>(extent.in - 1));
  }
  const bool crop = !sampling.legacy && sampling.coordinates == CoordinateMode::kTfCropAndResize;
  // An axis the node does not resize is left alone, as ONNX Runtime and ONNX's later reference do
  // (the 1.12 reference shifted it by half a pixel under tf_half_pixel_for_nn).
  identity = identity || (extent.scale == 1.0 && extent.out == extent.in &&
                          (!crop || (extent.roi_start == 0.0 && extent.roi_end == 1.0)));
  if (identity) {
    taps.identity = true;
    taps.index.resize(static_cast<size_t>(extent.out));
    for (int64_t j = 0; j < extent.out; ++j) taps.index[static_cast<size_t>(j)] = j;
    return taps;
  }
  taps.count = TapCount(sampling, extent);
  const size_t entries = static_cast<size_t>(extent.out) * static_cast<size_t>(taps.count);
  taps.index.assign(entries, 0);
  if (taps.count > 1) taps.weight.assign(entries, 0.0);
  if (crop && any_outside) taps.outside.assign(static_cast<size_t>(extent.out), 0);
  // Far outside the input every tap is clamped to an edge, so bounding the coordinate changes
  // nothing and keeps the conversions to integers defined (NaN lands on the lower bound).
  const double low = -4.0;
  const double high = static_cast<double>(extent.in) + 4.0;
  for (int64_t j = 0; j < extent.out; ++j) {
    const double x_ori = coordinates[static_cast<size_t>(j)];
    if (!taps.outside.empty() && !(x_ori >= 0 && x_ori <= static_cast<double>(extent.in - 1))) {
      taps.outside[static_cast<size_t>(j)] = 1;
      continue;
    }
    FillTaps(sampling, extent, std::isnan(x_ori) ? low : std::clamp(x_ori, low, high), j, taps);
  }
  return taps;
}

}  // namespace graphgc::kernels::resample
