// The quantize family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/quantize/quantize_kernels.h"

namespace graphgc::kernels {

void RegisterQuantizeKernels(KernelTable& table) {
  RegisterLinearQuantizeKernels(table);
  RegisterQuantizedMatMulKernels(table);
}

}  // namespace graphgc::kernels
