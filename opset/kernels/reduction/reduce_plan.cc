#include "graphgc/opset/kernels/reduction/reduce_plan.h"

#include "absl/strings/str_cat.h"

namespace graphgc::kernels {

absl::StatusOr<DimMask> ReducedDims(const std::optional<std::vector<int64_t>>& axes, int64_t rank,
                                    absl::string_view source) {
  if (!axes.has_value() || axes->empty()) return DimMask(static_cast<size_t>(rank), true);
  DimMask reduced(static_cast<size_t>(rank), false);
  for (int64_t axis : *axes) {
    if (axis < -rank || axis >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": axis ", axis, " is outside [", -rank, ", ", rank, ")"));
    }
    const size_t d = static_cast<size_t>(axis < 0 ? axis + rank : axis);
    if (reduced[d]) {
      return absl::InvalidArgumentError(absl::StrCat(source, ": axis ", axis, " is given twice"));
    }
    reduced[d] = true;
  }
  return reduced;
}

ReducePlan PlanReduction(absl::Span<const int64_t> shape, const DimMask& reduced, bool keepdims) {
  ReducePlan plan;
  plan.output_count = 1;
  plan.reduced_count = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t size = shape[d];
    if (reduced[d]) {
      plan.reduced_count *= size;
      if (keepdims) plan.output_shape.push_back(1);
    } else {
      plan.output_count *= size;
      plan.output_shape.push_back(size);
    }
    if (size == 1) continue;  // belongs to either kind: merging it away changes no offset
    if (!plan.dims.empty() && plan.is_reduced.back() == reduced[d]) {
      plan.dims.back() *= size;
    } else {
      plan.dims.push_back(size);
      plan.is_reduced.push_back(reduced[d]);
    }
  }
  if (plan.dims.empty()) {  // a scalar, or only size-1 dims: one run of one element
    plan.dims.push_back(1);
    plan.is_reduced.push_back(true);
  }
  const size_t n = plan.dims.size();
  plan.input_strides.assign(n, 0);
  plan.output_strides.assign(n, 0);
  int64_t input_stride = 1, output_stride = 1;
  for (size_t d = n; d-- > 0;) {
    plan.input_strides[d] = input_stride;
    input_stride *= plan.dims[d];
    if (!plan.is_reduced[d]) {
      plan.output_strides[d] = output_stride;
      output_stride *= plan.dims[d];
    }
  }
  return plan;
}

}  // namespace graphgc::kernels
