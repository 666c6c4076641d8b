// The linalg family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"

namespace graphgc::kernels {

void RegisterLinalgKernels(KernelTable& table) {
  RegisterMatMulKernels(table);
  RegisterGemmKernels(table);
  RegisterEinsumKernels(table);
  RegisterDetKernels(table);
  RegisterAttentionKernels(table);
}

}  // namespace graphgc::kernels
