// The conv family's registrations (Conv, ConvTranspose, ConvInteger, QLinearConv).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterConvKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
