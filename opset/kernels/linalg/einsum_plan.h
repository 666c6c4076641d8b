// Einsum's equation bound to its operands' shapes: which label each axis carries, every label's
// size, and the output's labels. Pure bookkeeping; einsum.cc computes.
//
//   "bij,bjk->bik" with shapes [2,3,4] and [2,4,5]: labels b, i, j, k of sizes 2, 3, 4, 5; output
//   labels b, i, k.
//
// Labels are small ints: 'A'-'Z' are 0-25 and 'a'-'z' 26-51 (so ascending ids are ASCII order),
// and the dims an ellipsis stands for are kEllipsisLabel + 0, 1, ... (right-aligned across
// operands, broadcast like numpy). A label of size 1 in one operand broadcasts against a larger
// size of the same label in another, as in numpy and ONNX Runtime.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_EINSUM_PLAN_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_EINSUM_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::linalg {

inline constexpr int kEllipsisLabel = 52;

struct EinsumPlan {
  // Per operand, the label of each axis (a label repeats for a diagonal).
  std::vector<std::vector<int>> operand_labels;
  // The size of each label (indexed by label; 0 for labels that do not occur).
  std::vector<int64_t> label_sizes;
  std::vector<int> output_labels;
  Shape output_shape;
};

// The plan for `equation` over operands of `shapes` (the inputs of `ctx`). A malformed equation,
// a term that does not fit its operand's rank or sizes that do not broadcast make the op fail;
// forms ONNX leaves undefined (an implicit output with upper-case labels, operand ellipsis dims
// missing from an explicit output) are declined.
absl::StatusOr<EinsumPlan> PlanEinsum(const KernelContext& ctx, absl::string_view equation,
                                      absl::Span<const absl::Span<const int64_t>> shapes);

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_EINSUM_PLAN_H_
