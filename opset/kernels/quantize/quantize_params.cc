#include "graphgc/opset/kernels/quantize/quantize_params.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::quantize {
namespace {

template <class T>
std::vector<int32_t> Widen(const Tensor& tensor) {
  std::vector<int32_t> values;
  values.reserve(static_cast<size_t>(tensor.size()));
  for (T v : tensor.data<T>()) values.push_back(static_cast<int32_t>(v));
  return values;
}

}  // namespace

std::vector<int32_t> ReadInt32s(const Tensor& tensor) {
  switch (tensor.dtype()) {
    case DataType::kInt8:
      return Widen<int8_t>(tensor);
    case DataType::kUint8:
      return Widen<uint8_t>(tensor);
    default:
      return Widen<int32_t>(tensor);
  }
}

bool IsScalarLike(const Tensor& tensor) {
  return tensor.rank() == 0 || (tensor.rank() == 1 && tensor.shape()[0] == 1);
}

absl::StatusOr<AxisBlocks> PlanAxisParams(const KernelContext& ctx,
                                          absl::Span<const int64_t> x_shape, int scale_input,
                                          bool per_axis) {
  const Tensor& scale = ctx.input(scale_input);
  const Tensor* zero_point = ctx.optional_input(scale_input + 1);
  if (zero_point != nullptr && zero_point->size() != scale.size()) {
    return ctx.input_error(scale_input + 1,
                           absl::StrCat("has shape ", ShapeToString(zero_point->shape()),
                                        ", the scale ", ShapeToString(scale.shape())));
  }
  AxisBlocks blocks;
  if (IsScalarLike(scale)) {
    blocks.inner = Product(x_shape);
    return blocks;
  }
  if (scale.rank() != 1) {
    return ctx.input_error(scale_input, absl::StrCat("has shape ", ShapeToString(scale.shape()),
                                                     ", neither a scalar nor 1-D"));
  }
  if (!per_axis) return Decline("a 1-D scale before opset 13");
  const int64_t rank = static_cast<int64_t>(x_shape.size());
  absl::StatusOr<int64_t> axis = NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 1), rank);
  if (!axis.ok()) return axis.status();
  blocks.outer = Product(x_shape.subspan(0, static_cast<size_t>(*axis)));
  blocks.channels = x_shape[static_cast<size_t>(*axis)];
  blocks.inner = Product(x_shape.subspan(static_cast<size_t>(*axis) + 1));
  if (scale.size() != blocks.channels) {
    return ctx.input_error(scale_input, absl::StrCat("has ", scale.size(), " elements for axis ",
                                                     *axis, " of size ", blocks.channels));
  }
  return blocks;
}

absl::StatusOr<ParamLayout> PlanParamLayout(const KernelContext& ctx,
                                            absl::Span<const int64_t> x_shape, int scale_input,
                                            bool per_axis, bool blocked) {
  const int64_t block_size = blocked ? ctx.int_attribute("block_size", 0) : 0;
  if (block_size < 0) {
    return absl::InvalidArgumentError(absl::StrCat(ctx.op_type(), ": block_size is ", block_size,
                                                   "; it must be 0 (none) or positive"));
  }
  ParamLayout layout;
  // A one-element scale is per tensor, blocked or not (as ONNX's reference reads it).
  if (block_size == 0 || IsScalarLike(ctx.input(scale_input))) {
    GRAPHGC_ASSIGN_OR_RETURN(layout.blocks, PlanAxisParams(ctx, x_shape, scale_input, per_axis));
    return layout;
  }
  const Tensor& scale = ctx.input(scale_input);
  const int64_t rank = static_cast<int64_t>(x_shape.size());
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 1), rank));
  const auto at = static_cast<size_t>(axis);
  layout.blocks.outer = Product(x_shape.subspan(0, at));
  layout.blocks.channels = x_shape[at];
  layout.blocks.inner = Product(x_shape.subspan(at + 1));
  layout.block_size = block_size;
  layout.block_count = (x_shape[at] + block_size - 1) / block_size;
  std::vector<int64_t> expected(x_shape.begin(), x_shape.end());
  expected[at] = layout.block_count;
  const auto shape_error = [&](int input, const Tensor& tensor) {
    return ctx.input_error(
        input, absl::StrCat("has shape ", ShapeToString(tensor.shape()), "; blocks of ", block_size,
                            " along axis ", axis, " of x ", ShapeToString(x_shape), " need ",
                            ShapeToString(expected)));
  };
  if (!std::equal(scale.shape().begin(), scale.shape().end(), expected.begin(), expected.end())) {
    return shape_error(scale_input, scale);
  }
  const Tensor* zero_point = ctx.optional_input(scale_input + 1);
  if (zero_point != nullptr && zero_point->shape() != scale.shape()) {
    return shape_error(scale_input + 1, *zero_point);
  }
  return layout;
}

std::vector<float> RequantizeMultipliers(float a_scale, absl::Span<const float> b_scales,
                                         float y_scale) {
  std::vector<float> multipliers;
  multipliers.reserve(b_scales.size());
  for (float b_scale : b_scales) multipliers.push_back(a_scale * b_scale / y_scale);
  return multipliers;
}

}  // namespace graphgc::kernels::quantize
