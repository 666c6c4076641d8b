// STFT (opset 17): the DFT of each frame of a signal [batch, length, 1 | 2]: frame f holds
// samples [f * frame_step, f * frame_step + n), multiplied by `window` when given; the output is
// [batch, frames, bins, 2] with frames = floor((length - n) / frame_step) + 1 and bins = n, or
// floor(n / 2) + 1 when onesided (of a real signal only: ONNX calls a onesided transform of a
// complex signal "not possible", so it gets no value).
// n is frame_length, or the window's length; when both are given they must agree.
//
// ONNX 1.12's shape inference disagrees with these semantics unless onesided is 0: it reads a
// missing onesided as 0 (the schema's default is 1), typing the output with n bins, and with
// onesided = 1 it counts frames as floor((length - bins) / frame_step) + 1. A node whose inferred
// type does not fit [batch, frames, bins, 2] gets no value rather than a value of another shape.
#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/signal/fourier.h"
#include "graphgc/opset/kernels/signal/signal_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

struct Framing {
  int64_t batches = 0;
  int64_t samples = 0;
  int64_t components = 1;
  int64_t step = 0;
  int64_t length = 0;  // n
  int64_t frames = 0;
  int64_t bins = 0;
};

// Whether the inferred output type allows [batches, frames, bins, 2].
bool Fits(const KernelContext& ctx, const Framing& f) {
  const std::optional<Shape>& typed = ctx.output(0).shape;
  if (!typed.has_value()) return true;
  const int64_t dims[4] = {f.batches, f.frames, f.bins, 2};
  if (typed->size() != 4) return false;
  for (size_t d = 0; d < 4; ++d) {
    if ((*typed)[d] >= 0 && (*typed)[d] != dims[d]) return false;
  }
  return true;
}

absl::StatusOr<Framing> FramingOf(const KernelContext& ctx, const Tensor& signal) {
  const absl::Span<const int64_t> dims = signal.shape();
  // ONNX Runtime reads a rank-2 signal as a real [batch, length]; ONNX 17 does not define it.
  if (signal.rank() == 2) return Decline("a signal without its [.., 1 | 2] component dim");
  if (signal.rank() != 3 || (dims[2] != 1 && dims[2] != 2)) {
    return ctx.input_error(
        0, absl::StrCat("shape ", ShapeToString(dims), " is not [batch, length, 1 or 2]"));
  }
  Framing f{dims[0], dims[1], dims[2]};
  GRAPHGC_ASSIGN_OR_RETURN(f.step, SingleInt64Input(ctx, 1));
  if (f.step <= 0)
    return ctx.input_error(1, absl::StrCat("frame_step is ", f.step, "; it must be > 0"));
  const Tensor* window = ctx.optional_input(2);
  if (window != nullptr && window->rank() != 1) {
    return ctx.input_error(2,
                           absl::StrCat("shape ", ShapeToString(window->shape()), " is not 1-D"));
  }
  if (ctx.has_input(3)) {
    GRAPHGC_ASSIGN_OR_RETURN(f.length, SingleInt64Input(ctx, 3));
    if (window != nullptr && window->size() != f.length) {
      return ctx.input_error(3, absl::StrCat("frame_length is ", f.length, " but the window has ",
                                             window->size(), " values"));
    }
  } else if (window != nullptr) {
    f.length = window->size();
  } else {
    return Decline("neither frame_length nor window gives the frame length");
  }
  if (f.length <= 0 || f.length > f.samples) {
    return ctx.input_error(ctx.has_input(3) ? 3 : 2,
                           absl::StrCat("the frame length ", f.length, " is not in [1, ", f.samples,
                                        "] (the signal's length)"));
  }
  f.frames = (f.samples - f.length) / f.step + 1;
  const bool onesided = ctx.int_attribute("onesided", 1) != 0;
  if (onesided && f.components == 2) return Decline("a onesided STFT of a complex signal");
  f.bins = onesided ? f.length / 2 + 1 : f.length;
  if (!Fits(ctx, f)) {
    return Decline(absl::StrCat("the output is typed ", ShapeToString(*ctx.output(0).shape),
                                ", not [", f.batches, ",", f.frames, ",", f.bins,
                                ",2] (ONNX 1.12's STFT inference)"));
  }
  return f;
}

template <class T>
KernelResult StftOfType(const KernelContext& ctx, const Tensor& signal, const Framing& f) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out,
                           ctx.allocate(signal.dtype(), {f.batches, f.frames, f.bins, 2}));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  GRAPHGC_ASSIGN_OR_RETURN(FourierTransform transform,
                           FourierTransform::Plan(ctx, f.length, false));
  std::vector<double> window;
  if (const Tensor* w = ctx.optional_input(2)) {
    for (const T& v : w->data<T>()) window.push_back(static_cast<double>(internal::Load(v)));
  }
  std::vector<Complex> lane(static_cast<size_t>(f.length));
  const T* px = signal.data<T>().data();
  T* py = out.mutable_data<T>().data();
  for (int64_t b = 0; b < f.batches; ++b) {
    for (int64_t frame = 0; frame < f.frames; ++frame) {
      const T* start = px + (b * f.samples + frame * f.step) * f.components;
      LoadLane(start, 1, f.components, f.length, window.empty() ? nullptr : &window, lane.data(),
               f.length);
      transform.Run(lane.data());
      StoreLane(lane.data(), f.bins, 1.0, py + (b * f.frames + frame) * f.bins * 2, 1);
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult Stft(const KernelContext& ctx) {
  const Tensor& signal = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const Framing f, FramingOf(ctx, signal));
  return DispatchFloatingKernel(signal.dtype(), [&](auto tag) {
    return StftOfType<typename decltype(tag)::type>(ctx, signal, f);
  });
}

}  // namespace

void RegisterStftKernels(KernelTable& table) {
  table.add("", "STFT", 17, 17, {{"T1", data_types::kFloatingPoint}, {"T2", data_types::kIndices}},
            Stft);
}

}  // namespace graphgc::kernels
