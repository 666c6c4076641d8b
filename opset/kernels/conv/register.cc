// The conv family's registrations (Conv, ConvTranspose, ConvInteger, QLinearConv, Col2Im).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"

namespace graphgc::kernels {

void RegisterConvKernels(KernelTable& table) {
  RegisterConvFloatKernels(table);
  RegisterQuantizedConvKernels(table);
  RegisterCol2ImKernels(table);
}

}  // namespace graphgc::kernels
