// What BatchNormalization and InstanceNormalization share: a tensor seen as [outer, channels,
// inner], per-channel values read from (and written to) small tensors of any floating type as
// double, each channel's mean and population variance over its outer and inner elements, and the
// per-channel affine map y = x * scale + shift applied in one contiguous loop per channel.
//
// BatchNormalization's channel is C (statistics over N and the spatial dims); InstanceNormalization
// sees [1, N * C, spatial], one channel per (n, c).
#ifndef GRAPHGC_OPSET_KERNELS_NORMALIZATION_CHANNEL_STATS_H_
#define GRAPHGC_OPSET_KERNELS_NORMALIZATION_CHANNEL_STATS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

struct ChannelLayout {
  int64_t outer = 1;
  int64_t channels = 1;
  int64_t inner = 1;
};

// The values of a floating-point tensor (float, double, float16, bfloat16) as double; declines
// other types. Counted against the value budget.
absl::StatusOr<std::vector<double>> ReadAsDoubles(const KernelContext& ctx, const Tensor& tensor);

// A tensor of `dtype` (a floating type) and `shape` holding `values`, within the value budget.
absl::StatusOr<Tensor> TensorFromDoubles(const KernelContext& ctx, DataType dtype,
                                         absl::Span<const int64_t> shape,
                                         absl::Span<const double> values);

struct Moments {
  std::vector<double> mean;
  std::vector<double> variance;  // population variance (divided by the count)
};

// Each channel's mean and variance over its outer * inner elements (two passes, in double).
template <class T>
Moments ChannelMoments(const T* x, const ChannelLayout& layout) {
  const size_t channels = static_cast<size_t>(layout.channels);
  Moments m{std::vector<double>(channels, 0.0), std::vector<double>(channels, 0.0)};
  const double count = static_cast<double>(layout.outer * layout.inner);
  for (int64_t o = 0; o < layout.outer; ++o) {
    for (size_t c = 0; c < channels; ++c) {
      const T* row = x + (o * layout.channels + static_cast<int64_t>(c)) * layout.inner;
      double sum = 0;
      for (int64_t i = 0; i < layout.inner; ++i) sum += internal::Load(row[i]);
      m.mean[c] += sum;
    }
  }
  for (double& mean : m.mean) mean /= count;
  for (int64_t o = 0; o < layout.outer; ++o) {
    for (size_t c = 0; c < channels; ++c) {
      const T* row = x + (o * layout.channels + static_cast<int64_t>(c)) * layout.inner;
      double sum = 0;
      for (int64_t i = 0; i < layout.inner; ++i) {
        const double d = static_cast<double>(internal::Load(row[i])) - m.mean[c];
        sum += d * d;
      }
      m.variance[c] += sum;
    }
  }
  for (double& variance : m.variance) variance /= count;
  return m;
}

// y = x * scale[c] + shift[c] for every element of channel c, computed in ComputeType<T>.
template <class T>
void ApplyChannelAffine(const T* x, T* y, const ChannelLayout& layout,
                        absl::Span<const double> scale, absl::Span<const double> shift) {
  using C = internal::ComputeType<T>;
  for (int64_t o = 0; o < layout.outer; ++o) {
    for (int64_t c = 0; c < layout.channels; ++c) {
      const int64_t offset = (o * layout.channels + c) * layout.inner;
      const C a = static_cast<C>(scale[static_cast<size_t>(c)]);
      const C b = static_cast<C>(shift[static_cast<size_t>(c)]);
      const T* in = x + offset;
      T* out = y + offset;
      for (int64_t i = 0; i < layout.inner; ++i) {
        out[i] = internal::Store<T>(internal::Load(in[i]) * a + b);
      }
    }
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_NORMALIZATION_CHANNEL_STATS_H_
