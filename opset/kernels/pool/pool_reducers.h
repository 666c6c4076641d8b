// What a pooling window computes (average, max in ONNX Runtime's two ways, Lp norm), as the
// reducers WalkWindows drives: Begin() an accumulator, Add() each tap, End() writes the output
// element. Values are accumulated in ComputeType<T> (float for the 16-bit floats).
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_REDUCERS_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_REDUCERS_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::kernels {

// The sum over the window divided by the taps inside the input, or (count_include_pad) by the
// taps inside the input and its padding.
template <class T>
struct AverageReducer {
  using C = internal::ComputeType<T>;
  T* y;
  bool count_include_pad;

  C Begin() const { return C{0}; }
  void Add(C& sum, T v, int64_t) const { sum += internal::Load(v); }
  void End(C sum, int64_t out, int64_t taps, int64_t padded_taps) const {
    y[out] = internal::Store<T>(sum / static_cast<C>(count_include_pad ? padded_taps : taps));
  }
};
// Deduction guide: clang 14 does not deduce aggregates (AverageReducer{y, false}).
template <class T>
AverageReducer(T*, bool) -> AverageReducer<T>;

// The maximum of a window without NaN: a branch-free running maximum (a select the compiler makes
// a max instruction; random data would mispredict a branch on most taps) from the lowest value.
template <class T>
struct MaxReducer {
  using C = internal::ComputeType<T>;
  T* y;

  C Begin() const { return std::numeric_limits<C>::lowest(); }
  void Add(C& max, T v, int64_t) const {
    const C value = internal::Load(v);
    max = max < value ? value : max;
  }
  void End(C max, int64_t out, int64_t, int64_t) const { y[out] = internal::Store<T>(max); }
};
// Deduction guide: clang 14 does not deduce aggregates (MaxReducer{y}).
template <class T>
MaxReducer(T*) -> MaxReducer<T>;

// The maximum as ONNX Runtime's generic pooling loops find it, with the row-major flat index of
// its first occurrence (when `indices` is set): the first tap, then each strictly greater one. A
// NaN first tap therefore stays; later NaN taps are skipped.
template <class T>
struct FirstTapMaxReducer {
  using C = internal::ComputeType<T>;
  struct Acc {
    C max;
    int64_t index;
  };
  T* y;
  int64_t* indices;  // nullptr: no Indices output

  Acc Begin() const { return {C{}, -1}; }
  void Add(Acc& acc, T v, int64_t i) const {
    const C value = internal::Load(v);
    if (acc.index < 0 || value > acc.max) acc = {value, i};
  }
  void End(const Acc& acc, int64_t out, int64_t, int64_t) const {
    y[out] = internal::Store<T>(acc.max);
    if (indices != nullptr) indices[out] = acc.index;
  }
};

// The bits of a floating-point value above which (sign cleared) it is a NaN: an integer test
// the compiler vectorizes, where it keeps a floating-point unordered compare scalar.
template <class T>
struct NaNBits;
template <>
struct NaNBits<float> {
  using Bits = uint32_t;
  static constexpr Bits kMagnitude = 0x7fffffffu, kInfinity = 0x7f800000u;
};
template <>
struct NaNBits<double> {
  using Bits = uint64_t;
  static constexpr Bits kMagnitude = 0x7fffffffffffffffu, kInfinity = 0x7ff0000000000000u;
};
template <>
struct NaNBits<Float16> {
  using Bits = uint16_t;
  static constexpr Bits kMagnitude = 0x7fff, kInfinity = 0x7c00;
};

// Whether any of the values is a NaN (false for integer types).
template <class T>
bool AnyNaN(absl::Span<const T> values) {
  if constexpr (internal::kIsFloatingPoint<T>) {
    using Traits = NaNBits<T>;
    using Bits = typename Traits::Bits;
    static_assert(sizeof(Bits) == sizeof(T));
    int found = 0;
    for (const T& v : values) {
      Bits bits;
      std::memcpy(&bits, &v, sizeof(bits));
      found |= (bits & Traits::kMagnitude) > Traits::kInfinity;
    }
    return found != 0;
  } else {
    return false;
  }
}

// (sum of |x|^p)^(1/p) over the taps inside the input (padding adds 0).
template <class T>
struct LpReducer {
  using C = internal::ComputeType<T>;
  T* y;
  C p;

  C Begin() const { return C{0}; }
  void Add(C& sum, T v, int64_t) const {
    const C magnitude = std::abs(internal::Load(v));
    sum += p == C{2} ? magnitude * magnitude : std::pow(magnitude, p);
  }
  void End(C sum, int64_t out, int64_t, int64_t) const {
    y[out] = internal::Store<T>(p == C{2} ? std::sqrt(sum) : std::pow(sum, C{1} / p));
  }
};

// The maker RunPool takes for an Lp pool of exponent p.
inline auto LpReducerMaker(double p) {
  return [p](auto* y) {
    using T = std::remove_pointer_t<decltype(y)>;
    return LpReducer<T>{y, static_cast<internal::ComputeType<T>>(p)};
  };
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_POOL_POOL_REDUCERS_H_
