// The quantize family: each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear (linear_quantize.cc).
void RegisterLinearQuantizeKernels(KernelTable& table);
// MatMulInteger, QLinearMatMul (quantized_matmul.cc).
void RegisterQuantizedMatMulKernels(KernelTable& table);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_QUANTIZE_QUANTIZE_KERNELS_H_
