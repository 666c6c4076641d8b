// Concat and Split: joining tensors along an axis and cutting one into parts along an axis.
// Both copy whole blocks: per index of the dims before the axis, a run of the rest.
#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Concat: the inputs' blocks one after another, per index of the dims before the axis (whose
// default is 1 in opset 1 and which is required from 4 on).
KernelResult ConcatKernel(const KernelContext& ctx) {
  const Tensor& first = ctx.input(0);
  const int64_t rank = first.rank();
  if (rank == 0) return ctx.input_error(0, "is a scalar; Concat needs rank 1 or more");
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 1), rank));
  const size_t axis_k = static_cast<size_t>(axis);
  Shape out_dims(first.shape().begin(), first.shape().end());
  out_dims[axis_k] = 0;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const auto dims = ctx.input(i).shape();
    bool fits = static_cast<int64_t>(dims.size()) == rank;
    for (size_t d = 0; fits && d < dims.size(); ++d) fits = d == axis_k || dims[d] == out_dims[d];
    if (!fits) {
      return ctx.input_error(
          i, absl::StrCat("has shape ", ShapeToString(dims), ", which does not match input 0's ",
                          ShapeToString(first.shape()), " off axis ", axis));
    }
    out_dims[axis_k] += dims[axis_k];
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(first.dtype(), out_dims));
  const int64_t outer = Product(first.shape().subspan(0, axis_k));
  DispatchByElementSize(first.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* to = MutableElementsOf<T>(out);
    for (int64_t o = 0; o < outer; ++o) {
      for (int i = 0; i < ctx.num_inputs(); ++i) {
        const Tensor& part = ctx.input(i);
        const int64_t block = Product(part.shape().subspan(axis_k));
        to = std::copy_n(ElementsOf<T>(part) + o * block, block, to);
      }
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

// From opset 18 without `split`: num_outputs parts of ceil(extent / num_outputs), the last one
// smaller when the extent does not divide evenly.
absl::StatusOr<std::vector<int64_t>> CeilingLengths(const KernelContext& ctx, int64_t extent) {
  const int64_t parts = ctx.num_outputs();
  const int64_t wanted = ctx.int_attribute("num_outputs", parts);
  if (wanted != parts) {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'num_outputs' is ", wanted,
                                                   " but the node has ", parts, " outputs"));
  }
  const int64_t chunk = (extent + parts - 1) / parts;
  const int64_t last = extent - chunk * (parts - 1);
  if (last < 0) {  // 5 into 4: ONNX Runtime refuses, ONNX's reference gives [2, 2, 1, 0]
    return Decline(absl::StrCat("a dimension of ", extent, " in ", parts,
                                " parts (ONNX Runtime and ONNX's reference disagree)"));
  }
  std::vector<int64_t> lengths(static_cast<size_t>(parts), chunk);
  lengths.back() = last;
  return lengths;
}

// The lengths of Split's parts: the `split` attribute (before 13) or input (from 13), else equal
// parts, one per output (from 18, CeilingLengths). Empty `split` counts as absent, as in ONNX
// Runtime.
absl::StatusOr<std::vector<int64_t>> SplitLengths(const KernelContext& ctx, int64_t extent) {
  std::vector<int64_t> lengths;
  if (ctx.version() >= 13) {
    if (const Tensor* split = ctx.optional_input(1)) lengths = ReadInt64s(*split);
  } else if (auto split = ctx.ints_attribute("split")) {
    lengths = *std::move(split);
  }
  const int64_t parts = ctx.num_outputs();
  if (lengths.empty() && ctx.version() >= 18) return CeilingLengths(ctx, extent);
  if (lengths.empty()) {
    if (extent % parts != 0) {
      return ctx.input_error(
          0, absl::StrCat("its dimension of ", extent, " along the axis does not split into ",
                          parts, " equal parts"));
    }
    return std::vector<int64_t>(static_cast<size_t>(parts), extent / parts);
  }
  const bool nonnegative =
      std::all_of(lengths.begin(), lengths.end(), [](int64_t n) { return n >= 0; });
  if (static_cast<int64_t>(lengths.size()) != parts || !nonnegative ||
      std::accumulate(lengths.begin(), lengths.end(), int64_t{0}) != extent) {
    const std::string why =
        absl::StrCat("split [", absl::StrJoin(lengths, ","), "] does not cut a dimension of ",
                     extent, " into ", parts, " parts");
    if (ctx.version() >= 13) return ctx.input_error(1, why);
    return absl::InvalidArgumentError(why);
  }
  return lengths;
}

KernelResult SplitKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  if (input.rank() == 0) return ctx.input_error(0, "is a scalar; Split needs rank 1 or more");
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), input.rank()));
  const size_t axis_k = static_cast<size_t>(axis);
  const int64_t extent = input.shape()[axis_k];
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> lengths, SplitLengths(ctx, extent));
  std::vector<MutableTensor> parts;
  for (int64_t length : lengths) {
    Shape dims(input.shape().begin(), input.shape().end());
    dims[axis_k] = length;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor part, ctx.allocate(input.dtype(), dims));
    parts.push_back(std::move(part));
  }
  const int64_t outer = Product(input.shape().subspan(0, axis_k));
  const int64_t inner = Product(input.shape().subspan(axis_k + 1));
  KernelOutputs outputs;
  int64_t start = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const int64_t block = lengths[i] * inner;
    for (int64_t o = 0; o < outer; ++o) {
      CopyElements(input, (o * extent + start) * inner, parts[i], o * block, block);
    }
    start += lengths[i];
    outputs.push_back(std::move(parts[i]).freeze());
  }
  return outputs;
}

}  // namespace

void RegisterConcatSplitKernels(KernelTable& table) {
  // Elements are moved by their size: every type, the narrow ones too.
  using data_types::kMovable;
  table.add("", "Concat", 1, KernelTable::kLatest, {{"T", kMovable}}, ConcatKernel);
  table.add("", "Split", 2, kLastKnownOpset, {{"T", kMovable}}, SplitKernel);
  // Opset 18 adds num_outputs (uneven splits: CeilingLengths).
  table.add("", "Split", 18, KernelTable::kLatest, {{"T", kMovable}}, SplitKernel);
}

}  // namespace graphgc::kernels
