// Where each output element of a pooling op reads the input: the geometry shared by AveragePool,
// MaxPool, LpPool and the global pools, and the loop that walks it.
//
// Inputs are [N, C, D1, ..., Dk] with any k >= 1; every plane (n, c) pools independently. For
// each axis and output position the plan keeps the window's first tap inside the input and how
// many taps lie inside the input (and inside input plus padding, for count_include_pad), so the
// hot loop has no bounds tests and no divisions: for each output position of the leading axes it
// lists the input rows the window covers, then runs along the innermost axis.
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_

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

struct PoolPlan {
  int64_t planes = 0;          // N * C
  std::vector<PoolAxis> axes;  // the spatial axes, outermost first (at least one)
  Shape output_shape;

  int64_t in_plane() const {
    int64_t size = 1;
    for (const PoolAxis& axis : axes) size *= axis.in;
    return size;
  }
};

// The plan of a windowed pool from the node's attributes (kernel_shape, strides, pads, auto_pad,
// dilations, ceil_mode; absent ones default as in ONNX), with the output shape ONNX's inference
// gives. Declines what it does not compute exactly: a window lying wholly in the padding, auto_pad
// SAME with dilations (which ONNX Runtime rejects).
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

// The flat input offsets of the starts of the innermost rows that the window at output position
// `at` of the leading axes covers in plane `plane`, and the products of its taps and padded taps
// along those axes.
struct LeadingWindow {
  std::vector<int64_t> rows;
  int64_t taps = 1;
  int64_t padded_taps = 1;
};

inline void CoverRows(const PoolPlan& plan, int64_t plane, absl::Span<const size_t> at,
                      LeadingWindow& window, std::vector<int64_t>& scratch) {
  window.rows.assign(1, 0);
  window.taps = window.padded_taps = 1;
  for (size_t a = 0; a < at.size(); ++a) {
    const PoolAxis& axis = plan.axes[a];
    const AxisWindow& w = axis.windows[at[a]];
    scratch.clear();
    for (const int64_t row : window.rows) {
      for (int64_t k = 0; k < w.taps; ++k) {
        scratch.push_back(row * axis.in + w.first + k * axis.dilation);
      }
    }
    window.rows.swap(scratch);
    window.taps *= w.taps;
    window.padded_taps *= w.padded_taps;
  }
  const int64_t row_length = plan.axes.back().in;
  for (int64_t& row : window.rows) row = plane + row * row_length;
}

// Advances `at` (output positions of the leading axes) in row-major order; false past the end.
inline bool NextPosition(const PoolPlan& plan, absl::Span<size_t> at) {
  for (size_t a = at.size(); a-- > 0;) {
    if (++at[a] < plan.axes[a].windows.size()) return true;
    at[a] = 0;
  }
  return false;
}

template <bool kContiguous, class T, class Reducer>
void WalkWindowsOf(const PoolPlan& plan, const T* x, Reducer& reducer) {
  const PoolAxis& inner = plan.axes.back();
  const int64_t dilation = inner.dilation;
  const int64_t in_plane = plan.in_plane();
  std::vector<size_t> at(plan.axes.size() - 1, 0);
  for (const PoolAxis& axis : plan.axes) {
    if (axis.windows.empty()) return;  // an empty output
  }
  LeadingWindow window;
  std::vector<int64_t> scratch;
  int64_t out = 0;
  for (int64_t p = 0; p < plan.planes; ++p) {
    do {
      CoverRows(plan, p * in_plane, at, window, scratch);
      const absl::Span<const int64_t> rows = window.rows;  // held in registers below
      const int64_t taps = window.taps, padded_taps = window.padded_taps;
      for (const AxisWindow& w : inner.windows) {
        auto acc = reducer.Begin();
        for (const int64_t row : rows) {
          const int64_t index = row + w.first;
          AddRow<kContiguous>(reducer, acc, x + index, index, w.taps, dilation);
        }
        reducer.End(acc, out++, taps * w.taps, padded_taps * w.padded_taps);
      }
    } while (NextPosition(plan, absl::MakeSpan(at)));
  }
}

// Walks every window of the plan. For each output element it calls
//   acc = reducer.Begin();
//   reducer.Add(acc, x[i], i)  for each tap i inside the input (i: the row-major flat index)
//   reducer.End(acc, out, taps, padded_taps)  with `out` the flat output index.
template <class T, class Reducer>
void WalkWindows(const PoolPlan& plan, const T* x, Reducer& reducer) {
  if (plan.axes.back().dilation == 1) {
    WalkWindowsOf<true>(plan, x, reducer);
  } else {
    WalkWindowsOf<false>(plan, x, reducer);
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_POOL_POOL_PLAN_H_
