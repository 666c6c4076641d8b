// The image family: each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterImageDecoderKernels(KernelTable& table);  // image_decoder.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_KERNELS_H_
