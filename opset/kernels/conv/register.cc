// The conv family's registrations (Conv, ConvTranspose, ConvInteger, QLinearConv, Col2Im,
// DeformConv).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"

namespace graphgc::kernels {

void RegisterConvKernels(KernelTable& table) {
  RegisterConvFloatKernels(table);
  RegisterQuantizedConvKernels(table);
  RegisterCol2ImKernels(table);
  RegisterDeformConvKernels(table);
}

}  // namespace graphgc::kernels
