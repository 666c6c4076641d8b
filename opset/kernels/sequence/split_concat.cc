// SplitToSequence and ConcatFromSequence (opset 11): a tensor cut along an axis into a sequence,
// and a sequence joined (or stacked, new_axis = 1) along one.
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/sequence/sequence_input.h"
#include "graphgc/opset/kernels/sequence/sequence_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The sizes of the pieces SplitToSequence cuts an axis of `extent` into.
absl::StatusOr<std::vector<int64_t>> PieceSizes(const KernelContext& ctx, int64_t extent) {
  if (!ctx.has_input(1)) return std::vector<int64_t>(static_cast<size_t>(extent), 1);
  const Tensor& split = ctx.input(1);
  const std::vector<int64_t> given = ReadInt64s(split);
  if (split.rank() == 0) {
    const int64_t size = given[0];
    if (size <= 0) return ctx.input_error(1, absl::StrCat("split size ", size, " is not positive"));
    std::vector<int64_t> sizes;
    for (int64_t start = 0; start < extent; start += size) {
      sizes.push_back(std::min(size, extent - start));
    }
    return sizes;
  }
  int64_t total = 0;
  for (int64_t size : given) {
    if (size < 0) return ctx.input_error(1, absl::StrCat("split size ", size, " is negative"));
    total += size;
  }
  if (total != extent) {
    return ctx.input_error(
        1, absl::StrCat("split sizes add up to ", total, ", not to the axis's ", extent));
  }
  return given;
}

ValueKernelResult SplitToSequence(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis"), input.rank()));
  const int64_t extent = input.shape()[static_cast<size_t>(axis)];
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> sizes, PieceSizes(ctx, extent));
  const bool squeeze = !ctx.has_input(1) && ctx.int_attribute("keepdims", 1) == 0;
  const int64_t outer = Product(input.shape().subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = Product(input.shape().subspan(static_cast<size_t>(axis) + 1));
  std::vector<Value> pieces;
  int64_t start = 0;
  for (int64_t size : sizes) {
    Shape shape(input.shape().begin(), input.shape().end());
    shape[static_cast<size_t>(axis)] = size;
    if (squeeze) shape.erase(shape.begin() + axis);
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor piece, ctx.allocate(input.dtype(), shape));
    for (int64_t o = 0; o < outer; ++o) {
      CopyElements(input, (o * extent + start) * inner, piece, o * size * inner, size * inner);
    }
    pieces.emplace_back(std::move(piece).freeze());
    start += size;
  }
  return ValueOutputs{Value::Sequence(std::move(pieces))};
}

// The output shape of ConcatFromSequence, or the op's failure naming the mismatching element.
absl::StatusOr<Shape> JoinedShape(const KernelContext& ctx, const std::vector<Value>& elements,
                                  int64_t axis, bool new_axis) {
  const Tensor& first = elements[0].tensor();
  Shape shape(first.shape().begin(), first.shape().end());
  if (new_axis) {
    shape.insert(shape.begin() + axis, 0);
  } else {
    shape[static_cast<size_t>(axis)] = 0;
  }
  for (size_t i = 0; i < elements.size(); ++i) {
    const Tensor& element = elements[i].tensor();
    bool same = element.rank() == first.rank() && element.dtype() == first.dtype();
    for (int64_t d = 0; same && d < first.rank(); ++d) {
      same = d == axis && !new_axis ? true : element.shape()[d] == first.shape()[d];
    }
    if (!same) {
      return ctx.input_error(
          0, absl::StrCat("element ", i, " has shape ", ShapeToString(element.shape()),
                          ", which cannot be "
                          "joined with ",
                          ShapeToString(first.shape())));
    }
    shape[static_cast<size_t>(axis)] += new_axis ? 1 : element.shape()[static_cast<size_t>(axis)];
  }
  return shape;
}

ValueKernelResult ConcatFromSequence(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Value>* elements, SequenceElements(ctx, 0));
  if (elements->empty()) return ctx.input_error(0, "is empty: there is nothing to concatenate");
  for (const Value& element : *elements) {
    if (!element.is_tensor()) return Decline("a sequence of non-tensors");
  }
  const bool new_axis = ctx.int_attribute("new_axis") == 1;
  const int64_t rank = (*elements)[0].tensor().rank() + (new_axis ? 1 : 0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis"), rank));
  if (!new_axis && rank == 0) return ctx.input_error(0, "holds scalars, which cannot be joined");
  GRAPHGC_ASSIGN_OR_RETURN(const Shape shape, JoinedShape(ctx, *elements, axis, new_axis));
  const DataType dtype = (*elements)[0].tensor().dtype();
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(dtype, shape));
  const int64_t outer = Product(absl::Span<const int64_t>(shape).subspan(0, axis));
  int64_t written = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Value& element : *elements) {
      const Tensor& tensor = element.tensor();
      const int64_t chunk = outer == 0 ? 0 : tensor.size() / outer;
      CopyElements(tensor, o * chunk, out, written, chunk);
      written += chunk;
    }
  }
  return ValueOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterSequenceSplitKernels(KernelTable& table) {
  // Elements of any type are copied whole.
  const KernelTypes any = KernelTypes::Unconstrained();
  table.add_value_kernel("", "SplitToSequence", 11, KernelTable::kLatest, any, SplitToSequence);
  table.add_value_kernel("", "ConcatFromSequence", 11, KernelTable::kLatest, any,
                         ConcatFromSequence);
}

}  // namespace graphgc::kernels
