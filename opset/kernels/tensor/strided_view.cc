#include "graphgc/opset/kernels/tensor/strided_view.h"

#include <algorithm>

#include "graphgc/opset/kernels/tensor/strided_walk.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {
namespace {

// Blocks of a transposition: 8 source rows at a time (no more than L1's ways, since rows a power
// of two apart share a cache set), each read one cache line at a time.
constexpr int64_t kStridedRows = 8;
template <class T>
constexpr int64_t kLineElements = std::max<int64_t>(64 / static_cast<int64_t>(sizeof(T)), 8);

// The same view over as few, as long rows as possible: dims of size 1 dropped, and a dim merged
// into its outer neighbour when the two walk the source as one (broadcast dims included).
StridedView Simplified(const StridedView& view) {
  StridedView out;
  out.offset = view.offset;
  for (size_t k = 0; k < view.dims.size(); ++k) {
    if (view.dims[k] == 1) continue;
    if (!out.dims.empty() && out.strides.back() == view.strides[k] * view.dims[k]) {
      out.dims.back() *= view.dims[k];
      out.strides.back() = view.strides[k];
    } else {
      out.dims.push_back(view.dims[k]);
      out.strides.push_back(view.strides[k]);
    }
  }
  return out;
}

template <class T>
void CopyRow(const T* source, int64_t stride, int64_t count, T* out) {
  if (stride == 1) {
    std::copy_n(source, count, out);
  } else if (stride == 0) {
    std::fill_n(out, count, *source);
  } else {
    for (int64_t i = 0; i < count; ++i) out[i] = source[i * stride];
  }
}

// out[a * out_stride + b] = source[a + b * source_stride] for a < rows, b < cols, block by block
// so that the source lines being read stay in cache.
template <class T>
void TransposeRows(const T* source, int64_t source_stride, int64_t rows, int64_t cols, T* out,
                   int64_t out_stride) {
  for (int64_t a0 = 0; a0 < rows; a0 += kLineElements<T>) {
    const int64_t a1 = std::min(rows, a0 + kLineElements<T>);
    for (int64_t b0 = 0; b0 < cols; b0 += kStridedRows) {
      const int64_t b1 = std::min(cols, b0 + kStridedRows);
      for (int64_t a = a0; a < a1; ++a) {
        T* row = out + a * out_stride;
        const T* column = source + a;
        for (int64_t b = b0; b < b1; ++b) row[b] = column[b * source_stride];
      }
    }
  }
}

// `view` is simplified and has at least one element.
template <class T>
void CopySimplifiedView(const T* source, const StridedView& view, T* out) {
  const size_t rank = view.dims.size();
  if (rank == 0) {
    *out = source[view.offset];
    return;
  }
  const Shape out_strides = ContiguousStrides(view.dims);
  const size_t inner = rank - 1;
  const int64_t inner_stride = view.strides[inner];
  // When the source's contiguous dim is an outer dim of the view (a transposition), the rows
  // are copied in blocks over that dim and the innermost one.
  size_t unit = rank;
  if (inner_stride != 1 && inner_stride != 0) {
    for (size_t k = 0; k < inner; ++k) {
      if (view.strides[k] == 1) unit = k;
    }
  }
  Shape outer_dims, outer_source, outer_out;
  for (size_t k = 0; k < inner; ++k) {
    if (k == unit) continue;
    outer_dims.push_back(view.dims[k]);
    outer_source.push_back(view.strides[k]);
    outer_out.push_back(out_strides[k]);
  }
  StridedWalk walk(outer_dims, outer_source, outer_out);
  do {
    const T* from = source + view.offset + walk.a();
    T* to = out + walk.b();
    if (unit < rank) {
      TransposeRows(from, inner_stride, view.dims[unit], view.dims[inner], to, out_strides[unit]);
    } else {
      CopyRow(from, inner_stride, view.dims[inner], to);
    }
  } while (walk.Next());
}

}  // namespace

StridedView ContiguousView(absl::Span<const int64_t> dims) {
  return StridedView{0, Shape(dims.begin(), dims.end()), ContiguousStrides(dims)};
}

StridedView PermutedView(const StridedView& view, absl::Span<const int64_t> perm) {
  StridedView out;
  out.offset = view.offset;
  for (int64_t axis : perm) {
    out.dims.push_back(view.dims[static_cast<size_t>(axis)]);
    out.strides.push_back(view.strides[static_cast<size_t>(axis)]);
  }
  return out;
}

void CopyView(const Tensor& source, const StridedView& view, MutableTensor& out) {
  if (out.size() == 0) return;
  const StridedView simplified = Simplified(view);
  DispatchByElementSize(source.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    CopySimplifiedView(ElementsOf<T>(source), simplified, MutableElementsOf<T>(out));
  });
}

}  // namespace graphgc::kernels
