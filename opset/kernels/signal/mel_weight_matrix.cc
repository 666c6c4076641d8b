// MelWeightMatrix (opset 17): the [floor(dft_length / 2) + 1, num_mel_bins] matrix of triangular
// filters, peak 1, spaced evenly on the mel scale (mel = 2595 log10(1 + hz / 700)) between
// lower_edge_hertz and upper_edge_hertz. As ONNX's reference and ONNX Runtime do: num_mel_bins + 2
// points are placed at steps of (high_mel - low_mel) / (num_mel_bins + 2), each mapped to the
// spectrogram bin floor((dft_length + 1) * hz / sample_rate); filter i rises from point i to
// point i + 1 and falls to point i + 2. Weights are computed in double and converted to
// output_datatype (integer types truncate, as the reference's astype does).
// Edges whose bins fall outside the spectrogram make the op fail (ONNX Runtime refuses them).
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/signal/signal_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

double HertzToMel(double hz) { return 2595 * std::log10(1 + hz / 700); }
double MelToHertz(double mel) { return 700 * (std::pow(10.0, mel / 2595) - 1); }

struct MelParameters {
  int64_t mel_bins = 0;
  int64_t dft_length = 0;
  int64_t sample_rate = 0;
  double lower_hz = 0;
  double upper_hz = 0;
};

absl::StatusOr<MelParameters> ReadParameters(const KernelContext& ctx) {
  for (int i = 0; i < 5; ++i) {
    if (ctx.input(i).size() != 1) {
      return Decline(absl::StrCat(ctx.input_label(i), " is not a single value"));
    }
  }
  MelParameters p{ReadInt64s(ctx.input(0))[0], ReadInt64s(ctx.input(1))[0],
                  ReadInt64s(ctx.input(2))[0], ScalarAsDouble(ctx.input(3)),
                  ScalarAsDouble(ctx.input(4))};
  if (p.mel_bins < 0)
    return ctx.input_error(0, absl::StrCat("is ", p.mel_bins, "; it must be >= 0"));
  if (p.dft_length <= 0)
    return ctx.input_error(1, absl::StrCat("is ", p.dft_length, "; it must be > 0"));
  if (p.sample_rate <= 0)
    return ctx.input_error(2, absl::StrCat("is ", p.sample_rate, "; it must be > 0"));
  return p;
}

// The spectrogram bin of a frequency.
double BinOf(const MelParameters& p, double hz) {
  return std::floor(static_cast<double>(p.dft_length + 1) * hz /
                    static_cast<double>(p.sample_rate));
}

KernelResult MelWeightMatrix(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const MelParameters p, ReadParameters(ctx));
  const int64_t spectrogram_bins = p.dft_length / 2 + 1;
  const double edges[2] = {p.lower_hz, p.upper_hz};
  for (int e = 0; e < 2; ++e) {
    const double bin = BinOf(p, edges[e]);
    if (!(bin >= 0 && bin < static_cast<double>(spectrogram_bins))) {
      return ctx.input_error(
          3 + e, absl::StrCat(edges[e], " Hz falls in bin ", bin, ", outside the spectrogram's ",
                              spectrogram_bins, " bins"));
    }
  }
  const DataType dtype = ctx.output(0).dtype;
  if (!ctx.within_budget(DataType::kDouble, spectrogram_bins * p.mel_bins)) {
    return absl::ResourceExhaustedError("MelWeightMatrix's weights exceed the value budget");
  }
  std::vector<int64_t> points(static_cast<size_t>(p.mel_bins + 2));
  const double low_mel = HertzToMel(p.lower_hz);
  const double step = (HertzToMel(p.upper_hz) - low_mel) / static_cast<double>(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    points[i] = static_cast<int64_t>(BinOf(p, MelToHertz(low_mel + step * static_cast<double>(i))));
  }
  std::vector<double> weights(static_cast<size_t>(spectrogram_bins * p.mel_bins), 0.0);
  auto weight = [&](int64_t bin, int64_t filter) -> double& {
    return weights[static_cast<size_t>(bin * p.mel_bins + filter)];
  };
  for (int64_t i = 0; i < p.mel_bins; ++i) {
    const int64_t left = points[static_cast<size_t>(i)];
    const int64_t center = points[static_cast<size_t>(i + 1)];
    const int64_t right = points[static_cast<size_t>(i + 2)];
    if (center == left) {
      weight(center, i) = 1;
    } else {
      for (int64_t j = left; j <= center; ++j) {
        weight(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
      }
    }
    for (int64_t j = center; j < right; ++j) {
      weight(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(dtype, {spectrogram_bins, p.mel_bins}));
  const bool numeric = internal::DispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = internal::ComputeType<T>;
    T* data = out.mutable_data<T>().data();
    for (size_t k = 0; k < weights.size(); ++k)
      data[k] = internal::Store<T>(static_cast<C>(weights[k]));
  });
  if (!numeric) return Decline(absl::StrCat("output_datatype ", DataTypeName(dtype)));
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterMelWeightMatrixKernels(KernelTable& table) {
  // The output (T3) of any numeric type; the sizes (T1) int32 or int64, the edges (T2) read as
  // any number (ScalarAsDouble).
  table.add(
      "", "MelWeightMatrix", 17, KernelTable::kLatest,
      {{"T3", data_types::kNumeric}, {"T1", data_types::kIndices}, {"T2", data_types::kNumeric}},
      MelWeightMatrix);
}

}  // namespace graphgc::kernels
