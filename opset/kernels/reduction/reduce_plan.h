// How a multi-axis reduction (ReduceSum, ReduceMax, ...) walks its input.
//
// Adjacent dims that are both reduced or both kept are merged and size-1 dims dropped, so a
// reduction of [8,1024,1024] over axis 1 becomes [8 kept, 1024 reduced, 1024 kept]. The walk is
// an odometer over the merged dims but the innermost, whose contiguous run is handed to the
// caller whole: a reduced run folds into one output element, a kept run folds element-wise into a
// row of outputs. So the hot loops are tight and contiguous, and index arithmetic is paid once
// per run, never per element.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCE_PLAN_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCE_PLAN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

using DimMask = absl::InlinedVector<bool, 6>;

struct ReducePlan {
  Shape output_shape;
  int64_t output_count = 0;
  int64_t reduced_count = 0;  // input elements folded into each output element

  // The merged view (never empty). Output offsets advance along kept dims only.
  Shape dims;
  DimMask is_reduced;
  Shape input_strides;
  Shape output_strides;  // 0 along reduced dims

  int64_t run_length() const { return dims.back(); }
  bool run_is_reduced() const { return is_reduced.back(); }
};

// The dims `axes` names, negative ones counted from the back; every dim when `axes` is nullopt or
// empty. An axis outside [-rank, rank) or named twice is an InvalidArgument naming `source`
// ("attribute 'axes'", "input 1 (axes)") and the axis.
absl::StatusOr<DimMask> ReducedDims(const std::optional<std::vector<int64_t>>& axes, int64_t rank,
                                    absl::string_view source);

// Reducing `shape` over the dims in `reduced`; keepdims keeps them as size 1.
ReducePlan PlanReduction(absl::Span<const int64_t> shape, const DimMask& reduced, bool keepdims);

// Calls run(input_offset, output_offset) for every innermost run of plan.run_length() elements,
// in row-major input order. The plan's input must not be empty.
template <class Run>
void ForEachRun(const ReducePlan& plan, Run&& run) {
  const size_t outer_dims = plan.dims.size() - 1;
  const int64_t length = plan.run_length();
  int64_t runs = 1;
  for (size_t d = 0; d < outer_dims; ++d) runs *= plan.dims[d];
  absl::InlinedVector<int64_t, 6> index(outer_dims, 0);
  int64_t out = 0;
  for (int64_t r = 0, in = 0; r < runs; ++r, in += length) {
    run(in, out);
    for (size_t d = outer_dims; d-- > 0;) {
      out += plan.output_strides[d];
      if (++index[d] < plan.dims[d]) break;
      out -= plan.output_strides[d] * plan.dims[d];
      index[d] = 0;
    }
  }
}

// Calls visit(output_offset, input_offset) for every output element, in order, with the offset
// of the first input element folded into it (every reduced index 0).
template <class Visit>
void ForEachOutputFirst(const ReducePlan& plan, Visit&& visit) {
  absl::InlinedVector<int64_t, 6> sizes, strides;
  for (size_t d = 0; d < plan.dims.size(); ++d) {
    if (plan.is_reduced[d]) continue;
    sizes.push_back(plan.dims[d]);
    strides.push_back(plan.input_strides[d]);
  }
  if (sizes.empty()) {
    visit(int64_t{0}, int64_t{0});
    return;
  }
  const size_t last = sizes.size() - 1;
  absl::InlinedVector<int64_t, 6> index(last, 0);
  int64_t in = 0;
  for (int64_t out = 0; out < plan.output_count;) {
    for (int64_t j = 0; j < sizes[last]; ++j) visit(out++, in + j * strides[last]);
    for (size_t d = last; d-- > 0;) {
      in += strides[d];
      if (++index[d] < sizes[d]) break;
      in -= strides[d] * sizes[d];
      index[d] = 0;
    }
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_REDUCE_PLAN_H_
