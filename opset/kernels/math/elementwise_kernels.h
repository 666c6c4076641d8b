// Kernels made of one elementwise function, for the many math ops that are nothing more:
//
//   using Reals = FloatingPointTypes;
//   table.add("", "Sin", 7, kLatest, {{"T", Reals::kSet}},
//             UnaryKernel<Reals>([](auto x) { return std::sin(x); }));
//   table.add("", "Elu", 1, kLatest, {{"T", Reals::kSet}},
//             UnaryKernelWith<Reals>([](const KernelContext& ctx) {
//               return [alpha = ctx.float_attribute("alpha")](auto x) { ... };
//             }));
//
// The function is written on compute types (float for the 16-bit floats, the type itself
// otherwise) and is inlined into the element loops. `Types` is the set of input element types
// computed (others decline), which the registration declares (Types::kSet); `Out` the output
// element type, or void for the input's.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_KERNELS_H_

#include <type_traits>
#include <utility>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/math/elementwise.h"
#include "graphgc/opset/kernels/math/legacy_broadcast.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {

template <class T, class Out>
using ResultType = std::conditional_t<std::is_void_v<Out>, T, Out>;

// make(ctx) gives the function (reading the attributes it needs).
template <class Types, class Out = void, class MakeOp>
Kernel UnaryKernelWith(MakeOp make) {
  return [make](const KernelContext& ctx) -> KernelResult {
    const Tensor& x = ctx.input(0);
    const auto op = make(ctx);
    return ForType<Types>(ctx, x.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using R = ResultType<T, Out>;
      return MapElements<R, T>(ctx, x, OnComputeType<T, R>(op));
    });
  };
}

template <class Types, class Out = void, class Op>
Kernel UnaryKernel(Op op) {
  return UnaryKernelWith<Types, Out>([op](const KernelContext&) { return op; });
}

// Two operands of one type under broadcasting (the legacy rules before opset 7, or `rule`).
template <class Types, class Out = void, class MakeOp>
Kernel BinaryKernelWith(MakeOp make, OperandRule rule = LegacyBroadcastOperand) {
  return [make, rule](const KernelContext& ctx) -> KernelResult {
    const Tensor& a = ctx.input(0);
    GRAPHGC_ASSIGN_OR_RETURN(const Tensor b, rule(ctx, a, ctx.input(1)));
    const auto op = make(ctx);
    return ForType<Types>(ctx, a.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using R = ResultType<T, Out>;
      return BroadcastElements<R, T, T>(ctx, OnComputeType<T, R>(op), {&a, &b});
    });
  };
}

template <class Types, class Out = void, class Op>
Kernel BinaryKernel(Op op, OperandRule rule = LegacyBroadcastOperand) {
  return BinaryKernelWith<Types, Out>([op](const KernelContext&) { return op; }, rule);
}

// `kernel` after `check(ctx)` (an absl::Status) passed: the inputs a kernel cannot compute
// (an integer division by zero) decline before any work.
template <class Check>
Kernel Checked(Check check, Kernel kernel) {
  return [check, kernel = std::move(kernel)](const KernelContext& ctx) -> KernelResult {
    GRAPHGC_RETURN_IF_ERROR(check(ctx));
    return kernel(ctx);
  };
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_KERNELS_H_
