// The resample family's registrations (Resize, Upsample, GridSample).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterResampleKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
