// Value propagation of the signal family (opset/kernels/signal/) where ONNX's node test data says
// nothing: DFT of lengths that are not powers of two (Bluestein's path, checked against the
// defining sum), complex input, zero-padding and truncation by dft_length, onesided, inverse
// round trips, another axis, each floating type; STFT with and without a window; MelWeightMatrix
// by hand; the ops failing on bad known inputs; and the value budget.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Complex = std::complex<double>;

constexpr double kPi = 3.14159265358979323846;

// The DFT's defining sum over n samples of x (zero beyond its end), as [re, im] pairs for the
// first `bins` bins.
std::vector<double> DefiningSum(const std::vector<Complex>& x, int64_t n, int64_t bins,
                                bool inverse = false) {
  std::vector<double> out;
  for (int64_t k = 0; k < bins; ++k) {
    Complex sum = 0;
    for (int64_t j = 0; j < n && j < static_cast<int64_t>(x.size()); ++j) {
      const double angle = (inverse ? 2 : -2) * kPi * static_cast<double>((j * k) % n) / n;
      sum += x[static_cast<size_t>(j)] * Complex(std::cos(angle), std::sin(angle));
    }
    if (inverse) sum /= static_cast<double>(n);
    out.push_back(sum.real());
    out.push_back(sum.imag());
  }
  return out;
}

std::vector<double> Ramp(int64_t n) {
  std::vector<double> x;
  for (int64_t i = 0; i < n; ++i) x.push_back(std::sin(0.7 * static_cast<double>(i)) + 0.1 * i);
  return x;
}

std::vector<Complex> AsComplex(const std::vector<double>& real) {
  return std::vector<Complex>(real.begin(), real.end());
}

Var Dft(const Var& x, const Var& dft_length, const std::vector<gg::Attribute>& attributes) {
  return One(NodeAt("DFT", {x, dft_length}, attributes, 17));
}

template <class T>
class DftTypedTest : public ::testing::Test {};
TYPED_TEST_SUITE(DftTypedTest, FloatElementTypes);

TYPED_TEST(DftTypedTest, RealSignalOfLengthFive) {
  using T = TypeParam;
  Graph g;
  const std::vector<double> x = {1, 2, 0.5, -1, 3};
  const Var y = Dft(Const<T>(g, ValuesOf<T>(x), {1, 5, 1}), Var(), {});
  const double tolerance = kIsHalf<T> ? 2e-2 : std::is_same_v<T, float> ? 1e-5 : 1e-12;
  EXPECT_TRUE(HasValues<T>(y, DefiningSum(AsComplex(x), 5, 5), {1, 5, 2}, tolerance));
}

TEST(DftTest, PrimeLengthMatchesTheDefiningSum) {
  Graph g;
  const std::vector<double> x = Ramp(1009);
  const Var y = Dft(Const<double>(g, x, {1, 1009, 1}), Var(), {});
  EXPECT_TRUE(HasValues<double>(y, DefiningSum(AsComplex(x), 1009, 1009), {1, 1009, 2}, 1e-9));
}

TEST(DftTest, ComplexInputAlongAxisTwo) {
  // [1, 2, 6, 2]: two signals of 6 complex samples each, along axis 2.
  Graph g;
  std::vector<double> values;
  std::vector<std::vector<Complex>> signals(2);
  for (int s = 0; s < 2; ++s) {
    for (int j = 0; j < 6; ++j) {
      const Complex v(j + s, 0.5 * j - s);
      signals[static_cast<size_t>(s)].push_back(v);
      values.push_back(v.real());
      values.push_back(v.imag());
    }
  }
  const Var y = Dft(Const<double>(g, values, {1, 2, 6, 2}), Var(), {{"axis", int64_t{2}}});
  std::vector<double> want = DefiningSum(signals[0], 6, 6);
  const std::vector<double> second = DefiningSum(signals[1], 6, 6);
  want.insert(want.end(), second.begin(), second.end());
  EXPECT_TRUE(HasValues<double>(y, want, {1, 2, 6, 2}, 1e-12));
}

TEST(DftTest, AxisOneOfAMultiDimensionalSignal) {
  // [1, 3, 2, 1]: the transform runs down axis 1 for each of the 2 columns.
  Graph g;
  const std::vector<double> x = {1, 4, 2, 5, 3, 7};
  const Var y = Dft(Const<double>(g, x, {1, 3, 2, 1}), Var(), {});
  const std::vector<double> a = DefiningSum(AsComplex({1, 2, 3}), 3, 3);
  const std::vector<double> b = DefiningSum(AsComplex({4, 5, 7}), 3, 3);
  std::vector<double> want;
  for (size_t k = 0; k < 3; ++k) {
    want.insert(want.end(), {a[2 * k], a[2 * k + 1], b[2 * k], b[2 * k + 1]});
  }
  EXPECT_TRUE(HasValues<double>(y, want, {1, 3, 2, 2}, 1e-12));
}

// DFT-20 takes the axis as input 2 (default -2), counted from either end, the batch dim too.
TEST(DftTest, Opset20TakesTheAxisAsAnInput) {
  Graph g;
  const std::vector<double> x = {1, 4, 2, 5, 3, 7};
  const Var signal = Const<double>(g, x, {1, 3, 2, 1});
  const Var along_one = Dft(signal, Var(), {});
  // The default -2 is the last signal dim (axis 2 here), not opset 17's axis 1.
  const Var by_default = One(NodeAt("DFT", {signal}, {}, 20));
  const Var axis_one = One(NodeAt("DFT", {signal, Var(), Scalar<int64_t>(g, -3)}, {}, 20));
  ASSERT_TRUE(along_one.value().has_value());
  EXPECT_TRUE(HasValues<double>(axis_one,
                                std::vector<double>(along_one.value()->data<double>().begin(),
                                                    along_one.value()->data<double>().end()),
                                {1, 3, 2, 2}, 1e-12));
  std::vector<double> rows;
  for (int r = 0; r < 3; ++r) {
    const std::vector<double> pair = DefiningSum(AsComplex({x[2 * r], x[2 * r + 1]}), 2, 2);
    rows.insert(rows.end(), pair.begin(), pair.end());
  }
  EXPECT_TRUE(HasValues<double>(by_default, rows, {1, 3, 2, 2}, 1e-12));
  // Axis 0: the batch dim, of two signals [1, 2] down it.
  const Var batch = Const<double>(g, {1, 2}, {2, 1, 1});
  EXPECT_TRUE(HasValues<double>(One(NodeAt("DFT", {batch, Var(), Scalar<int64_t>(g, 0)}, {}, 20)),
                                {3, 0, -1, 0}, {2, 1, 2}, 1e-12));
  // The component dim is no signal axis.
  const Var last = One(NodeAt("DFT", {signal, Var(), Scalar<int64_t>(g, -1)}, {}, 20));
  EXPECT_FALSE(last.ok() && last.value().has_value());
}

TEST(DftTest, DftLengthPadsAndTruncates) {
  Graph g;
  const std::vector<double> x = Ramp(6);
  const Var signal = Const<double>(g, x, {1, 6, 1});
  EXPECT_TRUE(HasValues<double>(Dft(signal, Scalar<int64_t>(g, 8), {}),
                                DefiningSum(AsComplex(x), 8, 8), {1, 8, 2}, 1e-12));
  EXPECT_TRUE(HasValues<double>(Dft(signal, Const<int32_t>(g, {4}, {}), {}),
                                DefiningSum(AsComplex(x), 4, 4), {1, 4, 2}, 1e-12));
  EXPECT_TRUE(HasValues<double>(Dft(signal, Scalar<int64_t>(g, 11), {}),
                                DefiningSum(AsComplex(x), 11, 11), {1, 11, 2}, 1e-12));
}

TEST(DftTest, OnesidedKeepsHalfTheBins) {
  Graph g;
  const std::vector<double> x = Ramp(7);
  const Var y = Dft(Const<double>(g, x, {1, 7, 1}), Var(), {{"onesided", int64_t{1}}});
  EXPECT_TRUE(HasValues<double>(y, DefiningSum(AsComplex(x), 7, 4), {1, 4, 2}, 1e-12));
}

TEST(DftTest, ComponentDimOtherThanOneOrTwoFails) {
  Graph g;
  const Var y = Dft(Const<float>(g, std::vector<float>(6, 1.0f), {1, 2, 3}), Var(), {});
  EXPECT_TRUE(FailsWith(y, {"input 0", "[1,2,3]"}));
}

TEST(DftTest, OnesidedComplexInputNoValue) {
  Graph g;
  const Var y = Dft(Const<float>(g, {1, 2, 3, 4}, {1, 2, 2}), Var(), {{"onesided", int64_t{1}}});
  EXPECT_TRUE(HasNoValue(y));
}

TEST(DftTest, InverseUndoesTheTransform) {
  Graph g;
  for (int64_t n : {8, 12}) {
    const std::vector<double> x = Ramp(n);
    const Var spectrum = Dft(Const<double>(g, x, {1, n, 1}), Var(), {});
    const Var back = Dft(spectrum, Var(), {{"inverse", int64_t{1}}});
    std::vector<double> want;
    for (double v : x) want.insert(want.end(), {v, 0.0});
    EXPECT_TRUE(HasValues<double>(back, want, {1, n, 2}, 1e-12)) << n;
  }
}

TEST(DftTest, NonPositiveDftLengthFails) {
  Graph g;
  const Var y = Dft(Const<float>(g, {1, 2}, {1, 2, 1}), Scalar<int64_t>(g, 0), {});
  EXPECT_TRUE(FailsWith(y, {"dft_length", "0"}));
}

TEST(DftTest, EmptyBatchIsEmpty) {
  Graph g;
  const Var y = Dft(Const<float>(g, {}, {0, 4, 1}), Var(), {});
  EXPECT_TRUE(HasValues<float>(y, {}, {0, 4, 2}));
}

TEST(DftTest, PastTheBudgetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 4096});
  const Var y = Dft(Const<float>(g, std::vector<float>(300, 1.0f), {1, 300, 1}), Var(), {});
  EXPECT_TRUE(HasNoValue(y));
}

// --- STFT -------------------------------------------------------------------------------------

// Frames of 4 samples every 2 of a signal of 9: frames = (9 - 4) / 2 + 1 = 3.
std::vector<double> StftWant(const std::vector<double>& x, const std::vector<double>& window,
                             int64_t bins) {
  std::vector<double> want;
  for (int64_t f = 0; f < 3; ++f) {
    std::vector<Complex> frame;
    for (int64_t j = 0; j < 4; ++j) {
      frame.emplace_back(x[static_cast<size_t>(2 * f + j)] * window[static_cast<size_t>(j)]);
    }
    const std::vector<double> spectrum = DefiningSum(frame, 4, bins);
    want.insert(want.end(), spectrum.begin(), spectrum.end());
  }
  return want;
}

Var Stft(const std::vector<Var>& inputs, const std::vector<gg::Attribute>& attributes) {
  return One(NodeAt("STFT", inputs, attributes, 17));
}

TEST(StftTest, FramesWithFrameLength) {
  Graph g;
  const std::vector<double> x = Ramp(9);
  const Var y =
      Stft({Const<double>(g, x, {1, 9, 1}), Scalar<int64_t>(g, 2), Var(), Scalar<int64_t>(g, 4)},
           {{"onesided", int64_t{0}}});
  EXPECT_TRUE(
      HasValues<double>(y, StftWant(x, std::vector<double>(4, 1.0), 4), {1, 3, 4, 2}, 1e-12));
}

TEST(StftTest, ComplexSignal) {
  Graph g;
  std::vector<double> values;
  std::vector<Complex> samples;
  for (int j = 0; j < 4; ++j) {
    samples.emplace_back(j, 1 - j);
    values.insert(values.end(), {static_cast<double>(j), 1.0 - j});
  }
  const Var y = Stft({Const<float>(g, std::vector<float>(values.begin(), values.end()), {1, 4, 2}),
                      Scalar<int64_t>(g, 1), Var(), Scalar<int64_t>(g, 4)},
                     {{"onesided", int64_t{0}}});
  EXPECT_TRUE(HasValues<float>(y, DefiningSum(samples, 4, 4), {1, 1, 4, 2}, 1e-6));
}

TEST(StftTest, FramesWithWindow) {
  Graph g;
  const std::vector<double> x = Ramp(9);
  const std::vector<double> window = {0.1, 0.5, 1, 0.5};
  const Var y = Stft(
      {Const<double>(g, x, {1, 9, 1}), Const<int32_t>(g, {2}, {}), Const<double>(g, window, {4})},
      {{"onesided", int64_t{0}}});
  EXPECT_TRUE(HasValues<double>(y, StftWant(x, window, 4), {1, 3, 4, 2}, 1e-12));
}

TEST(StftTest, OnesidedIsTypedAsItsDefaultSays) {
  // ONNX 1.12 types a missing onesided as 0 (the schema's default is 1) and counts onesided
  // frames from the bins; graphgc infers STFT's shape itself (opset/inference/inference_fixes.h):
  // floor((9 - 4) / 2) + 1 = 3 frames of 4 / 2 + 1 = 3 bins.
  Graph g;
  const std::vector<Var> inputs = {Const<float>(g, std::vector<float>(9, 1.0f), {1, 9, 1}),
                                   Scalar<int64_t>(g, 2), Var(), Scalar<int64_t>(g, 4)};
  for (const Var& y : {Stft(inputs, {}), Stft(inputs, {{"onesided", int64_t{1}}})}) {
    ASSERT_TRUE(y.value().has_value()) << y.status();
    EXPECT_EQ(y.value()->shape(), (absl::Span<const int64_t>{1, 3, 3, 2}));
  }
  const Var two_sided = Stft(inputs, {{"onesided", int64_t{0}}});
  ASSERT_TRUE(two_sided.value().has_value());
  EXPECT_EQ(two_sided.value()->shape(), (absl::Span<const int64_t>{1, 3, 4, 2}));
}

TEST(StftTest, FrameLengthAndWindowDisagreeingFails) {
  Graph g;
  const Var y =
      Stft({Const<float>(g, std::vector<float>(9, 1.0f), {1, 9, 1}), Scalar<int64_t>(g, 2),
            Const<float>(g, {1, 1, 1, 1}, {4}), Scalar<int64_t>(g, 3)},
           {{"onesided", int64_t{0}}});
  EXPECT_TRUE(FailsWith(y, {"frame_length"}));
}

TEST(StftTest, NonPositiveFrameStepFails) {
  Graph g;
  const Var y = Stft({Const<float>(g, std::vector<float>(9, 1.0f), {1, 9, 1}),
                      Scalar<int64_t>(g, 0), Var(), Scalar<int64_t>(g, 4)},
                     {{"onesided", int64_t{0}}});
  EXPECT_TRUE(FailsWith(y, {"frame_step", "0"}));
}

// --- MelWeightMatrix --------------------------------------------------------------------------

// dft_length 8 at 8000 Hz from 0 to 4000 Hz, 2 filters: the 4 mel points, mel(4000) / 4 apart,
// fall in spectrogram bins 0, 0, 1, 2 (floor(9 * hz / 8000) of 0, 427, 1114, 2220 Hz).
std::vector<Var> MelInputs(Graph& g, double upper_hz) {
  return {Scalar<int64_t>(g, 2), Scalar<int64_t>(g, 8), Scalar<int64_t>(g, 8000),
          Const<float>(g, {0}, {}), Const<float>(g, {static_cast<float>(upper_hz)}, {})};
}

TEST(MelWeightMatrixTest, TrianglesByHand) {
  Graph g;
  const std::vector<double> want = {1, 0, 0, 1, 0, 0, 0, 0, 0, 0};
  EXPECT_TRUE(
      HasValues<float>(One(NodeAt("MelWeightMatrix", MelInputs(g, 4000), {}, 17)), want, {5, 2}));
  EXPECT_TRUE(HasValues<int32_t>(
      One(NodeAt("MelWeightMatrix", MelInputs(g, 4000),
                 {{"output_datatype", static_cast<int64_t>(gg::DataType::kInt32)}}, 17)),
      want, {5, 2}));
}

TEST(MelWeightMatrixTest, RisingAndFallingEdges) {
  // 1 filter over 0 .. 4000 Hz of dft_length 16 at 8000 Hz: 3 points mel(4000) / 3 apart, in
  // bins 0, 1, 3 (floor(17 * hz / 8000) of 0, 621 and 1792 Hz): rises over 0..1, falls over 1..3.
  Graph g;
  const Var y = One(NodeAt("MelWeightMatrix",
                           {Scalar<int64_t>(g, 1), Scalar<int64_t>(g, 16), Scalar<int64_t>(g, 8000),
                            Const<float>(g, {0}, {}), Const<float>(g, {4000}, {})},
                           {}, 17));
  EXPECT_TRUE(HasValues<float>(y, {0, 1, 0.5, 0, 0, 0, 0, 0, 0}, {9, 1}));
}

TEST(MelWeightMatrixTest, EdgeBeyondTheSpectrogramFails) {
  Graph g;
  const Var y = One(NodeAt("MelWeightMatrix", MelInputs(g, 5000), {}, 17));
  EXPECT_TRUE(FailsWith(y, {"upper_edge_hertz", "5000"}));
}

}  // namespace
