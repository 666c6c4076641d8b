#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterBuiltinKernels(KernelTable& table) {
  RegisterMathKernels(table);
  RegisterReductionKernels(table);
  RegisterTensorKernels(table);
  RegisterLinalgKernels(table);
  RegisterQuantizeKernels(table);
  RegisterTextKernels(table);
  RegisterConvKernels(table);
  RegisterPoolKernels(table);
  RegisterNormalizationKernels(table);
  RegisterResampleKernels(table);
  RegisterRecurrentKernels(table);
  RegisterSignalKernels(table);
  RegisterDetectionKernels(table);
  RegisterMlKernels(table);
  RegisterSequenceKernels(table);
  RegisterMapKernels(table);
  RegisterTrainingKernels(table);
  RegisterImageKernels(table);
}

}  // namespace graphgc::kernels
