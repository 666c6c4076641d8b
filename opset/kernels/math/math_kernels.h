// The math family's registrations, one function per file (register.cc calls them all).
#ifndef GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

// unary.cc: Abs, Neg, Sign, Sqrt, Exp, Sin, Round, Erf, IsNaN, IsInf, Not, ...
void RegisterUnaryKernels(KernelTable& table);
// activation.cc: Relu, LeakyRelu, PRelu, Elu, Celu, Selu, Sigmoid, Shrink, ...
void RegisterActivationKernels(KernelTable& table);
// gelu.cc: Gelu
void RegisterGeluKernels(KernelTable& table);
// arithmetic.cc: Add, Sub, Mul, Div, Mod, BitShift
void RegisterArithmeticKernels(KernelTable& table);
// bitwise.cc: BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot
void RegisterBitwiseKernels(KernelTable& table);
// pow.cc: Pow (base and exponent of different types)
void RegisterPowKernels(KernelTable& table);
// compare.cc: Equal, Greater, GreaterOrEqual, Less, LessOrEqual, And, Or, Xor
void RegisterCompareKernels(KernelTable& table);
// variadic.cc: Max, Min, Mean, Sum
void RegisterVariadicKernels(KernelTable& table);
// clip.cc: Clip
void RegisterClipKernels(KernelTable& table);
// where.cc: Where
void RegisterWhereKernels(KernelTable& table);
// cast.cc: Cast, CastLike
void RegisterCastKernels(KernelTable& table);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_
