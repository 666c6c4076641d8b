// Numerically stable softmax and log-softmax along one axis, shared by Softmax/LogSoftmax and
// SoftmaxCrossEntropyLoss. Values are read as T and computed in ComputeType<T> (float for the
// 16-bit floats); results are written in the compute type, so a caller with 16-bit outputs
// rounds them once.
//
// Every lane is shifted by its max before exp, so large inputs cannot overflow. The max folds like
// std::max from the lane's first element (as ONNX Runtime), and any NaN in the lane reaches every
// output through the sum. The functions return false when a lane's sum is NaN (the lane holds NaN
// or +inf): there ONNX Runtime's double LogSoftmax clamps the sum and gives finite values while
// its float kernel gives NaN, so LogSoftmax declines.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/reduction/fold.h"

namespace graphgc::kernels {

enum class SoftmaxKind { kSoftmax, kLogSoftmax };

// m[i] = the max of lane i of the block [extent, inner], extent >= 1.
template <class T>
void MaxOfLanes(const T* x, int64_t extent, int64_t inner, internal::ComputeType<T>* m) {
  for (int64_t i = 0; i < inner; ++i) m[i] = internal::Load(x[i]);
  for (int64_t e = 1; e < extent; ++e) {
    const T* row = x + e * inner;
    for (int64_t i = 0; i < inner; ++i) m[i] = std::max(m[i], internal::Load(row[i]));
  }
}

// One contiguous lane of n elements (the axis is the innermost one).
template <class T, class C = internal::ComputeType<T>>
bool SoftmaxLane(const T* x, C* __restrict y, int64_t n, SoftmaxKind kind) {
  if (n == 0) return true;
  const C m = FoldRun(x, n, C(internal::Load(x[0])), 0, AsIs<C>{}, Larger{});
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(internal::Load(x[i]) - m);
  const C sum = FoldRun(y, n, C{0}, 0, AsIs<C>{}, Add{});
  if (kind == SoftmaxKind::kSoftmax) {
    const C scale = C{1} / sum;
    for (int64_t i = 0; i < n; ++i) y[i] *= scale;
  } else {
    const C log_sum = std::log(sum);
    for (int64_t i = 0; i < n; ++i) y[i] = (internal::Load(x[i]) - m) - log_sum;
  }
  return !std::isnan(sum);
}

// The inner lanes of one block [extent, inner] at once, row by row. `scratch` holds 2 * inner.
template <class T, class C = internal::ComputeType<T>>
bool SoftmaxLanes(const T* x, C* __restrict y, int64_t extent, int64_t inner, SoftmaxKind kind,
                  C* scratch) {
  if (extent == 0) return true;
  C* m = scratch;
  C* sum = scratch + inner;
  MaxOfLanes(x, extent, inner, m);
  std::fill(sum, sum + inner, C{0});
  for (int64_t e = 0; e < extent; ++e) {
    const T* row = x + e * inner;
    C* out = y + e * inner;
    for (int64_t i = 0; i < inner; ++i) {
      const C v = std::exp(internal::Load(row[i]) - m[i]);
      sum[i] += v;
      out[i] = v;
    }
  }
  const bool sums_are_numbers = std::none_of(sum, sum + inner, [](C s) { return std::isnan(s); });
  if (kind == SoftmaxKind::kSoftmax) {
    for (int64_t i = 0; i < inner; ++i) sum[i] = C{1} / sum[i];
    for (int64_t e = 0; e < extent; ++e) {
      for (int64_t i = 0; i < inner; ++i) y[e * inner + i] *= sum[i];
    }
    return sums_are_numbers;
  }
  for (int64_t i = 0; i < inner; ++i) sum[i] = std::log(sum[i]);
  for (int64_t e = 0; e < extent; ++e) {
    const T* row = x + e * inner;
    for (int64_t i = 0; i < inner; ++i) {
      y[e * inner + i] = (internal::Load(row[i]) - m[i]) - sum[i];
    }
  }
  return sums_are_numbers;
}

// Either of the above for one block; scratch holds 2 * inner when inner > 1.
template <class T, class C = internal::ComputeType<T>>
bool SoftmaxBlock(const T* x, C* y, int64_t extent, int64_t inner, SoftmaxKind kind, C* scratch) {
  return inner == 1 ? SoftmaxLane(x, y, extent, kind)
                    : SoftmaxLanes(x, y, extent, inner, kind, scratch);
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_
