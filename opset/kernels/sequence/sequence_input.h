// Reading sequence inputs and positions in them, for the sequence family's kernels.
#ifndef GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_INPUT_H_
#define GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_INPUT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::kernels {

// The elements of sequence input `index` (declines if the input is not a known sequence).
absl::StatusOr<const std::vector<Value>*> SequenceElements(const KernelContext& ctx, int index);

// The scalar position of input `index` (int32 or int64), negative counted from `count`, in
// [0, count + extra) once normalized, where `extra` is 1 for positions that may name the end
// (SequenceInsert) and 0 otherwise; an out-of-range position fails the op, naming the input.
absl::StatusOr<int64_t> ReadPosition(const KernelContext& ctx, int index, int64_t count,
                                     int64_t extra);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_INPUT_H_
