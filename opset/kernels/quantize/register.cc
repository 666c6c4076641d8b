// The quantize family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterQuantizeKernels(KernelTable& table) {}

}  // namespace graphgc::kernels
