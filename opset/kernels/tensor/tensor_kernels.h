// The tensor family's files, each registering the kernels it defines (register.cc calls them all).
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterShapeKernels(KernelTable& table);        // shape_ops.cc: Shape, Size
void RegisterViewKernels(KernelTable& table);         // view_ops.cc: Reshape, Flatten, Squeeze,
                                                      //   Unsqueeze, Identity
void RegisterConstantKernels(KernelTable& table);     // constant_ops.cc: Constant,
                                                      //   ConstantOfShape, Range
void RegisterDiagonalKernels(KernelTable& table);     // diagonal_ops.cc: EyeLike, Trilu
void RegisterOneHotKernels(KernelTable& table);       // one_hot.cc: OneHot
void RegisterGatherKernels(KernelTable& table);       // gather.cc: Gather, GatherElements, GatherND
void RegisterScatterKernels(KernelTable& table);      // scatter.cc: Scatter, ScatterElements,
                                                      //   ScatterND
void RegisterConcatSplitKernels(KernelTable& table);  // concat_split.cc: Concat, Split
void RegisterSliceKernels(KernelTable& table);        // slice.cc: Slice
void RegisterTransposeKernels(KernelTable& table);    // transpose.cc: Transpose, DepthToSpace,
                                                      //   SpaceToDepth
void RegisterPadKernels(KernelTable& table);          // pad.cc: Pad
void RegisterTileExpandKernels(KernelTable& table);   // tile_expand.cc: Tile, Expand
void RegisterSelectionKernels(KernelTable& table);    // selection.cc: Compress, NonZero
void RegisterUniqueKernels(KernelTable& table);       // unique.cc: Unique
void RegisterReverseSequenceKernels(KernelTable& table);  // reverse_sequence.cc
void RegisterDropoutKernels(KernelTable& table);          // dropout.cc: Dropout
void RegisterTensorScatterKernels(KernelTable& table);    // tensor_scatter.cc: TensorScatter

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_TENSOR_KERNELS_H_
