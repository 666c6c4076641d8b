// The geometry of Conv and ConvTranspose: their attributes (kernel_shape, strides, dilations,
// pads, auto_pad, group, output_padding, output_shape) checked against X and W, and turned into
// the output shape and the patch layout the GEMM lowering walks (patches.h).
//
// Both ops are one mapping between an "image" and a grid of patch positions: the patch at
// position o reads (Conv) or writes (ConvTranspose) image coordinate o * stride - pad_begin +
// k * dilation for kernel offset k. For Conv the image is X and the positions are Y's spatial
// grid; for ConvTranspose the image is Y and the positions are X's.
#ifndef GRAPHGC_OPSET_KERNELS_CONV_CONV_GEOMETRY_H_
#define GRAPHGC_OPSET_KERNELS_CONV_CONV_GEOMETRY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::conv {

struct PatchGeometry {
  int64_t channels = 0;  // image channels of one group
  Shape image;           // the image's spatial dims
  Shape positions;       // the grid of patch positions
  Shape kernel;
  Shape strides;
  Shape dilations;
  Shape pad_begin;

  int64_t image_size() const;   // elements of one channel of the image
  int64_t kernel_size() const;  // elements of one channel of the kernel
  int64_t rows() const { return channels * kernel_size(); }  // of the column matrix
  int64_t columns() const;                                   // patch positions
  // Whether every patch reads its image contiguously, with nothing to pad: a 1x1 kernel at
  // stride 1 without padding, where the column matrix is the image itself.
  bool is_pointwise() const;
};

struct ConvPlan {
  int64_t batch = 0;
  int64_t group = 1;
  int64_t in_channels = 0;   // X's channels (C)
  int64_t out_channels = 0;  // Y's channels (M)
  PatchGeometry patches;
  Shape output_shape;  // Y's

  int64_t output_spatial_size() const;  // elements of one channel of Y
};

// Conv, ConvInteger and QLinearConv: X [N, C, D1..Dn] and W [M, C/group, k1..kn] at inputs
// x_input and w_input. Shapes and attributes that do not fit make the op fail.
absl::StatusOr<ConvPlan> PlanConv(const KernelContext& ctx, int x_input, int w_input);

// ConvTranspose: X [N, C, D1..Dn] and W [C, M/group, k1..kn] (inputs 0 and 1).
absl::StatusOr<ConvPlan> PlanConvTranspose(const KernelContext& ctx);

// Whether `shape` is what inference gave output 0 (where inference knows it). ONNX 1.12 infers
// some ConvTranspose shapes unlike ONNX's definition: the plans above decline those (no value).
bool AgreesWithInference(const KernelContext& ctx, const Shape& shape);

}  // namespace graphgc::kernels::conv

#endif  // GRAPHGC_OPSET_KERNELS_CONV_CONV_GEOMETRY_H_
