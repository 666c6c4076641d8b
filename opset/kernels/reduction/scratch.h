// Temporaries of the reduction kernels (accumulators, running rows, log-probabilities), counted
// against the value budget before anything is allocated, like the outputs.
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_SCRATCH_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_SCRATCH_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels {

// `count` value-initialized elements of C, or kResourceExhausted (no value) past the budget.
template <class C>
absl::StatusOr<std::vector<C>> AllocateScratch(const KernelContext& ctx, int64_t count) {
  constexpr DataType kType = DataTypeOf<C>::value;
  if (!ctx.within_budget(kType, count)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a temporary of ", count, " ", DataTypeName(kType), " values exceeds the value budget"));
  }
  return std::vector<C>(static_cast<size_t>(count));
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_SCRATCH_H_
