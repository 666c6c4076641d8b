// GridSample (16): Y[n, c, h, w] samples X[n, c] at the normalized location grid[n, h, w] =
// (x, y) in [-1, 1] (align_corners: the corner pixels' centers; otherwise their outer edges),
// by nearest (half to even), bilinear or bicubic (Keys, a = -0.75) interpolation.
// GridSample-20 names the modes linear, nearest and cubic and takes images of any spatial rank r
// (X [N, C, D1..Dr], grid [N, D1_out..Dr_out, r] with the innermost axis's coordinate first):
// nearest and (multi)linear sample any r, cubic only 2-D images, as ONNX's reference.
//
// As ONNX Runtime (whose results match ONNX's test data): padding applies to each tap, not to
// the sampled location. A tap outside the image reads 0 (zeros), the nearest edge pixel
// (border), or the pixel mirrored at the image's borders (reflection, about the pixel edges
// -0.5 and size - 0.5, or about the corner centers with align_corners). Locations are computed in
// the grid's type (float for the 16-bit types; double for an integer grid, which ONNX 1.12's
// schema allowed by giving the grid X's type), values in X's. ONNX 1.19's grid is floating-point
// whatever X is. Integers take nearest sampling only; bool and string get no value, nor does a
// grid with non-finite or huge values.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/resample/resample_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;

enum class SampleMode { kBilinear, kNearest, kBicubic };  // as listed to ChooseAttribute
enum class Padding { kZeros, kBorder, kReflection };      // as listed to ChooseAttribute

// Locations beyond this many pixels get no value (their tap indices would not fit).
constexpr double kMaxLocation = 1e9;

// One spatial axis of the image: its extent and the borders reflection mirrors about.
template <class G>
struct ImageAxis {
  int64_t size;
  G low;
  G high;

  ImageAxis(int64_t extent, bool align_corners)
      : size(extent),
        low(align_corners ? G(0) : G(-0.5)),
        high(align_corners ? static_cast<G>(extent - 1) : static_cast<G>(extent) - G(0.5)) {}

  // The pixel location of normalized coordinate `n`.
  G Denormalize(G n, bool align_corners) const {
    if (align_corners) return (n + 1) / G(2) * static_cast<G>(size - 1);
    return ((n + 1) * static_cast<G>(size) - 1) / G(2);
  }

  // `x` mirrored at the borders until it lies between them.
  G Reflect(G x) const {
    const G range = high - low;
    if (range <= 0) return low;
    if (x < low) {
      const G dx = low - x;
      const int64_t n = static_cast<int64_t>(dx / range);
      const G r = dx - static_cast<G>(n) * range;
      return n % 2 == 0 ? low + r : high - r;
    }
    if (x > high) {
      const G dx = x - high;
      const int64_t n = static_cast<int64_t>(dx / range);
      const G r = dx - static_cast<G>(n) * range;
      return n % 2 == 0 ? high - r : low + r;
    }
    return x;
  }

  // The pixel tap `i` reads under `padding`, or -1 for a zero (zeros padding outside).
  int64_t Tap(int64_t i, Padding padding) const {
    switch (padding) {
      case Padding::kZeros:
        return i >= 0 && i < size ? i : -1;
      case Padding::kBorder:
        return std::clamp<int64_t>(i, 0, size - 1);
      case Padding::kReflection:
        return std::clamp<int64_t>(static_cast<int64_t>(Reflect(static_cast<G>(i))), 0, size - 1);
    }
    return -1;
  }
};

// Keys' cubic convolution weights of the taps at floor(x) - 1 .. floor(x) + 2, t = x - floor(x).
template <class C>
void CubicWeights(C t, C weights[4]) {
  constexpr C a = C(-0.75);
  t = std::abs(t);
  weights[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  weights[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  weights[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
  weights[3] = ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a;
}

struct SampleOptions {
  SampleMode mode;
  Padding padding;
  bool align_corners;
};

// Samples every channel plane of X (of type T) at every grid location (of type G).
template <class T, class G>
void SampleAll(const Tensor& x, const Tensor& grid, const SampleOptions& options,
               MutableTensor& out) {
  using C = ComputeType<T>;
  using L = std::conditional_t<internal::kIsFloatingPoint<G>, ComputeType<G>, double>;
  const int64_t batch = x.shape()[0];
  const int64_t channels = x.shape()[1];
  const ImageAxis<L> rows(x.shape()[2], options.align_corners);
  const ImageAxis<L> cols(x.shape()[3], options.align_corners);
  const int64_t points = grid.shape()[1] * grid.shape()[2];
  const int64_t plane = rows.size * cols.size;
  const T* in = x.data<T>().data();
  const G* locations = grid.data<G>().data();
  T* dst = out.mutable_data<T>().data();
  for (int64_t n = 0; n < batch; ++n) {
    for (int64_t c = 0; c < channels; ++c) {
      const T* image = in + (n * channels + c) * plane;
      const auto pixel = [&](int64_t r, int64_t col) -> C {
        const int64_t rr = rows.Tap(r, options.padding);
        const int64_t cc = cols.Tap(col, options.padding);
        return rr < 0 || cc < 0 ? C{} : static_cast<C>(Load<T>(image[rr * cols.size + cc]));
      };
      T* o = dst + (n * channels + c) * points;
      for (int64_t p = 0; p < points; ++p) {
        const G* location = locations + (n * points + p) * 2;
        const L px = cols.Denormalize(static_cast<L>(Load<G>(location[0])), options.align_corners);
        const L py = rows.Denormalize(static_cast<L>(Load<G>(location[1])), options.align_corners);
        if (options.mode == SampleMode::kNearest) {
          const C v = pixel(static_cast<int64_t>(std::nearbyint(py)),
                            static_cast<int64_t>(std::nearbyint(px)));
          o[p] = internal::Store<T>(v);
          continue;
        }
        const L fx = std::floor(px);
        const L fy = std::floor(py);
        const int64_t x1 = static_cast<int64_t>(fx);
        const int64_t y1 = static_cast<int64_t>(fy);
        const C dx = static_cast<C>(px - fx);
        const C dy = static_cast<C>(py - fy);
        if constexpr (internal::kIsFloatingPoint<T>) {
          if (options.mode == SampleMode::kBilinear) {
            const C top = (1 - dx) * pixel(y1, x1) + dx * pixel(y1, x1 + 1);
            const C bottom = (1 - dx) * pixel(y1 + 1, x1) + dx * pixel(y1 + 1, x1 + 1);
            o[p] = internal::Store<T>((1 - dy) * top + dy * bottom);
            continue;
          }
          C wx[4];
          C wy[4];
          CubicWeights(dx, wx);
          CubicWeights(dy, wy);
          C sum = 0;
          for (int i = 0; i < 4; ++i) {
            C row = 0;
            for (int j = 0; j < 4; ++j) row += wx[j] * pixel(y1 - 1 + i, x1 - 1 + j);
            sum += wy[i] * row;
          }
          o[p] = internal::Store<T>(sum);
        }
      }
    }
  }
}

// Samples an image of any spatial rank by nearest or multilinear interpolation (the 2^r corners
// around each location, each tap padded per axis).
template <class T, class G>
void SampleAllNd(const Tensor& x, const Tensor& grid, const SampleOptions& options,
                 MutableTensor& out) {
  using C = ComputeType<T>;
  using L = std::conditional_t<internal::kIsFloatingPoint<G>, ComputeType<G>, double>;
  const size_t rank = static_cast<size_t>(x.rank()) - 2;  // spatial axes, outermost first
  std::vector<ImageAxis<L>> axes;
  for (size_t a = 0; a < rank; ++a) axes.emplace_back(x.shape()[2 + a], options.align_corners);
  const Shape strides = ContiguousStrides(x.shape().subspan(2));
  const int64_t planes = x.shape()[0] * x.shape()[1];
  const int64_t plane = planes == 0 ? 0 : x.size() / planes;
  const int64_t points =
      rank == 0 ? 0 : grid.size() / (grid.shape()[0] * static_cast<int64_t>(rank));
  const T* in = x.data<T>().data();
  const G* locations = grid.data<G>().data();
  T* dst = out.mutable_data<T>().data();
  std::vector<L> position(rank);
  std::vector<int64_t> low(rank);
  std::vector<C> fraction(rank);
  for (int64_t n = 0; n < x.shape()[0]; ++n) {
    for (int64_t p = 0; p < points; ++p) {
      const G* location = locations + (n * points + p) * static_cast<int64_t>(rank);
      for (size_t a = 0; a < rank; ++a) {  // the location lists the innermost axis first
        position[a] = axes[a].Denormalize(static_cast<L>(Load<G>(location[rank - 1 - a])),
                                          options.align_corners);
        const L floor = std::floor(position[a]);
        low[a] = static_cast<int64_t>(floor);
        fraction[a] = static_cast<C>(position[a] - floor);
      }
      for (int64_t c = 0; c < x.shape()[1]; ++c) {
        const T* image = in + (n * x.shape()[1] + c) * plane;
        // The pixel at per-axis taps `tap(a)`, or zero outside (zeros padding).
        const auto pixel = [&](auto tap) -> C {
          int64_t offset = 0;
          for (size_t a = 0; a < rank; ++a) {
            const int64_t i = axes[a].Tap(tap(a), options.padding);
            if (i < 0) return C{};
            offset += i * strides[a];
          }
          return static_cast<C>(Load<T>(image[offset]));
        };
        C value{};
        if (options.mode == SampleMode::kNearest) {
          value =
              pixel([&](size_t a) { return static_cast<int64_t>(std::nearbyint(position[a])); });
        } else if constexpr (internal::kIsFloatingPoint<T>) {
          for (uint64_t corner = 0; corner < (uint64_t{1} << rank); ++corner) {
            C weight = 1;
            for (size_t a = 0; a < rank; ++a) {
              weight *= (corner >> a & 1) != 0 ? fraction[a] : 1 - fraction[a];
            }
            value += weight * pixel([&](size_t a) {
                       return low[a] + static_cast<int64_t>(corner >> a & 1);
                     });
          }
        }
        dst[(n * x.shape()[1] + c) * points + p] = internal::Store<T>(value);
      }
    }
  }
}

// Whether every grid value is finite and maps within kMaxLocation pixels of the image.
bool GridFits(const Tensor& grid, int64_t largest_dim) {
  bool fits = true;
  internal::DispatchNumeric(grid.dtype(), [&](auto tag) {
    using G = typename decltype(tag)::type;
    for (const G& value : grid.data<G>()) {
      const double v = static_cast<double>(Load<G>(value));
      fits = fits && std::isfinite(v) &&
             std::abs(v) * static_cast<double>(largest_dim + 1) < kMaxLocation;
    }
  });
  return fits;
}

KernelResult GridSampleKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& grid = ctx.input(1);
  const bool any_rank = ctx.version() >= 20;
  if (any_rank ? x.rank() < 3 : x.rank() != 4) {
    return ctx.input_error(0,
                           absl::StrCat("has rank ", x.rank(), any_rank ? ", below 3" : ", not 4"));
  }
  const int64_t spatial = x.rank() - 2;
  if (grid.rank() != x.rank() || grid.shape()[static_cast<size_t>(spatial) + 1] != spatial ||
      grid.shape()[0] != x.shape()[0]) {
    return ctx.input_error(
        1, absl::StrCat("has shape ", ShapeToString(grid.shape()), "; GridSample needs [N, ",
                        spatial, " output dims, ", spatial, "] with N = ", x.shape()[0]));
  }
  GRAPHGC_ASSIGN_OR_RETURN(
      const size_t mode,
      any_rank ? ChooseAttribute(ctx, "mode", "linear", {"linear", "nearest", "cubic"})
               : ChooseAttribute(ctx, "mode", "bilinear", {"bilinear", "nearest", "bicubic"}));
  GRAPHGC_ASSIGN_OR_RETURN(
      const size_t padding,
      ChooseAttribute(ctx, "padding_mode", "zeros", {"zeros", "border", "reflection"}));
  const SampleOptions options{static_cast<SampleMode>(mode), static_cast<Padding>(padding),
                              ctx.int_attribute("align_corners", 0) != 0};
  if (options.mode != SampleMode::kNearest && !IsFloatingPoint(x.dtype())) {
    return Decline("bilinear and bicubic GridSample of integers");
  }
  if (options.mode == SampleMode::kBicubic && spatial != 2) {
    return Decline("cubic GridSample of an image that is not 2-D");
  }
  Shape out_dims = {x.shape()[0], x.shape()[1]};
  for (int64_t a = 0; a < spatial; ++a)
    out_dims.push_back(grid.shape()[static_cast<size_t>(a) + 1]);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), out_dims));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  int64_t largest_dim = 0;
  for (int64_t a = 0; a < spatial; ++a) {
    const int64_t dim = x.shape()[static_cast<size_t>(a) + 2];
    if (dim == 0 && options.padding != Padding::kZeros) {
      return Decline("border or reflection of an empty image");
    }
    largest_dim = std::max(largest_dim, dim);
  }
  // A grid of X's type (ONNX 1.12), or a floating-point one (1.19).
  if (!IsNumeric(x.dtype()) || (grid.dtype() != x.dtype() && !IsFloatingPoint(grid.dtype()))) {
    return Decline("GridSample of this element type");
  }
  if (!GridFits(grid, largest_dim)) {
    return Decline("a grid with non-finite or huge locations");
  }
  // The 2-D sampler (its loops as ONNX Runtime's, whose float rounding the test data shows)
  // for images; the general one for other ranks.
  const bool image = spatial == 2;
  internal::DispatchNumeric(x.dtype(), [&](auto image_tag) {
    using T = typename decltype(image_tag)::type;
    if (grid.dtype() == x.dtype()) {
      return image ? SampleAll<T, T>(x, grid, options, out)
                   : SampleAllNd<T, T>(x, grid, options, out);
    }
    internal::DispatchNumeric(grid.dtype(), [&](auto grid_tag) {
      using G = typename decltype(grid_tag)::type;
      if constexpr (internal::kIsFloatingPoint<G>) {
        image ? SampleAll<T, G>(x, grid, options, out) : SampleAllNd<T, G>(x, grid, options, out);
      }
    });
  });
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterGridSampleKernels(KernelTable& table) {
  // X numeric, the grid of X's type or floating-point (checked in the kernel, a rule across both
  // parameters; others decline); bilinear and bicubic decline integers. ONNX 1.12 binds the grid
  // to X's type, so integer images with integer grids compute in nearest mode; 1.19 makes it
  // floating-point. One kernel; GridSample-20 renames the modes and takes any spatial rank, 22
  // only admits bfloat16.
  const KernelTypes types = {{"T1", data_types::kNumeric}, {"T2", data_types::kNumeric}};
  table.add("", "GridSample", 16, 19, types, GridSampleKernel);
  table.add("", "GridSample", 20, KernelTable::kLatest, types, GridSampleKernel);
}

}  // namespace graphgc::kernels
