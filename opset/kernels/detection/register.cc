// The detection family's registrations (NonMaxSuppression).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterDetectionKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
