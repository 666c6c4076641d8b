// The maps family: the ai.onnx.ml ops whose inputs or outputs are maps (value kernels, kernel.h).
// A map value holds its keys in ascending order, each once (value.h), as ONNX Runtime's std::map
// iterates them.
#ifndef GRAPHGC_OPSET_KERNELS_MAPS_MAPS_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_MAPS_MAPS_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterZipMapKernels(KernelTable& table);          // zip_map.cc
void RegisterCastMapKernels(KernelTable& table);         // cast_map.cc
void RegisterDictVectorizerKernels(KernelTable& table);  // dict_vectorizer.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MAPS_MAPS_KERNELS_H_
