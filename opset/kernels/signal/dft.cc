// DFT (opsets 17 and 20): the 1-D discrete Fourier transform along `axis` of a signal
// [batch, d1, .., dk, 1 | 2] (real or complex), giving [batch, .., n', .., 2]. Opset 17 takes
// the axis as an attribute (default 1); opset 20 as the optional scalar input 2 (default -2),
// any dim but the last counted from either end, the batch dim included.
//   - dft_length (a scalar, > 0) sets n: the signal is zero-padded or truncated along the axis;
//   - inverse = 1 transforms with exp(+2 pi i jk / n) and divides by n;
//   - onesided = 1 keeps bins 0 .. floor(n / 2) of a real signal.
// Declined (no value): onesided with complex input (ONNX: "not possible"; ONNX Runtime 1.30
// refuses it) or with inverse (ONNX's inference refuses that), an axis outside [1, rank - 2]
// (ONNX 17 counts it from the first signal dim after the batch and says nothing of negative
// values).
#include <complex>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/signal/fourier.h"
#include "graphgc/opset/kernels/signal/signal_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The input seen as [outer, samples, inner, components] around the axis.
struct DftLayout {
  int64_t outer = 1;
  int64_t samples = 0;
  int64_t inner = 1;
  int64_t components = 1;
  int64_t length = 0;  // n, the transform's length
  int64_t bins = 0;    // output bins kept
};

// n from dft_length (when given) or the axis' extent.
absl::StatusOr<int64_t> TransformLength(const KernelContext& ctx, int64_t samples) {
  const Tensor* dft_length = ctx.optional_input(1);
  if (dft_length == nullptr) return samples;
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t n, SingleInt64Input(ctx, 1));
  if (n <= 0) return ctx.input_error(1, absl::StrCat("dft_length is ", n, "; it must be > 0"));
  return n;
}

template <class T>
KernelResult DftOfType(const KernelContext& ctx, const Tensor& x, const DftLayout& l,
                       absl::Span<const int64_t> out_shape, bool inverse) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), out_shape));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  GRAPHGC_ASSIGN_OR_RETURN(FourierTransform transform,
                           FourierTransform::Plan(ctx, l.length, inverse));
  std::vector<Complex> lane(static_cast<size_t>(l.length));
  const T* px = x.data<T>().data();
  T* py = out.mutable_data<T>().data();
  const int64_t count = std::min(l.samples, l.length);
  const double scale = inverse ? 1.0 / static_cast<double>(l.length) : 1.0;
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t i = 0; i < l.inner; ++i) {
      LoadLane(px + (o * l.samples * l.inner + i) * l.components, l.inner, l.components, count,
               nullptr, lane.data(), l.length);
      transform.Run(lane.data());
      StoreLane(lane.data(), l.bins, scale, py + (o * l.bins * l.inner + i) * 2, l.inner);
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

// The axis the transform runs along, in [0, rank - 2].
absl::StatusOr<int64_t> TransformAxis(const KernelContext& ctx, int64_t rank,
                                      bool axis_from_input) {
  if (!axis_from_input) {
    const int64_t axis = ctx.int_attribute("axis", 1);
    if (axis < 1 || axis > rank - 2)
      return Decline(absl::StrCat("axis ", axis, " is not a signal dim"));
    return axis;
  }
  int64_t axis = -2;
  if (ctx.optional_input(2) != nullptr) {
    GRAPHGC_ASSIGN_OR_RETURN(axis, SingleInt64Input(ctx, 2));
  }
  if (axis < -rank || axis > rank - 2 || axis == -1) {
    return ctx.input_error(2, absl::StrCat("axis ", axis, " is outside [", -rank, ", -2] and [0, ",
                                           rank - 2, "] for a rank-", rank, " signal"));
  }
  return axis < 0 ? axis + rank : axis;
}

KernelResult Dft(const KernelContext& ctx, bool axis_from_input) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const int64_t> dims = x.shape();
  const int64_t rank = x.rank();
  // ONNX Runtime reads a rank-2 input as a real [batch, n]; ONNX 17 does not define it.
  if (rank < 3) return Decline("an input without its [.., 1 | 2] component dim");
  if (dims[rank - 1] != 1 && dims[rank - 1] != 2) {
    return ctx.input_error(
        0, absl::StrCat("shape ", ShapeToString(dims), " is not [batch, signal dims.., 1 or 2]"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis, TransformAxis(ctx, rank, axis_from_input));
  const bool inverse = ctx.int_attribute("inverse") != 0;
  const bool onesided = ctx.int_attribute("onesided") != 0;
  if (inverse && onesided) return Decline("an inverse onesided DFT");
  if (onesided && dims[rank - 1] == 2) return Decline("a onesided DFT of a complex signal");
  DftLayout l;
  for (int64_t d = 0; d < axis; ++d) l.outer *= dims[d];
  for (int64_t d = axis + 1; d < rank - 1; ++d) l.inner *= dims[d];
  l.samples = dims[axis];
  l.components = dims[rank - 1];
  GRAPHGC_ASSIGN_OR_RETURN(l.length, TransformLength(ctx, l.samples));
  l.bins = onesided ? l.length / 2 + 1 : l.length;
  Shape out_shape(dims.begin(), dims.end());
  out_shape[static_cast<size_t>(axis)] = l.bins;
  out_shape.back() = 2;
  return DispatchFloatingKernel(x.dtype(), [&](auto tag) {
    return DftOfType<typename decltype(tag)::type>(ctx, x, l, out_shape, inverse);
  });
}

}  // namespace

void RegisterDftKernels(KernelTable& table) {
  const KernelTypes types = {{"T1", data_types::kFloatingPoint}, {"T2", data_types::kIndices}};
  table.add("", "DFT", 17, 19, types, [](const KernelContext& ctx) { return Dft(ctx, false); });
  table.add("", "DFT", 20, KernelTable::kLatest, types,
            [](const KernelContext& ctx) { return Dft(ctx, true); });
}

}  // namespace graphgc::kernels
