// The ml family's registrations (the ai.onnx.ml domain).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"

namespace graphgc::kernels {

void RegisterMlKernels(KernelTable& table) {
  RegisterFeatureTransformKernels(table);
  RegisterNormalizerKernels(table);
  RegisterFeatureSelectionKernels(table);
  RegisterCategoryKernels(table);
  RegisterOneHotEncoderKernels(table);
  RegisterLinearModelKernels(table);
  RegisterTreeEnsembleRegressorKernels(table);
  RegisterTreeEnsembleClassifierKernels(table);
  RegisterTreeEnsembleKernels(table);
  RegisterSvmRegressorKernels(table);
  RegisterSvmClassifierKernels(table);
}

}  // namespace graphgc::kernels
