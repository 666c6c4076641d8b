// The math family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {

void RegisterMathKernels(KernelTable& table) {
  RegisterUnaryKernels(table);
  RegisterActivationKernels(table);
  RegisterGeluKernels(table);
  RegisterArithmeticKernels(table);
  RegisterBitwiseKernels(table);
  RegisterPowKernels(table);
  RegisterCompareKernels(table);
  RegisterVariadicKernels(table);
  RegisterClipKernels(table);
  RegisterWhereKernels(table);
  RegisterCastKernels(table);
}

}  // namespace graphgc::kernels
