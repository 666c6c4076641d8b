// The element maps and folds the reductions share, and FoldRun: one contiguous run folded through
// independent accumulators, so that the fold's latency chain does not bound the loop (and the
// compiler can keep the accumulators in vector registers).
//
// A map turns an element (already Load()ed to its compute type) into the accumulator type A,
// given the offset of the output it folds into: map(value, output_offset). A fold combines:
// combine(accumulated, mapped), and names its neutral start for an extra accumulator.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_FOLD_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_FOLD_H_

#include <cmath>
#include <cstdint>

#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::kernels {

// --- Maps
// ------------------------------------------------------------------------------------------

template <class A>
struct AsIs {
  template <class V>
  A operator()(V v, int64_t) const {
    return static_cast<A>(v);
  }
};

template <class A>
struct Magnitude {
  template <class V>
  A operator()(V v, int64_t) const {
    return std::abs(static_cast<A>(v));
  }
};

template <class A>
struct Squared {
  template <class V>
  A operator()(V v, int64_t) const {
    const A a = static_cast<A>(v);
    return a * a;
  }
};

// --- Folds
// -----------------------------------------------------------------------------------------

struct Add {
  template <class A>
  A operator()(A acc, A v) const {
    return acc + v;
  }
  template <class A>
  static A Neutral(A) {
    return A{0};
  }
};

struct Multiply {
  template <class A>
  A operator()(A acc, A v) const {
    return acc * v;
  }
  template <class A>
  static A Neutral(A) {
    return A{1};
  }
};

// std::max: an accumulated NaN stays, a new NaN is passed over (as ONNX Runtime). Idempotent, so
// extra accumulators start from the run's start value: a NaN start then reaches every one.
struct Larger {
  template <class A>
  A operator()(A acc, A v) const {
    return acc < v ? v : acc;
  }
  template <class A>
  static A Neutral(A start) {
    return start;
  }
};

struct Smaller {
  template <class A>
  A operator()(A acc, A v) const {
    return v < acc ? v : acc;
  }
  template <class A>
  static A Neutral(A start) {
    return start;
  }
};

// combine(...combine(start, map(x[0])), ..., map(x[length - 1])) over a contiguous run, up to
// the order of an associative fold (floating-point sums round differently from one sequential
// chain, as in any vectorized runtime).
template <class A, class T, class Map, class Combine>
A FoldRun(const T* x, int64_t length, A start, int64_t out, Map map, Combine combine) {
  constexpr int kLanes = 8;
  int64_t i = 0;
  A result = start;
  if (length >= 2 * kLanes) {
    A lanes[kLanes];
    lanes[0] = start;
    for (int k = 1; k < kLanes; ++k) lanes[k] = Combine::Neutral(start);
    for (; i + kLanes <= length; i += kLanes) {
      for (int k = 0; k < kLanes; ++k) {
        lanes[k] = combine(lanes[k], map(internal::Load(x[i + k]), out));
      }
    }
    result = lanes[0];
    for (int k = 1; k < kLanes; ++k) result = combine(result, lanes[k]);
  }
  for (; i < length; ++i) result = combine(result, map(internal::Load(x[i]), out));
  return result;
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_FOLD_H_
