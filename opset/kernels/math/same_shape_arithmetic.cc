#include "graphgc/opset/kernels/math/same_shape_arithmetic.h"

#include "absl/status/status.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/math/arithmetic_elements.h"
#include "graphgc/opset/kernels/math/elementwise.h"
#include "graphgc/valuestore/check.h"
#include "graphgc/valuestore/status_macros.h"

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

absl::Status ComputeArithmetic(Arithmetic op, const Tensor& a, const Tensor& b,
                               std::optional<Tensor>& out) {
  GRAPHGC_CHECK(a.dtype() == b.dtype() && a.shape() == b.shape(),
                "ComputeArithmetic of operands of different types or shapes");
  if (op == Arithmetic::kDiv) {
    GRAPHGC_RETURN_IF_ERROR(NoIntegerZeroDivisor(b));  // before anything is allocated
  }
  absl::StatusOr<MutableTensor> result = MutableTensor::allocate(a.dtype(), a.shape());
  if (!result.ok()) return absl::ResourceExhaustedError(result.status().message());
  switch (op) {
    case Arithmetic::kAdd:
      Compute(AddElements{}, a, b, *result);
      break;
    case Arithmetic::kSub:
      Compute(SubElements{}, a, b, *result);
      break;
    case Arithmetic::kMul:
      Compute(MulElements{}, a, b, *result);
      break;
    case Arithmetic::kDiv:
      Compute(DivElements{}, a, b, *result);
      break;
  }
  out.emplace(std::move(*result).freeze());
  return absl::OkStatus();
}

}  // namespace graphgc::kernels
