// LRN (opsets 1 and 13): local response normalization across channels,
//   y = x / (bias + alpha / size * square_sum) ^ beta,
// square_sum summing x^2 over channels [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)]
// clipped to [0, C - 1], at the same batch index and spatial position.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/normalization/normalization_kernels.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/scratch.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

struct LrnParameters {
  int64_t before = 0;  // channels below c in the window
  int64_t after = 0;   // channels above c
  double alpha_over_size = 0;
  double beta = 0;
  double bias = 0;
};

template <class T>
KernelResult LrnOfType(const KernelContext& ctx, const Tensor& x, const LrnParameters& p) {
  using C = ComputeType<T>;
  const absl::Span<const int64_t> dims = x.shape();
  const int64_t batches = dims[0];
  const int64_t channels = dims[1];
  int64_t inner = 1;
  for (size_t d = 2; d < dims.size(); ++d) inner *= dims[d];
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> squares, AllocateScratch<C>(ctx, channels * inner));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> sums, AllocateScratch<C>(ctx, inner));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
  const T* px = x.data<T>().data();
  T* py = out.mutable_data<T>().data();
  const C alpha_over_size = static_cast<C>(p.alpha_over_size);
  const C beta = static_cast<C>(p.beta);
  const C bias = static_cast<C>(p.bias);
  for (int64_t n = 0; n < batches; ++n) {
    const T* xn = px + n * channels * inner;
    T* yn = py + n * channels * inner;
    for (int64_t i = 0; i < channels * inner; ++i) {
      const C v = Load(xn[i]);
      squares[static_cast<size_t>(i)] = v * v;
    }
    for (int64_t c = 0; c < channels; ++c) {
      std::fill(sums.begin(), sums.end(), C{0});
      const int64_t first = std::max<int64_t>(0, c - p.before);
      const int64_t last = std::min<int64_t>(channels - 1, c + p.after);
      for (int64_t k = first; k <= last; ++k) {
        const C* row = squares.data() + k * inner;
        for (int64_t i = 0; i < inner; ++i) sums[static_cast<size_t>(i)] += row[i];
      }
      for (int64_t i = 0; i < inner; ++i) {
        const C scale = bias + alpha_over_size * sums[static_cast<size_t>(i)];
        yn[c * inner + i] = Store<T>(Load(xn[c * inner + i]) / std::pow(scale, beta));
      }
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult Lrn(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2) return ctx.input_error(0, "has rank < 2; there is no channel dim");
  const int64_t size = ctx.int_attribute("size");
  if (size <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'size' is ", size, "; it must be > 0"));
  }
  const LrnParameters p{
      (size - 1) / 2, size / 2,
      static_cast<double>(ctx.float_attribute("alpha", 1e-4f)) / static_cast<double>(size),
      ctx.float_attribute("beta", 0.75f), ctx.float_attribute("bias", 1.0f)};
  return DispatchFloatingKernel(
      x.dtype(), [&](auto tag) { return LrnOfType<typename decltype(tag)::type>(ctx, x, p); });
}

}  // namespace

void RegisterLrnKernels(KernelTable& table) {
  table.add("", "LRN", 1, KernelTable::kLatest, {{"T", data_types::kFloatingPoint}}, Lrn);
}

}  // namespace graphgc::kernels
