// StridedWalk: steps through the positions of a shape in row-major order, keeping the offset of
// the current position in two stride systems (a source's and a destination's, say), without
// divisions.
//
//   StridedWalk walk(dims, source_strides, out_strides);
//   if (Product(dims) > 0) do { out[walk.b()] = source[walk.a()]; } while (walk.Next());
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_WALK_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_WALK_H_

#include <cstdint>

#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

class StridedWalk {
 public:
  // The strides have one entry per dim; `strides_b` may be empty (all zero).
  StridedWalk(absl::Span<const int64_t> dims, absl::Span<const int64_t> strides_a,
              absl::Span<const int64_t> strides_b = {})
      : dims_(dims.begin(), dims.end()),
        strides_a_(strides_a.begin(), strides_a.end()),
        strides_b_(strides_b.empty() ? Shape(dims.size(), 0)
                                     : Shape(strides_b.begin(), strides_b.end())),
        position_(dims.size(), 0) {}

  int64_t a() const { return a_; }
  int64_t b() const { return b_; }
  absl::Span<const int64_t> position() const { return position_; }

  // Moves to the next position; false (back at the first) after the last one.
  bool Next() {
    for (size_t k = dims_.size(); k-- > 0;) {
      a_ += strides_a_[k];
      b_ += strides_b_[k];
      if (++position_[k] < dims_[k]) return true;
      a_ -= strides_a_[k] * dims_[k];
      b_ -= strides_b_[k] * dims_[k];
      position_[k] = 0;
    }
    return false;
  }

 private:
  Shape dims_;
  Shape strides_a_;
  Shape strides_b_;
  Shape position_;
  int64_t a_ = 0;
  int64_t b_ = 0;
};

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_WALK_H_
