// The tensor family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterShapeKernels(KernelTable& table);  // shape_ops.cc

void RegisterTensorKernels(KernelTable& table) { RegisterShapeKernels(table); }

}  // namespace graphgc::kernels
