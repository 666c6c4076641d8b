// Value propagation of the conv kernels (Conv, ConvTranspose, ConvInteger, QLinearConv) through
// the public API: hand-computed values for each element type, bias, groups, the 1x1 fast path,
// empty batches, NaN, zero points per tensor and per channel, QLinearConv's rounding and
// saturation, inputs that make the op fail, and the value budget. The odd geometries (groups with
// dilations, SAME_LOWER, 3-D, ConvTranspose's pad split and output_shape) are cross-checked
// against ONNX Runtime when tests/ort_run.js and onnxruntime-node are found (skipped otherwise).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset19.h"
#include "graphgc/opset/generated/opset22.h"
#include "kernel_test_util.h"

namespace {

namespace fs = std::filesystem;
using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

// The var's value has shape `shape` and elements `expected` (as doubles, within 1e-5 relative;
// NaN matches NaN).
template <class T>
::testing::AssertionResult Is(const Var& var, const std::vector<double>& expected,
                              const Dims& shape) {
  if (::testing::AssertionResult typed = HasValueOfShape<T>(var, shape); !typed) return typed;
  const std::optional<Tensor> value = var.value();
  const auto actual = value->data<T>();
  if (actual.size() != expected.size()) return ::testing::AssertionFailure() << "element count";
  for (size_t i = 0; i < expected.size(); ++i) {
    const double a = ToDouble(actual[i]), e = expected[i];
    if (!(std::fabs(a - e) <= 1e-5 * std::fabs(e) || (std::isnan(a) && std::isnan(e)))) {
      return ::testing::AssertionFailure() << "element " << i << " is " << a << ", expected " << e;
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<double> Iota(int64_t count, double start = 0) {
  std::vector<double> out;
  for (int64_t i = 0; i < count; ++i) out.push_back(start + static_cast<double>(i));
  return out;
}

// X = 0..8 as [1,1,3,3], W = 2x2 of ones, B = 10: sums of each 2x2 window plus 10.
template <class T>
void ExpectSmallConv() {
  Graph g;
  Var x = Const<T>(g, ValuesOf<T>(Iota(9)), {1, 1, 3, 3});
  Var w = Const<T>(g, ValuesOf<T>({1, 1, 1, 1}), {1, 1, 2, 2});
  Var b = Const<T>(g, ValuesOf<T>({10}), {1});
  EXPECT_TRUE(Is<T>(op::Conv(x, w, b), {18, 22, 30, 34}, {1, 1, 2, 2}));
  // pads 1: the full 4x4 of window sums, no bias.
  EXPECT_TRUE(Is<T>(op::Conv(x, w, Var(), {.pads = {{1, 1, 1, 1}}}),
                    {0, 1, 3, 2, 3, 8, 12, 7, 9, 20, 24, 13, 6, 13, 15, 8}, {1, 1, 4, 4}));
  // ConvTranspose of the same: each input spreads over a 2x2 block.
  EXPECT_TRUE(Is<T>(op::ConvTranspose(x, w, b),
                    {10, 11, 13, 12, 13, 18, 22, 17, 19, 30, 34, 23, 16, 23, 25, 18},
                    {1, 1, 4, 4}));
}

// Col2Im (opset 18); the values are ONNX Runtime 1.32's.
TEST(Col2ImKernel, FoldsBlocksAddingOverlaps) {
  Graph g;
  const Var columns = Const<float>(g, ValuesOf<float>(Iota(16, 1)), {1, 4, 4});
  const Var image = Int64s(g, {3, 3});
  const Var block = Int64s(g, {2, 2});
  EXPECT_TRUE(Is<float>(gg::opset24::Col2Im(columns, image, block),
                        {1, 7, 6, 12, 34, 22, 11, 27, 16}, {1, 1, 3, 3}));
  EXPECT_TRUE(Is<float>(
      gg::opset24::Col2Im(columns, image, block, {.pads = {{1, 0, 0, 0}}, .strides = {{2, 1}}}),
      {9, 23, 14, 3, 11, 8, 11, 27, 16}, {1, 1, 3, 3}));
  const Var line = Const<int32_t>(g, {1, 2, 3, 4}, {1, 2, 2});
  EXPECT_TRUE(
      Is<int32_t>(gg::opset24::Col2Im(line, Int64s(g, {4}), Int64s(g, {2}), {.dilations = {{2}}}),
                  {1, 2, 3, 4}, {1, 1, 4}));
  // L must be the number of block positions, dim 1 a multiple of the block's size.
  EXPECT_FALSE(gg::opset24::Col2Im(line, Int64s(g, {5}), Int64s(g, {2})).value().has_value());
  EXPECT_FALSE(gg::opset24::Col2Im(columns, image, Int64s(g, {3, 1})).value().has_value());
}

// DeformConv (opsets 19 and 22). The 2-D values are ONNX Runtime 1.32's, which ONNX's reference
// evaluator (onnx 1.23) gives too; the 1-D and 3-D ones, which neither computes, are ONNX's
// reference GridSample (linear, zeros, align_corners) sampling each tap, as its 2-D DeformConv
// does.
Var DeformConvAt(int opset, const Var& x, const Var& w, const Var& offset) {
  return opset == 22 ? gg::opset22::DeformConv(x, w, offset)
                     : gg::opset19::DeformConv(x, w, offset);
}

// `count` values of `f(i)`, a pattern both this test and the ONNX Runtime script use.
template <class F>
std::vector<double> Pattern(int64_t count, F f) {
  std::vector<double> out;
  for (int64_t i = 0; i < count; ++i) out.push_back(f(i));
  return out;
}
double PatternX(int64_t i) { return static_cast<double>(i * 5 % 11) - 5; }
double PatternW(int64_t i) { return static_cast<double>(i * 3 % 7 - 3) / 4; }
double PatternOffset(int64_t i) { return static_cast<double>(i * 7 % 17 - 8) / 4; }
double PatternMask(int64_t i) { return static_cast<double>(i % 5) / 4; }

// X = 1..9 [3, 3], a 1x1 kernel of 2: each output is twice X sampled at its displaced location.
// A location within a pixel of the border blends the edge pixel with 0.
template <class T>
void ExpectDeformedBorderTaps(int opset) {
  Graph g;
  Var x = Const<T>(g, ValuesOf<T>(Iota(9, 1)), {1, 1, 3, 3});
  Var w = Const<T>(g, ValuesOf<T>({2}), {1, 1, 1, 1});
  std::vector<double> offsets(18, 0.0);  // [1, 2 (dy, dx), 3, 3]
  offsets[0] = -0.5;                     // (0, 0) reads (-0.5, 0): half of X[0, 0]
  offsets[9 + 1] = -2;                   // (0, 1) reads (0, -1): column 0 weighs 0
  offsets[2] = 2.5;                      // (0, 2) reads (2.5, 2): half of X[2, 2]
  offsets[3] = -0.75;                    // (1, 0) reads (0.25, 0.25)
  offsets[9 + 3] = 0.25;
  offsets[9 + 4] = 1.5;    // (1, 1) reads (1, 2.5): half of X[1, 2]
  offsets[8] = 1;          // (2, 2) reads (3, 2): outside
  offsets[9 + 6] = -1.25;  // (2, 0) reads (2, -1.25): outside
  Var offset = Const<T>(g, ValuesOf<T>(offsets), {1, 2, 3, 3});
  EXPECT_TRUE(
      Is<T>(DeformConvAt(opset, x, w, offset), {1, 0, 9, 4, 6, 12, 0, 16, 0}, {1, 1, 3, 3}));
}

TEST(DeformConvKernel, SamplesNearTheBorderLikeOnnx) {
  ExpectDeformedBorderTaps<float>(19);
  ExpectDeformedBorderTaps<double>(19);
  ExpectDeformedBorderTaps<gg::Float16>(19);
  ExpectDeformedBorderTaps<float>(22);
  ExpectDeformedBorderTaps<gg::BFloat16>(22);
}

// Two images of 4 channels in 2 groups and 2 offset groups, a 2x2 kernel dilated [2, 1], strides
// [1, 2], pads [1, 0, 0, 1], a mask and a bias.
template <class T>
void ExpectDeformConvOfGroups() {
  Graph g;
  Var x = Const<T>(g, ValuesOf<T>(Pattern(160, PatternX)), {2, 4, 4, 5});
  Var w = Const<T>(g, ValuesOf<T>(Pattern(32, PatternW)), {4, 2, 2, 2});
  Var offset = Const<T>(g, ValuesOf<T>(Pattern(288, PatternOffset)), {2, 16, 3, 3});
  Var mask = Const<T>(g, ValuesOf<T>(Pattern(144, PatternMask)), {2, 8, 3, 3});
  Var b = Const<T>(g, ValuesOf<T>({-1.5, -0.5, 0.5, 1.5}), {4});
  const Var y = gg::opset19::DeformConv(x, w, offset, b, mask,
                                        {.dilations = {{2, 1}},
                                         .group = 2,
                                         .offset_group = 2,
                                         .pads = {{1, 0, 0, 1}},
                                         .strides = {{1, 2}}});
  EXPECT_TRUE(Is<T>(
      y,
      {-0.4375,   3.1953125, -1.3125,    -1.42578125, -3.484375,   -3.8828125, -1.5,      -1.015625,
       -4.78125,  -2.0625,   -4.59375,   -0.6875,     -0.62890625, 0.734375,   2.9296875, -0.5,
       -0.9375,   1.0,       -1.1875,    -0.125,      0.09375,     0.28125,    -3.5,      -1.1875,
       0.0625,    -0.5,      0.25,       2.296875,    1.9375,      1.484375,   0.90625,   3.5625,
       1.375,     1.59375,   4.1328125,  0.6875,      -3.40625,    -1.78125,   -1.8125,   -4.40625,
       -4.15625,  -1.140625, -5.3828125, -4.0625,     -1.96875,    1.625,      -0.0625,   -0.625,
       2.875,     1.8046875, -0.90625,   1.9140625,   2.703125,    -0.40625,   -0.09375,  2.5390625,
       0.40625,   -1.90625,  0.0625,     0.875,       -1.9921875,  0.359375,   0.78125,   1.296875,
       2.1171875, 1.2421875, 0.90625,    2.125,       1.875,       1.609375,   1.8515625, 1.3125},
      {2, 4, 3, 3}));
}

TEST(DeformConvKernel, GroupsOffsetGroupsMaskAndBias) {
  ExpectDeformConvOfGroups<float>();
  ExpectDeformConvOfGroups<double>();
  ExpectDeformConvOfGroups<gg::Float16>();
}

TEST(DeformConvKernel, OtherSpatialRanks) {
  Graph g;
  // 1-D: 2 channels in 2 groups and 2 offset groups, kernel 3, stride 2, pads 1 and 1.
  Var x1 = Const<double>(g, Pattern(10, PatternX), {1, 2, 5});
  Var w1 = Const<double>(g, Pattern(6, PatternW), {2, 1, 3});
  Var offset1 = Const<double>(g, Pattern(18, PatternOffset), {1, 6, 3});
  EXPECT_TRUE(Is<double>(
      gg::opset19::DeformConv(x1, w1, offset1, Var(), Var(),
                              {.group = 2, .offset_group = 2, .pads = {{1, 1}}, .strides = {{2}}}),
      {0, 1.6875, 0.75, -0.25, 0.75, -1.125}, {1, 2, 3}));
  // 3-D: a 2x2x1 kernel with a mask and a bias.
  Var x3 = Const<double>(g, Pattern(18, PatternX), {1, 1, 3, 3, 2});
  Var w3 = Const<double>(g, Pattern(4, PatternW), {1, 1, 2, 2, 1});
  Var offset3 = Const<double>(g, Pattern(96, PatternOffset), {1, 12, 2, 2, 2});
  Var mask3 = Const<double>(g, Pattern(32, PatternMask), {1, 4, 2, 2, 2});
  EXPECT_TRUE(Is<double>(
      gg::opset19::DeformConv(x3, w3, offset3, Const<double>(g, {0.5}, {1}), mask3),
      {0.5, 0.5, 0.2890625, 0.3671875, 0.6171875, 0.5, -0.296875, 0.1484375}, {1, 1, 2, 2, 2}));
}

TEST(DeformConvKernel, AnAxisOfOnePixel) {
  // ONNX Runtime's value; ONNX's reference divides by the extent - 1 and fails.
  Graph g;
  Var x = Const<float>(g, {1, 2, 3}, {1, 1, 1, 3});
  Var w = Const<float>(g, {1, 1}, {1, 1, 1, 2});
  Var offset = Const<float>(g, std::vector<float>(8, 0.25f), {1, 4, 1, 2});
  EXPECT_TRUE(Is<float>(gg::opset19::DeformConv(x, w, offset), {2.625, 3.375}, {1, 1, 1, 2}));
}

TEST(DeformConvKernel, NonFiniteOffsetsOrImagesGetNoValue) {
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(9)), {1, 1, 3, 3});
  Var w = Const<float>(g, {1}, {1, 1, 1, 1});
  std::vector<float> offsets(18, 0.0f);
  offsets[4] = kNaN;
  EXPECT_TRUE(HasNoValue(gg::opset19::DeformConv(x, w, Const<float>(g, offsets, {1, 2, 3, 3}))));
  offsets[4] = -kInf;
  EXPECT_TRUE(HasNoValue(gg::opset19::DeformConv(x, w, Const<float>(g, offsets, {1, 2, 3, 3}))));
  // A NaN pixel: ONNX Runtime weighs the taps outside the image by 0 and spreads it.
  Var nan_x = Const<float>(g, {kNaN, 1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 3, 3});
  EXPECT_TRUE(HasNoValue(
      gg::opset19::DeformConv(nan_x, w, Const<float>(g, std::vector<float>(18), {1, 2, 3, 3}))));
}

TEST(DeformConvKernel, ShapesAndAttributesThatDoNotFit) {
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(18)), {1, 2, 3, 3});
  Var w = Const<float>(g, std::vector<float>(8, 1.0f), {2, 2, 1, 2});
  Var offset = Const<float>(g, std::vector<float>(24, 0.5f), {1, 4, 3, 2});
  const Var y = gg::opset19::DeformConv(x, w, offset);
  ASSERT_TRUE(HasValueOfShape<float>(y, {1, 2, 3, 2}));
  // offset_group must divide the channels, and the offsets fit the kernel and the output.
  for (int64_t groups : {int64_t{0}, int64_t{-1}, int64_t{3}}) {
    EXPECT_TRUE(
        FailsWith(gg::opset19::DeformConv(x, w, offset, Var(), Var(), {.offset_group = groups}),
                  {"offset_group"}))
        << groups;
  }
  EXPECT_TRUE(FailsWith(gg::opset19::DeformConv(x, w, offset, Var(), Var(), {.offset_group = 2}),
                        {"offset", "expected [1,8,3,2]"}));
  EXPECT_TRUE(FailsWith(
      gg::opset19::DeformConv(x, w, Const<float>(g, std::vector<float>(16), {1, 4, 2, 2})),
      {"offset"}));
  // A mask or B of another shape fails, unless ONNX's reference reshapes or broadcasts it
  // (ONNX Runtime fails): no value then.
  EXPECT_TRUE(
      FailsWith(gg::opset19::DeformConv(x, w, offset, Var(),
                                        Const<float>(g, std::vector<float>(6), {1, 1, 3, 2})),
                {"mask"}));
  EXPECT_TRUE(HasNoValue(gg::opset19::DeformConv(
      x, w, offset, Var(), Const<float>(g, std::vector<float>(12, 1.0f), {1, 12}))));
  EXPECT_TRUE(HasNoValue(gg::opset19::DeformConv(x, w, offset, Const<float>(g, {1}, {1}))));
  EXPECT_TRUE(
      FailsWith(gg::opset19::DeformConv(x, w, offset, Const<float>(g, {1, 2, 3}, {3})), {"B"}));
  // Huge dilations or pads are no value, not an overflow.
  EXPECT_FALSE(
      gg::opset19::DeformConv(x, w, offset, Var(), Var(), {.dilations = {{int64_t{1} << 40, 1}}})
          .value()
          .has_value());
  EXPECT_FALSE(gg::opset19::DeformConv(x, w, offset, Var(), Var(),
                                       {.pads = {{0, 0, int64_t{1} << 62, int64_t{1} << 62}}})
                   .value()
                   .has_value());
}

TEST(ConvKernel, EachElementType) {
  ExpectSmallConv<float>();
  ExpectSmallConv<double>();
  ExpectSmallConv<gg::Float16>();
}

TEST(ConvKernel, OpsetOneGivesTheSameValues) {
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(9)), {1, 1, 3, 3});
  Var w = Const<float>(g, {1, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_TRUE(Is<float>(One(gg::make_node("Conv", {x, w}, {}, {.version = 1})), {8, 12, 20, 24},
                        {1, 1, 2, 2}));
  EXPECT_TRUE(Is<float>(One(gg::make_node("ConvTranspose", {x, w}, {}, {.version = 1})),
                        {0, 1, 3, 2, 3, 8, 12, 7, 9, 20, 24, 13, 6, 13, 15, 8}, {1, 1, 4, 4}));
}

TEST(ConvKernel, SamePaddingOfADilatedKernel) {
  // ONNX Runtime rejects auto_pad SAME with dilations; ONNX pads the dilated kernel's span (4
  // here, 3 in all, the odd one at the end for SAME_UPPER, at the beginning for SAME_LOWER).
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(5)), {1, 1, 5});
  Var w = Const<float>(g, {1, 1}, {1, 1, 2});
  EXPECT_TRUE(Is<float>(op::Conv(x, w, Var(), {.auto_pad = "SAME_UPPER", .dilations = {{3}}}),
                        {2, 3, 5, 2, 3}, {1, 1, 5}));
  EXPECT_TRUE(Is<float>(op::Conv(x, w, Var(), {.auto_pad = "SAME_LOWER", .dilations = {{3}}}),
                        {1, 2, 3, 5, 2}, {1, 1, 5}));
}

TEST(ConvKernel, PointwiseGroupsAndBatches) {
  // 1x1 kernel, stride 1, no pads (the path that multiplies X directly): 2 images, 4 channels in
  // 2 groups; output channel m of group g mixes input channels 2g and 2g+1.
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(16)), {2, 4, 2, 1});
  Var w = Const<float>(g, {1, 10, 2, 20, 3, 30, 4, 40}, {4, 2, 1, 1});
  std::vector<double> expected;
  for (int n = 0; n < 2; ++n) {
    for (int m = 0; m < 4; ++m) {
      const int group = m / 2;
      const double w0 = (m + 1), w1 = 10 * (m + 1);
      for (int i = 0; i < 2; ++i) {
        const double x0 = n * 8 + (2 * group) * 2 + i, x1 = x0 + 2;
        expected.push_back(w0 * x0 + w1 * x1);
      }
    }
  }
  EXPECT_TRUE(Is<float>(op::Conv(x, w, Var(), {.group = 2}), expected, {2, 4, 2, 1}));
}

TEST(ConvKernel, EmptyBatchAndNaN) {
  Graph g;
  Var empty = g.constant(Tensor::zeros(DataType::kFloat, {0, 1, 3, 3}));
  Var w = Const<float>(g, {1, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_TRUE(Is<float>(op::Conv(empty, w), {}, {0, 1, 2, 2}));
  EXPECT_TRUE(Is<float>(op::ConvTranspose(empty, w), {}, {0, 1, 4, 4}));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Var x = Const<float>(g, ValuesOf<float>({0, 1, 2, 3, nan, 5, 6, 7, 8}), {1, 1, 3, 3});
  EXPECT_TRUE(Is<float>(op::Conv(x, w), {nan, nan, nan, nan}, {1, 1, 2, 2}));
  // A zero weight times NaN is NaN too; a 1x1 kernel keeps NaN where it is.
  EXPECT_TRUE(Is<float>(op::Conv(x, Const<float>(g, {0, 0, 0, 0}, {1, 1, 2, 2})),
                        {nan, nan, nan, nan}, {1, 1, 2, 2}));
  EXPECT_TRUE(Is<float>(op::Conv(x, Const<float>(g, {2}, {1, 1, 1, 1})),
                        {0, 2, 4, 6, nan, 10, 12, 14, 16}, {1, 1, 3, 3}));
}

TEST(ConvKernel, BadInputsFailTheOp) {
  Graph g;
  Var x = Const<float>(g, ValuesOf<float>(Iota(9)), {1, 1, 3, 3});
  Var w = Const<float>(g, {1, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_FALSE(op::Conv(x, Const<float>(g, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 2, 2, 2})).ok());
  EXPECT_FALSE(op::Conv(x, w, Const<float>(g, {1, 2}, {2})).ok());
  EXPECT_FALSE(op::Conv(x, w, Var(), {.kernel_shape = {{3, 3}}}).ok());
  // Negative pads crop: no value rather than a guess.
  const Var cropped = op::Conv(x, w, Var(), {.pads = {{-1, 0, 0, 0}}});
  EXPECT_TRUE(!cropped.ok() || HasNoValue(cropped));
}

// The pattern of Pattern() below, for tests that need equal inputs in two graphs.
template <class T>
Var Pattern(Graph& g, const Dims& shape, int seed);

TEST(ConvKernel, ThreadsGiveTheSameValues) {
  // Enough work (2.4M multiply-adds) for two threads; blocks of the column matrix too.
  auto conv = [](Graph& g) {
    return op::Conv(Pattern<float>(g, {2, 16, 32, 32}, 1), Pattern<float>(g, {16, 16, 3, 3}, 2),
                    Var(), {.pads = {{1, 1, 1, 1}}});
  };
  Graph one;
  Graph two(gg::GraphOptions{.kernel_threads = 2});
  const std::optional<Tensor> serial = conv(one).value(), parallel = conv(two).value();
  ASSERT_TRUE(serial.has_value() && parallel.has_value());
  const auto a = serial->data<float>(), b = parallel->data<float>();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], 1e-4) << i;
}

TEST(ConvKernel, LargeColumnMatricesGoInBlocks) {
  // 288 rows of 32 columns a line: the column matrix is built 28 lines at a time (then 4), for
  // two images and two groups; checked against a direct loop.
  Graph g;
  const Var x = Pattern<float>(g, {2, 64, 32, 32}, 31), w = Pattern<float>(g, {8, 32, 3, 3}, 32);
  const Var y = op::Conv(x, w, Var(), {.group = 2, .pads = {{1, 1, 1, 1}}});
  ASSERT_TRUE(y.value().has_value());
  const auto xs = x.value()->data<float>(), ws = w.value()->data<float>();
  const auto ys = y.value()->data<float>();
  ASSERT_EQ(ys.size(), size_t{2 * 8 * 32 * 32});
  for (int n = 0; n < 2; ++n) {
    for (int m = 0; m < 8; ++m) {
      for (int i = 0; i < 32; ++i) {
        for (int j = 0; j < 32; ++j) {
          double sum = 0;
          for (int c = 0; c < 32; ++c) {
            for (int ki = 0; ki < 3; ++ki) {
              for (int kj = 0; kj < 3; ++kj) {
                const int r = i + ki - 1, s = j + kj - 1;
                if (r < 0 || r >= 32 || s < 0 || s >= 32) continue;
                const int channel = (m / 4) * 32 + c;
                sum += double{xs[((n * 64 + channel) * 32 + r) * 32 + s]} *
                       ws[((m * 32 + c) * 3 + ki) * 3 + kj];
              }
            }
          }
          ASSERT_NEAR(ys[((n * 8 + m) * 32 + i) * 32 + j], sum, 1e-3) << n << m << i << j;
        }
      }
    }
  }
}

TEST(ConvKernel, ValueBudget) {
  // The output fits, the column matrix (9x as large) does not: no value at all.
  Graph g(gg::GraphOptions{.max_value_bytes = 64 * 64 * 4 * 2});
  Var x = g.constant(Tensor::zeros(DataType::kFloat, {1, 1, 64, 64}));
  Var w = g.constant(Tensor::zeros(DataType::kFloat, {1, 1, 3, 3}));
  EXPECT_TRUE(HasNoValue(op::Conv(x, w, Var(), {.pads = {{1, 1, 1, 1}}})));
  EXPECT_TRUE(HasNoValue(op::ConvTranspose(x, w)));
  Graph big(gg::GraphOptions{.max_value_bytes = 1000});
  Var bx = big.constant(Tensor::zeros(DataType::kFloat, {1, 1, 20, 20}));
  Var bw = big.constant(Tensor::zeros(DataType::kFloat, {1, 1, 1, 1}));
  EXPECT_TRUE(HasNoValue(op::Conv(bx, bw)));
}

TEST(ConvIntegerKernel, ZeroPointsPerTensorAndPerChannel) {
  Graph g;
  // x - 1 = 1..9 (uint8), pads 1: padding reads the zero point, i.e. adds nothing.
  Var x = Const<uint8_t>(g, ValuesOf<uint8_t>(Iota(9, 2)), {1, 1, 3, 3});
  Var w = Const<uint8_t>(g, {1, 1, 1, 1}, {1, 1, 2, 2});
  EXPECT_TRUE(
      Is<int32_t>(op::ConvInteger(x, w, Scalar<uint8_t>(g, 1), Var(), {.pads = {{1, 1, 1, 1}}}),
                  {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}, {1, 1, 4, 4}));
  // int8 weights, a zero point per output channel: channel 0 sums w - 1 = 1, channel 1 w + 2 = -1.
  Var w2 = Const<int8_t>(g, {2, 2, 2, 2, -3, -3, -3, -3}, {2, 1, 2, 2});
  Var w_zero = Const<int8_t>(g, {1, -2}, {2});
  EXPECT_TRUE(Is<int32_t>(op::ConvInteger(x, w2, Var(), w_zero),
                          {16, 20, 28, 32, -16, -20, -28, -32}, {1, 2, 2, 2}));
  // A zero point that is neither a scalar nor per channel fails the op.
  EXPECT_FALSE(op::ConvInteger(x, w2, Var(), Const<int8_t>(g, {1, 2, 3}, {3})).ok());
}

TEST(QLinearConvKernel, RoundsHalfToEvenAndSaturates) {
  Graph g;
  // x = 1..4 (scale 1, zero 0), w = [1] per channel, scales 0.5 and 1, y_scale 1, y_zero 0:
  // channel 0 halves (0.5, 1, 1.5, 2 -> 0, 1, 2, 2), channel 1 adds bias 126 (saturates at 127).
  Var x = Const<int8_t>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  Var w = Const<int8_t>(g, {1, 1}, {2, 1, 1, 1});
  Var one = Scalar<float>(g, 1.0f);
  Var zero = Scalar<int8_t>(g, 0);
  Var w_scale = Const<float>(g, {0.5f, 1.0f}, {2});
  Var bias = Const<int32_t>(g, {0, 126}, {2});
  EXPECT_TRUE(Is<int8_t>(op::QLinearConv(x, one, zero, w, w_scale, zero, one, zero, bias),
                         {0, 1, 2, 2, 127, 127, 127, 127}, {1, 2, 2, 2}));
  // uint8 with a y zero point: -4.5 -> -4 (even), + 10 = 6; saturation at 0 below.
  Var ux = Const<uint8_t>(g, {1, 2, 3, 20}, {1, 1, 2, 2});
  Var uw = Const<uint8_t>(g, {0}, {1, 1, 1, 1});
  EXPECT_TRUE(Is<uint8_t>(op::QLinearConv(ux, Scalar<float>(g, 1.5f), Scalar<uint8_t>(g, 0), uw,
                                          one, Scalar<uint8_t>(g, 3), one, Scalar<uint8_t>(g, 10)),
                          {6, 1, 0, 0}, {1, 1, 2, 2}));
}

TEST(QLinearConvKernel, ValueBudget) {
  Graph g(gg::GraphOptions{.max_value_bytes = 1000});
  Var x = g.constant(Tensor::zeros(DataType::kUint8, {1, 1, 30, 30}));
  Var w = g.constant(Tensor::zeros(DataType::kUint8, {1, 1, 1, 1}));
  Var one = Scalar<float>(g, 1.0f);
  Var zero = Scalar<uint8_t>(g, 0);
  EXPECT_TRUE(HasNoValue(op::QLinearConv(x, one, zero, w, one, zero, one, zero)));
}

// ---------------------------------------------------------------------------------------------
// Cross-checks with ONNX Runtime: each graph's propagated value against ORT's run of the export.

std::optional<fs::path> FindTestsDir() {
  for (fs::path dir = fs::current_path(); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / "tests" / "ort_run.js")) return dir / "tests";
    if (dir == dir.parent_path()) break;
  }
  const fs::path here = fs::path(__FILE__).parent_path();
  if (fs::exists(here / "ort_run.js")) return here;
  return std::nullopt;
}

std::string ValuesJson(const Tensor& t) {
  std::vector<std::string> values;
  auto append = [&](auto span) {
    for (auto v : span) values.push_back(absl::StrCat(ToDouble(v)));
  };
  switch (t.dtype()) {
    case DataType::kFloat:
      append(t.data<float>());
      break;
    case DataType::kInt32:
      append(t.data<int32_t>());
      break;
    case DataType::kInt8:
      append(t.data<int8_t>());
      break;
    case DataType::kUint8:
      append(t.data<uint8_t>());
      break;
    default:
      ADD_FAILURE() << "no JSON for " << gg::DataTypeName(t.dtype());
  }
  return absl::StrCat("[", absl::StrJoin(values, ","), "]");
}

// Exports y (whose inputs are all constants) and checks ORT computes y's propagated value.
void ExpectOrtAgrees(Graph& g, const Var& y, const std::string& name) {
  const std::optional<fs::path> tests = FindTestsDir();
  if (!tests.has_value()) GTEST_SKIP() << "tests/ort_run.js not found";
  const fs::path modules = tests->parent_path() / "tools" / ".ort" / "node_modules";
  if (!fs::exists(modules / "onnxruntime-node")) GTEST_SKIP() << "onnxruntime-node not installed";
  ASSERT_TRUE(y.value().has_value()) << name << ": no value, " << y.status();
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("graphgc_conv_", getpid());
  fs::create_directories(dir);
  const fs::path model = dir / (name + ".onnx"), json = dir / (name + ".json");
  ASSERT_TRUE(gg::save_onnx(g, {{"y", y}}, model.string()).ok());
  const Tensor value = *y.value();
  std::ofstream(json) << "{\"outputs\":[{\"name\":\"y\",\"type\":\""
                      << gg::DataTypeName(value.dtype()) << "\",\"shape\":["
                      << absl::StrJoin(value.shape(), ",") << "],\"values\":" << ValuesJson(value)
                      << "}]}";
  const std::string command =
      absl::StrCat("node '", (*tests / "ort_run.js").string(), "' '", model.string(), "' '",
                   json.string(), "' '", modules.string(), "' 2>&1");
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof(buffer), pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << name << ":\n" << output;
  fs::remove_all(dir);
}

// Small exactly representable values (multiples of 1/8 in [-2, 2)), deterministic.
template <class T>
Var Pattern(Graph& g, const Dims& shape, int seed) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<double> values;
  uint32_t state = static_cast<uint32_t>(seed) * 2654435761u + 1;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    const int v = static_cast<int>(state >> 27);  // 0..31
    values.push_back(std::is_integral_v<T> ? v * 4 + (std::is_signed_v<T> ? -64 : 0)
                                           : (v - 16) / 8.0);
  }
  return Const<T>(g, ValuesOf<T>(values), shape);
}

TEST(ConvOrtCrossCheck, Conv) {
  Graph g;
  Var x = Pattern<float>(g, {2, 4, 7, 6}, 1);
  Var w = Pattern<float>(g, {6, 2, 3, 2}, 2);
  Var b = Pattern<float>(g, {6}, 3);
  ExpectOrtAgrees(
      g,
      op::Conv(x, w, b,
               {.dilations = {{2, 1}}, .group = 2, .pads = {{1, 0, 2, 1}}, .strides = {{2, 3}}}),
      "groups_dilations_strides");
  ExpectOrtAgrees(
      g, op::Conv(x, w, Var(), {.auto_pad = "SAME_LOWER", .group = 2, .strides = {{2, 2}}}),
      "same_lower");
  ExpectOrtAgrees(
      g, op::Conv(x, w, Var(), {.auto_pad = "SAME_UPPER", .group = 2, .strides = {{2, 2}}}),
      "same_upper");
  ExpectOrtAgrees(g, op::Conv(x, w, Var(), {.auto_pad = "VALID", .group = 2}), "valid");
  Var x3 = Pattern<float>(g, {1, 3, 5, 4, 6}, 4);
  Var w3 = Pattern<float>(g, {2, 3, 2, 3, 2}, 5);
  ExpectOrtAgrees(
      g,
      op::Conv(x3, w3, Var(),
               {.dilations = {{1, 1, 2}}, .pads = {{0, 1, 1, 1, 0, 2}}, .strides = {{1, 2, 1}}}),
      "conv_3d");
  Var x1 = Pattern<float>(g, {2, 2, 9}, 6);
  Var w1 = Pattern<float>(g, {3, 2, 4}, 7);
  ExpectOrtAgrees(g,
                  op::Conv(x1, w1, Var(), {.dilations = {{2}}, .pads = {{3, 0}}, .strides = {{2}}}),
                  "conv_1d");
}

TEST(ConvOrtCrossCheck, ConvTranspose) {
  Graph g;
  Var x = Pattern<float>(g, {2, 4, 3, 4}, 11);
  Var w = Pattern<float>(g, {4, 3, 3, 2}, 12);
  Var b = Pattern<float>(g, {6}, 13);
  ExpectOrtAgrees(g,
                  op::ConvTranspose(x, w, b,
                                    {.dilations = {{2, 1}},
                                     .group = 2,
                                     .output_padding = {{1, 0}},
                                     .pads = {{1, 0, 0, 1}},
                                     .strides = {{2, 3}}}),
                  "t_groups_dilations");
  Var w4 = Pattern<float>(g, {4, 3, 3, 4}, 16);  // odd total padding on both axes
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    ExpectOrtAgrees(
        g, op::ConvTranspose(x, w4, Var(), {.auto_pad = mode, .group = 2, .strides = {{2, 3}}}),
        absl::StrCat("t_", mode));
    ExpectOrtAgrees(
        g,
        op::ConvTranspose(
            x, w, Var(),
            {.auto_pad = mode, .group = 2, .output_shape = {{6, 11}}, .strides = {{2, 3}}}),
        absl::StrCat("t_shape_", mode));
    // in * stride (12) exceeds the full output (11) along the last axis: ONNX 1.12's inference
    // says 11 where ONNX and ONNX Runtime say 12, so the op declines rather than disagree.
    EXPECT_TRUE(HasNoValue(
        op::ConvTranspose(x, w, Var(), {.auto_pad = mode, .group = 2, .strides = {{2, 3}}})));
  }
  ExpectOrtAgrees(
      g,
      op::ConvTranspose(x, w, Var(), {.group = 2, .output_shape = {{6, 13}}, .strides = {{2, 3}}}),
      "t_output_shape");
  Var x3 = Pattern<float>(g, {1, 2, 2, 3, 2}, 14);
  Var w3 = Pattern<float>(g, {2, 2, 2, 2, 3}, 15);
  ExpectOrtAgrees(
      g, op::ConvTranspose(x3, w3, Var(), {.dilations = {{1, 2, 1}}, .strides = {{2, 1, 2}}}),
      "t_3d");
}

TEST(ConvOrtCrossCheck, Quantized) {
  Graph g;
  Var x = Pattern<uint8_t>(g, {1, 4, 5, 5}, 21);
  Var w = Pattern<int8_t>(g, {4, 2, 3, 3}, 22);
  // (ONNX Runtime's ConvInteger takes W's zero point per tensor only; its QLinearConv per channel.)
  Var w_zero = Const<int8_t>(g, {3, -2, 0, 5}, {4});
  ExpectOrtAgrees(g,
                  op::ConvInteger(x, Pattern<uint8_t>(g, {4, 2, 3, 3}, 23), Scalar<uint8_t>(g, 7),
                                  Var(), {.group = 2, .pads = {{1, 1, 0, 1}}, .strides = {{2, 1}}}),
                  "conv_integer");
  Var y = op::QLinearConv(x, Scalar<float>(g, 0.05f), Scalar<uint8_t>(g, 9), w,
                          Const<float>(g, {0.01f, 0.02f, 0.03f, 0.005f}, {4}), w_zero,
                          Scalar<float>(g, 0.25f), Scalar<uint8_t>(g, 100),
                          Const<int32_t>(g, {-300, 50, 0, 1000}, {4}),
                          {.group = 2, .pads = {{1, 1, 1, 1}}});
  ExpectOrtAgrees(g, y, "qlinear_conv");
}

}  // namespace
