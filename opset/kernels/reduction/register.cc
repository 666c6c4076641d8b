// The reduction family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterReductionKernels(KernelTable& table) {}

}  // namespace graphgc::kernels
