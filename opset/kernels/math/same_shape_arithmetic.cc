#include "graphgc/opset/kernels/math/same_shape_arithmetic.h"

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/arithmetic_elements.h"
#include "graphgc/opset/kernels/math/elementwise.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::kernels {
namespace {

template <class F>
void Compute(const F& f, const Tensor& a, const Tensor& b, MutableTensor& out) {
  const bool dispatched = internal::DispatchNumeric(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto g = OnComputeType<T>(f);
    T* result = out.mutable_data<T>().data();
    const T* x = a.data<T>().data();
    const T* y = b.data<T>().data();
    if (x == y) {
      // f(x, x): one stream of loads, as BroadcastElements does for one operand twice.
      MapRow<true>(
          result, out.size(), [&g](T element) { return g(element, element); }, x);
    } else {
      MapRow<true, true>(result, out.size(), g, x, y);
    }
  });
  GRAPHGC_CHECK(dispatched, "ComputeArithmetic of a non-numeric element type");
}

}  // namespace

std::optional<Arithmetic> ArithmeticOf(absl::string_view op_type) {
  if (op_type.size() != 3) return std::nullopt;
  switch (op_type[0]) {  // one comparison per call: this runs for every Add, Sub, Mul and Div
    case 'A':
      if (op_type == "Add") return Arithmetic::kAdd;
      break;
    case 'S':
      if (op_type == "Sub") return Arithmetic::kSub;
      break;
    case 'M':
      if (op_type == "Mul") return Arithmetic::kMul;
      break;
    case 'D':
      if (op_type == "Div") return Arithmetic::kDiv;
      break;
  }
  return std::nullopt;
}

bool ArithmeticHasValue(Arithmetic op, const Tensor& divisor) {
  return op != Arithmetic::kDiv || !HasIntegerZero(divisor);
}

void ComputeArithmetic(Arithmetic op, const Tensor& a, const Tensor& b, MutableTensor& out) {
  GRAPHGC_CHECK(a.dtype() == b.dtype() && a.dtype() == out.dtype() && a.shape() == b.shape() &&
                    a.shape() == out.shape(),
                "ComputeArithmetic of operands of different types or shapes");
  switch (op) {
    case Arithmetic::kAdd:
      return Compute(AddElements{}, a, b, out);
    case Arithmetic::kSub:
      return Compute(SubElements{}, a, b, out);
    case Arithmetic::kMul:
      return Compute(MulElements{}, a, b, out);
    case Arithmetic::kDiv:
      GRAPHGC_CHECK(ArithmeticHasValue(op, b), "ComputeArithmetic of an integer division by zero");
      return Compute(DivElements{}, a, b, out);
  }
}

}  // namespace graphgc::kernels
