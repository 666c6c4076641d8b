// The tensor family's registrations: data movement, shapes, gathers and scatters, generators.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"

namespace graphgc::kernels {

void RegisterTensorKernels(KernelTable& table) {
  RegisterShapeKernels(table);
  RegisterViewKernels(table);
  RegisterConstantKernels(table);
  RegisterDiagonalKernels(table);
  RegisterOneHotKernels(table);
  RegisterGatherKernels(table);
  RegisterScatterKernels(table);
  RegisterConcatSplitKernels(table);
  RegisterSliceKernels(table);
  RegisterTransposeKernels(table);
  RegisterPadKernels(table);
  RegisterTileExpandKernels(table);
  RegisterSelectionKernels(table);
  RegisterUniqueKernels(table);
  RegisterReverseSequenceKernels(table);
  RegisterDropoutKernels(table);
  RegisterTensorScatterKernels(table);
}

}  // namespace graphgc::kernels
