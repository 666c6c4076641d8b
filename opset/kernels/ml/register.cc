// The ml family's registrations (the ai.onnx.ml domain).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterMlKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
