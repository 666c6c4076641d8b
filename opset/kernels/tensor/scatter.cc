// Scatters: a copy of `data` with `updates` written at the positions `indices` address —
// Scatter/ScatterElements one element per index along an axis, ScatterND one slice per index
// tuple. From opset 16 `reduction` combines an update with the element it lands on (add, mul);
// updates apply in order, so with "none" the last of duplicate indices wins, as in ONNX Runtime.
// An index out of range makes the op fail, naming the indices input and the index.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/strided_walk.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class Reduction { kNone, kAdd, kMul };

absl::StatusOr<Reduction> ReadReduction(const KernelContext& ctx) {
  const std::string reduction = ctx.string_attribute("reduction", "none");
  if (reduction == "none") return Reduction::kNone;
  if (reduction == "add") return Reduction::kAdd;
  if (reduction == "mul") return Reduction::kMul;
  return absl::InvalidArgumentError(
      absl::StrCat("attribute 'reduction' is \"", reduction, "\", not none, add or mul"));
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
  GRAPHGC_ASSIGN_OR_RETURN(const Reduction reduction, ReadReduction(ctx));
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
      using internal::Load;
      using internal::Store;
      T* to = out.mutable_data<T>().data();
      const T* from = updates.data<T>().data();
      if (reduction == Reduction::kAdd) {
        ApplyBlocks(from, targets, block, to, [](T a, T b) {
          return Store<T>(internal::WrapAdd(Load<T>(a), Load<T>(b)));
        });
      } else {
        ApplyBlocks(from, targets, block, to, [](T a, T b) {
          return Store<T>(internal::WrapMul(Load<T>(a), Load<T>(b)));
        });
      }
    });
  }
  return KernelOutputs{std::move(out).freeze()};
}

// Scatter (opsets 9-10, deprecated at 11) and ScatterElements: updates[i_0, .., i_axis, ..]
// lands on out[i_0, .., indices[i_0, .., i_axis, ..], ..].
KernelResult ScatterElementsKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const Tensor& updates = ctx.input(2);
  if (data.rank() == 0 || indices.rank() != data.rank()) {
    return ctx.input_error(1, absl::StrCat("has shape ", ShapeToString(indices.shape()),
                                           ", not of the data's rank ", data.rank()));
  }
  if (updates.shape() != indices.shape()) {
    return ctx.input_error(2, absl::StrCat("has shape ", ShapeToString(updates.shape()),
                                           ", not the indices' ", ShapeToString(indices.shape())));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), data.rank()));
  for (int64_t d = 0; d < data.rank(); ++d) {
    const size_t k = static_cast<size_t>(d);
    if (d != axis && indices.shape()[k] > data.shape()[k]) {
      return ctx.input_error(1, absl::StrCat("has shape ", ShapeToString(indices.shape()),
                                             ", larger than the data's ",
                                             ShapeToString(data.shape()), " off the axis"));
    }
  }
  const size_t axis_k = static_cast<size_t>(axis);
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> targets,
                           ReadIndices(ctx, 1, indices, data.shape()[axis_k]));
  if (!targets.empty()) {
    Shape strides = ContiguousStrides(data.shape());
    const int64_t axis_stride = strides[axis_k];
    strides[axis_k] = 0;
    StridedWalk walk(indices.shape(), strides);
    size_t i = 0;
    do {
      targets[i] = walk.a() + targets[i] * axis_stride;
      ++i;
    } while (walk.Next());
  }
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
    return ctx.input_error(1, absl::StrCat("has tuples of ", k, " indices for data of rank ",
                                           data.rank()));
  }
  Shape update_dims(indices.shape().begin(), indices.shape().end() - 1);
  update_dims.insert(update_dims.end(), data.shape().begin() + k, data.shape().end());
  if (updates.shape() != absl::Span<const int64_t>(update_dims)) {
    return ctx.input_error(2, absl::StrCat("has shape ", ShapeToString(updates.shape()),
                                           ", not ", ShapeToString(update_dims)));
  }
  const Shape strides = ContiguousStrides(data.shape());
  const auto values = indices.data<int64_t>();
  std::vector<int64_t> targets(
      static_cast<size_t>(Product(indices.shape().subspan(0, static_cast<size_t>(q - 1)))), 0);
  for (size_t t = 0; t < targets.size(); ++t) {
    for (size_t j = 0; j < k; ++j) {
      GRAPHGC_ASSIGN_OR_RETURN(const int64_t index,
                               CheckIndex(ctx, 1, values[t * k + j], data.shape()[j]));
      targets[t] += index * strides[j];
    }
  }
  return ScatterBlocks(ctx, targets, Product(data.shape().subspan(k)));
}

}  // namespace

void RegisterScatterKernels(KernelTable& table) {
  table.add("", "Scatter", 9, KernelTable::kLatest, ScatterElementsKernel);
  table.add("", "ScatterElements", 11, KernelTable::kLatest, ScatterElementsKernel);
  table.add("", "ScatterND", 11, KernelTable::kLatest, ScatterNDKernel);
}

}  // namespace graphgc::kernels
