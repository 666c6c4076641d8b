// Binary arithmetic under broadcasting: Add, Sub, Mul, Div, Mod, BitShift.
//
// Integer arithmetic wraps modulo 2^bits (no undefined behaviour: the Wrap* helpers); integer
// division truncates toward zero, and a zero divisor declines (ONNX leaves it undefined; ONNX
// Runtime fails). Before opset 7, Add/Sub/Mul/Div broadcast by the legacy rules.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/arithmetic_elements.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

// fmod = 1: C's fmod / %, the sign of the dividend. fmod = 0 (integers only): the sign of the
// divisor, as Python's %.
template <class C>
C Remainder(C a, C b, bool fmod) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::fmod(a, b);
  } else {
    if constexpr (std::is_signed_v<C>) {
      if (b == C{-1}) return C{0};  // the most negative value % -1 would overflow
    }
    const C r = static_cast<C>(a % b);
    if (!fmod && r != C{0} && IsNegative(r) != IsNegative(b)) return static_cast<C>(r + b);
    return r;
  }
}

// x shifted by y bits; shifts by the width or more give 0 (all bits shifted out), as ONNX
// Runtime gives.
template <class C>
C Shift(C x, C y, bool left) {
  if (y >= C{sizeof(C) * 8}) return C{0};
  return static_cast<C>(left ? x << y : x >> y);
}

bool HasIntegerZero(const Tensor& t) {
  bool zero = false;
  internal::DispatchNumeric(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      for (T v : t.data<T>()) zero = zero || v == T{0};
    }
  });
  return zero;
}

absl::Status DivisorHasNoIntegerZero(const KernelContext& ctx) {
  return NoIntegerZeroDivisor(ctx.input(1));
}

absl::Status ModIsDefined(const KernelContext& ctx) {
  if (IsFloatingPoint(ctx.input(0).dtype()) && ctx.int_attribute("fmod") == 0) {
    return absl::InvalidArgumentError(absl::StrCat("attribute fmod is 0, but ",
                                                   DataTypeName(ctx.input(0).dtype()),
                                                   " operands require fmod = 1"));
  }
  return DivisorHasNoIntegerZero(ctx);
}

absl::Status DirectionIsKnown(const KernelContext& ctx) {
  const std::string direction = ctx.string_attribute("direction");
  if (direction == "LEFT" || direction == "RIGHT") return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("attribute direction is '", direction, "', not 'LEFT' or 'RIGHT'"));
}

}  // namespace

absl::Status NoIntegerZeroDivisor(const Tensor& divisor) {
  if (HasIntegerZero(divisor)) {
    return Decline("an integer division by zero, whose result ONNX leaves undefined");
  }
  return absl::OkStatus();
}

void RegisterArithmeticKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes numeric = {{"T", NumericTypes::kSet}};
  table.add("", "Add", 1, kLatest, numeric, BinaryKernel<NumericTypes>(AddElements{}));
  table.add("", "Sub", 1, kLatest, numeric, BinaryKernel<NumericTypes>(SubElements{}));
  table.add("", "Mul", 1, kLatest, numeric, BinaryKernel<NumericTypes>(MulElements{}));
  table.add("", "Div", 1, kLatest, numeric,
            Checked(DivisorHasNoIntegerZero, BinaryKernel<NumericTypes>(DivElements{})));
  table.add("", "Mod", 10, kLatest, numeric,
            Checked(ModIsDefined, BinaryKernelWith<NumericTypes>([](const KernelContext& ctx) {
                      return [fmod = ctx.int_attribute("fmod") != 0](auto a, auto b) {
                        return Remainder(a, b, fmod);
                      };
                    })));
  table.add("", "BitShift", 11, kLatest, {{"T", UnsignedTypes::kSet}},
            Checked(DirectionIsKnown, BinaryKernelWith<UnsignedTypes>([](const KernelContext& ctx) {
                      return [left = ctx.string_attribute("direction") == "LEFT"](auto x, auto y) {
                        return Shift(x, y, left);
                      };
                    })));
}

}  // namespace graphgc::kernels
