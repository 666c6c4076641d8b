// What a pooling window computes (average, max, max with its index, Lp norm), as the reducers
// WalkWindows drives: Begin() an accumulator, Add() each tap, End() writes the output element.
// Values are accumulated in ComputeType<T> (float for the 16-bit floats).
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_REDUCERS_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_REDUCERS_H_

#include <cmath>
#include <cstring>
#include <cstdint>
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

// Whether a replaces b as a running maximum: a larger value, or a NaN (a NaN maximum then stays
// NaN, since nothing compares greater: the maximum propagates NaN like numpy's max).
template <class C>
bool Exceeds(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    return a > b || a != a;
  } else {
    return a > b;
  }
}

// The running maximum is branch-free (a select the compiler makes a max instruction): random
// data would mispredict a branch on most taps. With kNaN a NaN tap is remembered apart and wins
// at the end; that costs as much as the maximum itself, so RunMaxPool uses it only for inputs
// that hold a NaN.
template <class T, bool kNaN>
struct MaxReducer {
  using C = internal::ComputeType<T>;
  struct Acc {
    C max;
    bool nan;
  };
  T* y;

  Acc Begin() const { return {std::numeric_limits<C>::lowest(), false}; }
  void Add(Acc& acc, T v, int64_t) const {
    const C value = internal::Load(v);
    acc.max = acc.max < value ? value : acc.max;
    if constexpr (kNaN) acc.nan |= value != value;
  }
  void End(const Acc& acc, int64_t out, int64_t, int64_t) const {
    y[out] = internal::Store<T>(acc.nan ? std::numeric_limits<C>::quiet_NaN() : acc.max);
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

// The maximum and the row-major flat index of its first occurrence.
template <class T>
struct ArgMaxReducer {
  using C = internal::ComputeType<T>;
  struct Acc {
    C max;
    int64_t index;
  };
  T* y;
  int64_t* indices;

  Acc Begin() const { return {std::numeric_limits<C>::lowest(), -1}; }
  void Add(Acc& acc, T v, int64_t i) const {
    const C value = internal::Load(v);
    if (acc.index < 0 || Exceeds(value, acc.max)) acc = {value, i};
  }
  void End(const Acc& acc, int64_t out, int64_t, int64_t) const {
    y[out] = internal::Store<T>(acc.max);
    indices[out] = acc.index;
  }
};

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
