// GridSample (16): placeholder until the kernel lands.
#include "graphgc/opset/kernels/resample/resample_kernels.h"

namespace graphgc::kernels {

void RegisterGridSampleKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
