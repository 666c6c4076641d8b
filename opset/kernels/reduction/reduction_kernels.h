// The reduction family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCTION_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCTION_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterReduceKernels(KernelTable& table);     // reduce.cc: ReduceSum .. ReduceLogSumExp
void RegisterArgReduceKernels(KernelTable& table);  // arg_reduce.cc: ArgMax, ArgMin
void RegisterSoftmaxKernels(KernelTable& table);    // softmax.cc: Softmax, LogSoftmax, Hardmax
void RegisterCumSumKernels(KernelTable& table);     // cumsum.cc
void RegisterLpNormalizationKernels(KernelTable& table);  // lp_normalization.cc
void RegisterTopKKernels(KernelTable& table);             // top_k.cc
void RegisterLossKernels(
    KernelTable& table);  // loss.cc: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCTION_KERNELS_H_
