// Resampling a tensor by per-axis taps (axis_taps.h): nearest copies elements of any type;
// weighted blends them (linear, cubic) for the floating-point types, in float for the 16-bit
// ones. Positions sampled outside the input (tf_crop_and_resize) get the extrapolation value.
#ifndef GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_H_
#define GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_H_

#include "absl/types/span.h"
#include "graphgc/opset/kernels/resample/axis_taps.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::resample {

// `axes`: one per dim of `input`, at least one not an identity; `out` has the taps' out dims.
// `extrapolation`: one element of the input's type, for the outside positions (nullptr when
// there are none).
void ResampleNearest(const Tensor& input, absl::Span<const AxisTaps> axes,
                     const Tensor* extrapolation, MutableTensor& out);

// The same with weights; the input is float16, bfloat16, float or double (blended in float for
// the 16-bit types and linear float, in double for cubic).
void ResampleWeighted(const Tensor& input, absl::Span<const AxisTaps> axes, double extrapolation,
                      MutableTensor& out);

}  // namespace graphgc::kernels::resample

#endif  // GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_H_
