// The signal family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_SIGNAL_SIGNAL_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_SIGNAL_SIGNAL_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterDftKernels(KernelTable& table);              // dft.cc
void RegisterStftKernels(KernelTable& table);             // stft.cc
void RegisterMelWeightMatrixKernels(KernelTable& table);  // mel_weight_matrix.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_SIGNAL_SIGNAL_KERNELS_H_
