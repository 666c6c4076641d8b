// Numerically stable softmax and log-softmax along one axis, shared by Softmax/LogSoftmax and
// SoftmaxCrossEntropyLoss. Values are read as T and computed in ComputeType<T> (float for the
// 16-bit floats); results are written in the compute type, so a caller with 16-bit outputs
// rounds them once.
//
// Every lane is shifted by its max before exp, so large inputs cannot overflow. The max folds like
// std::max from the lane's first element (as ONNX Runtime), and any NaN in the lane reaches every
// output through the sum.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::kernels {

enum class SoftmaxKind { kSoftmax, kLogSoftmax };

// The max of x[0..n), n >= 1.
template <class T>
internal::ComputeType<T> MaxOfLane(const T* x, int64_t n) {
  internal::ComputeType<T> m = internal::Load(x[0]);
  for (int64_t i = 1; i < n; ++i) m = std::max(m, internal::Load(x[i]));
  return m;
}

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
void SoftmaxLane(const T* x, C* __restrict y, int64_t n, SoftmaxKind kind) {
  if (n == 0) return;
  const C m = MaxOfLane(x, n);
  C sum = 0;
  if (kind == SoftmaxKind::kSoftmax) {
    for (int64_t i = 0; i < n; ++i) sum += (y[i] = std::exp(internal::Load(x[i]) - m));
    const C scale = C{1} / sum;
    for (int64_t i = 0; i < n; ++i) y[i] *= scale;
    return;
  }
  for (int64_t i = 0; i < n; ++i) sum += std::exp(internal::Load(x[i]) - m);
  const C log_sum = std::log(sum);
  for (int64_t i = 0; i < n; ++i) y[i] = (internal::Load(x[i]) - m) - log_sum;
}

// The inner lanes of one block [extent, inner] at once, row by row. `scratch` holds 2 * inner.
template <class T, class C = internal::ComputeType<T>>
void SoftmaxLanes(const T* x, C* __restrict y, int64_t extent, int64_t inner, SoftmaxKind kind,
                  C* scratch) {
  if (extent == 0) return;
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
  if (kind == SoftmaxKind::kSoftmax) {
    for (int64_t i = 0; i < inner; ++i) sum[i] = C{1} / sum[i];
    for (int64_t e = 0; e < extent; ++e) {
      for (int64_t i = 0; i < inner; ++i) y[e * inner + i] *= sum[i];
    }
    return;
  }
  for (int64_t i = 0; i < inner; ++i) sum[i] = std::log(sum[i]);
  for (int64_t e = 0; e < extent; ++e) {
    const T* row = x + e * inner;
    for (int64_t i = 0; i < inner; ++i) {
      y[e * inner + i] = (internal::Load(row[i]) - m[i]) - sum[i];
    }
  }
}

// Either of the above for one block; scratch holds 2 * inner when inner > 1.
template <class T, class C = internal::ComputeType<T>>
void SoftmaxBlock(const T* x, C* y, int64_t extent, int64_t inner, SoftmaxKind kind, C* scratch) {
  if (inner == 1) {
    SoftmaxLane(x, y, extent, kind);
  } else {
    SoftmaxLanes(x, y, extent, inner, kind, scratch);
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_SOFTMAX_CORE_H_
