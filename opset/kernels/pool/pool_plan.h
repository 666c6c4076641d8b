// Where each output element of a pooling op reads the input: the geometry shared by AveragePool,
// MaxPool, LpPool and the global pools, and the loop that walks it.
//
// Inputs are [N, C, D1, ..., Dk]; every plane (n, c) pools independently. Up to three spatial
// axes are handled, a lower rank padded with leading axes of size 1 (so 1-D and 2-D run the same
// loop with trivial outer iterations). For each axis and output position the plan keeps the
// window's first tap inside the input and how many taps lie inside the input (and inside input
// plus padding, for count_include_pad), so the hot loop has no bounds tests and no divisions.
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// The window of one output position along one axis.
struct AxisWindow {
  int64_t first = 0;        // input coordinate of the first tap inside the input
  int64_t taps = 0;         // taps inside the input
  int64_t padded_taps = 0;  // taps inside the input or its explicit padding
};

struct PoolAxis {
  int64_t in = 1;                   // input extent
  int64_t dilation = 1;             // distance between taps
  std::vector<AxisWindow> windows;  // one per output position
};

inline constexpr int kPoolAxes = 3;

struct PoolPlan {
  int64_t planes = 0;                    // N * C
  std::array<PoolAxis, kPoolAxes> axes;  // (D, H, W); missing leading axes have extent 1
  Shape output_shape;

  int64_t in_plane() const { return axes[0].in * axes[1].in * axes[2].in; }
  int64_t out_plane() const {
    return static_cast<int64_t>(axes[0].windows.size() * axes[1].windows.size() *
                                axes[2].windows.size());
  }
};

// The plan of a windowed pool from the node's attributes (kernel_shape, strides, pads, auto_pad,
// dilations, ceil_mode; absent ones default as in ONNX), with the output shape ONNX's inference
// gives. Declines what it does not compute exactly: more than 3 spatial axes, a window lying
// wholly in the padding, auto_pad SAME with dilations (which ONNX Runtime rejects).
absl::StatusOr<PoolPlan> MakeWindowPlan(const KernelContext& ctx, absl::Span<const int64_t> shape);

// The plan of a global pool: one window over each whole plane (the spatial axes flattened).
PoolPlan MakeGlobalPlan(absl::Span<const int64_t> shape);

// The taps of one window along the innermost axis, from `row` (a pointer to the window's first
// tap inside the input, at flat index `index`): contiguous when the dilation is 1, so that loop
// is a plain run the compiler keeps in registers.
template <bool kContiguous, class T, class Reducer, class Acc>
inline void AddRow(const Reducer& reducer, Acc& acc, const T* row, int64_t index, int64_t taps,
                   int64_t dilation) {
  if constexpr (kContiguous) {
    if (taps == 3) {  // the most common kernel width, unrolled
      reducer.Add(acc, row[0], index);
      reducer.Add(acc, row[1], index + 1);
      reducer.Add(acc, row[2], index + 2);
      return;
    }
    for (int64_t k = 0; k < taps; ++k) reducer.Add(acc, row[k], index + k);
  } else {
    for (int64_t k = 0; k < taps; ++k) reducer.Add(acc, row[k * dilation], index + k * dilation);
  }
}

template <bool kContiguous, class T, class Reducer>
void WalkWindowsOf(const PoolPlan& plan, const T* x, Reducer& reducer) {
  const PoolAxis& ad = plan.axes[0];
  const PoolAxis& ah = plan.axes[1];
  const PoolAxis& aw = plan.axes[2];
  const int64_t dw = aw.dilation;
  const int64_t in_plane = plan.in_plane();
  // The flat offsets (within a plane) of the input rows one (d, h) window covers.
  std::vector<int64_t> rows;
  int64_t out = 0;
  for (int64_t p = 0; p < plan.planes; ++p) {
    const int64_t plane = p * in_plane;
    for (const AxisWindow& wd : ad.windows) {
      for (const AxisWindow& wh : ah.windows) {
        rows.clear();
        for (int64_t kd = 0; kd < wd.taps; ++kd) {
          for (int64_t kh = 0; kh < wh.taps; ++kh) {
            const int64_t d = wd.first + kd * ad.dilation;
            rows.push_back(plane + (d * ah.in + wh.first + kh * ah.dilation) * aw.in);
          }
        }
        const int64_t taps_dh = wd.taps * wh.taps;
        const int64_t padded_dh = wd.padded_taps * wh.padded_taps;
        for (const AxisWindow& ww : aw.windows) {
          auto acc = reducer.Begin();
          for (const int64_t row : rows) {
            const int64_t index = row + ww.first;
            AddRow<kContiguous>(reducer, acc, x + index, index, ww.taps, dw);
          }
          reducer.End(acc, out++, taps_dh * ww.taps, padded_dh * ww.padded_taps);
        }
      }
    }
  }
}

// Walks every window of the plan. For each output element it calls
//   acc = reducer.Begin();
//   reducer.Add(acc, x[i], i)  for each tap i inside the input (i: the row-major flat index)
//   reducer.End(acc, out, taps, padded_taps)  with `out` the flat output index.
template <class T, class Reducer>
void WalkWindows(const PoolPlan& plan, const T* x, Reducer& reducer) {
  if (plan.axes[2].dilation == 1) {
    WalkWindowsOf<true>(plan, x, reducer);
  } else {
    WalkWindowsOf<false>(plan, x, reducer);
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_
