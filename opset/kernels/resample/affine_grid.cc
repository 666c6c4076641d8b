// AffineGrid (opset 20): the sampling grid of a batch of affine maps. theta [N, 2, 3] with size
// [N, C, H, W] gives [N, H, W, 2], each point theta[n] * (x_w, y_h, 1); theta [N, 3, 4] with
// [N, C, D, H, W] gives [N, D, H, W, 3] from (x_w, y_h, z_d, 1). The base coordinates of an axis
// of n points are the pixel centres (2i + 1) / n - 1, or with align_corners the corners
// -1 + 2i / (n - 1).
//
// Computed in double and rounded once. An axis of one point with align_corners gets no value:
// ONNX's function body divides by n - 1 = 0 there, and ONNX Runtime 1.32 (+1) and ONNX's
// reference (-1) disagree.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/resample/resample_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using GridTypes = internal::TypeList<float, double, Float16, BFloat16>;

// The base coordinates of an axis of `n` points.
std::vector<double> BaseCoordinates(int64_t n, bool align_corners) {
  std::vector<double> points(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    points[static_cast<size_t>(i)] =
        align_corners ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1)
                      : (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n) - 1.0;
  }
  return points;
}

// The grid's geometry from theta's and size's shapes: the spatial extents (D, H, W or H, W).
absl::StatusOr<std::vector<int64_t>> Extents(const KernelContext& ctx, const Tensor& theta) {
  const std::vector<int64_t> size = ReadInt64s(ctx.input(1));
  const int64_t spatial = static_cast<int64_t>(size.size()) - 2;
  if (spatial != 2 && spatial != 3) {
    return ctx.input_error(1, absl::StrCat("holds ", size.size(),
                                           " values; [N, C, H, W] or [N, C, D, H, W] is needed"));
  }
  const Shape expected = {size[0], spatial, spatial + 1};
  if (theta.shape() != absl::Span<const int64_t>(expected)) {
    return ctx.input_error(
        0, absl::StrCat("shape ", ShapeToString(theta.shape()), " is not ", ShapeToString(expected),
                        " for size ", ShapeToString(size)));
  }
  std::vector<int64_t> extents(size.begin() + 2, size.end());
  for (int64_t extent : extents) {
    if (extent < 0) return ctx.input_error(1, "holds a negative extent");
  }
  return extents;
}

template <class T>
KernelResult AffineGridOfType(const KernelContext& ctx, const Tensor& theta,
                              const std::vector<int64_t>& extents, bool align_corners) {
  const int64_t n = theta.shape()[0];
  const int64_t spatial = static_cast<int64_t>(extents.size());
  Shape out_shape = {n};
  out_shape.insert(out_shape.end(), extents.begin(), extents.end());
  out_shape.push_back(spatial);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(theta.dtype(), out_shape));
  // Coordinates per axis, innermost (x, along W) first, as the point (x, y[, z], 1) reads them.
  std::vector<std::vector<double>> axes;
  for (int64_t a = spatial - 1; a >= 0; --a) {
    axes.push_back(BaseCoordinates(extents[static_cast<size_t>(a)], align_corners));
  }
  const auto t = theta.data<T>();
  T* y = out.mutable_data<T>().data();
  const int64_t points = Product(extents);
  std::vector<int64_t> index(static_cast<size_t>(spatial), 0);  // x, y[, z]
  for (int64_t b = 0; b < n; ++b) {
    const T* row = t.data() + b * spatial * (spatial + 1);
    std::fill(index.begin(), index.end(), 0);
    for (int64_t p = 0; p < points; ++p) {
      for (int64_t r = 0; r < spatial; ++r) {
        double sum = internal::Load(row[r * (spatial + 1) + spatial]);
        for (int64_t c = 0; c < spatial; ++c) {
          sum += static_cast<double>(internal::Load(row[r * (spatial + 1) + c])) *
                 axes[static_cast<size_t>(c)][static_cast<size_t>(index[static_cast<size_t>(c)])];
        }
        *y++ = internal::Store<T>(static_cast<internal::ComputeType<T>>(sum));
      }
      for (size_t c = 0; c < index.size() && ++index[c] == static_cast<int64_t>(axes[c].size());
           ++c) {
        index[c] = 0;
      }
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult AffineGrid(const KernelContext& ctx) {
  const Tensor& theta = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> extents, Extents(ctx, theta));
  const bool align_corners = ctx.int_attribute("align_corners") != 0;
  for (int64_t extent : extents) {
    if (align_corners && extent == 1) {
      return Decline("an axis of one point with align_corners, where runtimes disagree");
    }
  }
  KernelResult result = Decline("an element type AffineGrid does not compute");
  GridTypes::Dispatch(theta.dtype(), [&](auto tag) {
    result = AffineGridOfType<typename decltype(tag)::type>(ctx, theta, extents, align_corners);
  });
  return result;
}

}  // namespace

void RegisterAffineGridKernels(KernelTable& table) {
  table.add("", "AffineGrid", 20, KernelTable::kLatest,
            {{"T1", GridTypes::kSet}, {"T2", {DataType::kInt64}}}, AffineGrid);
}

}  // namespace graphgc::kernels
