// Slice: a strided view of the data. starts/ends/axes are attributes before opset 10 and inputs
// (with steps) from 10; each start and end counts from the end when negative and is clamped to
// the dim as ONNX specifies (to [0, dim] going forward, to [0, dim-1] / [-1, dim-1] backward).
// A backward slice ending at INT_MAX declines: ONNX Runtime reads it as "to the first element".
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/strided_view.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

struct SliceArguments {
  std::vector<int64_t> starts;
  std::vector<int64_t> ends;
  std::vector<int64_t> axes;
  std::vector<int64_t> steps;
};

// An error about argument `name`: input `input` from opset 10, the attribute before.
absl::Status ArgumentError(const KernelContext& ctx, int input, absl::string_view name,
                           absl::string_view why) {
  if (ctx.version() >= 10) return ctx.input_error(input, why);
  return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "': ", why));
}

absl::StatusOr<SliceArguments> ReadSliceArguments(const KernelContext& ctx, int64_t rank) {
  SliceArguments args;
  if (ctx.version() >= 10) {
    args.starts = ReadInt64s(ctx.input(1));
    args.ends = ReadInt64s(ctx.input(2));
    if (const Tensor* axes = ctx.optional_input(3)) args.axes = ReadInt64s(*axes);
    if (const Tensor* steps = ctx.optional_input(4)) args.steps = ReadInt64s(*steps);
  } else {
    args.starts = ctx.ints_attribute("starts").value_or(std::vector<int64_t>());
    args.ends = ctx.ints_attribute("ends").value_or(std::vector<int64_t>());
    args.axes = ctx.ints_attribute("axes").value_or(std::vector<int64_t>());
  }
  const size_t count = args.starts.size();
  if (args.ends.size() != count) {
    return ArgumentError(ctx, 2, "ends",
                         absl::StrCat("has ", args.ends.size(), " values, starts has ", count));
  }
  if (args.axes.empty() && (ctx.version() < 10 || !ctx.has_input(3))) {
    for (size_t i = 0; i < count; ++i) args.axes.push_back(static_cast<int64_t>(i));
  }
  if (args.steps.empty() && !ctx.has_input(4)) args.steps.assign(count, 1);
  if (args.axes.size() != count) {
    return ArgumentError(ctx, 3, "axes",
                         absl::StrCat("has ", args.axes.size(), " values, starts has ", count));
  }
  if (args.steps.size() != count) {
    return ctx.input_error(4,
                           absl::StrCat("has ", args.steps.size(), " values, starts has ", count));
  }
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < count; ++i) {
    int64_t& axis = args.axes[i];
    if (axis < -rank || axis >= rank) {
      return ArgumentError(ctx, 3, "axes",
                           absl::StrCat("axis ", axis, " is outside [", -rank, ", ", rank, ")"));
    }
    if (axis < 0) axis += rank;
    if (seen[static_cast<size_t>(axis)]) {
      return ArgumentError(ctx, 3, "axes", absl::StrCat("axis ", axis, " appears twice"));
    }
    seen[static_cast<size_t>(axis)] = true;
    if (args.steps[i] == 0) return ctx.input_error(4, "a step is 0");
  }
  return args;
}

// Whether ONNX and ONNX Runtime disagree on the slice: an end of INT32_MAX or INT64_MAX going
// backward is clamped to the dim by ONNX (an empty slice, as numpy and ONNX's inference have it)
// but means "to the first element" in ONNX Runtime.
bool EndIsAmbiguous(int64_t dim, int64_t end, int64_t step) {
  return dim > 0 && step < 0 &&
         (end == std::numeric_limits<int32_t>::max() || end == std::numeric_limits<int64_t>::max());
}

// Narrows dim `axis` of `view` to start:end:step (ONNX's clamping).
void SliceAxis(StridedView& view, size_t axis, int64_t start, int64_t end, int64_t step) {
  const int64_t dim = view.dims[axis];
  if (dim == 0) return;
  // A step past the dim takes at most one element either way; clamping it keeps the stride
  // product from overflowing.
  step = std::clamp<int64_t>(step, -std::max<int64_t>(dim, 1), std::max<int64_t>(dim, 1));
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  int64_t count;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    count = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    count = start > end ? (start - end - step - 1) / -step : 0;
  }
  if (count > 0) view.offset += start * view.strides[axis];
  view.dims[axis] = count;
  view.strides[axis] *= step;
}

KernelResult SliceKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const SliceArguments args, ReadSliceArguments(ctx, data.rank()));
  StridedView view = ContiguousView(data.shape());
  for (size_t i = 0; i < args.axes.size(); ++i) {
    if (EndIsAmbiguous(view.dims[static_cast<size_t>(args.axes[i])], args.ends[i], args.steps[i])) {
      return Decline("a backward Slice to INT_MAX, empty in ONNX but not in ONNX Runtime");
    }
    SliceAxis(view, static_cast<size_t>(args.axes[i]), args.starts[i], args.ends[i], args.steps[i]);
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), view.dims));
  CopyView(data, view, out);
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterSliceKernels(KernelTable& table) {
  // Elements are moved by their size: every type, the narrow ones too.
  using data_types::kMovable;
  // starts, ends, axes and steps: attributes before opset 10, int32 or int64 inputs (Tind) from 10.
  table.add("", "Slice", 1, 9, {{"T", kMovable}}, SliceKernel);
  table.add("", "Slice", 10, KernelTable::kLatest,
            {{"T", kMovable}, {"Tind", data_types::kIndices}}, SliceKernel);
}

}  // namespace graphgc::kernels
