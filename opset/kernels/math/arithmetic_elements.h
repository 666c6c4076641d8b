// The element functions of Add, Sub, Mul and Div, shared by their registered kernels
// (arithmetic.cc) and by same_shape_arithmetic.h, so that both compute with one definition.
//
// Each works on compute types (OnComputeType lifts it to stored 16-bit floats). Integer results
// wrap modulo 2^bits; integer division truncates toward zero and a zero divisor has no value
// (ONNX leaves it undefined): callers check NoIntegerZeroDivisor first. Stateless; any thread.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_ARITHMETIC_ELEMENTS_H_
#define GRAPHGC_OPSET_KERNELS_MATH_ARITHMETIC_ELEMENTS_H_

#include <type_traits>

#include "absl/status/status.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

struct AddElements {
  template <class C>
  C operator()(C a, C b) const {
    return internal::WrapAdd(a, b);
  }
};

struct SubElements {
  template <class C>
  C operator()(C a, C b) const {
    return internal::WrapSub(a, b);
  }
};

struct MulElements {
  template <class C>
  C operator()(C a, C b) const {
    return internal::WrapMul(a, b);
  }
};

struct DivElements {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) {
      if (b == C{-1}) return internal::WrapSub(C{0}, a);  // the most negative value / -1 wraps
    }
    return static_cast<C>(a / b);
  }
};

// Decline (kernel.h) when `divisor` is an integer tensor holding a zero, whose quotient ONNX leaves
// undefined; OK otherwise, floats always.
absl::Status NoIntegerZeroDivisor(const Tensor& divisor);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_ARITHMETIC_ELEMENTS_H_
