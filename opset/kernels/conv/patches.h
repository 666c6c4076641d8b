// The column matrix of a convolution (im2col) and its adjoint (col2im), over any spatial rank.
//
// The column matrix of one group of an image has a row per (channel, kernel offset) and a column
// per patch position (conv_geometry.h); element (r, o) is the image element the kernel offset of
// row r covers at position o, or padding where that falls outside the image. Conv multiplies W
// by it; ConvTranspose computes it from W and X and adds it back into the image.
#ifndef GRAPHGC_OPSET_KERNELS_CONV_PATCHES_H_
#define GRAPHGC_OPSET_KERNELS_CONV_PATCHES_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graphgc/opset/kernels/conv/conv_geometry.h"

namespace graphgc::kernels::conv {

// The lines of a column matrix: its columns grouped by the positions before the last axis, one
// line per row of positions along it (`width` columns each).
inline int64_t Lines(const PatchGeometry& g) {
  return g.columns() / std::max<int64_t>(g.positions.back(), 1);
}

// Calls run(column, count, image_index, image_step) for each run of `count` consecutive columns
// of the column matrix of lines [line_begin, line_end) (flattened row-major, starting at
// `column`) along the last spatial axis: column + i covers image element image_index + i *
// image_step, or padding when image_index is -1. Runs come in column order, so the walk writes
// the matrix sequentially.
template <class F>
void ForEachRun(const PatchGeometry& g, int64_t line_begin, int64_t line_end, F&& run) {
  // No lines: an image with an empty spatial axis, whose zero extent would divide below.
  if (line_begin >= line_end) return;
  const size_t rank = g.image.size();
  const size_t last = rank - 1;
  const int64_t width = g.positions[last], image_width = g.image[last], step = g.strides[last];
  const int64_t image_size = g.image_size(), kernel_size = g.kernel_size();
  std::vector<int64_t> first_line(rank, 0);  // the positions of line_begin
  for (size_t a = last, rest = static_cast<size_t>(line_begin); a-- > 0;) {
    first_line[a] = static_cast<int64_t>(rest) % g.positions[a];
    rest /= static_cast<size_t>(g.positions[a]);
  }
  std::vector<int64_t> k(rank, 0), o(rank, 0);
  int64_t column = 0;
  for (int64_t c = 0; c < g.channels; ++c) {
    std::fill(k.begin(), k.end(), 0);
    for (int64_t kernel = 0; kernel < kernel_size; ++kernel) {
      // Along the last axis, position p reads p * step + first: valid for p in [lo, hi).
      const int64_t first = k[last] * g.dilations[last] - g.pad_begin[last];
      const int64_t lo = std::min(width, first >= 0 ? 0 : (-first + step - 1) / step);
      const int64_t hi = std::clamp<int64_t>(
          image_width - first <= 0 ? 0 : (image_width - first + step - 1) / step, lo, width);
      o = first_line;
      for (int64_t line = line_begin; line < line_end; ++line) {
        int64_t offset = 0;  // of the line's image row, over the axes before the last
        bool inside = true;
        for (size_t a = 0; a < last; ++a) {
          const int64_t at = o[a] * g.strides[a] - g.pad_begin[a] + k[a] * g.dilations[a];
          inside &= at >= 0 && at < g.image[a];
          offset = offset * g.image[a] + at;
        }
        if (!inside) {
          run(column, width, int64_t{-1}, int64_t{0});
        } else {
          const int64_t base = c * image_size + offset * image_width + first;
          if (lo > 0) run(column, lo, int64_t{-1}, int64_t{0});
          if (hi > lo) run(column + lo, hi - lo, base + lo * step, step);
          if (width > hi) run(column + hi, width - hi, int64_t{-1}, int64_t{0});
        }
        column += width;
        for (size_t a = last; a-- > 0;) {  // the next line: an odometer over the outer axes
          if (++o[a] < g.positions[a]) break;
          o[a] = 0;
        }
      }
      for (size_t a = rank; a-- > 0;) {  // the next kernel offset
        if (++k[a] < g.kernel[a]) break;
        k[a] = 0;
      }
    }
  }
}

// Fills `columns` (rows() x the columns of lines [line_begin, line_end)) from one group's
// `image`; padding reads `pad`.
template <class T>
void Im2Col(const PatchGeometry& g, int64_t line_begin, int64_t line_end, const T* image, T pad,
            T* columns) {
  ForEachRun(g, line_begin, line_end, [&](int64_t column, int64_t count, int64_t at, int64_t step) {
    T* out = columns + column;
    if (at < 0) {
      std::fill_n(out, count, pad);
    } else if (step == 1) {
      std::copy_n(image + at, count, out);  // memmove: GCC's -O2 leaves a plain loop scalar
    } else {
      for (int64_t i = 0; i < count; ++i) out[i] = image[at + i * step];
    }
  });
}

// Adds each element of `columns` into the image element it covers (padding drops it).
template <class T>
void Col2Im(const PatchGeometry& g, const T* columns, T* image) {
  ForEachRun(g, 0, Lines(g), [&](int64_t column, int64_t count, int64_t at, int64_t step) {
    if (at < 0) return;
    const T* in = columns + column;
    for (int64_t i = 0; i < count; ++i) image[at + i * step] += in[i];
  });
}

}  // namespace graphgc::kernels::conv

#endif  // GRAPHGC_OPSET_KERNELS_CONV_PATCHES_H_
