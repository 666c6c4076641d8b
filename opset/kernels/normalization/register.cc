// The normalization family's registrations (BatchNormalization, InstanceNormalization, LRN).
// LayerNormalization and MeanVarianceNormalization get their values from their function bodies.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/normalization/normalization_kernels.h"

namespace graphgc::kernels {

void RegisterNormalizationKernels(KernelTable& table) {
  RegisterBatchNormalizationKernels(table);
  RegisterInstanceNormalizationKernels(table);
  RegisterLrnKernels(table);
}

}  // namespace graphgc::kernels
