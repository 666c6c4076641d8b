// BroadcastRows: the elements of a numpy (multidirectional) broadcast of N inputs, visited as rows.
//
//   const BroadcastRows<2> rows({a.shape(), b.shape()}, out_shape);
//   rows.for_each_row([&](int64_t out, const std::array<int64_t, 2>& in) {
//     for (int64_t j = 0; j < rows.row_size(); ++j) {
//       c[out + j] = a[in[0] + (rows.moves(0) ? j : 0)] + b[in[1] + (rows.moves(1) ? j : 0)];
//     }
//   });
//
// Dims of size 1 are dropped and adjacent dims that every input walks alike are merged first, so a
// same-shape broadcast is one row of all the elements, a tensor with a scalar is one row along
// which the scalar does not move, and [N,C,H,W] with [C,1,1] is N*C rows of H*W. Along a row an
// input either moves one element per step or stays put (it is broadcast along the row); from row
// to row an odometer over the outer dims adds strides, with no division per element. Which inputs
// move is the same for every row, so callers pick a specialized loop once (ForEachBroadcast in
// math/elementwise.h does).
#ifndef GRAPHGC_OPSET_KERNELS_COMMON_BROADCAST_ROWS_H_
#define GRAPHGC_OPSET_KERNELS_COMMON_BROADCAST_ROWS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// The merged dims of a broadcast, outermost first (at least one: rank 0 gives [1], an empty
// output [0]), and per input the element stride along each merged dim (0: broadcast).
struct BroadcastLayout {
  Shape dims;
  std::vector<Shape> strides;
};

// Every shape in `shapes` must broadcast to `out_shape`.
BroadcastLayout MergeBroadcastDims(absl::Span<const absl::Span<const int64_t>> shapes,
                                   absl::Span<const int64_t> out_shape);

template <size_t N>
class BroadcastRows {
 public:
  BroadcastRows(const std::array<absl::Span<const int64_t>, N>& shapes,
                absl::Span<const int64_t> out_shape)
      : layout_(MergeBroadcastDims(shapes, out_shape)) {
    row_size_ = layout_.dims.back();
    for (size_t d = 0; d + 1 < layout_.dims.size(); ++d) num_rows_ *= layout_.dims[d];
    for (size_t k = 0; k < N; ++k) moves_[k] = layout_.strides[k].back() != 0;
  }

  int64_t row_size() const { return row_size_; }
  int64_t num_rows() const { return num_rows_; }
  // Whether input k advances along a row (else it repeats one element across the row).
  bool moves(size_t k) const { return moves_[k]; }
  const std::array<bool, N>& moving_inputs() const { return moves_; }

  // f(out_offset, in_offsets) once per row, in output order: the row's first output element and
  // each input's element under it.
  template <class F>
  void for_each_row(F&& f) const {
    if (row_size_ == 0 || num_rows_ == 0) return;
    const size_t outer = layout_.dims.size() - 1;
    Shape index(outer, 0);
    std::array<int64_t, N> offsets{};
    int64_t out = 0;
    for (int64_t row = 0; row < num_rows_; ++row, out += row_size_) {
      f(out, offsets);
      for (size_t d = outer; d-- > 0;) {
        for (size_t k = 0; k < N; ++k) offsets[k] += layout_.strides[k][d];
        if (++index[d] < layout_.dims[d]) break;
        for (size_t k = 0; k < N; ++k) offsets[k] -= layout_.strides[k][d] * layout_.dims[d];
        index[d] = 0;
      }
    }
  }

 private:
  BroadcastLayout layout_;
  int64_t row_size_ = 0;
  int64_t num_rows_ = 1;
  std::array<bool, N> moves_{};
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_KERNELS_COMMON_BROADCAST_ROWS_H_
