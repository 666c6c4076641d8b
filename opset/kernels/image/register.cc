// The image family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/image/image_kernels.h"

namespace graphgc::kernels {

void RegisterImageKernels(KernelTable& table) { RegisterImageDecoderKernels(table); }

}  // namespace graphgc::kernels
