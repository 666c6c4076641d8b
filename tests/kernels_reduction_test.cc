// Value propagation of the reduction family (opset/kernels/reduction/) where ONNX's node test data
// says nothing: every element type, integer wrap-around, empty tensors, NaN as ONNX Runtime
// treats it, negative and repeated axes, omitted optional inputs and outputs, the versions
// before opset 13 (2-D coercion of Softmax, ReduceSum's axes attribute, TopK's k attribute),
// the op failing on bad known inputs, and the value budget. Expected values are computed by hand
// (or by ONNX Runtime 1.30 where its behaviour is the rule).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

// Exact unless given a tolerance.
template <class T>
::testing::AssertionResult HasValue(const Var& var, const std::vector<double>& expected,
                                    const Dims& shape, double tolerance = 0) {
  return HasValues<T>(var, expected, shape, tolerance);
}

// Exact int64 values (indices), which doubles could not hold past 2^53.
::testing::AssertionResult HasIndices(const Var& var, const std::vector<int64_t>& expected,
                                      const Dims& shape) {
  if (::testing::AssertionResult typed = HasValueOfShape<int64_t>(var, shape); !typed) return typed;
  const std::optional<Tensor> value = var.value();
  const auto actual = value->data<int64_t>();
  const std::vector<int64_t> got(actual.begin(), actual.end());
  if (got != expected) {
    return ::testing::AssertionFailure() << "values [" << absl::StrJoin(got, ",") << "]";
  }
  return ::testing::AssertionSuccess();
}

// --- Reduce*: every element type -----------------------------------------------------------

template <class T>
class ReduceTypedTest : public ::testing::Test {};
using ReduceTypes =
    ::testing::Types<float, double, Float16, BFloat16, int32_t, int64_t, uint32_t, uint64_t>;
TYPED_TEST_SUITE(ReduceTypedTest, ReduceTypes);

TYPED_TEST(ReduceTypedTest, EveryReductionOverTheLastAxis) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4, 5, 6}), {2, 3});
  const Dims shape = {2, 1};
  EXPECT_TRUE(HasValue<T>(op::ReduceSum(x, Int64s(g, {1})), {6, 15}, shape));
  EXPECT_TRUE(HasValue<T>(op::ReduceProd(x, {.axes = Dims{1}}), {6, 120}, shape));
  EXPECT_TRUE(HasValue<T>(op::ReduceMax(x, {.axes = Dims{1}}), {3, 6}, shape));
  EXPECT_TRUE(HasValue<T>(op::ReduceMin(x, {.axes = Dims{1}}), {1, 4}, shape));
  EXPECT_TRUE(HasValue<T>(op::ReduceL1(x, {.axes = Dims{1}}), {6, 15}, shape));
  EXPECT_TRUE(HasValue<T>(op::ReduceSumSquare(x, {.axes = Dims{1}}), {14, 77}, shape));
  if constexpr (std::is_integral_v<T>) {
    EXPECT_TRUE(HasValue<T>(op::ReduceMean(x, {.axes = Dims{1}}), {2, 5}, shape));
    EXPECT_TRUE(HasValue<T>(op::ReduceL2(x, {.axes = Dims{1}}), {3, 8}, shape));  // sqrt 14, 77
    EXPECT_TRUE(HasNoValue(op::ReduceLogSum(x, {.axes = Dims{1}})));
    EXPECT_TRUE(HasNoValue(op::ReduceLogSumExp(x, {.axes = Dims{1}})));
  } else {
    const double tolerance = kIsHalf<T> ? 1e-2 : 1e-6;
    EXPECT_TRUE(HasValue<T>(op::ReduceMean(x, {.axes = Dims{1}}), {2, 5}, shape));
    EXPECT_TRUE(HasValue<T>(op::ReduceL2(x, {.axes = Dims{1}}), {std::sqrt(14.0), std::sqrt(77.0)},
                            shape, tolerance));
    EXPECT_TRUE(HasValue<T>(op::ReduceLogSum(x, {.axes = Dims{1}}), {std::log(6.0), std::log(15.0)},
                            shape, tolerance));
    const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
    EXPECT_TRUE(
        HasValue<T>(op::ReduceLogSumExp(x, {.axes = Dims{1}}), {lse0, lse0 + 3}, shape, tolerance));
  }
}

TYPED_TEST(ReduceTypedTest, OuterAxisAccumulatesRows) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4, 5, 6}), {2, 3});
  EXPECT_TRUE(HasValue<T>(op::ReduceSum(x, Int64s(g, {0}), {.keepdims = 0}), {5, 7, 9}, {3}));
  EXPECT_TRUE(HasValue<T>(op::ReduceMax(x, {.axes = Dims{0}, .keepdims = 0}), {4, 5, 6}, {3}));
  EXPECT_TRUE(HasValue<T>(op::ReduceProd(x, {.axes = Dims{-2}}), {4, 10, 18}, {1, 3}));
}

TEST(ReduceTest, EightBitMaxAndMin) {
  Graph g;
  const Var i8 = Const<int8_t>(g, {-128, 127, 5, -3}, {2, 2});
  EXPECT_TRUE(HasValue<int8_t>(op::ReduceMax(i8, {.axes = Dims{1}}), {127, 5}, {2, 1}));
  EXPECT_TRUE(HasValue<int8_t>(op::ReduceMin(i8, {.axes = Dims{1}}), {-128, -3}, {2, 1}));
  const Var u8 = Const<uint8_t>(g, {255, 0, 7, 9}, {4});
  EXPECT_TRUE(HasValue<uint8_t>(op::ReduceMax(u8, {.keepdims = 0}), {255}, {}));
}

// --- Reduce*: axes ---------------------------------------------------------------------------

TEST(ReduceTest, NonAdjacentAxesAndNegativeAxes) {
  Graph g;
  std::vector<double> ramp;
  for (int i = 0; i < 24; ++i) ramp.push_back(i);
  std::vector<float> values(ramp.begin(), ramp.end());
  const Var x = Const<float>(g, values, {2, 3, 4});
  // Over dims 0 and 2: out[j] = sum over i, k of (12 i + 4 j + k) = 2*(6 + 16 j) + 48.
  const std::vector<double> expected = {60, 92, 124};
  EXPECT_TRUE(HasValue<float>(op::ReduceSum(x, Int64s(g, {0, 2}), {.keepdims = 0}), expected, {3}));
  EXPECT_TRUE(HasValue<float>(op::ReduceSum(x, Int64s(g, {-1, -3})), expected, {1, 3, 1}));
  EXPECT_TRUE(
      HasValue<float>(op::ReduceMin(x, {.axes = Dims{0, 2}, .keepdims = 0}), {0, 4, 8}, {3}));
  EXPECT_TRUE(
      HasValue<float>(op::ReduceMax(x, {.axes = Dims{2, 0}, .keepdims = 0}), {15, 19, 23}, {3}));
  // Middle axis: outer x reduced x inner.
  EXPECT_TRUE(HasValue<float>(op::ReduceMean(x, {.axes = Dims{1}, .keepdims = 0}),
                              {4, 5, 6, 7, 16, 17, 18, 19}, {2, 4}));
}

TEST(ReduceTest, DefaultAxesReduceEverything) {
  Graph g;
  const Var x = Const<double>(g, {1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(HasValue<double>(op::ReduceSum(x), {10}, {1, 1}));
  EXPECT_TRUE(HasValue<double>(op::ReduceProd(x, {.keepdims = 0}), {24}, {}));
  EXPECT_TRUE(HasValue<double>(op::ReduceSum(x, Int64s(g, {}), {.keepdims = 0}), {10}, {}));
  const Var scalar = g.constant(Tensor::scalar<float>(7));
  EXPECT_TRUE(HasValue<float>(op::ReduceMax(scalar), {7}, {}));
}

TEST(ReduceTest, NoopWithEmptyAxesReturnsTheInput) {
  Graph g;
  const Var x = Const<int64_t>(g, {1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(HasValue<int64_t>(op::ReduceSum(x, Var(), {.noop_with_empty_axes = 1}), {1, 2, 3, 4},
                                {2, 2}));
  EXPECT_TRUE(HasValue<int64_t>(op::ReduceSum(x, Int64s(g, {}), {.noop_with_empty_axes = 1}),
                                {1, 2, 3, 4}, {2, 2}));
  EXPECT_TRUE(HasValue<int64_t>(op::ReduceSum(x, Int64s(g, {1}), {.noop_with_empty_axes = 1}),
                                {3, 7}, {2, 1}));
}

// Found by kernel_fuzzer: ONNX's inference (and ONNX Runtime) keep the reduced dims only for
// keepdims == 1; the kernels kept them for any non-zero value, so value and type disagreed.
TEST(ReduceTest, KeepdimsOtherThanOneDropsTheReducedDims) {
  Graph g;
  const Var x = Const<int32_t>(g, {3, 1, 2}, {3});
  EXPECT_TRUE(HasValue<int64_t>(op::ArgMax(x, {.axis = 0, .keepdims = 2}), {0}, {}));
  EXPECT_TRUE(HasValue<int32_t>(op::ReduceMax(x, {.keepdims = 2}), {3}, {}));
  EXPECT_TRUE(HasValue<int64_t>(op::ArgMax(x, {.axis = 0, .keepdims = 1}), {0}, {1}));
}

TEST(ReduceTest, ReduceSumBefore13TakesAxesAsAnAttribute) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const auto sum = NodeAt("ReduceSum", {x}, {{"axes", Dims{-1}}, {"keepdims", int64_t{0}}}, 11);
  EXPECT_TRUE(HasValue<float>(sum[0], {6, 15}, {2}));
  const auto all = NodeAt("ReduceSum", {x}, {}, 1);
  EXPECT_TRUE(HasValue<float>(all[0], {21}, {1, 1}));
}

TEST(ReduceTest, RepeatedOrOutOfRangeAxesFailTheOp) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  // ONNX's inference passes repeated axes; the kernel names the repeated one.
  EXPECT_TRUE(FailsWith(op::ReduceSum(x, Int64s(g, {1, -1})), {"input 1 (axes)", "-1", "twice"}));
  EXPECT_TRUE(
      FailsWith(op::ReduceMin(x, {.axes = Dims{0, 0}}), {"attribute 'axes'", "0", "twice"}));
  // Inference already rejects an axis out of range.
  EXPECT_TRUE(FailsWith(op::ReduceSum(x, Int64s(g, {2})), {"axis"}));
  EXPECT_TRUE(FailsWith(op::ReduceMax(x, {.axes = Dims{-3}}), {"axis"}));
}

// --- Reduce*: empty sets, NaN, integers -------------------------------------------------------

TEST(ReduceTest, EmptyReducedSets) {
  Graph g;
  const Var x = Const<float>(g, {}, {2, 0});
  const Dims shape = {2, 1};
  EXPECT_TRUE(HasValue<float>(op::ReduceSum(x, Int64s(g, {1})), {0, 0}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceProd(x, {.axes = Dims{1}}), {1, 1}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceL1(x, {.axes = Dims{1}}), {0, 0}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceL2(x, {.axes = Dims{1}}), {0, 0}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceSumSquare(x, {.axes = Dims{1}}), {0, 0}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceLogSum(x, {.axes = Dims{1}}), {-kInf, -kInf}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceLogSumExp(x, {.axes = Dims{1}}), {-kInf, -kInf}, shape));
  // Max (min) of nothing is minus (plus) infinity, or the type's lowest (highest) value, as
  // ONNX's schemas say for every version; ONNX Runtime 1.32 and ONNX's reference agree. The
  // mean of nothing is undefined.
  EXPECT_TRUE(HasValue<float>(op::ReduceMax(x, {.axes = Dims{1}}), {-kInf, -kInf}, shape));
  EXPECT_TRUE(HasValue<float>(op::ReduceMin(x, {.axes = Dims{1}}), {kInf, kInf}, shape));
  EXPECT_TRUE(HasNoValue(op::ReduceMean(x, {.axes = Dims{1}})));
  const Var ints = Const<int32_t>(g, {}, {2, 0});
  EXPECT_TRUE(
      HasValue<int32_t>(op::ReduceMax(ints, {.axes = Dims{1}}), {INT32_MIN, INT32_MIN}, shape));
  const Var bytes = Const<uint8_t>(g, {}, {2, 0});
  EXPECT_TRUE(HasValue<uint8_t>(op::ReduceMin(bytes, {.axes = Dims{1}}), {255, 255}, shape));
  // Reducing the non-empty axis of an empty tensor gives an empty tensor, for every op.
  EXPECT_TRUE(HasValue<float>(op::ReduceMax(x, {.axes = Dims{0}}), {}, {1, 0}));
  EXPECT_TRUE(HasValue<float>(op::ReduceMean(x, {.axes = Dims{0}, .keepdims = 0}), {}, {0}));
}

// ReduceMax and ReduceMin take bool from opset 20: false < true, so any and all; of nothing,
// false and true (the type's lowest and highest, as ONNX's reference gives; ONNX Runtime 1.32
// refuses an empty bool reduction).
TEST(ReduceTest, BoolMaxAndMinFromOpset20) {
  Graph g;
  const Var x = Const<bool>(g, {true, false, false, true, true, true}, {2, 3});
  const Var axes = Int64s(g, {1});
  EXPECT_TRUE(HasValue<bool>(One(NodeAt("ReduceMax", {x, axes}, {}, 20)), {true, true}, {2, 1}));
  EXPECT_TRUE(HasValue<bool>(One(NodeAt("ReduceMin", {x, axes}, {}, 20)), {false, true}, {2, 1}));
  EXPECT_TRUE(HasValue<bool>(gg::opset24::ReduceMin(x, Int64s(g, {0}), {.keepdims = 0}),
                             {true, false, false}, {3}));
  const Var empty = Const<bool>(g, {}, {2, 0});
  EXPECT_TRUE(
      HasValue<bool>(One(NodeAt("ReduceMax", {empty, axes}, {}, 20)), {false, false}, {2, 1}));
  EXPECT_TRUE(
      HasValue<bool>(One(NodeAt("ReduceMin", {empty, axes}, {}, 20)), {true, true}, {2, 1}));
  // Before opset 20 the schema refuses bool.
  EXPECT_FALSE(One(NodeAt("ReduceMax", {x, axes}, {}, 18)).ok());
}

TEST(ReduceTest, MaxAndMinOfNaNGetNoValue) {
  // ONNX (numpy) propagates a NaN; ONNX Runtime's result depends on its memory layout (a double
  // lane [0.62, NaN, -0.33, inf, 1.49] over a middle axis gives 0.62): no value either way.
  Graph g;
  const Var rows = Const<float>(g, {kNaN, 2, 3, 1, kNaN, 6}, {2, 3});
  EXPECT_TRUE(HasNoValue(op::ReduceMax(rows, {.axes = Dims{1}})));
  EXPECT_TRUE(HasNoValue(op::ReduceMin(rows, {.axes = Dims{0}})));
  EXPECT_TRUE(HasNoValue(op::ReduceMax(rows, {.keepdims = 0})));
  const Var middle = Const<double>(g, {0.62, kNaN, -0.33, kInf, 1.49}, {1, 1, 5, 1});
  EXPECT_TRUE(HasNoValue(op::ReduceMax(middle, {.axes = Dims{2}, .keepdims = 0})));
  // Without NaN, infinities are ordinary extremes.
  const Var infinite = Const<double>(g, {0.62, -kInf, -0.33, kInf, 1.49}, {1, 1, 5, 1});
  EXPECT_TRUE(HasValue<double>(op::ReduceMax(infinite, {.axes = Dims{2}, .keepdims = 0}), {kInf},
                               {1, 1, 1}));
  EXPECT_TRUE(HasValue<double>(op::ReduceMin(infinite, {.axes = Dims{2}, .keepdims = 0}), {-kInf},
                               {1, 1, 1}));
  // Sums propagate NaN, and LogSumExp with it.
  const Var later = Const<double>(g, {1, kNaN, 3, 2}, {4});
  EXPECT_TRUE(HasValue<double>(op::ReduceSum(later, Var(), {.keepdims = 0}), {kNaN}, {}));
  EXPECT_TRUE(HasValue<double>(op::ReduceLogSumExp(later, {.keepdims = 0}), {kNaN}, {}));
}

TEST(ReduceTest, IntegerResultsAreExactOrAbsent) {
  // Integer sums and products get a value only when exact and in range: past that ONNX Runtime
  // saturates (and rounds int64 through double) while numpy wraps.
  Graph g;
  const int32_t max32 = std::numeric_limits<int32_t>::max();
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  EXPECT_TRUE(
      HasNoValue(op::ReduceSum(Const<int32_t>(g, {max32, 1, -5, 2}, {2, 2}), Int64s(g, {1}))));
  // Partial sums may leave the type's range when the result comes back into it.
  EXPECT_TRUE(
      HasValue<int32_t>(op::ReduceSum(Const<int32_t>(g, {max32, 1, -1}, {3})), {max32}, {1}));
  EXPECT_TRUE(HasValue<int32_t>(op::ReduceSum(Const<int32_t>(g, {min32, 0}, {2})), {min32}, {1}));
  // |INT_MIN| does not fit int32.
  EXPECT_TRUE(HasNoValue(op::ReduceL1(Const<int32_t>(g, {min32, 0}, {2}))));
  EXPECT_TRUE(HasNoValue(op::ReduceL2(Const<int32_t>(g, {max32, max32}, {2}))));
  EXPECT_TRUE(HasNoValue(op::ReduceProd(Const<uint64_t>(g, {1ull << 40, 1ull << 20}, {2}))));
  EXPECT_TRUE(HasValue<uint32_t>(op::ReduceProd(Const<uint32_t>(g, {1u << 20, 1u << 11}, {2})),
                                 {2147483648.0}, {1}));
  // int64 within 2^53 is exact; beyond it ORT's double accumulation rounds: no value.
  const int64_t two52 = int64_t{1} << 52;
  const Var exact = Const<int64_t>(g, {two52, two52 - 1}, {2});
  EXPECT_TRUE(HasIndices(op::ReduceSum(exact, Var(), {.keepdims = 0}), {2 * two52 - 1}, {}));
  const Var beyond = Const<int64_t>(g, {2 * two52 + 1, 0}, {2});
  EXPECT_TRUE(HasNoValue(op::ReduceSum(beyond)));
  EXPECT_TRUE(HasNoValue(op::ReduceMean(beyond)));
  // Max and Min are exact at any magnitude.
  EXPECT_TRUE(HasIndices(op::ReduceMax(beyond, {.keepdims = 0}), {2 * two52 + 1}, {}));
  // Integer mean truncates toward zero, as ONNX Runtime.
  const Var m = Const<int64_t>(g, {-1, -2, 1, 2}, {2, 2});
  EXPECT_TRUE(HasValue<int64_t>(op::ReduceMean(m, {.axes = Dims{1}, .keepdims = 0}), {-1, 1}, {2}));
}

TEST(ReduceTest, LogSumExpIsStableForLargeInputs) {
  Graph g;
  const Var x = Const<float>(g, {1000, 1000, -1000, -1000, -kInf, -kInf}, {3, 2});
  EXPECT_TRUE(HasValue<float>(op::ReduceLogSumExp(x, {.axes = Dims{1}, .keepdims = 0}),
                              {1000 + std::log(2.0), -1000 + std::log(2.0), -kInf}, {3}, 1e-6));
}

// --- ArgMax / ArgMin ---------------------------------------------------------------------------

template <class T>
class ArgTypedTest : public ::testing::Test {};
using ArgTypes = ::testing::Types<float, double, Float16, BFloat16, int8_t, int16_t, int32_t,
                                  int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
TYPED_TEST_SUITE(ArgTypedTest, ArgTypes);

TYPED_TEST(ArgTypedTest, FirstOrLastIndexOfTheExtreme) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({3, 7, 7, 1, 1, 5}), {2, 3});
  EXPECT_TRUE(HasIndices(op::ArgMax(x, {.axis = 1}), {1, 2}, {2, 1}));
  EXPECT_TRUE(HasIndices(op::ArgMax(x, {.axis = 1, .select_last_index = 1}), {2, 2}, {2, 1}));
  EXPECT_TRUE(HasIndices(op::ArgMin(x, {.axis = -1, .keepdims = 0}), {0, 0}, {2}));
  EXPECT_TRUE(
      HasIndices(op::ArgMin(x, {.axis = 1, .keepdims = 0, .select_last_index = 1}), {0, 1}, {2}));
  EXPECT_TRUE(HasIndices(op::ArgMax(x, {.axis = 0, .keepdims = 0}), {0, 0, 0}, {3}));
  EXPECT_TRUE(HasIndices(op::ArgMin(x), {1, 1, 1}, {1, 3}));
}

TEST(ArgTest, NaNGetsNoValue) {
  // ONNX Runtime's answer over NaN depends on its memory layout; numpy's differs again.
  Graph g;
  const Var x = Const<float>(g, {kNaN, 2, 2, 1, kNaN, 1}, {2, 3});
  EXPECT_TRUE(HasNoValue(op::ArgMax(x, {.axis = 1, .keepdims = 0})));
  EXPECT_TRUE(HasNoValue(op::ArgMin(x, {.axis = 0, .keepdims = 0, .select_last_index = 1})));
  const Var infinite = Const<float>(g, {-kInf, 2, kInf, 1}, {4});
  EXPECT_TRUE(HasIndices(op::ArgMax(infinite, {.keepdims = 0}), {2}, {}));
  EXPECT_TRUE(HasIndices(op::ArgMin(infinite, {.keepdims = 0}), {0}, {}));
}

TEST(ArgTest, EmptyTensors) {
  Graph g;
  const Var x = Const<float>(g, {}, {0, 3});
  EXPECT_TRUE(HasIndices(op::ArgMax(x, {.axis = 1}), {}, {0, 1}));
  EXPECT_TRUE(FailsWith(op::ArgMin(x, {.axis = 0}), {"ArgMin", "axis 0", "empty"}));
}

TEST(ArgTest, Opset11HasNoSelectLastIndex) {
  Graph g;
  const Var x = Const<int32_t>(g, {4, 9, 9}, {3});
  EXPECT_TRUE(HasIndices(NodeAt("ArgMax", {x}, {{"axis", int64_t{-1}}}, 11)[0], {1}, {1}));
}

// --- Softmax, LogSoftmax, Hardmax -------------------------------------------------------------

template <class T>
class SoftmaxTypedTest : public ::testing::Test {};
using FloatingTypesBefore13 = ::testing::Types<float, double, Float16>;  // no bfloat16
TYPED_TEST_SUITE(SoftmaxTypedTest, FloatElementTypes);

TYPED_TEST(SoftmaxTypedTest, AlongTheLastAndAnOuterAxis) {
  using T = TypeParam;
  const double tolerance = kIsHalf<T> ? 1e-2 : 1e-6;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({0, 1, 2, 2, 2, 2}), {2, 3});
  const double e = std::exp(1.0);
  const double s = 1 + e + e * e;
  EXPECT_TRUE(HasValue<T>(op::Softmax(x), {1 / s, e / s, e * e / s, 1. / 3, 1. / 3, 1. / 3}, {2, 3},
                          tolerance));
  EXPECT_TRUE(HasValue<T>(op::LogSoftmax(x),
                          {-std::log(s), 1 - std::log(s), 2 - std::log(s), -std::log(3.0),
                           -std::log(3.0), -std::log(3.0)},
                          {2, 3}, tolerance));
  // Axis 0: the columns [0, 2], [1, 2], [2, 2].
  const double a = 1 / (1 + e * e), b = 1 / (1 + e);
  EXPECT_TRUE(
      HasValue<T>(op::Softmax(x, {.axis = 0}), {a, b, 0.5, 1 - a, 1 - b, 0.5}, {2, 3}, tolerance));
  EXPECT_TRUE(HasValue<T>(
      op::LogSoftmax(x, {.axis = -2}),
      {std::log(a), std::log(b), std::log(0.5), std::log(1 - a), std::log(1 - b), std::log(0.5)},
      {2, 3}, tolerance));
  EXPECT_TRUE(HasValue<T>(op::Hardmax(x), {0, 0, 1, 1, 0, 0}, {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::Hardmax(x, {.axis = 0}), {0, 0, 1, 1, 1, 0}, {2, 3}));
}

TEST(SoftmaxTest, LargeInputsDoNotOverflow) {
  Graph g;
  const Var x = Const<float>(g, {10000, 10000, -10000, -10000}, {2, 2});
  EXPECT_TRUE(HasValue<float>(op::Softmax(x), {0.5, 0.5, 0.5, 0.5}, {2, 2}, 1e-6));
  EXPECT_TRUE(HasValue<float>(op::LogSoftmax(x),
                              {-std::log(2.0), -std::log(2.0), -std::log(2.0), -std::log(2.0)},
                              {2, 2}, 1e-6));
}

TEST(SoftmaxTest, NaNSpreadsOverItsLane) {
  Graph g;
  const Var x = Const<float>(g, {1, kNaN, 3, 1, 2, 3}, {2, 3});
  EXPECT_TRUE(HasValue<float>(op::Softmax(x, {.axis = 1}),
                              {kNaN, kNaN, kNaN, 0.0900306, 0.244728, 0.665241}, {2, 3}, 1e-5));
  // LogSoftmax: ONNX Runtime's double kernel clamps a NaN sum (finite values), its float one
  // gives NaN: no value, for NaN and for +inf (whose shifted exp is NaN).
  EXPECT_TRUE(HasNoValue(op::LogSoftmax(x, {.axis = 1})));
  EXPECT_TRUE(HasNoValue(op::LogSoftmax(Const<double>(g, {1, kInf}, {2}))));
  EXPECT_TRUE(HasValue<double>(op::LogSoftmax(Const<double>(g, {1, -kInf}, {2})), {0, -kInf}, {2}));
  EXPECT_TRUE(HasNoValue(
      op::SoftmaxCrossEntropyLoss(x, Const<int64_t>(g, {0, 1}, {2}), Var(), {.reduction = "sum"})
          .output));
  // Hardmax: no value over NaN (ONNX Runtime gives [-2.88, NaN, 3.19, -3.56, 3.81] all zeros
  // along axis 0 of a float16 [5,5,2]: ort_difftest --graph-seed 10000356); the first element
  // equal to the max otherwise.
  EXPECT_TRUE(HasNoValue(op::Hardmax(Const<float>(g, {1, kNaN, 3, 3}, {1, 4}))));
  const Var h = Const<float>(g, {1, 3, 3, 0, 5, 5, -kInf, kInf}, {2, 4});
  EXPECT_TRUE(HasValue<float>(op::Hardmax(h), {0, 1, 0, 0, 0, 0, 0, 1}, {2, 4}));
}

TEST(SoftmaxTest, Before13TheInputIsCoercedTo2D) {
  Graph g;
  const Var x = Const<float>(g, {0, 0, 0, 0, 1, 1, 1, 1}, {2, 2, 2});
  // Opset 11, axis 1: each row of shape[1:] = 4 elements is one lane.
  EXPECT_TRUE(HasValue<float>(NodeAt("Softmax", {x}, {{"axis", int64_t{1}}}, 11)[0],
                              {0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}, {2, 2, 2}, 1e-6));
  // Opset 13, axis 1: lanes of 2 along dim 1.
  EXPECT_TRUE(HasValue<float>(NodeAt("Softmax", {x}, {{"axis", int64_t{1}}}, 13)[0],
                              {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, {2, 2, 2}, 1e-6));
  const Var y = Const<float>(g, {0, 1, 2, 3}, {2, 2});
  EXPECT_TRUE(
      HasValue<float>(NodeAt("Hardmax", {y}, {{"axis", int64_t{0}}}, 1)[0], {0, 0, 0, 1}, {2, 2}));
  const double s = 1 + std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_TRUE(HasValue<float>(NodeAt("LogSoftmax", {y}, {{"axis", int64_t{0}}}, 11)[0],
                              {-std::log(s), 1 - std::log(s), 2 - std::log(s), 3 - std::log(s)},
                              {2, 2}, 1e-6));
}

TEST(SoftmaxTest, EmptyTensors) {
  Graph g;
  const Var x = Const<float>(g, {}, {2, 0});
  EXPECT_TRUE(HasValue<float>(op::Softmax(x), {}, {2, 0}));
  EXPECT_TRUE(HasValue<float>(op::Hardmax(x, {.axis = 0}), {}, {2, 0}));
}

// --- CumSum -----------------------------------------------------------------------------------

template <class T>
class CumSumTypedTest : public ::testing::Test {};
TYPED_TEST_SUITE(CumSumTypedTest, ReduceTypes);  // the same types: the sums' domain

TYPED_TEST(CumSumTypedTest, ExclusiveAndReverse) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4, 5, 6}), {2, 3});
  const Var last = g.constant(Tensor::scalar<int64_t>(-1));
  const Var first = g.constant(Tensor::scalar<int32_t>(0));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, last), {1, 3, 6, 4, 9, 15}, {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, last, {.exclusive = 1}), {0, 1, 3, 0, 4, 9}, {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, last, {.reverse = 1}), {6, 5, 3, 15, 11, 6}, {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, last, {.exclusive = 1, .reverse = 1}), {5, 3, 0, 11, 6, 0},
                          {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, first), {1, 2, 3, 5, 7, 9}, {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::CumSum(x, first, {.exclusive = 1, .reverse = 1}), {4, 5, 6, 0, 0, 0},
                          {2, 3}));
}

TEST(CumSumTest, IntegersWrapAndBadAxesFail) {
  Graph g;
  const Var x = Const<int32_t>(g, {std::numeric_limits<int32_t>::max(), 1}, {2});
  const Var zero = g.constant(Tensor::scalar<int64_t>(0));
  EXPECT_TRUE(HasValue<int32_t>(op::CumSum(x, zero), {2147483647.0, -2147483648.0}, {2}));
  EXPECT_TRUE(
      FailsWith(op::CumSum(x, g.constant(Tensor::scalar<int64_t>(1))), {"axis", "1", "outside"}));
  EXPECT_TRUE(HasValue<int32_t>(op::CumSum(Const<int32_t>(g, {}, {0}), zero), {}, {0}));
}

// --- LpNormalization --------------------------------------------------------------------------

template <class T>
class LpNormalizationTypedTest : public ::testing::Test {};
TYPED_TEST_SUITE(LpNormalizationTypedTest, FloatingTypesBefore13);

TYPED_TEST(LpNormalizationTypedTest, L1AndL2) {
  using T = TypeParam;
  const double tolerance = kIsHalf<T> ? 1e-2 : 1e-6;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({3, -4, 0, 0}), {2, 2});
  EXPECT_TRUE(HasValue<T>(op::LpNormalization(x), {0.6, -0.8, 0, 0}, {2, 2}, tolerance));
  EXPECT_TRUE(HasValue<T>(op::LpNormalization(x, {.axis = 1, .p = 1}), {3. / 7, -4. / 7, 0, 0},
                          {2, 2}, tolerance));
  EXPECT_TRUE(
      HasValue<T>(op::LpNormalization(x, {.axis = 0, .p = 1}), {1, -1, 0, 0}, {2, 2}, tolerance));
}

TEST(LpNormalizationTest, OnlyP1AndP2AreDefined) {
  Graph g;
  const Var x = Const<float>(g, {3, 4}, {2});
  EXPECT_TRUE(FailsWith(op::LpNormalization(x, {.p = 3}), {"'p'", "3"}));
}

// --- TopK -------------------------------------------------------------------------------------

template <class T>
class TopKTypedTest : public ::testing::Test {};
using TopKTypes = ::testing::Types<float, double, Float16, int8_t, int16_t, int32_t, int64_t,
                                   uint8_t, uint16_t, uint32_t, uint64_t>;  // no bfloat16
TYPED_TEST_SUITE(TopKTypedTest, TopKTypes);

TYPED_TEST(TopKTypedTest, LargestAndSmallestWithTiesInIndexOrder) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 5, 3, 4, 2, 5, 9, 0}), {1, 8});
  auto [values, indices] = op::TopK(x, Int64s(g, {3}));
  EXPECT_TRUE(HasValue<T>(values, {9, 5, 5}, {1, 3}));
  EXPECT_TRUE(HasIndices(indices, {6, 1, 5}, {1, 3}));
  auto [small, small_at] = op::TopK(x, Int64s(g, {3}), {.largest = 0});
  EXPECT_TRUE(HasValue<T>(small, {0, 1, 2}, {1, 3}));
  EXPECT_TRUE(HasIndices(small_at, {7, 0, 4}, {1, 3}));
}

TEST(TopKTest, AlongAnOuterAxis) {
  Graph g;
  const Var x = Const<float>(g, {1, 6, 5, 2, 3, 4}, {3, 2});
  auto [values, indices] = op::TopK(x, Int64s(g, {2}), {.axis = 0});
  EXPECT_TRUE(HasValue<float>(values, {5, 6, 3, 4}, {2, 2}));
  EXPECT_TRUE(HasIndices(indices, {1, 0, 2, 2}, {2, 2}));
}

TEST(TopKTest, KOutOfRangeFailsAndZeroIsEmpty) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_TRUE(FailsWith(op::TopK(x, Int64s(g, {-1})).Indices, {"input 1 (K)", "k = -1", "[0, 3]"}));
  EXPECT_TRUE(FailsWith(op::TopK(x, Int64s(g, {4})).Values, {"k"}));  // inference catches it first
  auto [values, indices] = op::TopK(x, Int64s(g, {0}));
  EXPECT_TRUE(HasValue<float>(values, {}, {0}));
  EXPECT_TRUE(HasIndices(indices, {}, {0}));
}

TEST(TopKTest, NoValueWhereTheRuntimeChoosesTheOrder) {
  Graph g;
  const Var x = Const<float>(g, {1, 5, 3, 4}, {4});
  EXPECT_TRUE(HasNoValue(op::TopK(x, Int64s(g, {2}), {.sorted = 0}).Values));
  auto [one, one_at] = op::TopK(x, Int64s(g, {1}), {.sorted = 0});
  EXPECT_TRUE(HasValue<float>(one, {5}, {1}));
  const Var nan = Const<float>(g, {1, kNaN, 3}, {3});
  EXPECT_TRUE(HasNoValue(op::TopK(nan, Int64s(g, {2})).Indices));
}

TEST(TopKTest, Opset1TakesKAsAnAttribute) {
  Graph g;
  const Var x = Const<float>(g, {1, 5, 3}, {3});
  const auto outputs = NodeAt("TopK", {x}, {{"k", int64_t{2}}}, 1, 2);
  EXPECT_TRUE(HasValue<float>(outputs[0], {5, 3}, {2}));
  EXPECT_TRUE(HasIndices(outputs[1], {1, 2}, {2}));
}

// --- NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss ----------------------------------------

class LossTest : public ::testing::Test {
 protected:
  // input [2, 3, 2]: N = 2, C = 3, d1 = 2.
  Var Input() { return Const<float>(g_, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 3, 2}); }
  Var Targets(std::vector<int64_t> values) { return Const<int64_t>(g_, values, {2, 2}); }
  Var Weights() { return Const<float>(g_, {0.5, 1, 2}, {3}); }

  Graph g_;
};

TEST_F(LossTest, NegativeLogLikelihoodReductions) {
  // Targets [[0, 2], [1, 1]] pick input[0,0,0]=1, input[0,2,1]=6, input[1,1,0]=9, input[1,1,1]=10.
  const Var t = Targets({0, 2, 1, 1});
  EXPECT_TRUE(
      HasValue<float>(op::NegativeLogLikelihoodLoss(Input(), t, Var(), {.reduction = "none"}),
                      {-1, -6, -9, -10}, {2, 2}));
  EXPECT_TRUE(HasValue<float>(
      op::NegativeLogLikelihoodLoss(Input(), t, Var(), {.reduction = "sum"}), {-26}, {}));
  EXPECT_TRUE(HasValue<float>(op::NegativeLogLikelihoodLoss(Input(), t), {-6.5}, {}));
  // Weighted: -(0.5*1 + 2*6 + 9 + 10) / (0.5 + 2 + 1 + 1).
  EXPECT_TRUE(HasValue<float>(op::NegativeLogLikelihoodLoss(Input(), t, Weights()), {-31.5 / 4.5},
                              {}, 1e-6));
  // ignore_index 1 drops the two 1 targets from the sum and the weights.
  EXPECT_TRUE(
      HasValue<float>(op::NegativeLogLikelihoodLoss(Input(), t, Weights(), {.ignore_index = 1}),
                      {-12.5 / 2.5}, {}, 1e-6));
  EXPECT_TRUE(HasValue<float>(
      op::NegativeLogLikelihoodLoss(Input(), t, Var(), {.ignore_index = 1, .reduction = "none"}),
      {-1, -6, 0, 0}, {2, 2}));
}

TEST_F(LossTest, NegativeLogLikelihoodTargets) {
  // Every target ignored: the mean divides 0 by 0 (NaN, as ONNX Runtime).
  EXPECT_TRUE(HasValue<float>(
      op::NegativeLogLikelihoodLoss(Input(), Targets({7, 7, 7, 7}), Var(), {.ignore_index = 7}),
      {kNaN}, {}));
  // A negative target counts from the back, as ONNX's function body (GatherElements) does.
  EXPECT_TRUE(HasValue<float>(
      op::NegativeLogLikelihoodLoss(Input(), Targets({-3, -1, 1, 1}), Var(), {.reduction = "none"}),
      {-1, -6, -9, -10}, {2, 2}));
  EXPECT_TRUE(FailsWith(op::NegativeLogLikelihoodLoss(Input(), Targets({0, 3, 1, 1})),
                        {"target", "3", "[0, 3)"}));
  const Var t32 = Const<int32_t>(g_, {0, 2, 1, 1}, {2, 2});
  EXPECT_TRUE(HasValue<float>(
      op::NegativeLogLikelihoodLoss(Input(), t32, Var(), {.reduction = "sum"}), {-26}, {}));
}

TEST_F(LossTest, SoftmaxCrossEntropyWithAndWithoutLogProb) {
  const Var scores = Const<double>(g_, {1, 2, 3, 1, 1, 1}, {2, 3});
  const Var labels = Const<int64_t>(g_, {2, 0}, {2});
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  const std::vector<double> log_prob = {1 - std::log(s), 2 - std::log(s), 3 - std::log(s),
                                        -std::log(3.0),  -std::log(3.0),  -std::log(3.0)};
  const double loss0 = -log_prob[2], loss1 = -log_prob[3];
  auto [mean, mean_log_prob] = op::SoftmaxCrossEntropyLoss(scores, labels, Var(), {}, 2);
  EXPECT_TRUE(HasValue<double>(mean, {(loss0 + loss1) / 2}, {}, 1e-12));
  EXPECT_TRUE(HasValue<double>(mean_log_prob, log_prob, {2, 3}, 1e-12));
  const Var weights = Const<double>(g_, {2, 1, 3}, {3});
  EXPECT_TRUE(HasValue<double>(op::SoftmaxCrossEntropyLoss(scores, labels, weights).output,
                               {(3 * loss0 + 2 * loss1) / 5}, {}, 1e-12));
  EXPECT_TRUE(HasValue<double>(
      op::SoftmaxCrossEntropyLoss(scores, labels, Var(), {.ignore_index = 0, .reduction = "none"})
          .output,
      {loss0, 0}, {2}, 1e-12));
  const Var half_scores = Const<Float16>(g_, ValuesOf<Float16>({1, 2, 3, 1, 1, 1}), {2, 3});
  EXPECT_TRUE(HasValue<Float16>(
      op::SoftmaxCrossEntropyLoss(half_scores, labels, Var(), {.reduction = "sum"}).output,
      {loss0 + loss1}, {}, 1e-2));
}

// --- The value budget -------------------------------------------------------------------------

TEST(ReductionBudgetTest, OutputsAndScratchStayWithinTheBudget) {
  Graph g(gg::GraphOptions{.max_value_bytes = 16});
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  // Small outputs still get values: the input is not the kernel's allocation.
  EXPECT_TRUE(HasValue<float>(op::ReduceSum(x, Int64s(g, {1})), {10, 26}, {2, 1}));
  EXPECT_TRUE(HasIndices(op::ArgMax(x, {.axis = 1}), {3, 3}, {2, 1}));
  // 32-byte outputs do not.
  EXPECT_TRUE(HasNoValue(op::Softmax(x)));
  EXPECT_TRUE(HasNoValue(op::CumSum(x, g.constant(Tensor::scalar<int64_t>(1)))));
  EXPECT_TRUE(
      HasValue<float>(op::ReduceMax(x, {.axes = Dims{0}, .keepdims = 0}), {5, 6, 7, 8}, {4}));
  // Nor does a small output whose scratch exceeds the budget: the log-probabilities of SCE.
  const Var labels = Const<int64_t>(g, {0, 1}, {2});
  EXPECT_TRUE(HasNoValue(op::SoftmaxCrossEntropyLoss(x, labels).output));
}

// Opset 18 takes the axes of every reduction as an input, as ReduceSum does from 13.
TEST(ReduceKernelTest, AxesAsAnInputFrom18) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var axes = Int64s(g, {1});
  EXPECT_TRUE(HasValue<float>(gg::make_node("ReduceMean", {x, axes}, {}, {.version = 18})[0],
                              {2, 5}, {2, 1}));
  EXPECT_TRUE(HasValue<float>(
      gg::make_node("ReduceMax", {x, axes}, {{"keepdims", int64_t{0}}}, {.version = 20})[0], {3, 6},
      {2}));
  // No axes: every axis, or none with noop_with_empty_axes.
  EXPECT_TRUE(
      HasValue<float>(gg::make_node("ReduceProd", {x}, {}, {.version = 18})[0], {720}, {1, 1}));
  EXPECT_TRUE(HasValue<float>(
      gg::make_node("ReduceL1", {x}, {{"noop_with_empty_axes", int64_t{1}}}, {.version = 18})[0],
      {1, 2, 3, 4, 5, 6}, {2, 3}));
  // The op still applies to each element (ONNX: "ReduceSumSquare acts as a vanilla Square"), as
  // ONNX Runtime 1.32 and ONNX's reference compute: |x| for L1 and L2, x^2, log(x).
  const Var signs = Const<float>(g, {-1.5f, 2, -3}, {3});
  const std::vector<Attribute> noop = {{"noop_with_empty_axes", int64_t{1}}};
  EXPECT_TRUE(HasValue<float>(gg::make_node("ReduceL2", {signs}, noop, {.version = 18})[0],
                              {1.5, 2, 3}, {3}));
  EXPECT_TRUE(
      HasValue<float>(gg::make_node("ReduceL1", {signs, Int64s(g, {})}, noop, {.version = 24})[0],
                      {1.5, 2, 3}, {3}));
  EXPECT_TRUE(HasValue<float>(gg::make_node("ReduceSumSquare", {signs}, noop, {.version = 18})[0],
                              {2.25, 4, 9}, {3}));
  EXPECT_TRUE(HasValue<float>(
      gg::make_node("ReduceLogSum", {x}, noop, {.version = 18})[0],
      {0, std::log(2.0), std::log(3.0), std::log(4.0), std::log(5.0), std::log(6.0)}, {2, 3},
      1e-6));
  EXPECT_TRUE(HasValue<float>(gg::make_node("ReduceMax", {signs}, noop, {.version = 20})[0],
                              {-1.5, 2, -3}, {3}));
}

}  // namespace
