// The detection family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_DETECTION_DETECTION_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_DETECTION_DETECTION_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterNonMaxSuppressionKernels(KernelTable& table);  // non_max_suppression.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_DETECTION_DETECTION_KERNELS_H_
