// Shape computations and views: Shape, Size, Identity, Reshape, Flatten, Squeeze, Unsqueeze,
// Constant, Gather and Concat.
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

Tensor Int64Vector(absl::Span<const int64_t> values) {
  return Tensor::from_vector<int64_t>(std::vector<int64_t>(values.begin(), values.end()));
}

// Shape (start and end since opset 15, clamped like Python slices).
KernelResult ShapeKernel(const KernelContext& ctx) {
  std::optional<absl::Span<const int64_t>> dims = ctx.input_shape(0);
  if (!dims.has_value()) return Decline("the input's shape is not known");
  const int64_t rank = static_cast<int64_t>(dims->size());
  auto clamp = [rank](int64_t index) {
    if (index < 0) index += rank;
    return std::min(std::max(index, int64_t{0}), rank);
  };
  const int64_t start = clamp(ctx.int_attribute("start", 0));
  const int64_t end = clamp(ctx.int_attribute("end", rank));
  if (end <= start) return KernelOutputs{Int64Vector({})};
  return KernelOutputs{Int64Vector(dims->subspan(static_cast<size_t>(start),
                                                 static_cast<size_t>(end - start)))};
}

KernelResult SizeKernel(const KernelContext& ctx) {
  std::optional<absl::Span<const int64_t>> dims = ctx.input_shape(0);
  if (!dims.has_value()) return Decline("the input's shape is not known");
  return KernelOutputs{Tensor::scalar<int64_t>(Product(*dims))};
}

// Reshape, Flatten, Squeeze, Unsqueeze: the input's buffer viewed with the inferred shape.
KernelResult ViewKernel(const KernelContext& ctx) {
  const OutputSpec& out = ctx.output(0);
  if (!out.shape.has_value()) return Decline("the output's shape is not known");
  for (int64_t dim : *out.shape) {
    if (dim < 0) return Decline("the output's shape is not known");
  }
  return KernelOutputs{ctx.input(0).reshaped(*out.shape)};
}

KernelResult IdentityKernel(const KernelContext& ctx) { return KernelOutputs{ctx.input(0)}; }

// Constant: `value` (shared), or one of the value_* attributes.
KernelResult ConstantKernel(const KernelContext& ctx) {
  if (const Tensor* value = ctx.tensor_attribute("value")) return KernelOutputs{*value};
  if (ctx.has_attribute("value_float")) {
    return KernelOutputs{Tensor::scalar<float>(ctx.float_attribute("value_float"))};
  }
  if (ctx.has_attribute("value_int")) {
    return KernelOutputs{Tensor::scalar<int64_t>(ctx.int_attribute("value_int"))};
  }
  if (ctx.has_attribute("value_string")) {
    return KernelOutputs{Tensor::scalar<std::string>(ctx.string_attribute("value_string"))};
  }
  if (auto floats = ctx.floats_attribute("value_floats")) {
    return KernelOutputs{Tensor::from_vector<float>(*std::move(floats))};
  }
  if (auto ints = ctx.ints_attribute("value_ints")) {
    return KernelOutputs{Tensor::from_vector<int64_t>(*std::move(ints))};
  }
  if (auto strings = ctx.strings_attribute("value_strings")) {
    return KernelOutputs{Tensor::from_vector<std::string>(*std::move(strings))};
  }
  return Decline("Constant without a value attribute");
}

// Gather along `axis`: out[outer, index, inner] = data[outer, indices[index], inner].
KernelResult GatherKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (data.rank() == 0) return ctx.input_error(0, "Gather of a scalar");
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), data.rank()));
  const int64_t extent = data.shape()[static_cast<size_t>(axis)];
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> index_values,
                           ReadIndices(ctx, 1, indices, extent));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
  const int64_t outer = Product(data.shape().subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = Product(data.shape().subspan(static_cast<size_t>(axis) + 1));
  int64_t position = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : index_values) {
      CopyElements(data, (o * extent + index) * inner, out, position, inner);
      position += inner;
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult ConcatKernel(const KernelContext& ctx) {
  const OutputSpec& spec = ctx.output(0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
  const int64_t rank = static_cast<int64_t>(spec.shape->size());
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), rank));
  const int64_t outer = Product(absl::Span<const int64_t>(*spec.shape).subspan(0, axis));
  int64_t position = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      const Tensor& t = ctx.input(i);
      const int64_t block = Product(t.shape().subspan(static_cast<size_t>(axis)));
      CopyElements(t, o * block, out, position, block);
      position += block;
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterShapeKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  table.add("", "Shape", 1, kLatest, ShapeKernel);
  table.add("", "Size", 1, kLatest, SizeKernel);
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}) {
    table.add("", op, 1, kLatest, ViewKernel);
  }
  table.add("", "Identity", 1, kLatest, IdentityKernel);
  table.add("", "Constant", 1, kLatest, ConstantKernel);
  table.add("", "Gather", 1, kLatest, GatherKernel);
  table.add("", "Concat", 1, kLatest, ConcatKernel);
}

}  // namespace graphgc::kernels
