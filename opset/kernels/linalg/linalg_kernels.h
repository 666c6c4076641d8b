// The linalg family: each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_LINALG_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_LINALG_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterMatMulKernels(KernelTable& table);     // matmul.cc
void RegisterGemmKernels(KernelTable& table);       // gemm.cc
void RegisterEinsumKernels(KernelTable& table);     // einsum.cc
void RegisterDetKernels(KernelTable& table);        // det.cc
void RegisterAttentionKernels(KernelTable& table);  // attention.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_LINALG_KERNELS_H_
