// The normalization family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_NORMALIZATION_NORMALIZATION_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_NORMALIZATION_NORMALIZATION_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterBatchNormalizationKernels(KernelTable& table);     // batch_normalization.cc
void RegisterInstanceNormalizationKernels(KernelTable& table);  // instance_normalization.cc
void RegisterLrnKernels(KernelTable& table);                    // lrn.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_NORMALIZATION_NORMALIZATION_KERNELS_H_
