// The resample family's registration functions, one per file; register.cc calls them all.
#ifndef GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterResizeKernels(KernelTable& table);      // resize.cc: Resize, Upsample
void RegisterGridSampleKernels(KernelTable& table);  // grid_sample.cc: GridSample
void RegisterAffineGridKernels(KernelTable& table);  // affine_grid.cc: AffineGrid

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_RESAMPLE_RESAMPLE_KERNELS_H_
