// The conv family: each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_CONV_CONV_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_CONV_CONV_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

// Conv, ConvTranspose (conv.cc).
void RegisterConvFloatKernels(KernelTable& table);
// ConvInteger, QLinearConv (quantized_conv.cc).
void RegisterQuantizedConvKernels(KernelTable& table);
// Col2Im (col2im.cc).
void RegisterCol2ImKernels(KernelTable& table);
// DeformConv (deform_conv.cc).
void RegisterDeformConvKernels(KernelTable& table);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_CONV_CONV_KERNELS_H_
