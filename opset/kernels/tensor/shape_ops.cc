// Shape and Size: values that follow from an input's shape alone (the input needs no value).
#include <algorithm>
#include <vector>

#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {
namespace {

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
  const int64_t end = std::max(start, clamp(ctx.int_attribute("end", rank)));
  const auto kept = dims->subspan(static_cast<size_t>(start), static_cast<size_t>(end - start));
  return KernelOutputs{
      Tensor::from_vector<int64_t>(std::vector<int64_t>(kept.begin(), kept.end()))};
}

KernelResult SizeKernel(const KernelContext& ctx) {
  std::optional<absl::Span<const int64_t>> dims = ctx.input_shape(0);
  if (!dims.has_value()) return Decline("the input's shape is not known");
  return KernelOutputs{Tensor::scalar<int64_t>(Product(*dims))};
}

}  // namespace

void RegisterShapeKernels(KernelTable& table) {
  // Only the input's shape matters: every element type, the narrow ones too.
  const KernelTypes any = {{"T", data_types::kMovable}};
  table.add("", "Shape", 1, KernelTable::kLatest, any, ShapeKernel);
  table.add("", "Size", 1, KernelTable::kLatest, any, SizeKernel);
}

}  // namespace graphgc::kernels
