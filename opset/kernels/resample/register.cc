// The resample family's registrations (Resize, Upsample, GridSample).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/resample/resample_kernels.h"

namespace graphgc::kernels {

void RegisterResampleKernels(KernelTable& table) {
  RegisterResizeKernels(table);
  RegisterGridSampleKernels(table);
  RegisterAffineGridKernels(table);
}

}  // namespace graphgc::kernels
