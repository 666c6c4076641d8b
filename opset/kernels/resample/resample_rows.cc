#include "graphgc/opset/kernels/resample/resample_rows.h"

namespace graphgc::kernels::resample {

ResampleRows::ResampleRows(absl::Span<const int64_t> in_dims, absl::Span<const AxisTaps> axes)
    : axes_(axes), in_strides_(in_dims.size(), 1) {
  for (size_t k = 0; k < axes.size(); ++k) {
    if (!axes[k].identity) last_axis_ = k;
  }
  for (size_t k = in_dims.size(); k-- > 0;) {
    if (k + 1 < in_dims.size()) in_strides_[k] = in_strides_[k + 1] * in_dims[k + 1];
  }
  block_ = in_strides_[last_axis_];
  in_row_ = in_dims[last_axis_] * block_;
  out_row_ = axes[last_axis_].out * block_;
  for (size_t k = 0; k < last_axis_; ++k) {
    rows_ *= axes[k].out;
    max_sources_ *= axes[k].count;
  }
}

}  // namespace graphgc::kernels::resample
