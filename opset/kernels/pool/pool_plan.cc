// The window geometry of the pooling ops; see pool_plan.h.
#include "graphgc/opset/kernels/pool/pool_plan.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The ints attribute `name`, or `count` copies of `fallback` when it is absent.
absl::StatusOr<std::vector<int64_t>> IntsOr(const KernelContext& ctx, absl::string_view name,
                                            size_t count, int64_t fallback) {
  std::optional<std::vector<int64_t>> values = ctx.ints_attribute(name);
  if (!values.has_value()) return std::vector<int64_t>(count, fallback);
  if (values->size() != count) {
    return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' has ", values->size(),
                                                   " values; the input has ", count,
                                                   " spatial axes"));
  }
  return *std::move(values);
}

// Past this, window arithmetic could overflow int64; no real model comes near it.
constexpr int64_t kLargestExtent = int64_t{1} << 31;

absl::Status CheckPositive(absl::string_view name, absl::Span<const int64_t> values) {
  for (int64_t v : values) {
    if (v <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute '", name, "' has the value ", v, "; it must be positive"));
    }
    if (v > kLargestExtent) return Decline(absl::StrCat("attribute '", name, "' of ", v));
  }
  return absl::OkStatus();
}

// Taps k in [0, kernel) with start + k * dilation < limit.
int64_t TapsBelow(int64_t start, int64_t limit, int64_t kernel, int64_t dilation) {
  if (limit <= start) return 0;
  return std::min(kernel, (limit - start + dilation - 1) / dilation);
}

// The windows of one axis; nullopt when one lies wholly in the padding.
std::optional<PoolAxis> MakeAxis(int64_t in, int64_t out, int64_t kernel, int64_t stride,
                                 int64_t dilation, int64_t pad_begin, int64_t pad_end) {
  PoolAxis axis{.in = in, .dilation = dilation, .windows = {}};
  axis.windows.reserve(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) {
    const int64_t start = o * stride - pad_begin;
    const int64_t skipped = start < 0 ? (-start + dilation - 1) / dilation : 0;
    const int64_t taps = TapsBelow(start, in, kernel, dilation) - skipped;
    if (taps <= 0) return std::nullopt;
    axis.windows.push_back({.first = start + skipped * dilation,
                            .taps = taps,
                            .padded_taps = TapsBelow(start, in + pad_end, kernel, dilation)});
  }
  return axis;
}

// The output extent of an axis whose kernel fits `room` times over (plus one), as ONNX's
// inference of that version gives it. From opset 22, with ceil_mode, a last window that would
// start in the end padding (at `start_limit` or later, counted from the padded start) is dropped,
// PyTorch's rule, which ONNX Runtime follows at every version; before 22 ONNX's inference keeps
// it (ceil in float), and MakeAxis then declines the window lying wholly in the padding.
int64_t OutputExtent(int version, bool ceil_mode, int64_t room, int64_t stride,
                     int64_t start_limit) {
  if (!ceil_mode) return 1 + room / stride;
  if (version < 22) return 1 + static_cast<int64_t>(std::ceil(room / static_cast<float>(stride)));
  const int64_t out = 1 + room / stride + (room % stride != 0);
  return (out - 1) * stride >= start_limit ? out - 1 : out;
}

}  // namespace

absl::StatusOr<PoolPlan> MakeWindowPlan(const KernelContext& ctx, absl::Span<const int64_t> shape) {
  const size_t spatial = shape.size() < 2 ? 0 : shape.size() - 2;
  if (spatial == 0) {
    return Decline(absl::StrCat("pooling over ", spatial, " spatial axes"));
  }
  if (!ctx.has_attribute("kernel_shape")) {
    return absl::InvalidArgumentError("attribute 'kernel_shape' is missing");
  }
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, IntsOr(ctx, "kernel_shape", spatial, 1));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, IntsOr(ctx, "strides", spatial, 1));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> dilations, IntsOr(ctx, "dilations", spatial, 1));
  GRAPHGC_RETURN_IF_ERROR(CheckPositive("kernel_shape", kernel));
  GRAPHGC_RETURN_IF_ERROR(CheckPositive("strides", strides));
  GRAPHGC_RETURN_IF_ERROR(CheckPositive("dilations", dilations));
  // ONNX's inference rounds up for any non-zero ceil_mode but, from opset 22, drops a window
  // starting in the padding only for 1: a value other than 0 and 1 has no single meaning.
  const int64_t ceil_mode_value = ctx.int_attribute("ceil_mode", 0);
  if (ceil_mode_value != 0 && ceil_mode_value != 1) {
    return Decline(absl::StrCat("ceil_mode ", ceil_mode_value, " (neither 0 nor 1)"));
  }
  const bool ceil_mode = ceil_mode_value == 1;
  const std::string auto_pad = ctx.string_attribute("auto_pad", "NOTSET");
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  if (!same && auto_pad != "NOTSET" && auto_pad != "VALID") {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'auto_pad' is \"", auto_pad, "\""));
  }

  // Pads as ONNX's shape inference derives them: explicit pads win; SAME splits the padding that
  // makes the output ceil(in / stride), the odd one at the end (UPPER) or the beginning (LOWER).
  std::vector<int64_t> pads(2 * spatial, 0);
  std::optional<std::vector<int64_t>> explicit_pads = ctx.ints_attribute("pads");
  if (explicit_pads.has_value()) {
    GRAPHGC_ASSIGN_OR_RETURN(pads, IntsOr(ctx, "pads", 2 * spatial, 0));
    for (int64_t p : pads) {
      if (p < 0 || p > kLargestExtent) return Decline(absl::StrCat("pads of ", p));
    }
    if (auto_pad != "NOTSET") return Decline("explicit pads together with auto_pad");
  } else if (same) {
    for (size_t i = 0; i < spatial; ++i) {
      if (dilations[i] != 1) return Decline("auto_pad SAME with dilations (ONNX Runtime rejects)");
      const int64_t residual = shape[2 + i] % strides[i];
      const int64_t total = kernel[i] - (residual == 0 ? strides[i] : residual);
      if (total < 0) return Decline("auto_pad SAME with a kernel smaller than the stride");
      const int64_t small = total / 2;
      pads[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      pads[i + spatial] = total - pads[i];
    }
  }

  PoolPlan plan;
  plan.planes = shape[0] * shape[1];
  plan.output_shape = {shape[0], shape[1]};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t effective_kernel = (kernel[i] - 1) * dilations[i] + 1;
    const int64_t room = shape[2 + i] + pads[i] + pads[i + spatial] - effective_kernel;
    if (room < 0) return Decline("a kernel larger than the padded input");
    plan.output_shape.push_back(
        OutputExtent(ctx.version(), ceil_mode, room, strides[i], shape[2 + i] + pads[i]));
  }
  // The windows take a few words per output position of each axis: with an output within the
  // budget they stay within a small multiple of it.
  int64_t outputs = 1;
  for (const int64_t dim : plan.output_shape) {
    outputs = dim > 0 && outputs > kLargestExtent * kLargestExtent / dim ? -1 : outputs * dim;
    if (outputs < 0) break;
  }
  if (outputs < 0 || !ctx.within_budget(DataType::kUint8, outputs)) {
    return absl::ResourceExhaustedError("the pooled output exceeds the value budget");
  }
  for (size_t i = 0; i < spatial; ++i) {
    // With no planes there is nothing to walk (and an empty axis has no window to check).
    const int64_t out = plan.planes == 0 ? 0 : plan.output_shape[2 + i];
    std::optional<PoolAxis> axis = MakeAxis(shape[2 + i], out, kernel[i], strides[i], dilations[i],
                                            pads[i], pads[i + spatial]);
    if (!axis.has_value()) return Decline("a pooling window lies wholly in the padding");
    plan.axes.push_back(*std::move(axis));
  }
  return plan;
}

PoolPlan MakeGlobalPlan(absl::Span<const int64_t> shape) {
  PoolPlan plan;
  plan.planes = shape[0] * shape[1];
  plan.output_shape = {shape[0], shape[1]};
  int64_t extent = 1;
  for (size_t i = 2; i < shape.size(); ++i) {
    extent *= shape[i];
    plan.output_shape.push_back(1);
  }
  plan.axes = {PoolAxis{.in = extent, .dilation = 1, .windows = {AxisWindow{0, extent, extent}}}};
  return plan;
}

}  // namespace graphgc::kernels
