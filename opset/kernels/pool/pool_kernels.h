// The pool family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterWindowPoolKernels(KernelTable& table);  // window_pool.cc: AveragePool, MaxPool, LpPool
void RegisterGlobalPoolKernels(KernelTable& table);  // global_pool.cc: Global{Average,Max,Lp}Pool
void RegisterMaxUnpoolKernels(KernelTable& table);   // max_unpool.cc
void RegisterMaxRoiPoolKernels(KernelTable& table);  // max_roi_pool.cc
void RegisterRoiAlignKernels(KernelTable& table);    // roi_align.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_POOL_POOL_KERNELS_H_
