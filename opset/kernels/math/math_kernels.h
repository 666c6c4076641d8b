// The math family's registrations, one function per file (register.cc calls them all).
#ifndef GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterUnaryKernels(KernelTable& table);       // unary.cc: Abs, Sqrt, Sin, Round, IsNaN, Not, ...
void RegisterActivationKernels(KernelTable& table);  // activation.cc: Relu, Elu, Sigmoid, PRelu, ...
void RegisterArithmeticKernels(KernelTable& table);  // arithmetic.cc: Add, Sub, Mul, Div, Mod, BitShift
void RegisterPowKernels(KernelTable& table);         // pow.cc: Pow (base and exponent types differ)
void RegisterCompareKernels(KernelTable& table);     // compare.cc: Equal, Less, ..., And, Or, Xor
void RegisterVariadicKernels(KernelTable& table);    // variadic.cc: Max, Min, Mean, Sum
void RegisterClipKernels(KernelTable& table);        // clip.cc: Clip
void RegisterWhereKernels(KernelTable& table);       // where.cc: Where
void RegisterCastKernels(KernelTable& table);        // cast.cc: Cast, CastLike

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_MATH_KERNELS_H_
