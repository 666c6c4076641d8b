// Value propagation of the quantize kernels (QuantizeLinear, DequantizeLinear,
// DynamicQuantizeLinear, MatMulInteger, QLinearMatMul) through the public API: rounding half to
// even, saturation, per-tensor and per-axis parameters (negative axes, opset 10 vs 13), omitted
// zero points, int32 inputs, NaN, int32 accumulation wrap-around, parameter shapes that make the
// op fail, forms left without a value, and the value budget.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

// The var's value has element type T, shape `shape` and elements `expected` (floats within a
// relative 1e-6).
template <class T>
::testing::AssertionResult Is(const Var& var, const std::vector<T>& expected, const Dims& shape) {
  if (::testing::AssertionResult typed = HasValueOfShape<T>(var, shape); !typed) return typed;
  const std::optional<Tensor> value = var.value();
  const auto actual = value->data<T>();
  for (size_t i = 0; i < expected.size(); ++i) {
    bool same = actual[i] == expected[i];
    if constexpr (std::is_floating_point_v<T>) {
      same = std::fabs(actual[i] - expected[i]) <= 1e-6 * std::fabs(expected[i]) ||
             (std::isnan(actual[i]) && std::isnan(expected[i]));
    }
    if (!same) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << +actual[i] << ", expected " << +expected[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// QuantizeLinear

TEST(QuantizeLinearKernel, RoundsHalfToEvenAndSaturates) {
  Graph g;
  const Var x = Const<float>(g, {0.5f, 1.5f, 2.5f, -0.5f, 300.0f, -5.0f, 3.2f}, {7});
  EXPECT_TRUE(Is<uint8_t>(op::QuantizeLinear(x, Scalar(g, 1.0f), Scalar<uint8_t>(g, 0)),
                          {0, 2, 2, 0, 255, 0, 3}, {7}));
  // int8 with a zero point: 0.5 + (-1) -> 0 - 1; 300 saturates to 127, -5 to -6.
  EXPECT_TRUE(Is<int8_t>(op::QuantizeLinear(x, Scalar(g, 1.0f), Scalar<int8_t>(g, -1)),
                         {-1, 1, 1, -1, 127, -6, 2}, {7}));
  // Omitted zero point: uint8, 0.
  EXPECT_TRUE(Is<uint8_t>(op::QuantizeLinear(x, Scalar(g, 0.5f)), {1, 3, 5, 0, 255, 0, 6}, {7}));
}

TEST(QuantizeLinearKernel, PerAxisParameters) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var scale = Const<float>(g, {1, 2, 4}, {3});
  const Var zero = Const<uint8_t>(g, {0, 10, 20}, {3});
  // axis -1 is the columns: 1/1, 2/2+10, 3/4+20 (0.75 -> 1), 4, 5/2=2.5 -> 2 +10, 6/4=1.5 -> 2 +20
  EXPECT_TRUE(Is<uint8_t>(op::QuantizeLinear(x, scale, zero, {.axis = -1}), {1, 11, 21, 4, 12, 22},
                          {2, 3}));
  const Var rows = Const<float>(g, {1, 2}, {2});
  EXPECT_TRUE(
      Is<uint8_t>(op::QuantizeLinear(x, rows, Var(), {.axis = 0}), {1, 2, 3, 2, 2, 3}, {2, 3}));
  // A 1-element 1-D scale is per tensor, whatever the axis' size.
  EXPECT_TRUE(
      Is<uint8_t>(op::QuantizeLinear(x, Const<float>(g, {2}, {1})), {0, 1, 2, 2, 2, 3}, {2, 3}));
}

TEST(QuantizeLinearKernel, Int32InputDividesInDouble) {
  Graph g;
  const Var x = Const<int32_t>(g, {16777217, -3, 7}, {3});
  // Divided in double, as numpy's reference does with int32 / float32; 8388608.5 saturates.
  EXPECT_TRUE(
      Is<int8_t>(op::QuantizeLinear(x, Scalar(g, 2.0f), Scalar<int8_t>(g, 0)), {127, -2, 4}, {3}));
}

TEST(QuantizeLinearKernel, NanAndZeroScale) {
  Graph g;
  EXPECT_TRUE(HasNoValue(op::QuantizeLinear(Const<float>(g, {1, kNaN}, {2}), Scalar(g, 1.0f))));
  // x / 0 is +-inf and saturates; 0 / 0 is NaN.
  EXPECT_TRUE(Is<int8_t>(
      op::QuantizeLinear(Const<float>(g, {1, -1}, {2}), Scalar(g, 0.0f), Scalar<int8_t>(g, 0)),
      {127, -128}, {2}));
  EXPECT_TRUE(HasNoValue(op::QuantizeLinear(Const<float>(g, {0}, {1}), Scalar(g, 0.0f))));
}

TEST(QuantizeLinearKernel, VersionsAndBadParameters) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var scale = Const<float>(g, {1, 2, 4}, {3});
  // Opset 10 has no per-axis form.
  EXPECT_TRUE(HasNoValue(One(gg::make_node("QuantizeLinear", {x, scale}, {}, {.version = 10}))));
  EXPECT_TRUE(
      Is<uint8_t>(One(gg::make_node("QuantizeLinear", {x, Scalar(g, 2.0f)}, {}, {.version = 10})),
                  {0, 1, 2, 2, 2, 3}, {2, 3}));
  EXPECT_TRUE(FailsWith(op::QuantizeLinear(x, Const<float>(g, {1, 2}, {2}), Var(), {.axis = 1}),
                        {"elements for axis"}));
  EXPECT_TRUE(FailsWith(op::QuantizeLinear(x, scale, Const<uint8_t>(g, {1, 2}, {2})), {"shape"}));
}

TEST(QuantizeLinearKernel, EmptyAndBudget) {
  Graph g(gg::GraphOptions{.max_value_bytes = 100});
  EXPECT_TRUE(
      Is<uint8_t>(op::QuantizeLinear(Const<float>(g, {}, {0, 3}), Scalar(g, 1.0f)), {}, {0, 3}));
  const Var big = g.constant(Tensor::zeros(DataType::kFloat, {200}));
  EXPECT_TRUE(HasNoValue(op::QuantizeLinear(big, Scalar(g, 1.0f))));
}

// ---------------------------------------------------------------------------------------------
// DequantizeLinear

TEST(DequantizeLinearKernel, EachInputType) {
  Graph g;
  EXPECT_TRUE(Is<float>(op::DequantizeLinear(Const<uint8_t>(g, {0, 3, 255}, {3}), Scalar(g, 2.0f),
                                             Scalar<uint8_t>(g, 3)),
                        {-6, 0, 504}, {3}));
  EXPECT_TRUE(Is<float>(op::DequantizeLinear(Const<int8_t>(g, {-128, 127}, {2}), Scalar(g, 0.5f),
                                             Scalar<int8_t>(g, -128)),
                        {0, 127.5f}, {2}));
  EXPECT_TRUE(
      Is<float>(op::DequantizeLinear(Const<int32_t>(g, {-7, 1 << 30}, {2}), Scalar(g, 0.5f)),
                {-3.5f, 536870912.0f}, {2}));
  // An int32 x has no zero point but 0.
  EXPECT_TRUE(HasNoValue(
      op::DequantizeLinear(Const<int32_t>(g, {1}, {1}), Scalar(g, 1.0f), Scalar<int32_t>(g, 2))));
}

TEST(DequantizeLinearKernel, PerAxis) {
  Graph g;
  const Var x = Const<uint8_t>(g, {10, 20, 30, 40}, {2, 2});
  EXPECT_TRUE(Is<float>(op::DequantizeLinear(x, Const<float>(g, {1, 2}, {2}),
                                             Const<uint8_t>(g, {10, 0}, {2}), {.axis = 0}),
                        {0, 10, 60, 80}, {2, 2}));
  EXPECT_TRUE(Is<float>(op::DequantizeLinear(x, Const<float>(g, {1, 2}, {2}), Var(), {.axis = -1}),
                        {10, 40, 30, 80}, {2, 2}));
  EXPECT_TRUE(FailsWith(op::DequantizeLinear(x, Const<float>(g, {1, 2}, {2}), Var(), {.axis = 2}),
                        {"axis"}));
}

// ---------------------------------------------------------------------------------------------
// DynamicQuantizeLinear

// ONNX's formulas in float, with ONNX Runtime's scale of 1 for an all-zero x.
void ExpectDynamicQuantization(const std::vector<float>& x) {
  float low = 0, high = 0;
  for (float v : x) low = std::min(low, v), high = std::max(high, v);
  const float scale = high == low ? 1.0f : (high - low) / 255.0f;
  const float zero = std::clamp(std::nearbyint(0.0f - low / scale), 0.0f, 255.0f);
  std::vector<uint8_t> y;
  for (float v : x)
    y.push_back(static_cast<uint8_t>(std::clamp(std::nearbyint(v / scale) + zero, 0.0f, 255.0f)));
  Graph g;
  const auto outputs =
      op::DynamicQuantizeLinear(Const<float>(g, x, {static_cast<int64_t>(x.size())}));
  EXPECT_TRUE(Is<uint8_t>(outputs.y, y, {static_cast<int64_t>(x.size())}));
  EXPECT_TRUE(Is<float>(outputs.y_scale, {scale}, {}));
  EXPECT_TRUE(Is<uint8_t>(outputs.y_zero_point, {static_cast<uint8_t>(zero)}, {}));
}

TEST(DynamicQuantizeLinearKernel, ScaleZeroPointAndValues) {
  ExpectDynamicQuantization({0, 2, -3, -2.5f, 1.34f, 0.5f});
  ExpectDynamicQuantization({1, 2, 3});      // all positive: the range still starts at 0
  ExpectDynamicQuantization({-1, -2, -30});  // all negative: zero point 255
  ExpectDynamicQuantization({0, 0});         // scale 1
  Graph g;
  const auto zeros = op::DynamicQuantizeLinear(Const<float>(g, {0, 0}, {2}));
  EXPECT_TRUE(Is<float>(zeros.y_scale, {1.0f}, {}));
}

TEST(DynamicQuantizeLinearKernel, NonFiniteAndEmptyInputsGetNoValue) {
  Graph g;
  EXPECT_TRUE(HasNoValue(op::DynamicQuantizeLinear(Const<float>(g, {1, kNaN}, {2})).y));
  EXPECT_TRUE(HasNoValue(
      op::DynamicQuantizeLinear(Const<float>(g, {1, std::numeric_limits<float>::infinity()}, {2}))
          .y));
  EXPECT_TRUE(HasNoValue(op::DynamicQuantizeLinear(Const<float>(g, {}, {0})).y_scale));
}

// ---------------------------------------------------------------------------------------------
// MatMulInteger

TEST(MatMulIntegerKernel, ZeroPointsPerTensorRowAndColumn) {
  Graph g;
  const Var a = Const<uint8_t>(g, {1, 2, 3, 4}, {2, 2});
  const Var b = Const<int8_t>(g, {1, -1, 2, 0}, {2, 2});
  // No zero points: plain product.
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(a, b), {5, -1, 11, -3}, {2, 2}));
  // A less 1: [[0, 1], [2, 3]].
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(a, b, Scalar<uint8_t>(g, 1)), {2, 0, 8, -2}, {2, 2}));
  // Per row of A: row 0 less 1, row 1 less 3: [[0, 1], [0, 1]].
  EXPECT_TRUE(
      Is<int32_t>(op::MatMulInteger(a, b, Const<uint8_t>(g, {1, 3}, {2})), {2, 0, 2, 0}, {2, 2}));
  // Per column of B: column 0 less 1, column 1 less -1: [[0, 0], [1, 1]].
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(a, b, Var(), Const<int8_t>(g, {1, -1}, {2})),
                          {2, 2, 4, 4}, {2, 2}));
  // Batched with [D, M, 1] and [D, 1, N] zero points.
  const Var a3 = Const<int8_t>(g, {1, 2, 3, 4}, {2, 1, 2});
  const Var b3 = Const<uint8_t>(g, {1, 1, 1, 1}, {2, 2, 1});
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(a3, b3, Const<int8_t>(g, {1, 2}, {2, 1, 1}),
                                            Const<uint8_t>(g, {0, 1}, {2, 1, 1})),
                          {1, 0}, {2, 1, 1}));
}

TEST(MatMulIntegerKernel, OneDimensionalOperandsAndEmptyDims) {
  Graph g;
  const Var v = Const<uint8_t>(g, {1, 2, 3}, {3});
  const Var m = Const<uint8_t>(g, {1, 0, 0, 1, 1, 1}, {3, 2});
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(v, m), {4, 5}, {2}));
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(v, v), {14}, {}));
  EXPECT_TRUE(
      Is<int32_t>(op::MatMulInteger(Const<uint8_t>(g, {}, {2, 0}), Const<uint8_t>(g, {}, {0, 3})),
                  {0, 0, 0, 0, 0, 0}, {2, 3}));
}

TEST(MatMulIntegerKernel, AccumulationWrapsInInt32) {
  Graph g;
  constexpr int64_t k = 40000;  // 40000 * 255 * 255 = 2601000000 > 2^31
  const Var a = g.constant(Tensor::from_vector<uint8_t>(std::vector<uint8_t>(k, 255), {1, k}));
  const Var b = g.constant(Tensor::from_vector<uint8_t>(std::vector<uint8_t>(k, 255), {k, 1}));
  EXPECT_TRUE(Is<int32_t>(op::MatMulInteger(a, b),
                          {static_cast<int32_t>(static_cast<uint32_t>(2601000000u))}, {1, 1}));
}

TEST(MatMulIntegerKernel, BadZeroPointShapesFail) {
  Graph g;
  const Var a = Const<uint8_t>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var b = Const<uint8_t>(g, {1, 2, 3}, {3, 1});
  EXPECT_TRUE(FailsWith(op::MatMulInteger(a, b, Const<uint8_t>(g, {1, 2, 3}, {3})), {"per row"}));
  EXPECT_TRUE(
      FailsWith(op::MatMulInteger(a, b, Var(), Const<uint8_t>(g, {1, 2}, {2})), {"per column"}));
}

// ---------------------------------------------------------------------------------------------
// QLinearMatMul

TEST(QLinearMatMulKernel, RequantizesLikeOnnxRuntime) {
  Graph g;
  const Var a = Const<uint8_t>(g, {10, 20, 30, 40}, {2, 2});
  const Var b = Const<uint8_t>(g, {1, 2, 3, 4}, {2, 2});
  // a - 10 = [[0, 10], [20, 30]]; b - 1 = [[0, 1], [2, 3]]; acc = [[20, 30], [60, 110]];
  // multiplier = 0.5 * 0.25 / 0.5 = 0.25: [[5, 7.5 -> 8], [15, 27.5 -> 28]], + 100.
  const Var y = op::QLinearMatMul(a, Scalar(g, 0.5f), Scalar<uint8_t>(g, 10), b, Scalar(g, 0.25f),
                                  Scalar<uint8_t>(g, 1), Scalar(g, 0.5f), Scalar<uint8_t>(g, 100));
  EXPECT_TRUE(Is<uint8_t>(y, {105, 108, 115, 128}, {2, 2}));
  // int8 output with a negative zero point; a multiplier of 25 saturates (20 * 25 = 500).
  const Var z = op::QLinearMatMul(a, Scalar(g, 0.5f), Scalar<uint8_t>(g, 10), b, Scalar(g, 0.25f),
                                  Scalar<uint8_t>(g, 1), Scalar(g, 0.5f), Scalar<int8_t>(g, -100));
  EXPECT_TRUE(Is<int8_t>(z, {-95, -92, -85, -72}, {2, 2}));
  const Var saturated =
      op::QLinearMatMul(a, Scalar(g, 0.5f), Scalar<uint8_t>(g, 10), b, Scalar(g, 25.0f),
                        Scalar<uint8_t>(g, 1), Scalar(g, 0.5f), Scalar<int8_t>(g, 0));
  EXPECT_TRUE(Is<int8_t>(saturated, {127, 127, 127, 127}, {2, 2}));
}

// Opset 21 takes float16 (and bfloat16) scales; the values are ONNX Runtime 1.32's and ONNX's
// reference's (acc [[19327, -148], [102, 238]], multiplier 0.1 * 0.3 / 7 in float16).
TEST(QLinearMatMulKernel, Opset21TakesHalfPrecisionScales) {
  Graph g;
  const Var a = Const<uint8_t>(g, {10, 200, 37, 3}, {2, 2});
  const Var b = Const<uint8_t>(g, {5, 9, 100, 1}, {2, 2});
  const auto half = [&](float v) { return Scalar<Float16>(g, Float16::FromFloat(v)); };
  const Var y =
      gg::opset24::QLinearMatMul(a, half(0.1f), Scalar<uint8_t>(g, 3), b, half(0.3f),
                                 Scalar<uint8_t>(g, 2), half(7.0f), Scalar<uint8_t>(g, 10));
  EXPECT_TRUE(Is<uint8_t>(y, {93, 9, 10, 11}, {2, 2}));
  // Before opset 21 the schema takes float scales only.
  EXPECT_FALSE(One(NodeAt("QLinearMatMul",
                          {a, half(0.1f), Scalar<uint8_t>(g, 3), b, half(0.3f),
                           Scalar<uint8_t>(g, 2), half(7.0f), Scalar<uint8_t>(g, 10)},
                          {}, 20))
                   .ok());
}

TEST(QLinearMatMulKernel, PerColumnBParameters) {
  Graph g;
  const Var a = Const<int8_t>(g, {1, 2}, {1, 2});
  const Var b = Const<int8_t>(g, {1, 1, 1, 1}, {2, 2});
  // acc per column: column 0 (b - 0) = 3, column 1 (b - 1) = 0; multipliers 1 and 2.
  const Var y =
      op::QLinearMatMul(a, Scalar(g, 1.0f), Scalar<int8_t>(g, 0), b, Const<float>(g, {1, 2}, {2}),
                        Const<int8_t>(g, {0, 1}, {2}), Scalar(g, 1.0f), Scalar<int8_t>(g, 0));
  EXPECT_TRUE(Is<int8_t>(y, {3, 0}, {1, 2}));
  // Per-row a parameters are not computed (ONNX Runtime rejects them).
  const Var per_row = op::QLinearMatMul(a, Const<float>(g, {1}, {1}), Const<int8_t>(g, {0}, {1}), b,
                                        Scalar(g, 1.0f), Scalar<int8_t>(g, 0), Scalar(g, 1.0f),
                                        Scalar<int8_t>(g, 0));
  EXPECT_TRUE(Is<int8_t>(per_row, {3, 3}, {1, 2}));  // a 1-element 1-D is per tensor
  const Var a2 = Const<int8_t>(g, {1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(HasNoValue(op::QLinearMatMul(
      a2, Const<float>(g, {1, 2}, {2}), Const<int8_t>(g, {0, 0}, {2}), b, Scalar(g, 1.0f),
      Scalar<int8_t>(g, 0), Scalar(g, 1.0f), Scalar<int8_t>(g, 0))));
}

TEST(QLinearMatMulKernel, BudgetLeavesNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 1000});
  const Var a = g.constant(Tensor::zeros(DataType::kUint8, {40, 10}));
  const Var b = g.constant(Tensor::zeros(DataType::kUint8, {10, 20}));
  // The output is 800 bytes, its int32 accumulators 3200.
  EXPECT_TRUE(
      HasNoValue(op::QLinearMatMul(a, Scalar(g, 1.0f), Scalar<uint8_t>(g, 0), b, Scalar(g, 1.0f),
                                   Scalar<uint8_t>(g, 0), Scalar(g, 1.0f), Scalar<uint8_t>(g, 0))));
}

}  // namespace
