#include "graphgc/opset/kernels/conv/conv_geometry.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::conv {

int64_t PatchGeometry::image_size() const { return Product(image); }
int64_t PatchGeometry::kernel_size() const { return Product(kernel); }
int64_t PatchGeometry::columns() const { return Product(positions); }

int64_t ConvPlan::output_spatial_size() const {
  return Product(absl::MakeConstSpan(output_shape).subspan(2));
}

bool PatchGeometry::is_pointwise() const {
  auto all_equal = [](const Shape& dims, int64_t v) {
    return std::all_of(dims.begin(), dims.end(), [v](int64_t d) { return d == v; });
  };
  return all_equal(kernel, 1) && all_equal(strides, 1) && all_equal(pad_begin, 0) &&
         image == positions;
}

namespace {

enum AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

// The attributes both ops share, checked against X and W (inputs x_input and w_input).
struct SpatialAttributes {
  int64_t group = 1;
  AutoPad auto_pad = kNotSet;
  Shape kernel, strides, dilations;
  Shape pads;  // begins then ends
};

constexpr int64_t kAnyValue = std::numeric_limits<int64_t>::min();

// Past this, a dim or an attribute could overflow the geometry's int64 arithmetic (a dilated
// kernel, padded extents, channels times groups); no real model comes near it, and an empty
// tensor may carry dims of any size.
constexpr int64_t kLargestExtent = int64_t{1} << 30;  // in magnitude

absl::Status CheckExtents(absl::string_view what, absl::Span<const int64_t> values) {
  for (int64_t v : values) {
    if (v > kLargestExtent || v < -kLargestExtent) return Decline(absl::StrCat(what, " of ", v));
  }
  return absl::OkStatus();
}

// Integer list attribute `name` of `count` values each >= `minimum`; `fallback` when absent.
absl::StatusOr<Shape> ListAttribute(const KernelContext& ctx, absl::string_view name, size_t count,
                                    int64_t fallback, int64_t minimum) {
  std::optional<std::vector<int64_t>> values = ctx.ints_attribute(name);
  if (!values.has_value()) return Shape(count, fallback);
  if (values->size() != count) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute ", name, " has ", values->size(), " values, expected ", count));
  }
  for (int64_t v : *values) {
    if (v < minimum) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute ", name, " holds ", v, ", below ", minimum));
    }
  }
  GRAPHGC_RETURN_IF_ERROR(CheckExtents(absl::StrCat("attribute ", name), *values));
  return Shape(values->begin(), values->end());
}

absl::StatusOr<SpatialAttributes> ReadSpatial(const KernelContext& ctx, int x_input, int w_input) {
  const Tensor& x = ctx.input(x_input);
  const Tensor& w = ctx.input(w_input);
  if (x.rank() < 3) {
    return ctx.input_error(x_input, absl::StrCat("has shape ", ShapeToString(x.shape()),
                                                 ", expected [N, C, D1, ...]"));
  }
  if (w.rank() != x.rank()) {
    return ctx.input_error(w_input, absl::StrCat("has shape ", ShapeToString(w.shape()),
                                                 ", not of X's rank ", x.rank()));
  }
  const size_t rank = static_cast<size_t>(x.rank() - 2);
  SpatialAttributes a;
  a.group = ctx.int_attribute("group", 1);
  if (a.group < 1) {
    return absl::InvalidArgumentError(absl::StrCat("attribute group is ", a.group));
  }
  GRAPHGC_RETURN_IF_ERROR(CheckExtents("attribute group", {a.group}));
  GRAPHGC_RETURN_IF_ERROR(CheckExtents("a dim of X", x.shape()));
  GRAPHGC_RETURN_IF_ERROR(CheckExtents("a dim of W", w.shape()));
  static constexpr absl::string_view kAutoPads[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"};
  GRAPHGC_ASSIGN_OR_RETURN(const size_t auto_pad,
                           ChooseAttribute(ctx, "auto_pad", "NOTSET", kAutoPads));
  a.auto_pad = static_cast<AutoPad>(auto_pad);
  a.kernel.assign(w.shape().begin() + 2, w.shape().end());
  if (std::optional<std::vector<int64_t>> kernel = ctx.ints_attribute("kernel_shape");
      kernel.has_value() && Shape(kernel->begin(), kernel->end()) != a.kernel) {
    return ctx.input_error(
        w_input, absl::StrCat("has shape ", ShapeToString(w.shape()),
                              ", whose kernel differs from kernel_shape ", ShapeToString(*kernel)));
  }
  GRAPHGC_ASSIGN_OR_RETURN(a.strides, ListAttribute(ctx, "strides", rank, 1, 1));
  GRAPHGC_ASSIGN_OR_RETURN(a.dilations, ListAttribute(ctx, "dilations", rank, 1, 1));
  GRAPHGC_ASSIGN_OR_RETURN(a.pads, ListAttribute(ctx, "pads", 2 * rank, 0, kAnyValue));
  if (std::any_of(a.pads.begin(), a.pads.end(), [](int64_t p) { return p < 0; })) {
    return Decline("negative pads (cropping)");
  }
  if (a.auto_pad == kValid) std::fill(a.pads.begin(), a.pads.end(), 0);
  return a;
}

// The extent of a dilated kernel axis.
int64_t Span(const SpatialAttributes& a, size_t axis) {
  return (a.kernel[axis] - 1) * a.dilations[axis] + 1;
}

PatchGeometry Patches(const SpatialAttributes& a, int64_t channels) {
  PatchGeometry p;
  p.channels = channels;
  p.kernel = a.kernel;
  p.strides = a.strides;
  p.dilations = a.dilations;
  return p;
}

// The plan, or no value where ONNX 1.12's inference gave output 0 another shape.
absl::StatusOr<ConvPlan> AgreedWithInference(const KernelContext& ctx, ConvPlan plan) {
  if (!DimsMultiplySafely(plan.output_shape)) {  // the GEMM's sizes are products of these dims
    return Decline(absl::StrCat("output shape ", ShapeToString(plan.output_shape)));
  }
  if (!AgreesWithInference(ctx, plan.output_shape)) {
    return Decline(absl::StrCat("output shape ", ShapeToString(plan.output_shape),
                                " differs from the inferred one"));
  }
  return plan;
}

}  // namespace

absl::StatusOr<ConvPlan> PlanConv(const KernelContext& ctx, int x_input, int w_input) {
  GRAPHGC_ASSIGN_OR_RETURN(const SpatialAttributes a, ReadSpatial(ctx, x_input, w_input));
  const absl::Span<const int64_t> xs = ctx.input(x_input).shape();
  const absl::Span<const int64_t> ws = ctx.input(w_input).shape();
  ConvPlan plan;
  plan.batch = xs[0];
  plan.group = a.group;
  plan.in_channels = xs[1];
  plan.out_channels = ws[0];
  if (ws[1] * a.group != xs[1] || ws[0] % a.group != 0) {
    return ctx.input_error(
        w_input, absl::StrCat("has shape ", ShapeToString(ws), ", which does not fit ", xs[1],
                              " input channels in ", a.group, " groups"));
  }
  plan.patches = Patches(a, ws[1]);
  plan.output_shape = {plan.batch, plan.out_channels};
  const size_t rank = a.kernel.size();
  for (size_t i = 0; i < rank; ++i) {
    const int64_t in = xs[i + 2], stride = a.strides[i], span = Span(a, i);
    int64_t begin = a.pads[i], out = 0;
    if (a.auto_pad == kSameUpper || a.auto_pad == kSameLower) {
      out = (in + stride - 1) / stride;
      const int64_t total = std::max<int64_t>(0, (out - 1) * stride + span - in);
      begin = a.auto_pad == kSameUpper ? total / 2 : total - total / 2;  // the odd one at the end
    } else {
      const int64_t padded = in + a.pads[i] + a.pads[i + rank];
      if (padded < span) {
        return ctx.input_error(
            x_input, absl::StrCat("has shape ", ShapeToString(xs), ": axis ", i + 2, " padded to ",
                                  padded, " is shorter than the kernel's ", span));
      }
      out = (padded - span) / stride + 1;
    }
    plan.patches.image.push_back(in);
    plan.patches.positions.push_back(out);
    plan.patches.pad_begin.push_back(begin);
    plan.output_shape.push_back(out);
  }
  return AgreedWithInference(ctx, std::move(plan));
}

absl::StatusOr<ConvPlan> PlanConvTranspose(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const SpatialAttributes a, ReadSpatial(ctx, 0, 1));
  const absl::Span<const int64_t> xs = ctx.input(0).shape();
  const absl::Span<const int64_t> ws = ctx.input(1).shape();
  ConvPlan plan;
  plan.batch = xs[0];
  plan.group = a.group;
  plan.in_channels = xs[1];
  plan.out_channels = ws[1] * a.group;
  if (ws[0] != xs[1] || xs[1] % a.group != 0) {
    return ctx.input_error(1, absl::StrCat("has shape ", ShapeToString(ws), ", which does not fit ",
                                           xs[1], " input channels in ", a.group, " groups"));
  }
  const size_t rank = a.kernel.size();
  GRAPHGC_ASSIGN_OR_RETURN(const Shape output_padding,
                           ListAttribute(ctx, "output_padding", rank, 0, 0));
  std::optional<std::vector<int64_t>> output_shape = ctx.ints_attribute("output_shape");
  if (output_shape.has_value() && output_shape->size() != rank) {
    return Decline("an output_shape that is not one size per spatial axis");
  }
  if (output_shape.has_value()) {
    GRAPHGC_RETURN_IF_ERROR(CheckExtents("attribute output_shape", *output_shape));
  }
  plan.patches = Patches(a, ws[1]);
  plan.output_shape = {plan.batch, plan.out_channels};
  for (size_t i = 0; i < rank; ++i) {
    const int64_t in = xs[i + 2], stride = a.strides[i];
    const int64_t full = stride * (in - 1) + output_padding[i] + Span(a, i);
    int64_t begin = a.pads[i], out = full - a.pads[i] - a.pads[i + rank];
    const bool same = a.auto_pad == kSameUpper || a.auto_pad == kSameLower;
    if (output_shape.has_value() || same) {
      out = output_shape.has_value() ? (*output_shape)[i] : in * stride;
      // The split ONNX states and ONNX Runtime follows: SAME_UPPER crops the odd element at
      // the end, every other mode at the beginning; an output larger than the full one is
      // padded at the end.
      const int64_t total = std::max<int64_t>(0, full - out);
      begin = a.auto_pad == kSameUpper ? total / 2 : total - total / 2;
    }
    if (out < 0) {
      return ctx.input_error(0, absl::StrCat("has shape ", ShapeToString(xs), ": axis ", i + 2,
                                             " gives an output of ", out, " elements"));
    }
    plan.patches.image.push_back(out);
    plan.patches.positions.push_back(in);
    plan.patches.pad_begin.push_back(begin);
    plan.output_shape.push_back(out);
  }
  return AgreedWithInference(ctx, std::move(plan));
}

bool AgreesWithInference(const KernelContext& ctx, const Shape& shape) {
  const std::optional<Shape>& inferred = ctx.output(0).shape;
  if (!inferred.has_value()) return true;
  if (inferred->size() != shape.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if ((*inferred)[i] >= 0 && (*inferred)[i] != shape[i]) return false;
  }
  return true;
}

}  // namespace graphgc::kernels::conv
