// Gathers: Gather (whole slices along an axis), GatherElements (one element per index, along an
// axis), GatherND (slices addressed by index tuples, after batch_dims shared leading dims).
// An index out of range makes the op fail, naming the indices input and the index.
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/indexing.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Copies rows `indices` of `block` ([extent, inner]) to `to`, counting negative indices from
// the end; returns the position of the first index out of range, or -1. One pass: the check
// rides along with the copy, and one unsigned comparison sends both negative and out-of-range
// indices off the hot path.
template <class Index, class T>
int64_t GatherRows(absl::Span<const Index> indices, int64_t extent, const T* block, int64_t inner,
                   T* to) {
  const int64_t count = static_cast<int64_t>(indices.size());
  for (int64_t i = 0; i < count; ++i) {
    int64_t row = indices[static_cast<size_t>(i)];
    if (static_cast<uint64_t>(row) >= static_cast<uint64_t>(extent)) [[unlikely]] {
      if (row >= 0 || row < -extent) return i;
      row += extent;
    }
    if (inner == 1) {
      to[i] = block[row];
    } else {
      std::copy_n(block + row * inner, inner, to + i * inner);
    }
  }
  return -1;
}

// Gather along `axis`: out[outer, index, inner] = data[outer, indices[index], inner].
KernelResult GatherKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (data.rank() == 0) return ctx.input_error(0, "must have rank 1 or more, not be a scalar");
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), data.rank()));
  const auto dims = data.shape();
  const int64_t extent = dims[static_cast<size_t>(axis)];
  Shape out_dims(dims.begin(), dims.begin() + axis);
  out_dims.insert(out_dims.end(), indices.shape().begin(), indices.shape().end());
  out_dims.insert(out_dims.end(), dims.begin() + axis + 1, dims.end());
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), out_dims));
  const int64_t outer = Product(dims.subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = Product(dims.subspan(static_cast<size_t>(axis) + 1));
  const int64_t block_out = indices.size() * inner;
  int64_t bad = -1;
  DispatchByElementSize(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = ElementsOf<T>(data);
    T* to = MutableElementsOf<T>(out);
    for (int64_t o = 0; o < outer && bad < 0; ++o) {
      const T* block = from + o * extent * inner;
      T* target = to + o * block_out;
      bad = indices.dtype() == DataType::kInt64
                ? GatherRows(indices.data<int64_t>(), extent, block, inner, target)
                : GatherRows(indices.data<int32_t>(), extent, block, inner, target);
    }
  });
  if (bad >= 0) {
    return CheckIndex(ctx, 1, ReadInt64s(indices)[static_cast<size_t>(bad)], extent).status();
  }
  return KernelOutputs{std::move(out).freeze()};
}

// Copies data[offsets[i] + j] for j < slice, for each offset in turn.
KernelResult GatherSlices(const KernelContext& ctx, absl::Span<const int64_t> offsets,
                          int64_t slice, absl::Span<const int64_t> out_dims) {
  const Tensor& data = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), out_dims));
  DispatchByElementSize(data.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = ElementsOf<T>(data);
    T* to = MutableElementsOf<T>(out);
    if (slice == 1) {
      for (size_t i = 0; i < offsets.size(); ++i) to[i] = from[offsets[i]];
    } else {
      for (int64_t offset : offsets) to = std::copy_n(from + offset, slice, to);
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

// GatherElements: out[i_0, .., i_axis, ..] = data[i_0, .., indices[i_0, .., i_axis, ..], ..];
// the output has the indices' shape, which may be smaller than the data's off the axis.
KernelResult GatherElementsKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> offsets, ElementOffsets(ctx, ctx.input(0)));
  return GatherSlices(ctx, offsets, 1, ctx.input(1).shape());
}

// GatherND: for each batch (the first batch_dims dims, shared by data and indices) and each
// index tuple (the indices' last dim), the data's slice at that tuple.
KernelResult GatherNDKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  const int64_t batch_dims = ctx.int_attribute("batch_dims", 0);
  const int64_t rank = data.rank();
  const int64_t q = indices.rank();
  if (q < 1) return ctx.input_error(1, "must have rank 1 or more");
  const int64_t k = indices.shape()[static_cast<size_t>(q - 1)];
  if (batch_dims < 0 || batch_dims >= std::min(rank, q)) {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'batch_dims' is ", batch_dims,
                                                   ", outside [0, min(data rank, indices rank))"));
  }
  if (k < 1 || k > rank - batch_dims) {
    return ctx.input_error(1, absl::StrCat("has tuples of ", k, " indices for data of rank ", rank,
                                           " with ", batch_dims, " batch dims"));
  }
  const auto data_dims = data.shape();
  const size_t b = static_cast<size_t>(batch_dims);
  for (size_t d = 0; d < b; ++d) {
    if (indices.shape()[d] != data_dims[d]) {
      return ctx.input_error(1, absl::StrCat("batch dim ", d, " is ", indices.shape()[d],
                                             ", the data's is ", data_dims[d]));
    }
  }
  const auto within_batch = data_dims.subspan(b);
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, TupleOffsets(ctx, within_batch));
  // Tuples of batch n address the n-th block of the data.
  const int64_t batch_size = Product(within_batch);
  const int64_t tuples = Product(indices.shape().subspan(b, static_cast<size_t>(q - 1) - b));
  for (size_t t = 0; t < offsets.size(); ++t) {
    offsets[t] += static_cast<int64_t>(t) / tuples * batch_size;
  }
  Shape out_dims(indices.shape().begin(), indices.shape().end() - 1);
  out_dims.insert(out_dims.end(), data_dims.begin() + batch_dims + k, data_dims.end());
  return GatherSlices(ctx, offsets, Product(data_dims.subspan(b + static_cast<size_t>(k))),
                      out_dims);
}

}  // namespace

void RegisterGatherKernels(KernelTable& table) {
  // Elements are moved by their size (DispatchByElementSize): every type, the narrow ones too.
  using data_types::kMovable;
  const KernelTypes types = {{"T", kMovable}, {"Tind", data_types::kIndices}};
  table.add("", "Gather", 1, KernelTable::kLatest, types, GatherKernel);
  table.add("", "GatherElements", 11, KernelTable::kLatest, types, GatherElementsKernel);
  // GatherND's indices are int64 only.
  table.add("", "GatherND", 11, KernelTable::kLatest, {{"T", kMovable}}, GatherNDKernel);
}

}  // namespace graphgc::kernels
