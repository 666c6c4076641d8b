#include "graphgc/opset/kernels/resample/resample.h"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/resample/resample_rows.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels::resample {
namespace {

using internal::ComputeType;

// Overwrites the last axis's outside positions of one output row with `fill`.
template <class T>
void FillOutside(const AxisTaps& last, int64_t block, const T& fill, T* out) {
  for (size_t j = 0; j < last.outside.size(); ++j) {
    if (last.outside[j] != 0) std::fill_n(out + static_cast<int64_t>(j) * block, block, fill);
  }
}

// out[j * block + b] = sum_t weight[j, t] * row[index[j, t] * block + b], K taps a position.
template <int K, class T, class C>
void BlendLastAxis(const C* row, const int64_t* index, const C* weight, int64_t count,
                   int64_t block, T* out) {
  if (block == 1) {
    for (int64_t j = 0; j < count; ++j) {
      C sum = 0;
      for (int t = 0; t < K; ++t) sum += weight[j * K + t] * row[index[j * K + t]];
      out[j] = internal::Store<T>(sum);
    }
    return;
  }
  for (int64_t j = 0; j < count; ++j, out += block) {
    const C* taps[K];
    C w[K];
    for (int t = 0; t < K; ++t) {
      taps[t] = row + index[j * K + t] * block;
      w[t] = weight[j * K + t];
    }
    for (int64_t b = 0; b < block; ++b) {
      C sum = 0;
      for (int t = 0; t < K; ++t) sum += w[t] * taps[t][b];
      out[b] = internal::Store<T>(sum);
    }
  }
}

// The same for any number of taps (the antialiasing filter's).
template <class T, class C>
void BlendLastAxisOfAnyWidth(const C* row, const int64_t* index, const C* weight, int taps,
                             int64_t count, int64_t block, T* out) {
  for (int64_t j = 0; j < count; ++j, out += block) {
    const int64_t* tap_index = index + j * taps;
    const C* tap_weight = weight + j * taps;
    for (int64_t b = 0; b < block; ++b) {
      C sum = 0;
      for (int t = 0; t < taps; ++t) sum += tap_weight[t] * row[tap_index[t] * block + b];
      out[b] = internal::Store<T>(sum);
    }
  }
}

// C: the type the blend is computed in.
template <class T, class C>
void Weighted(const Tensor& input, absl::Span<const AxisTaps> axes, double extrapolation,
              MutableTensor& out) {
  const ResampleRows rows(input.shape(), axes);
  const AxisTaps& last = rows.last();
  const std::vector<C> last_weights(last.weight.begin(), last.weight.end());
  const T* in = input.data<T>().data();
  T* dst = out.mutable_data<T>().data();
  const T fill = internal::Store<T>(static_cast<C>(extrapolation));
  std::vector<C> blended(static_cast<size_t>(rows.in_row()));
  rows.ForEachRow([&](int64_t row, absl::Span<const RowSource> sources, bool outside) {
    T* o = dst + row * rows.out_row();
    if (outside) {
      std::fill_n(o, rows.out_row(), fill);
      return;
    }
    const C* source_row = blended.data();
    if constexpr (std::is_same_v<T, C>) {  // a lone input row is read where it is
      if (sources.size() == 1 && sources[0].weight == 1.0) source_row = in + sources[0].offset;
    }
    if (source_row == blended.data()) {
      const int64_t n = rows.in_row();
      C* acc = blended.data();
      const T* first = in + sources[0].offset;
      const C w0 = static_cast<C>(sources[0].weight);
      size_t next = 1;
      if (sources.size() >= 2) {  // the common linear case: two rows blended in one pass
        const T* second = in + sources[1].offset;
        const C w1 = static_cast<C>(sources[1].weight);
        for (int64_t i = 0; i < n; ++i) {
          acc[i] = w0 * internal::Load<T>(first[i]) + w1 * internal::Load<T>(second[i]);
        }
        next = 2;
      } else {
        for (int64_t i = 0; i < n; ++i) acc[i] = w0 * internal::Load<T>(first[i]);
      }
      for (size_t s = next; s < sources.size(); ++s) {
        const T* src = in + sources[s].offset;
        const C w = static_cast<C>(sources[s].weight);
        for (int64_t i = 0; i < n; ++i) acc[i] += w * internal::Load<T>(src[i]);
      }
    }
    if (last.count == 2) {
      BlendLastAxis<2>(source_row, last.index.data(), last_weights.data(), last.out, rows.block(),
                       o);
    } else if (last.count == 4) {
      BlendLastAxis<4>(source_row, last.index.data(), last_weights.data(), last.out, rows.block(),
                       o);
    } else {
      BlendLastAxisOfAnyWidth(source_row, last.index.data(), last_weights.data(), last.count,
                              last.out, rows.block(), o);
    }
    FillOutside(last, rows.block(), fill, o);
  });
}

}  // namespace

void ResampleNearest(const Tensor& input, absl::Span<const AxisTaps> axes,
                     const Tensor* extrapolation, MutableTensor& out) {
  const ResampleRows rows(input.shape(), axes);
  const AxisTaps& last = rows.last();
  const int64_t block = rows.block();
  DispatchByElementSize(input.dtype(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* in = ElementsOf<W>(input);
    W* dst = MutableElementsOf<W>(out);
    const W fill = extrapolation == nullptr ? W{} : ElementsOf<W>(*extrapolation)[0];
    rows.ForEachRow([&](int64_t row, absl::Span<const RowSource> sources, bool outside) {
      W* o = dst + row * rows.out_row();
      if (outside) {
        std::fill_n(o, rows.out_row(), fill);
        return;
      }
      const W* src = in + sources[0].offset;
      if (block == 1) {
        for (int64_t j = 0; j < last.out; ++j) o[j] = src[last.index[static_cast<size_t>(j)]];
      } else {
        for (int64_t j = 0; j < last.out; ++j) {
          std::copy_n(src + last.index[static_cast<size_t>(j)] * block, block, o + j * block);
        }
      }
      FillOutside(last, block, fill, o);
    });
  });
}

void ResampleWeighted(const Tensor& input, absl::Span<const AxisTaps> axes, double extrapolation,
                      MutableTensor& out) {
  // Linear weights are convex: float keeps float's precision. Cubic weights are not: cancellation
  // between large values would lose it, so cubic blends in double, as do the antialiasing filters
  // (their many taps add up rounding).
  bool cubic = false;
  for (const AxisTaps& axis : axes) cubic = cubic || (!axis.identity && axis.count > 2);
  internal::TypeList<float, double, Float16, BFloat16>::Dispatch(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (cubic) {
      Weighted<T, double>(input, axes, extrapolation, out);
    } else {
      Weighted<T, ComputeType<T>>(input, axes, extrapolation, out);
    }
  });
}

}  // namespace graphgc::kernels::resample
