// The text family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterTextKernels(KernelTable& table) {}

}  // namespace graphgc::kernels
