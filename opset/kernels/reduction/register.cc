// The reduction family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"

namespace graphgc::kernels {

void RegisterReductionKernels(KernelTable& table) {
  RegisterReduceKernels(table);
  RegisterArgReduceKernels(table);
  RegisterSoftmaxKernels(table);
  RegisterCumSumKernels(table);
  RegisterLpNormalizationKernels(table);
  RegisterTopKKernels(table);
  RegisterLossKernels(table);
}

}  // namespace graphgc::kernels
