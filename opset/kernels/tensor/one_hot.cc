// OneHot: `indices` (any numeric type, cast to int64) expanded along a new dim of size `depth`
// holding values[1] (on) at the index and values[0] (off) elsewhere. Indices outside the range
// give all-off rows: opset 11 takes [-depth, depth), negative ones from the end. Opset 9 takes
// [0, depth), but ONNX Runtime counts negative ones from the end there too: a negative index in
// range at opset 9 declines.
#include <cmath>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Doubles at or past this bound do not fit int64 (2^63).
constexpr double kInt64Bound = 0x1p63;

// The positions the indices select along the new dim, or -1 for an all-off row; a Decline for a
// negative index in range when negative indices are not counted from the end (opset 9).
absl::StatusOr<std::vector<int64_t>> OnPositions(const Tensor& indices, int64_t depth,
                                                 bool negative_from_end) {
  std::vector<int64_t> positions(static_cast<size_t>(indices.size()), -1);
  bool ambiguous = false;
  internal::DispatchNumeric(indices.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto values = indices.data<T>();
    for (size_t i = 0; i < positions.size(); ++i) {
      int64_t index;
      if constexpr (std::is_floating_point_v<internal::ComputeType<T>>) {
        const double value = std::trunc(static_cast<double>(internal::Load<T>(values[i])));
        if (!(value > -kInt64Bound && value < kInt64Bound)) continue;  // NaN, inf: off
        index = static_cast<int64_t>(value);
      } else if constexpr (std::is_same_v<T, uint64_t>) {
        if (values[i] >= static_cast<uint64_t>(depth)) continue;
        index = static_cast<int64_t>(values[i]);
      } else {
        index = static_cast<int64_t>(values[i]);
      }
      if (index < 0 && index >= -depth) {
        ambiguous = ambiguous || !negative_from_end;
        index += depth;
      }
      if (index >= 0 && index < depth) positions[i] = index;
    }
  });
  if (ambiguous) return Decline("OneHot-9 with a negative index: ONNX and ONNX Runtime differ");
  return positions;
}

KernelResult OneHotKernel(const KernelContext& ctx) {
  const Tensor& indices = ctx.input(0);
  const Tensor& depth_input = ctx.input(1);
  const Tensor& values = ctx.input(2);
  if (depth_input.size() != 1) return ctx.input_error(1, "must hold one element");
  if (values.size() != 2) return ctx.input_error(2, "must hold two elements (off, on)");
  const double depth_value = std::trunc(ScalarAsDouble(depth_input));
  if (!(depth_value >= 1)) {
    return ctx.input_error(1, absl::StrCat("depth ", depth_value, " is not positive"));
  }
  if (depth_value >= kInt64Bound) return absl::ResourceExhaustedError("OneHot depth too large");
  const int64_t depth = static_cast<int64_t>(depth_value);
  const int64_t rank = indices.rank();
  int64_t axis = ctx.int_attribute("axis", -1);
  if (axis < -rank - 1 || axis > rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'axis' is ", axis, ", outside [", -rank - 1, ", ", rank, "]"));
  }
  if (axis < 0) axis += rank + 1;
  Shape dims(indices.shape().begin(), indices.shape().end());
  dims.insert(dims.begin() + axis, depth);
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> positions,
                           OnPositions(indices, depth, ctx.version() >= 11));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(values.dtype(), dims));
  // out viewed as [outer, depth, inner]; the indices as [outer, inner].
  const int64_t inner = Product(indices.shape().subspan(static_cast<size_t>(axis)));
  DispatchByElementSize(values.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* off_on = ElementsOf<T>(values);
    T* to = MutableElementsOf<T>(out);
    std::fill_n(to, out.size(), off_on[0]);
    for (size_t i = 0; i < positions.size(); ++i) {
      if (positions[i] < 0) continue;
      const int64_t outer = static_cast<int64_t>(i) / inner;
      const int64_t within = static_cast<int64_t>(i) % inner;
      to[(outer * depth + positions[i]) * inner + within] = off_on[1];
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterOneHotKernels(KernelTable& table) {
  // The values (T3) are copied whatever their type; indices (T1) and depth (T2) are read as any
  // numeric type.
  table.add("", "OneHot", 9, KernelTable::kLatest,
            {{"T3", data_types::kAll}, {"T1", data_types::kNumeric}, {"T2", data_types::kNumeric}},
            OneHotKernel);
}

}  // namespace graphgc::kernels
