// Value propagation of the resample kernels (opset/kernels/resample/) where ONNX's node data does
// not reach: every element type, empty tensors, NaN, omitted and empty optional inputs, the
// older Resize and Upsample schemas, N-D interpolation, the ops failing on bad known inputs,
// the cases that get no value, and the value budget.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

Var Node(const std::string& type, std::vector<Var> inputs, std::vector<Attribute> attributes = {},
         int version = kKernelOpset) {
  return gg::make_node(type, inputs, attributes, {.version = version})[0];
}

Var Floats(Graph& g, const std::vector<float>& values) {
  return Const<float>(g, values, {static_cast<int64_t>(values.size())});
}

using Ints = std::vector<int64_t>;

Attribute Str(const std::string& name, const std::string& value) { return {name, value}; }

// The values of a var as doubles (16-bit floats converted), with its dims.
template <class T>
std::vector<double> Doubles(const Var& var) {
  std::vector<double> out;
  const std::optional<Tensor> value = var.value();  // a copy: keep it while reading it
  for (const T& v : value->template data<T>()) out.push_back(ToDouble(v));
  return out;
}

template <class T>
::testing::AssertionResult HasValues(const Var& var, const Dims& dims,
                                     const std::vector<double>& expected, double tolerance = 1e-5) {
  if (::testing::AssertionResult typed = HasValueOfShape<T>(var, dims); !typed) return typed;
  const std::vector<double> got = Doubles<T>(var);
  if (got.size() != expected.size()) return ::testing::AssertionFailure() << "element count";
  for (size_t i = 0; i < got.size(); ++i) {
    const bool same =
        std::isnan(expected[i]) ? std::isnan(got[i]) : std::abs(got[i] - expected[i]) <= tolerance;
    if (!same) {
      return ::testing::AssertionFailure()
             << "index " << i << ": got " << got[i] << ", expected " << expected[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// --- Resize: every element type ---------------------------------------------------------------

template <class T>
class ResizeTypeTest : public ::testing::Test {};

using NumericTypes = ::testing::Types<float, double, Float16, BFloat16, int8_t, int16_t, int32_t,
                                      int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
TYPED_TEST_SUITE(ResizeTypeTest, NumericTypes);

TYPED_TEST(ResizeTypeTest, NearestCopiesEveryType) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4}), {1, 1, 2, 2});
  const Var y = op::Resize(x, Var(), Floats(g, {1, 1, 2, 1.5}));
  EXPECT_TRUE(HasValues<T>(y, {1, 1, 4, 3}, {1, 1, 2, 1, 1, 2, 3, 3, 4, 3, 3, 4}));
}

TYPED_TEST(ResizeTypeTest, LinearComputesFloatsAndDeclinesIntegers) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4}), {1, 1, 2, 2});
  const Var y = op::Resize(x, Var(), Floats(g, {1, 1, 2, 2}), Var(), {.mode = "linear"});
  if constexpr (std::is_integral_v<T>) {
    // ONNX Runtime truncates the blend, ONNX's reference rounds it: no value.
    EXPECT_TRUE(HasNoValue(y));
  } else {
    EXPECT_TRUE(HasValues<T>(
        y, {1, 1, 4, 4},
        {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4}));
  }
}

TEST(ResizeTest, BoolAndStringNearest) {
  Graph g;
  const Var b = op::Resize(Const<bool>(g, {true, false}, {1, 2}), Var(), Floats(g, {1, 2}));
  ASSERT_TRUE(b.value().has_value());
  const auto bools = b.value()->data<bool>();
  EXPECT_EQ(std::vector<bool>(bools.begin(), bools.end()),
            (std::vector<bool>{true, true, false, false}));
  const Var s = op::Resize(Const<std::string>(g, {"a", "b"}, {2, 1}), Var(), Floats(g, {1.5, 1}));
  ASSERT_TRUE(s.value().has_value());
  const auto strings = s.value()->data<std::string>();
  EXPECT_EQ(std::vector<std::string>(strings.begin(), strings.end()),
            (std::vector<std::string>{"a", "a", "b"}));
}

// --- Resize: N-D, NaN, empty tensors ----------------------------------------------------------

TEST(ResizeTest, TrilinearOnEveryAxis) {
  // ONNX Runtime's Resize-10 of arange(24) [2, 3, 4] by [1.5, 2, 1.5] (asymmetric).
  Graph g;
  std::vector<float> values(24);
  for (int i = 0; i < 24; ++i) values[static_cast<size_t>(i)] = static_cast<float>(i);
  const Var x = Const<float>(g, values, {2, 3, 4});
  const Var y = Node("Resize", {x, Floats(g, {1.5, 2, 1.5})}, {Str("mode", "linear")}, 10);
  ASSERT_TRUE(y.value().has_value());
  const std::vector<double> got = Doubles<float>(y);
  ASSERT_EQ(got.size(), 108u);
  const std::vector<double> first_rows = {0, 2.0 / 3, 4.0 / 3,  2, 8.0 / 3,  3,
                                          2, 8.0 / 3, 10.0 / 3, 4, 14.0 / 3, 5};
  for (size_t i = 0; i < first_rows.size(); ++i) EXPECT_NEAR(got[i], first_rows[i], 1e-5) << i;
  EXPECT_NEAR(got[36 + 3], 10, 1e-5);  // [1, 0, 3]: two thirds of the way to the second batch
  EXPECT_NEAR(got[107], 23, 1e-5);     // the last element clamps to the input's last
}

TEST(ResizeTest, CubicReproducesLinearDataAwayFromTheEdges) {
  Graph g;
  const Var x = Const<double>(g, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 8, 1});
  const Var y = op::Resize(x, Var(), Floats(g, {1, 2, 1}), Var(),
                           {.coordinate_transformation_mode = "asymmetric", .mode = "cubic"});
  ASSERT_TRUE(y.value().has_value());
  const std::vector<double> got = Doubles<double>(y);
  ASSERT_EQ(got.size(), 16u);
  // Output j samples j / 2; its four taps lie inside the input for j in [2, 11].
  for (size_t j = 2; j <= 11; ++j) EXPECT_NEAR(got[j], static_cast<double>(j) / 2, 1e-12) << j;
}

TEST(ResizeTest, NaNPropagates) {
  Graph g;
  const Var x = Const<float>(g, {1, kNaN, 3, 4}, {1, 4});
  const Var linear = op::Resize(x, Var(), Floats(g, {1, 0.5}), Var(), {.mode = "linear"});
  EXPECT_TRUE(HasValues<float>(linear, {1, 2}, {kNaN, 3.5}));
  const Var nearest = op::Resize(x, Var(), Floats(g, {1, 2}));
  EXPECT_TRUE(HasValues<float>(nearest, {1, 8}, {1, 1, kNaN, kNaN, 3, 3, 4, 4}));
}

TEST(ResizeTest, EmptyTensors) {
  Graph g;
  const Var x = Const<float>(g, {}, {0, 2});
  EXPECT_TRUE(HasValues<float>(op::Resize(x, Var(), Floats(g, {1, 2})), {0, 4}, {}));
  const Var y = Const<float>(g, {1, 2}, {1, 2});
  EXPECT_TRUE(HasValues<float>(op::Resize(y, Var(), Var(), Int64s(g, {1, 0})), {1, 0}, {}));
}

// --- Resize: coordinate modes the node data leaves out ----------------------------------------

TEST(ResizeTest, TfHalfPixelForNnLeavesUnscaledAxesAlone) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {3, 2});
  const Var y = op::Resize(x, Var(), Floats(g, {1, 2}), Var(),
                           {.coordinate_transformation_mode = "tf_half_pixel_for_nn",
                            .nearest_mode = "round_prefer_ceil"});
  // Rows sampled at j + 0.5 would round to j + 1: the unscaled axis is copied instead.
  EXPECT_TRUE(HasValues<float>(y, {3, 4}, {1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6}));
}

TEST(ResizeTest, CropAndResizeExtrapolatesIntegers) {
  Graph g;
  const Var x = Const<uint8_t>(g, {10, 20, 30, 40}, {1, 4});
  const Var roi = Floats(g, {0, -0.5, 1, 1.5});
  const op::ResizeAttributes crop{.coordinate_transformation_mode = "tf_crop_and_resize",
                                  .extrapolation_value = 7};
  const Var y = op::Resize(x, roi, Var(), Int64s(g, {1, 4}), crop);
  // Coordinates -1.5, 0.5, 2.5, 4.5: outside, then rounded down at ties.
  EXPECT_TRUE(HasValues<uint8_t>(y, {1, 4}, {7, 10, 30, 7}));
  // 7.5 is not a uint8: no value, rather than a guess at the conversion.
  op::ResizeAttributes fractional = crop;
  fractional.extrapolation_value = 7.5f;
  EXPECT_TRUE(HasNoValue(op::Resize(x, roi, Var(), Int64s(g, {1, 4}), fractional)));
  // Without a roi there is nothing to crop to.
  EXPECT_TRUE(HasNoValue(op::Resize(x, Var(), Var(), Int64s(g, {1, 4}), crop)));
}

// --- Resize: scales and sizes -----------------------------------------------------------------

TEST(ResizeTest, EmptyScalesSelectSizes) {
  Graph g;
  const Var x = Const<float>(g, {1, 2}, {1, 2});
  const Var empty = Floats(g, {});
  EXPECT_TRUE(HasValues<float>(op::Resize(x, empty, empty, Int64s(g, {1, 3})), {1, 3}, {1, 1, 2}));
  // Resize-11 needs roi and scales present, possibly empty.
  EXPECT_TRUE(HasValues<float>(Node("Resize", {x, empty, empty, Int64s(g, {1, 3})}, {}, 11), {1, 3},
                               {1, 1, 2}));
}

TEST(ResizeTest, PytorchHalfPixelToOneSampleTakesTheFirst) {
  // ONNX's text and ONNX Runtime sample at 0 (ONNX 1.12's reference at -0.5: another value).
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 4});
  const Var empty = Floats(g, {});
  EXPECT_TRUE(HasValues<float>(
      Node("Resize", {x, empty, empty, Int64s(g, {1, 1})},
           {Str("mode", "cubic"), Str("coordinate_transformation_mode", "pytorch_half_pixel")}, 13),
      {1, 1}, {1}));
}

TEST(ResizeTest, BadScalesAndSizesFail) {
  Graph g;
  const Var x = Const<float>(g, {1, 2}, {1, 2});
  // Both given: ONNX 1.19's inference says so before graphgc's kernel can.
  EXPECT_TRUE(FailsWith(op::Resize(x, Var(), Floats(g, {1, 2}), Int64s(g, {1, 4})),
                        {"Resize", "sizes", "scales", "not both"}));
  EXPECT_TRUE(FailsWith(op::Resize(x, Var(), Floats(g, {1, -2})), {"scales", "-2"}));
  EXPECT_TRUE(FailsWith(op::Resize(x, Var(), Floats(g, {2})), {"scales"}));
  EXPECT_TRUE(FailsWith(op::Resize(x, Var(), Var(), Int64s(g, {1, -4})), {"sizes", "-4"}));
  EXPECT_TRUE(FailsWith(op::Resize(x, Var(), Floats(g, {1, 2}), Var(), {.mode = "area"}),
                        {"mode", "area"}));
}

TEST(ResizeTest, OutputDimsInferenceDisagreesWithGetNoValue) {
  // 3 * float(5 / 3) is 4.9999998: ONNX's reference (in double) has 4 outputs, ONNX's inference
  // (in float) 5. No value fits both.
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {1, 3});
  const Var y = op::Resize(x, Var(), Floats(g, {1, 5.0f / 3.0f}));
  EXPECT_TRUE(HasNoValue(y));
  EXPECT_EQ(y.shape(), std::optional<Dims>(Dims{1, 5}));
}

// --- Resize-18 and 19 ------------------------------------------------------------------------
// Expected values are ONNX Runtime 1.32's; ONNX's reference agrees within 1e-6.

TEST(ResizeTest, AntialiasWidensTheFilterWhereAnAxisShrinks) {
  Graph g;
  const Var x = Const<float>(g, {0, 1, 4, 9, 16, 25, 36, 49}, {1, 8});
  const Ints last = {1};
  EXPECT_TRUE(
      HasValues<float>(Node("Resize", {x, Var(), Floats(g, {0.5f})},
                            {{"axes", last}, Str("mode", "linear"), {"antialias", int64_t{1}}}, 18),
                       {1, 4}, {0.875, 7, 21, 41.125}));
  const std::vector<Attribute> cubic = {
      {"axes", last}, Str("mode", "cubic"), {"antialias", int64_t{1}}};
  EXPECT_TRUE(HasValues<float>(Node("Resize", {x, Var(), Floats(g, {0.3f})}, cubic, 19), {1, 2},
                               {1.22985959, 21.7264729}));
  std::vector<Attribute> excluded = cubic;
  excluded.push_back({"exclude_outside", int64_t{1}});
  EXPECT_TRUE(HasValues<float>(Node("Resize", {x, Var(), Floats(g, {0.3f})}, excluded, 24), {1, 2},
                               {1.3212024, 22.9170532}));
  EXPECT_TRUE(HasValues<float>(
      Node("Resize", {x, Var(), Var(), Int64s(g, {3})},
           {{"axes", Ints{-1}}, Str("mode", "linear"), {"antialias", int64_t{1}}}, 19),
      {1, 3}, {1.81395364, 13.4523811, 37.139534}));
  // Growing, antialias changes nothing; nearest has no antialiasing filter (ONNX's reference
  // refuses it).
  const Var grown = Node("Resize", {x, Var(), Floats(g, {1, 2})},
                         {Str("mode", "linear"), {"antialias", int64_t{1}}}, 18);
  EXPECT_TRUE(HasValueOfShape<float>(grown, {1, 16}));
  EXPECT_EQ(*grown.value(),
            *Node("Resize", {x, Var(), Floats(g, {1, 2})}, {Str("mode", "linear")}, 18).value());
  EXPECT_TRUE(HasNoValue(
      Node("Resize", {x, Var(), Floats(g, {1, 0.5f})}, {{"antialias", int64_t{1}}}, 18)));
}

TEST(ResizeTest, AxesKeepAspectRatioAndHalfPixelSymmetric) {
  Graph g;
  const Var x = Const<float>(g, {0, 1, 4, 9, 16, 25, 36, 49}, {1, 8});
  EXPECT_TRUE(HasValues<float>(Node("Resize", {x, Var(), Floats(g, {0.6f})},
                                    {{"axes", Ints{1}},
                                     Str("mode", "linear"),
                                     Str("coordinate_transformation_mode", "half_pixel_symmetric")},
                                    19),
                               {1, 4}, {1, 7.33333397, 18.9999962, 36}));
  EXPECT_TRUE(FailsWith(Node("Resize", {x, Var(), Floats(g, {1, 0.6f})},
                             {Str("coordinate_transformation_mode", "half_pixel_symmetric")}, 18),
                        {"coordinate_transformation_mode"}));
  // Sizes [2, 3] of [1, 8]: not_smaller scales both axes by 2, not_larger by 0.375.
  std::vector<double> doubled;
  for (int row = 0; row < 2; ++row) {
    for (double v : {0, 1, 4, 9, 16, 25, 36, 49}) doubled.insert(doubled.end(), {v, v});
  }
  EXPECT_TRUE(HasValues<float>(Node("Resize", {x, Var(), Var(), Int64s(g, {2, 3})},
                                    {Str("keep_aspect_ratio_policy", "not_smaller")}, 18),
                               {2, 16}, doubled));
  EXPECT_TRUE(HasValueOfShape<float>(Node("Resize", {x, Var(), Var(), Int64s(g, {2, 3})},
                                          {Str("keep_aspect_ratio_policy", "not_larger")}, 18),
                                     {0, 3}));
  // The axes left out keep their dims; a repeated axis fails.
  const Var m = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(HasValues<float>(
      Node("Resize", {m, Var(), Var(), Int64s(g, {1})}, {{"axes", Ints{0}}}, 18), {1, 2}, {1, 2}));
  EXPECT_FALSE(Node("Resize", {m, Var(), Floats(g, {2, 2})}, {{"axes", Ints{1, -1}}}, 18).ok());
}

// --- Resize-10 and Upsample (ONNX Runtime's semantics) ----------------------------------------

TEST(ResizeTest, Resize10NearestRoundsUpWhenShrinking) {
  Graph g;
  const Var x = Const<float>(g, {0, 1, 2, 3, 4, 5, 6}, {1, 7});
  const Var y = Node("Resize", {x, Floats(g, {1, 0.6f})}, {}, 10);
  EXPECT_TRUE(HasValues<float>(y, {1, 4}, {0, 2, 4, 5}));
  const Var grown = Node("Resize", {x, Floats(g, {1, 1.7f})}, {}, 10);
  EXPECT_TRUE(HasValues<float>(grown, {1, 11}, {0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5}));
}

TEST(ResizeTest, UpsampleScalesAttributeAndInput) {
  Graph g;
  const Var x = Const<int32_t>(g, {1, 2, 3}, {1, 3});
  const Var v7 =
      Node("Upsample", {x}, {{"scales", std::vector<float>{1, 2}}, Str("mode", "nearest")}, 7);
  EXPECT_TRUE(HasValues<int32_t>(v7, {1, 6}, {1, 1, 2, 2, 3, 3}));
  const Var v9 = Node("Upsample", {x, Floats(g, {2, 1})}, {}, 9);
  EXPECT_TRUE(HasValues<int32_t>(v9, {2, 3}, {1, 2, 3, 1, 2, 3}));
  EXPECT_TRUE(FailsWith(Node("Upsample", {x, Floats(g, {1, 0.5})}, {}, 9), {"at least 1"}));
}

TEST(ResizeTest, UpsampleDimsAreComputedInFloat) {
  // 3 * float(5 / 3) rounds to 5 in float, as ONNX Runtime and ONNX's inference compute it.
  Graph g;
  const Var x = Const<float>(g, {0, 1, 2}, {1, 3});
  const Var y = Node("Upsample", {x, Floats(g, {1, 5.0f / 3.0f})}, {Str("mode", "linear")}, 9);
  EXPECT_TRUE(HasValues<float>(y, {1, 5}, {0, 0.6, 1.2, 1.8, 2}));
}

// --- The value budget -------------------------------------------------------------------------

TEST(ResizeTest, HugeOutputsGetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 1 << 20});
  const Var x = Const<float>(g, {1, 2}, {1, 2});
  EXPECT_TRUE(HasNoValue(op::Resize(x, Var(), Var(), Int64s(g, {1000000, 1000000}))));
  EXPECT_TRUE(HasNoValue(op::Resize(x, Var(), Floats(g, {1e6f, 1e6f}))));
  // An empty output has a value however long its other dims.
  EXPECT_TRUE(HasValues<float>(op::Resize(x, Var(), Var(), Int64s(g, {0, 1000000000000})),
                               {0, 1000000000000}, {}));
}

// --- GridSample -------------------------------------------------------------------------------

// GridSample-20: volumetric images, the modes renamed; values as ONNX Runtime 1.32 and ONNX's
// reference give them.
TEST(GridSampleTest, VolumetricFrom20) {
  Graph g;
  const Var x = Const<float>(g, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 2, 2});
  const Var grid =
      Const<float>(g, {-1, -1, -1, 0, 0, 0, 0.5f, -0.25f, 1, 1.2f, 0.3f, -0.9f}, {1, 1, 1, 4, 3});
  EXPECT_TRUE(HasValues<float>(Node("GridSample", {x, grid}, {}, 20), {1, 1, 1, 1, 4},
                               {0, 3.5, 2.75, 0.468}));
  EXPECT_TRUE(
      HasValues<float>(Node("GridSample", {x, grid},
                            {{"align_corners", int64_t{1}}, Str("padding_mode", "border")}, 22),
                       {1, 1, 1, 1, 4}, {0, 3.5, 5.5, 2.5}));
  EXPECT_TRUE(
      HasValues<float>(Node("GridSample", {x, grid}, {Str("padding_mode", "reflection")}, 22),
                       {1, 1, 1, 1, 4}, {0, 3.5, 5.5, 2.6}));
  const Var near =
      Const<float>(g, {0.6f, -0.6f, 0.6f, 0.9f, 0.9f, 0.9f, -0.2f, 0.7f, 0.1f}, {1, 1, 1, 3, 3});
  EXPECT_TRUE(HasValues<float>(Node("GridSample", {x, near}, {Str("mode", "nearest")}, 20),
                               {1, 1, 1, 1, 3}, {5, 7, 6}));
  // Cubic samples 2-D images only; "bilinear" is opset 16's name.
  EXPECT_TRUE(HasNoValue(Node("GridSample", {x, grid}, {Str("mode", "cubic")}, 20)));
  EXPECT_TRUE(FailsWith(Node("GridSample", {x, grid}, {Str("mode", "bilinear")}, 20), {"mode"}));
}

TEST(GridSampleTest, NearestOfIntegersBilinearOfHalves) {
  Graph g;
  // The grid is floating-point whatever X is (ONNX 1.12's schema gave it X's type by mistake).
  const Var grid = Const<float>(g, {-1, -1, 0, 0, 1, 1, 3, 0}, {1, 1, 4, 2});
  const Var ints = Const<int32_t>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  // align_corners: the corners' centers are -1 and 1; (0, 0) rounds half to even, onto pixel 0.
  EXPECT_TRUE(
      HasValues<int32_t>(op::GridSample(ints, grid, {.align_corners = 1, .mode = "nearest"}),
                         {1, 1, 1, 4}, {1, 1, 4, 0}));
  EXPECT_TRUE(HasNoValue(op::GridSample(ints, grid)));  // bilinear integers
  const Var halves = Const<Float16>(
      g,
      {Float16::FromFloat(1), Float16::FromFloat(2), Float16::FromFloat(3), Float16::FromFloat(4)},
      {1, 1, 2, 2});
  const Var half_grid = Const<Float16>(
      g,
      {Float16::FromFloat(-1), Float16::FromFloat(-1), Float16::FromFloat(0), Float16::FromFloat(0),
       Float16::FromFloat(1), Float16::FromFloat(1), Float16::FromFloat(3), Float16::FromFloat(0)},
      {1, 1, 4, 2});
  EXPECT_TRUE(HasValues<Float16>(op::GridSample(halves, half_grid, {.align_corners = 1}),
                                 {1, 1, 1, 4}, {1, 2.5, 4, 0}));
  EXPECT_TRUE(HasValues<Float16>(
      op::GridSample(halves, half_grid, {.align_corners = 1, .padding_mode = "border"}),
      {1, 1, 1, 4}, {1, 2.5, 4, 3}));
}

TEST(GridSampleTest, ReflectionOfASinglePixel) {
  Graph g;
  const Var x = Const<double>(g, {5}, {1, 1, 1, 1});
  const Var grid = Const<double>(g, {-7, 3, 0.5, 0.25}, {1, 1, 2, 2});
  EXPECT_TRUE(HasValues<double>(
      op::GridSample(x, grid,
                     {.align_corners = 1, .mode = "bicubic", .padding_mode = "reflection"}),
      {1, 1, 1, 2}, {5, 5}));
}

TEST(GridSampleTest, NonFiniteGridGetsNoValue) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  EXPECT_TRUE(HasNoValue(op::GridSample(x, Const<float>(g, {kNaN, 0}, {1, 1, 1, 2}))));
  EXPECT_TRUE(HasNoValue(op::GridSample(x, Const<float>(g, {1e30f, 0}, {1, 1, 1, 2}))));
}

TEST(GridSampleTest, EmptyOutput) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  EXPECT_TRUE(
      HasValues<float>(op::GridSample(x, Const<float>(g, {}, {1, 0, 3, 2})), {1, 1, 0, 3}, {}));
}

}  // namespace

// AffineGrid (opset 20): theta * (x, y, 1) at the pixel centres, or the corners with
// align_corners; the values are ONNX Runtime 1.32's and ONNX's reference's.
TEST(AffineGridKernel, MapsTheBaseGridThroughTheta) {
  Graph g;
  const Var identity = Const<float>(g, {1, 0, 0, 0, 1, 0}, {1, 2, 3});
  EXPECT_TRUE(
      HasValues<float>(One(NodeAt("AffineGrid", {identity, Int64s(g, {1, 1, 4, 1})}, {}, 20)),
                       Dims{1, 4, 1, 2}, {0, -0.75, 0, -0.25, 0, 0.25, 0, 0.75}, 1e-7));
  EXPECT_TRUE(HasValues<float>(One(NodeAt("AffineGrid", {identity, Int64s(g, {1, 1, 2, 3})},
                                          {{"align_corners", int64_t{1}}}, 20)),
                               Dims{1, 2, 3, 2}, {-1, -1, 0, -1, 1, -1, -1, 1, 0, 1, 1, 1}, 1e-7));
  // A shear and a shift, in 3-D: (x + z + 0.5, y, 2z).
  const Var theta = Const<double>(g, {1, 0, 1, 0.5, 0, 1, 0, 0, 0, 0, 2, 0}, {1, 3, 4});
  EXPECT_TRUE(HasValues<double>(
      One(NodeAt("AffineGrid", {theta, Int64s(g, {1, 1, 2, 1, 2})}, {}, 24)), Dims{1, 2, 1, 2, 3},
      {-0.5, 0, -1, 0.5, 0, -1, 0.5, 0, 1, 1.5, 0, 1}, 1e-12));
  // A theta that does not fit the size is an error naming the input.
  const Var wrong = One(NodeAt("AffineGrid", {identity, Int64s(g, {2, 1, 4, 4})}, {}, 20));
  EXPECT_FALSE(wrong.ok() && wrong.value().has_value());
}

// An axis of one point with align_corners: ONNX's function body divides by zero, ONNX Runtime
// gives +1 and ONNX's reference -1: no value.
TEST(AffineGridKernel, OnePointWithAlignCornersHasNoValue) {
  Graph g;
  const Var identity = Const<float>(g, {1, 0, 0, 0, 1, 0}, {1, 2, 3});
  const Var grid = One(NodeAt("AffineGrid", {identity, Int64s(g, {1, 1, 4, 1})},
                              {{"align_corners", int64_t{1}}}, 20));
  ASSERT_TRUE(grid.ok()) << grid.status();
  EXPECT_TRUE(HasNoValue(grid));
  EXPECT_EQ(grid.shape(), (std::vector<int64_t>{1, 4, 1, 2}));
}
