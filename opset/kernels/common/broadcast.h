// Multidirectional (numpy) broadcasting: shape inference with unknown dims, and the strides a
// kernel needs to walk broadcast operands.
#ifndef GRAPHGC_BROADCAST_H_
#define GRAPHGC_BROADCAST_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// The broadcast of two shapes whose dims may be -1 (unknown). nullopt ranks give nullopt. An error
// message names the mismatching dimension; callers prefix the op and input names.
absl::StatusOr<std::optional<Shape>> BroadcastShapes(const std::optional<Shape>& a,
                                                     const std::optional<Shape>& b);
// The same, written into `out` (the hot path of elementwise ops: no copies of the result).
absl::Status BroadcastShapesInto(const std::optional<Shape>& a, const std::optional<Shape>& b,
                                 std::optional<Shape>& out);

// Strides (in elements) of `shape` viewed as `out_shape` under broadcasting: 0 along broadcast
// dims. `shape` must broadcast to `out_shape`.
Shape BroadcastStrides(absl::Span<const int64_t> shape, absl::Span<const int64_t> out_shape);

// "[2,?,3]" or "unknown rank".
std::string DescribeShape(const std::optional<Shape>& shape);

}  // namespace graphgc::internal

#endif  // GRAPHGC_BROADCAST_H_
