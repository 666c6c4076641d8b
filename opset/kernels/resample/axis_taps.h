// Resize along one axis: where each output position samples the input (the coordinate
// transformation), and which input positions it blends with which weights (the taps).
//
//   AxisTaps taps = MakeAxisTaps(sampling, axis);   // precomputed once per axis
//   out[j] = sum_t taps.weight[j * taps.count + t] * in[taps.index[j * taps.count + t]]
//
// Resize is separable: an N-D output element is the tensor product of the axes' taps. The
// formulas are ONNX's reference (onnx/backend/test/case/node/resize.py, computed in double):
// the scale of an axis given by `sizes` is out / in, and the "output width" in align_corners,
// pytorch_half_pixel and tf_crop_and_resize is scale * in (not the integer output dim).
//
// Antialiasing (Resize-18) stretches the linear or cubic filter by 1 / scale on an axis that
// shrinks: each output position blends about 2 / scale (linear) or 4 / scale (cubic) input
// positions, with the reference's normalized weights and its window (the taps nearest the
// coordinate, inside the input padded by half the window at each end).
#ifndef GRAPHGC_OPSET_KERNELS_RESAMPLE_AXIS_TAPS_H_
#define GRAPHGC_OPSET_KERNELS_RESAMPLE_AXIS_TAPS_H_

#include <cstdint>
#include <vector>

namespace graphgc::kernels::resample {

enum class CoordinateMode {  // as listed to ChooseAttribute
  kHalfPixel,
  kAsymmetric,
  kPytorchHalfPixel,
  kTfHalfPixelForNn,
  kAlignCorners,
  kTfCropAndResize,
  kHalfPixelSymmetric,  // Resize-19
};

enum class InterpolationMode { kNearest, kLinear, kCubic };  // as listed to ChooseAttribute

enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };  // as listed

// How every axis is sampled (the node's attributes).
struct Sampling {
  InterpolationMode mode = InterpolationMode::kNearest;
  CoordinateMode coordinates = CoordinateMode::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;  // Resize-18; linear and cubic only
  // Resize-10 and Upsample, which ONNX's reference leaves undefined, as ONNX Runtime computes
  // them: asymmetric coordinates computed in float; nearest takes the floor on an axis that
  // grows and the ceiling on one that shrinks.
  bool legacy = false;
};

// One axis: its input and output extents, its scale, and its roi (tf_crop_and_resize only).
struct AxisExtent {
  int64_t in = 0;
  int64_t out = 0;
  double scale = 1.0;
  double roi_start = 0.0;
  double roi_end = 1.0;
};

struct AxisTaps {
  int64_t out = 0;
  int count = 1;               // taps per output position (more than 4 only when antialiased)
  std::vector<int64_t> index;  // out * count input positions, clamped into [0, in)
  std::vector<double> weight;  // out * count weights; empty when count is 1 (weight 1)
  // Per output position: sampled outside the input (tf_crop_and_resize), so the output is the
  // extrapolation value. Empty when no position is.
  std::vector<uint8_t> outside;
  // Output position j copies input position j exactly (an axis the resize leaves alone).
  bool identity = false;
};

// The taps a position of `extent` blends: 1 (nearest), 2 (linear), 4 (cubic), or the widened
// antialiasing filter's count (at most kMaxTaps: a scale that would need more has no taps, 0).
int TapCount(const Sampling& sampling, const AxisExtent& extent);
inline constexpr int kMaxTaps = 1 << 16;

// Bytes MakeAxisTaps needs for `extent` (to check against the value budget first); TapCount must
// be positive.
int64_t AxisTapsBytes(const Sampling& sampling, const AxisExtent& extent);

AxisTaps MakeAxisTaps(const Sampling& sampling, const AxisExtent& extent);

}  // namespace graphgc::kernels::resample

#endif  // GRAPHGC_OPSET_KERNELS_RESAMPLE_AXIS_TAPS_H_
