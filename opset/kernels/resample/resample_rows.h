// The walk over a resize's output rows shared by the nearest and the weighted resamplers.
//
// A "row" is the output along the innermost axis that is resized (axis L) together with the
// axes after it, which are copied unchanged (block elements per position of L). Each output row
// blends input rows: one per combination of the taps of the axes before L (the sources, with
// the product of their weights). The last axis is then resampled within the blended row.
#ifndef GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_ROWS_H_
#define GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_ROWS_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/opset/kernels/resample/axis_taps.h"

namespace graphgc::kernels::resample {

struct RowSource {
  int64_t offset;  // of the input row's first element
  double weight;
};

class ResampleRows {
 public:
  // `axes` has one entry per input dim; at least one is not an identity.
  ResampleRows(absl::Span<const int64_t> in_dims, absl::Span<const AxisTaps> axes);

  const AxisTaps& last() const { return axes_[last_axis_]; }
  int64_t block() const { return block_; }      // elements per position of the last axis
  int64_t in_row() const { return in_row_; }    // input row length
  int64_t out_row() const { return out_row_; }  // output row length
  int64_t rows() const { return rows_; }        // output rows
  // The most sources a row has.
  int64_t max_sources() const { return max_sources_; }

  // Calls f(row, sources, outside) for each output row in order; `outside`: some axis before the
  // last one samples outside the input there (tf_crop_and_resize), so the row is extrapolated.
  template <class F>
  void ForEachRow(F&& f) const {
    std::vector<int64_t> position(last_axis_, 0);
    std::vector<RowSource> sources;
    std::vector<RowSource> next;
    sources.reserve(static_cast<size_t>(max_sources_));
    next.reserve(static_cast<size_t>(max_sources_));
    for (int64_t row = 0; row < rows_; ++row) {
      sources.assign(1, RowSource{0, 1.0});
      bool outside = false;
      for (size_t k = 0; k < last_axis_; ++k) {
        const AxisTaps& taps = axes_[k];
        const size_t j = static_cast<size_t>(position[k]);
        outside = outside || (!taps.outside.empty() && taps.outside[j] != 0);
        next.clear();
        for (const RowSource& source : sources) {
          for (int t = 0; t < taps.count; ++t) {
            const size_t tap = j * static_cast<size_t>(taps.count) + static_cast<size_t>(t);
            next.push_back(
                RowSource{source.offset + taps.index[tap] * in_strides_[k],
                          taps.weight.empty() ? source.weight : source.weight * taps.weight[tap]});
          }
        }
        sources.swap(next);
      }
      f(row, absl::Span<const RowSource>(sources), outside);
      for (size_t k = last_axis_; k-- > 0;) {  // the next row
        if (++position[k] < axes_[k].out) break;
        position[k] = 0;
      }
    }
  }

 private:
  absl::Span<const AxisTaps> axes_;
  size_t last_axis_ = 0;
  std::vector<int64_t> in_strides_;
  int64_t block_ = 1;
  int64_t in_row_ = 0;
  int64_t out_row_ = 0;
  int64_t rows_ = 1;
  int64_t max_sources_ = 1;
};

}  // namespace graphgc::kernels::resample

#endif  // GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_ROWS_H_
