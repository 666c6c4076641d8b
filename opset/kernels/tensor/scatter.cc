// Scatters: a copy of `data` with `updates` written at the positions `indices` address —
// Scatter/ScatterElements one element per index along an axis, ScatterND one slice per index
// tuple. From opset 16 `reduction` combines an update with the element it lands on (add, mul; from
// 18 also max, min);
// updates apply in order, so with "none" the last of duplicate indices wins, as in ONNX Runtime.
// An index out of range makes the op fail, naming the indices input and the index.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/indexing.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };  // as listed to ChooseAttribute

// The reductions of the node's version: max and min from opset 18.
absl::StatusOr<Reduction> ChooseReduction(const KernelContext& ctx) {
  constexpr absl::string_view kAll[] = {"none", "add", "mul", "max", "min"};
  const size_t count = ctx.version() >= 18 ? 5 : 3;
  GRAPHGC_ASSIGN_OR_RETURN(const size_t index,
                           ChooseAttribute(ctx, "reduction", "none", absl::MakeSpan(kAll, count)));
  return static_cast<Reduction>(index);
}

// The combination of an element and an update under a numeric reduction.
template <class T>
T Combine(Reduction reduction, T a, T b) {
  using internal::Load;
  using internal::Store;
  switch (reduction) {
    case Reduction::kAdd:
      return Store<T>(internal::WrapAdd(Load<T>(a), Load<T>(b)));
    case Reduction::kMul:
      return Store<T>(internal::WrapMul(Load<T>(a), Load<T>(b)));
    case Reduction::kMax:
      return Load<T>(b) > Load<T>(a) ? b : a;
    case Reduction::kMin:
      return Load<T>(b) < Load<T>(a) ? b : a;
    case Reduction::kNone:
      break;
  }
  return b;
}

// Applies update block t (`block` elements of `updates`) at element offset targets[t] of `out`.
template <class T, class Combine>
void ApplyBlocks(const T* updates, absl::Span<const int64_t> targets, int64_t block, T* out,
                 Combine combine) {
  for (size_t t = 0; t < targets.size(); ++t) {
    T* to = out + targets[t];
    const T* from = updates + static_cast<int64_t>(t) * block;
    for (int64_t i = 0; i < block; ++i) to[i] = combine(to[i], from[i]);
  }
}

// A copy of input 0 (data) with the blocks of input 2 (updates) applied at `targets`.
KernelResult ScatterBlocks(const KernelContext& ctx, absl::Span<const int64_t> targets,
                           int64_t block) {
  const Tensor& data = ctx.input(0);
  const Tensor& updates = ctx.input(2);
  GRAPHGC_ASSIGN_OR_RETURN(const Reduction reduction, ChooseReduction(ctx));
  if (reduction != Reduction::kNone && !IsNumeric(data.dtype())) {
    return Decline(absl::StrCat("reduction on ", DataTypeName(data.dtype()), " elements"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), data.shape()));
  CopyElements(data, 0, out, 0, data.size());
  if (reduction == Reduction::kNone) {
    DispatchByElementSize(data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      ApplyBlocks(ElementsOf<T>(updates), targets, block, MutableElementsOf<T>(out),
                  [](const T&, const T& update) { return update; });
    });
  } else {
    internal::DispatchNumeric(data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      ApplyBlocks(updates.data<T>().data(), targets, block, out.mutable_data<T>().data(),
                  [reduction](T a, T b) { return Combine(reduction, a, b); });
    });
  }
  return KernelOutputs{std::move(out).freeze()};
}

// Scatter (opsets 9-10, deprecated at 11) and ScatterElements: updates[i_0, .., i_axis, ..]
// lands on out[i_0, .., indices[i_0, .., i_axis, ..], ..].
KernelResult ScatterElementsKernel(const KernelContext& ctx) {
  const Tensor& updates = ctx.input(2);
  if (updates.shape() != ctx.input(1).shape()) {
    return ctx.input_error(
        2, absl::StrCat("has shape ", ShapeToString(updates.shape()), ", not the indices' ",
                        ShapeToString(ctx.input(1).shape())));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> targets, ElementOffsets(ctx, ctx.input(0)));
  return ScatterBlocks(ctx, targets, 1);
}

// ScatterND: the slice updates[t, ...] lands on out[indices[t]], a tuple of the data's leading
// indices; updates has shape indices.shape[:-1] + data.shape[k:].
KernelResult ScatterNDKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  const int64_t q = indices.rank();
  if (q < 1) return ctx.input_error(1, "must have rank 1 or more");
  const size_t k = static_cast<size_t>(indices.shape()[static_cast<size_t>(q - 1)]);
  if (k > static_cast<size_t>(data.rank())) {
    return ctx.input_error(
        1, absl::StrCat("has tuples of ", k, " indices for data of rank ", data.rank()));
  }
  Shape update_dims(indices.shape().begin(), indices.shape().end() - 1);
  update_dims.insert(update_dims.end(), data.shape().begin() + k, data.shape().end());
  if (updates.shape() != absl::Span<const int64_t>(update_dims)) {
    return ctx.input_error(2, absl::StrCat("has shape ", ShapeToString(updates.shape()), ", not ",
                                           ShapeToString(update_dims)));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> targets, TupleOffsets(ctx, data.shape()));
  return ScatterBlocks(ctx, targets, Product(data.shape().subspan(k)));
}

}  // namespace

void RegisterScatterKernels(KernelTable& table) {
  // Every type (a reduction other than "none", from opset 16, declines the non-numeric ones).
  using data_types::kAll;
  const KernelTypes types = {{"T", kAll}, {"Tind", data_types::kIndices}};
  table.add("", "Scatter", 9, KernelTable::kLatest, types, ScatterElementsKernel);
  // Opset 18 adds the reductions max and min (ChooseReduction).
  table.add("", "ScatterElements", 11, kLastKnownOpset, types, ScatterElementsKernel);
  table.add("", "ScatterElements", 18, KernelTable::kLatest, types, ScatterElementsKernel);
  // ScatterND's indices are int64 only.
  table.add("", "ScatterND", 11, kLastKnownOpset, {{"T", kAll}}, ScatterNDKernel);
  table.add("", "ScatterND", 18, KernelTable::kLatest, {{"T", kAll}}, ScatterNDKernel);
}

}  // namespace graphgc::kernels
