// The normalization family's registrations (BatchNormalization, InstanceNormalization, LRN).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterNormalizationKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
