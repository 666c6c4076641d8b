// Value propagation (constant folding) of the hand-written ops, checked against hand-computed
// results under ONNX semantics: broadcasting, integer wraparound and truncating division, IEEE
// division by zero, MatMul's 1-D promotion and batch broadcasting, buffer sharing of Reshape and
// Identity, and Cast's conversions (truncation, saturation, wraparound, 16-bit floats).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Bit patterns of 16-bit floats, written literally.
Float16 F16(uint16_t bits) { return Float16{bits}; }
BFloat16 BF16(uint16_t bits) { return BFloat16{bits}; }

template <class T>
std::string Show(const T& value) {
  std::ostringstream out;
  if constexpr (kIsHalf<T>) {
    out << "0x" << std::hex << value.bits << " (" << value.ToFloat() << ")";
  } else if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(value);
  } else {
    out << std::setprecision(std::numeric_limits<T>::max_digits10) << value;
  }
  return out.str();
}

// Equal values; NaN equals NaN, 16-bit floats compare by bit pattern.
template <class T>
bool SameElement(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
  } else {
    return a == b;
  }
}

// The var is ok, has element type T and shape `shape`, and its value holds `expected`.
template <class T>
::testing::AssertionResult HasValue(const Var& var, const std::vector<T>& expected,
                                    const Dims& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.dtype() != gg::DataTypeOf<T>::value) {
    return ::testing::AssertionFailure() << "element type " << gg::DataTypeName(var.dtype());
  }
  if (var.shape() != std::optional<Dims>(shape)) {
    return ::testing::AssertionFailure()
           << "inferred shape is not [" << absl::StrJoin(shape, ",") << "]";
  }
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return ::testing::AssertionFailure() << "the var has no value";
  const Dims value_shape(value->shape().begin(), value->shape().end());
  if (value->dtype() != var.dtype() || value_shape != shape) {
    return ::testing::AssertionFailure() << "the value's type or shape differs from the var's";
  }
  const auto actual = value->data<T>();
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << actual.size() << " elements, expected " << expected.size();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const T want = expected[i];
    if (!SameElement<T>(actual[i], want)) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << Show<T>(actual[i]) << ", expected " << Show<T>(want);
    }
  }
  return ::testing::AssertionSuccess();
}

// The var is ok, typed as given, but has no value.
::testing::AssertionResult HasTypeButNoValue(const Var& var, DataType dtype, const Dims& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.dtype() != dtype) {
    return ::testing::AssertionFailure() << "element type " << gg::DataTypeName(var.dtype());
  }
  if (var.shape() != std::optional<Dims>(shape)) {
    return ::testing::AssertionFailure() << "unexpected shape";
  }
  if (var.value().has_value()) return ::testing::AssertionFailure() << "the var has a value";
  return ::testing::AssertionSuccess();
}

// --- Broadcasting -----------------------------------------------------------------------------

TEST(BroadcastValueTest, MatrixPlusRow) {
  Graph g;
  const Var a = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var b = Const<float>(g, {10, 20, 30}, {3});
  EXPECT_TRUE(HasValue<float>(op::Add(a, b), {11, 22, 33, 14, 25, 36}, {2, 3}));
  EXPECT_TRUE(HasValue<float>(op::Add(b, a), {11, 22, 33, 14, 25, 36}, {2, 3}));
}

TEST(BroadcastValueTest, ColumnTimesRow) {
  Graph g;
  const Var column = Const<int32_t>(g, {1, 2, 3, 4}, {4, 1});
  const Var row = Const<int32_t>(g, {1, 2, 3, 4, 5}, {1, 5});
  EXPECT_TRUE(HasValue<int32_t>(op::Mul(column, row),
                                {1, 2, 3, 4, 5, 2, 4, 6, 8, 10, 3, 6, 9, 12, 15, 4, 8, 12, 16, 20},
                                {4, 5}));
}

TEST(BroadcastValueTest, BothSidesBroadcastInThreeDims) {
  Graph g;
  const Var a = Const<int64_t>(g, {1, 2, 3, 4, 5, 6}, {2, 1, 3});
  const Var b = Const<int64_t>(g, {10, 20}, {2, 1});
  EXPECT_TRUE(HasValue<int64_t>(op::Add(a, b), {11, 12, 13, 21, 22, 23, 14, 15, 16, 24, 25, 26},
                                {2, 2, 3}));
  EXPECT_TRUE(
      HasValue<int64_t>(op::Sub(b, a), {9, 8, 7, 19, 18, 17, 6, 5, 4, 16, 15, 14}, {2, 2, 3}));
}

TEST(BroadcastValueTest, ScalarWithTensor) {
  Graph g;
  const Var ten = Scalar<double>(g, 10);
  const Var v = Const<double>(g, {1, 2, 4}, {3});
  EXPECT_TRUE(HasValue<double>(op::Sub(ten, v), {9, 8, 6}, {3}));
  EXPECT_TRUE(HasValue<double>(op::Sub(v, ten), {-9, -8, -6}, {3}));
  EXPECT_TRUE(HasValue<double>(op::Div(ten, v), {10, 5, 2.5}, {3}));
  EXPECT_TRUE(HasValue<double>(op::Mul(v, ten), {10, 20, 40}, {3}));
}

TEST(BroadcastValueTest, RankZero) {
  Graph g;
  const Var two = Scalar<int16_t>(g, 2);
  const Var three = Scalar<int16_t>(g, 3);
  EXPECT_TRUE(HasValue<int16_t>(op::Add(two, three), {5}, {}));
  EXPECT_TRUE(HasValue<int16_t>(op::Sub(two, three), {-1}, {}));
  EXPECT_TRUE(HasValue<int16_t>(op::Mul(two, three), {6}, {}));
  EXPECT_TRUE(HasValue<int16_t>(op::Div(three, two), {1}, {}));
  // A rank-0 tensor with a [1] tensor gives [1].
  EXPECT_TRUE(HasValue<int16_t>(op::Add(two, Const<int16_t>(g, {7}, {1})), {9}, {1}));
}

TEST(BroadcastValueTest, ZeroSizedResult) {
  Graph g;
  const Var empty = Const<float>(g, {}, {0, 3});
  const Var row = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_TRUE(HasValue<float>(op::Add(empty, row), {}, {0, 3}));
}

// --- Every numeric type -----------------------------------------------------------------------

template <class T>
std::vector<T> Values(std::initializer_list<int> ints) {
  std::vector<T> out;
  for (int v : ints) {
    if constexpr (kIsHalf<T>) {
      out.push_back(T::FromFloat(static_cast<float>(v)));
    } else {
      out.push_back(static_cast<T>(v));
    }
  }
  return out;
}

template <class T>
class NumericTypeTest : public ::testing::Test {};

using NumericTypes = ::testing::Types<uint8_t, uint16_t, uint32_t, uint64_t, int8_t, int16_t,
                                      int32_t, int64_t, Float16, float, double, BFloat16>;
TYPED_TEST_SUITE(NumericTypeTest, NumericTypes);

TYPED_TEST(NumericTypeTest, ArithmeticOnSmallValues) {
  using T = TypeParam;
  Graph g;
  const Var a = Const<T>(g, Values<T>({1, 2, 3, 8, 9, 12}), {2, 3});
  const Var b = Const<T>(g, Values<T>({4, 5, 6}), {3});
  EXPECT_TRUE(HasValue<T>(op::Add(a, b), Values<T>({5, 7, 9, 12, 14, 18}), {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::Sub(a, Const<T>(g, Values<T>({1, 2, 3}), {3})),
                          Values<T>({0, 0, 0, 7, 7, 9}), {2, 3}));
  EXPECT_TRUE(HasValue<T>(op::Mul(a, b), Values<T>({4, 10, 18, 32, 45, 72}), {2, 3}));
  const Var dividend = Const<T>(g, Values<T>({4, 6, 9, 8, 10, 12}), {2, 3});
  EXPECT_TRUE(HasValue<T>(op::Div(dividend, Const<T>(g, Values<T>({1, 2, 3}), {3})),
                          Values<T>({4, 3, 3, 8, 5, 4}), {2, 3}));
}

TEST(Float16ValueTest, AddRoundsToHalf) {
  Graph g;
  // 1 + 2 = 3, 0.5 + 1 = 1.5, 2048 + 1 = 2049 rounds (to even) to 2048.
  const Var a = Const<Float16>(g, {F16(0x3C00), F16(0x3800), F16(0x6800)}, {3});
  const Var b = Const<Float16>(g, {F16(0x4000), F16(0x3C00), F16(0x3C00)}, {3});
  EXPECT_TRUE(HasValue<Float16>(op::Add(a, b), {F16(0x4200), F16(0x3E00), F16(0x6800)}, {3}));
  // 65504 (the largest half) + 65504 overflows to +inf.
  const Var max = Const<Float16>(g, {F16(0x7BFF)}, {1});
  EXPECT_TRUE(HasValue<Float16>(op::Add(max, max), {F16(0x7C00)}, {1}));
}

TEST(BFloat16ValueTest, AddRoundsToBFloat16) {
  Graph g;
  // 1 + 2 = 3, 0.5 + 1 = 1.5, 256 + 1 = 257 rounds (to even) to 256.
  const Var a = Const<BFloat16>(g, {BF16(0x3F80), BF16(0x3F00), BF16(0x4380)}, {3});
  const Var b = Const<BFloat16>(g, {BF16(0x4000), BF16(0x3F80), BF16(0x3F80)}, {3});
  EXPECT_TRUE(HasValue<BFloat16>(op::Add(a, b), {BF16(0x4040), BF16(0x3FC0), BF16(0x4380)}, {3}));
}

// --- Integer semantics ------------------------------------------------------------------------

TEST(IntegerValueTest, Wraparound) {
  Graph g;
  EXPECT_TRUE(HasValue<int8_t>(op::Add(Scalar<int8_t>(g, 127), Scalar<int8_t>(g, 1)), {-128}, {}));
  EXPECT_TRUE(HasValue<int8_t>(op::Sub(Scalar<int8_t>(g, -128), Scalar<int8_t>(g, 1)), {127}, {}));
  EXPECT_TRUE(HasValue<uint8_t>(op::Sub(Scalar<uint8_t>(g, 0), Scalar<uint8_t>(g, 1)), {255}, {}));
  EXPECT_TRUE(HasValue<uint8_t>(op::Mul(Scalar<uint8_t>(g, 16), Scalar<uint8_t>(g, 16)), {0}, {}));
  EXPECT_TRUE(
      HasValue<int16_t>(op::Mul(Scalar<int16_t>(g, 200), Scalar<int16_t>(g, 200)), {-25536}, {}));
  EXPECT_TRUE(
      HasValue<uint16_t>(op::Add(Scalar<uint16_t>(g, 65535), Scalar<uint16_t>(g, 2)), {1}, {}));
  EXPECT_TRUE(HasValue<int32_t>(op::Add(Scalar<int32_t>(g, 2147483647), Scalar<int32_t>(g, 1)),
                                {-2147483647 - 1}, {}));
  EXPECT_TRUE(HasValue<uint32_t>(op::Sub(Scalar<uint32_t>(g, 1), Scalar<uint32_t>(g, 2)),
                                 {4294967295u}, {}));
  EXPECT_TRUE(
      HasValue<int64_t>(op::Add(Scalar<int64_t>(g, 9223372036854775807), Scalar<int64_t>(g, 1)),
                        {std::numeric_limits<int64_t>::min()}, {}));
  EXPECT_TRUE(HasValue<uint64_t>(op::Sub(Scalar<uint64_t>(g, 0), Scalar<uint64_t>(g, 1)),
                                 {18446744073709551615u}, {}));
}

TEST(IntegerValueTest, DivisionTruncatesTowardZero) {
  Graph g;
  const Var a = Const<int32_t>(g, {-7, 7, -7, 7, 6, -1}, {6});
  const Var b = Const<int32_t>(g, {2, 2, -2, -2, 3, 2}, {6});
  EXPECT_TRUE(HasValue<int32_t>(op::Div(a, b), {-3, 3, 3, -3, 2, 0}, {6}));
  const Var c = Const<int8_t>(g, {-128, 127, -9}, {3});
  EXPECT_TRUE(HasValue<int8_t>(op::Div(c, Scalar<int8_t>(g, 4)), {-32, 31, -2}, {3}));
  EXPECT_TRUE(HasValue<uint8_t>(op::Div(Const<uint8_t>(g, {255, 7}, {2}), Scalar<uint8_t>(g, 2)),
                                {127, 3}, {2}));
}

TEST(IntegerValueTest, DivisionByZeroHasTypeButNoValue) {
  Graph g;
  const Var a = Const<int32_t>(g, {6, 7}, {2});
  const Var b = Const<int32_t>(g, {2, 0}, {2});
  const Var quotient = op::Div(a, b);
  EXPECT_TRUE(HasTypeButNoValue(quotient, DataType::kInt32, {2}));
  // A zero that is broadcast, and an unsigned type.
  EXPECT_TRUE(HasTypeButNoValue(op::Div(Const<uint64_t>(g, {1, 2, 3}, {3}), Scalar<uint64_t>(g, 0)),
                                DataType::kUint64, {3}));
  // Downstream ops are typed, and have no value either.
  EXPECT_TRUE(HasTypeButNoValue(op::Add(quotient, a), DataType::kInt32, {2}));
  // The divisor's other uses are unaffected.
  EXPECT_TRUE(HasValue<int32_t>(op::Mul(a, b), {12, 0}, {2}));
}

TEST(IntegerValueTest, OverflowingQuotientDoesNotCrash) {
  Graph g;
  const Var q =
      op::Div(Scalar<int32_t>(g, std::numeric_limits<int32_t>::min()), Scalar<int32_t>(g, -1));
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q.dtype(), DataType::kInt32);
  EXPECT_EQ(q.shape(), std::optional<Dims>(Dims{}));
}

// --- Floating point ---------------------------------------------------------------------------

TEST(FloatValueTest, DivisionByZeroFollowsIeee) {
  Graph g;
  const Var a = Const<float>(g, {1, -1, 0}, {3});
  const Var zeros = Const<float>(g, {0, 0, 0}, {3});
  EXPECT_TRUE(HasValue<float>(op::Div(a, zeros), {kInf, -kInf, kNaN}, {3}));
  const Var d = Const<double>(g, {2, -3}, {2});
  EXPECT_TRUE(HasValue<double>(
      op::Div(d, Scalar<double>(g, 0)),
      {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}, {2}));
}

TEST(FloatValueTest, NaNPropagates) {
  Graph g;
  const Var a = Const<float>(g, {kNaN, 1}, {2});
  EXPECT_TRUE(HasValue<float>(op::Add(a, Scalar<float>(g, 1)), {kNaN, 2}, {2}));
  EXPECT_TRUE(HasValue<float>(op::Sub(Const<float>(g, {kInf}, {1}), Const<float>(g, {kInf}, {1})),
                              {kNaN}, {1}));
}

// --- Neg and Relu -----------------------------------------------------------------------------

TEST(NegValueTest, IntegersWrapAtTheMinimum) {
  Graph g;
  const Var x = Const<int32_t>(
      g, {1, -2, 0, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}, {5});
  EXPECT_TRUE(HasValue<int32_t>(
      op::Neg(x),
      {-1, 2, 0, std::numeric_limits<int32_t>::min(), -std::numeric_limits<int32_t>::max()}, {5}));
  EXPECT_TRUE(
      HasValue<int8_t>(op::Neg(Const<int8_t>(g, {-128, 127, -5}, {3})), {-128, -127, 5}, {3}));
  EXPECT_TRUE(HasValue<int64_t>(op::Neg(Scalar<int64_t>(g, std::numeric_limits<int64_t>::min())),
                                {std::numeric_limits<int64_t>::min()}, {}));
}

TEST(NegValueTest, FloatingPoint) {
  Graph g;
  EXPECT_TRUE(HasValue<float>(op::Neg(Const<float>(g, {1.5f, -2, kInf, kNaN}, {2, 2})),
                              {-1.5f, 2, -kInf, kNaN}, {2, 2}));
  const Var negated_zero = op::Neg(Scalar<double>(g, 0.0));
  ASSERT_TRUE(HasValue<double>(negated_zero, {0.0}, {}));
  EXPECT_TRUE(std::signbit(negated_zero.value()->data<double>()[0]));
  // 1.0 and -2.0 as float16 and bfloat16.
  EXPECT_TRUE(HasValue<Float16>(op::Neg(Const<Float16>(g, {F16(0x3C00), F16(0xC000)}, {2})),
                                {F16(0xBC00), F16(0x4000)}, {2}));
  EXPECT_TRUE(HasValue<BFloat16>(op::Neg(Const<BFloat16>(g, {BF16(0x3F80), BF16(0xC000)}, {2})),
                                 {BF16(0xBF80), BF16(0x4000)}, {2}));
}

TEST(ReluValueTest, FloatingPoint) {
  Graph g;
  const Var x = Const<float>(g, {-1, 0, 2.5f, kNaN, -kInf, kInf}, {6});
  EXPECT_TRUE(HasValue<float>(op::Relu(x), {0, 0, 2.5f, kNaN, 0, kInf}, {6}));
  EXPECT_TRUE(HasValue<Float16>(op::Relu(Const<Float16>(g, {F16(0xC000), F16(0x3800)}, {2})),
                                {F16(0x0000), F16(0x3800)}, {2}));
}

TEST(ReluValueTest, SignedIntegers) {
  Graph g;
  EXPECT_TRUE(HasValue<int8_t>(op::Relu(Const<int8_t>(g, {-128, -1, 0, 127}, {2, 2})),
                               {0, 0, 0, 127}, {2, 2}));
  EXPECT_TRUE(HasValue<int64_t>(op::Relu(Const<int64_t>(g, {-5, 5}, {2})), {0, 5}, {2}));
}

// --- MatMul -----------------------------------------------------------------------------------

TEST(MatMulValueTest, TwoDimensional) {
  Graph g;
  const Var a = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var b = Const<float>(g, {7, 8, 9, 10, 11, 12}, {3, 2});
  EXPECT_TRUE(HasValue<float>(op::MatMul(a, b), {58, 64, 139, 154}, {2, 2}));
  EXPECT_TRUE(HasValue<float>(op::MatMul(b, a), {39, 54, 69, 49, 68, 87, 59, 82, 105}, {3, 3}));
}

TEST(MatMulValueTest, IntegerTypes) {
  Graph g;
  const Var a = Const<int32_t>(g, {1, -2, 3, 4}, {2, 2});
  const Var b = Const<int32_t>(g, {5, 6, -7, 8}, {2, 2});
  EXPECT_TRUE(HasValue<int32_t>(op::MatMul(a, b), {19, -10, -13, 50}, {2, 2}));
  // uint32 sums wrap: 65536 * 65536 = 2^32 -> 0, plus 1 * 3 = 3.
  const Var c = Const<uint32_t>(g, {65536, 1}, {1, 2});
  const Var d = Const<uint32_t>(g, {65536, 3}, {2, 1});
  EXPECT_TRUE(HasValue<uint32_t>(op::MatMul(c, d), {3}, {1, 1}));
}

TEST(MatMulValueTest, BatchedWithBroadcastBatchDims) {
  Graph g;
  // [2,2,2] x [2,2]: B swaps the columns of each matrix of A.
  const Var a = Const<double>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  const Var swap = Const<double>(g, {0, 1, 1, 0}, {2, 2});
  EXPECT_TRUE(HasValue<double>(op::MatMul(a, swap), {2, 1, 4, 3, 6, 5, 8, 7}, {2, 2, 2}));

  // [2,1,2,2] x [3,2,2] -> [2,3,2,2]: A is {I, 2I}; B is {[[1,2],[3,4]], [[0,1],[1,0]], ones}.
  const Var identities = Const<int64_t>(g, {1, 0, 0, 1, 2, 0, 0, 2}, {2, 1, 2, 2});
  const Var matrices = Const<int64_t>(g, {1, 2, 3, 4, 0, 1, 1, 0, 1, 1, 1, 1}, {3, 2, 2});
  EXPECT_TRUE(HasValue<int64_t>(
      op::MatMul(identities, matrices),
      {1, 2, 3, 4, 0, 1, 1, 0, 1, 1, 1, 1, 2, 4, 6, 8, 0, 2, 2, 0, 2, 2, 2, 2}, {2, 3, 2, 2}));
}

TEST(MatMulValueTest, VectorTimesMatrix) {
  Graph g;
  const Var v = Const<float>(g, {1, 2, 3}, {3});
  const Var m = Const<float>(g, {7, 8, 9, 10, 11, 12}, {3, 2});
  EXPECT_TRUE(HasValue<float>(op::MatMul(v, m), {58, 64}, {2}));
  // A 1-D left operand against a stack of matrices: [2] x [2,2,3] -> [2,3].
  const Var ones = Const<float>(g, {1, 1}, {2});
  const Var stack = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3});
  EXPECT_TRUE(HasValue<float>(op::MatMul(ones, stack), {5, 7, 9, 17, 19, 21}, {2, 3}));
}

TEST(MatMulValueTest, MatrixTimesVector) {
  Graph g;
  const Var m = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var v = Const<float>(g, {1, 1, 2}, {3});
  EXPECT_TRUE(HasValue<float>(op::MatMul(m, v), {9, 21}, {2}));
  // A stack of matrices times a vector: [2,2,3] x [3] -> [2,2].
  const Var stack = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3});
  EXPECT_TRUE(HasValue<float>(op::MatMul(stack, v), {9, 21, 33, 45}, {2, 2}));
}

TEST(MatMulValueTest, VectorTimesVectorIsAScalar) {
  Graph g;
  const Var a = Const<int32_t>(g, {1, 2, 3}, {3});
  const Var b = Const<int32_t>(g, {4, 5, 6}, {3});
  EXPECT_TRUE(HasValue<int32_t>(op::MatMul(a, b), {32}, {}));
}

TEST(MatMulValueTest, EmptyInnerDimensionGivesZeros) {
  Graph g;
  const Var a = Const<float>(g, {}, {2, 0});
  const Var b = Const<float>(g, {}, {0, 3});
  EXPECT_TRUE(HasValue<float>(op::MatMul(a, b), {0, 0, 0, 0, 0, 0}, {2, 3}));
}

TEST(MatMulValueTest, HalfPrecision) {
  Graph g;
  // [1, 2] . [3, 4] = 11 (0x4980 in float16, 0x4130 in bfloat16).
  const Var a = Const<Float16>(g, {F16(0x3C00), F16(0x4000)}, {1, 2});
  const Var b = Const<Float16>(g, {F16(0x4200), F16(0x4400)}, {2, 1});
  EXPECT_TRUE(HasValue<Float16>(op::MatMul(a, b), {F16(0x4980)}, {1, 1}));
  const Var c = Const<BFloat16>(g, {BF16(0x3F80), BF16(0x4000)}, {2});
  const Var d = Const<BFloat16>(g, {BF16(0x4040), BF16(0x4080)}, {2});
  EXPECT_TRUE(HasValue<BFloat16>(op::MatMul(c, d), {BF16(0x4130)}, {}));
}

// --- Reshape and Identity share buffers -------------------------------------------------------

TEST(ReshapeValueTest, SharesTheInputBuffer) {
  Graph g;
  const Var data = Const<int32_t>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var r = op::Reshape(data, Const<int64_t>(g, {3, -1}, {2}));
  ASSERT_TRUE(HasValue<int32_t>(r, {1, 2, 3, 4, 5, 6}, {3, 2}));
  EXPECT_EQ(r.value()->buffer(), data.value()->buffer());
  EXPECT_NE(r.value()->buffer(), nullptr);
}

TEST(ReshapeValueTest, SharesAComputedBuffer) {
  Graph g;
  const Var sum = op::Add(Const<float>(g, {1, 2, 3, 4}, {4}), Scalar<float>(g, 1));
  const Var square = op::Reshape(sum, Const<int64_t>(g, {2, 2}, {2}), {.allowzero = 1});
  ASSERT_TRUE(HasValue<float>(square, {2, 3, 4, 5}, {2, 2}));
  EXPECT_EQ(square.value()->buffer(), sum.value()->buffer());
}

TEST(ReshapeValueTest, ZeroCopiesAndMinusOneInfers) {
  Graph g;
  const Var data = Const<uint8_t>(g, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 3, 2});
  EXPECT_TRUE(HasValue<uint8_t>(op::Reshape(data, Const<int64_t>(g, {0, -1}, {2})),
                                {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 6}));
  EXPECT_TRUE(
      HasValue<uint8_t>(op::Reshape(Scalar<uint8_t>(g, 7), Const<int64_t>(g, {1}, {1})), {7}, {1}));
}

TEST(IdentityValueTest, SharesTheInputBuffer) {
  Graph g;
  const Var x = op::Mul(Const<double>(g, {1.5, 2}, {2}), Scalar<double>(g, 2));
  const Var y = op::Identity(x);
  ASSERT_TRUE(HasValue<double>(y, {3, 4}, {2}));
  EXPECT_EQ(y.value()->buffer(), x.value()->buffer());
  const Var c = Const<bool>(g, {true, false}, {2});
  const Var z = op::Identity(c);
  ASSERT_TRUE(HasValue<bool>(z, {true, false}, {2}));
  EXPECT_EQ(z.value()->buffer(), c.value()->buffer());
}

// --- Cast -------------------------------------------------------------------------------------

TEST(CastValueTest, FloatToIntTruncatesTowardZero) {
  Graph g;
  const Var x = Const<float>(g, {2.7f, -2.7f, 0.5f, -0.5f, 100.0f}, {5});
  EXPECT_TRUE(HasValue<int32_t>(op::Cast(x, DataType::kInt32), {2, -2, 0, 0, 100}, {5}));
  EXPECT_TRUE(HasValue<int64_t>(op::Cast(Const<double>(g, {-3.99, 3.99}, {2}), DataType::kInt64),
                                {-3, 3}, {2}));
}

TEST(CastValueTest, FloatToIntTruncatesAndUndefinedCastsGetNoValue) {
  Graph g;
  EXPECT_TRUE(HasValue<int32_t>(
      op::Cast(Const<float>(g, {2.9f, -2.9f, 2147483520.0f}, {3}), DataType::kInt32),
      {2, -2, 2147483520}, {3}));
  // Out of range, NaN and infinities: ONNX leaves the result undefined and ONNX Runtime has no
  // single answer (it depends on the target and even on the tensor's length): no value.
  for (float v : {1e10f, -1e10f, kNaN, kInf, -kInf}) {
    EXPECT_TRUE(HasTypeButNoValue(op::Cast(Const<float>(g, {v}, {1}), DataType::kInt32),
                                  DataType::kInt32, {1}))
        << v;
  }
  // The same for narrow targets (ONNX Runtime wraps 300 to uint8 44 through int32, numpy
  // differs); what truncates into range converts.
  EXPECT_TRUE(HasValue<uint8_t>(op::Cast(Const<float>(g, {-0.5f, 255.9f}, {2}), DataType::kUint8),
                                {0, 255}, {2}));
  for (float v : {-1.5f, 300.0f}) {
    EXPECT_TRUE(HasTypeButNoValue(op::Cast(Const<float>(g, {v}, {1}), DataType::kUint8),
                                  DataType::kUint8, {1}))
        << v;
  }
}

TEST(CastValueTest, ToBool) {
  Graph g;
  EXPECT_TRUE(HasValue<bool>(op::Cast(Const<int32_t>(g, {0, 1, -1, 256}, {4}), DataType::kBool),
                             {false, true, true, true}, {4}));
  EXPECT_TRUE(
      HasValue<bool>(op::Cast(Const<float>(g, {0.0f, -0.0f, 0.5f, kNaN}, {4}), DataType::kBool),
                     {false, false, true, true}, {4}));
}

TEST(CastValueTest, FromBool) {
  Graph g;
  const Var b = Const<bool>(g, {true, false, true}, {3});
  EXPECT_TRUE(HasValue<float>(op::Cast(b, DataType::kFloat), {1, 0, 1}, {3}));
  EXPECT_TRUE(HasValue<int64_t>(op::Cast(b, DataType::kInt64), {1, 0, 1}, {3}));
  EXPECT_TRUE(HasValue<Float16>(op::Cast(b, DataType::kFloat16),
                                {F16(0x3C00), F16(0x0000), F16(0x3C00)}, {3}));
}

TEST(CastValueTest, NarrowingIntegersWrap) {
  Graph g;
  EXPECT_TRUE(
      HasValue<uint8_t>(op::Cast(Const<int64_t>(g, {300, -1, 256, 255}, {4}), DataType::kUint8),
                        {44, 255, 0, 255}, {4}));
  EXPECT_TRUE(HasValue<int8_t>(op::Cast(Const<int32_t>(g, {200, -129}, {2}), DataType::kInt8),
                               {-56, 127}, {2}));
  EXPECT_TRUE(HasValue<int32_t>(op::Cast(Const<uint32_t>(g, {4294967295u}, {1}), DataType::kInt32),
                                {-1}, {1}));
  EXPECT_TRUE(HasValue<uint64_t>(op::Cast(Const<int8_t>(g, {-1}, {1}), DataType::kUint64),
                                 {18446744073709551615u}, {1}));
}

TEST(CastValueTest, IntegerToFloatingPoint) {
  Graph g;
  EXPECT_TRUE(
      HasValue<double>(op::Cast(Const<int64_t>(g, {9007199254740992, -3}, {2}), DataType::kDouble),
                       {9007199254740992.0, -3.0}, {2}));
  EXPECT_TRUE(
      HasValue<float>(op::Cast(Const<uint8_t>(g, {255}, {1}), DataType::kFloat), {255}, {1}));
}

TEST(CastValueTest, FloatToFloat16AndBackRoundTripsRepresentableValues) {
  Graph g;
  const std::vector<float> values = {1.0f, 0.5f, -2.0f, 65504.0f, 6.103515625e-05f, 0.0f};
  const Var x = Const<float>(g, values, {6});
  const Var half = op::Cast(x, DataType::kFloat16);
  EXPECT_TRUE(HasValue<Float16>(
      half, {F16(0x3C00), F16(0x3800), F16(0xC000), F16(0x7BFF), F16(0x0400), F16(0x0000)}, {6}));
  EXPECT_TRUE(HasValue<float>(op::Cast(half, DataType::kFloat), values, {6}));
  const Var bf = op::Cast(x, DataType::kBfloat16);
  EXPECT_TRUE(HasValue<BFloat16>(
      bf, {BF16(0x3F80), BF16(0x3F00), BF16(0xC000), BF16(0x4780), BF16(0x3880), BF16(0x0000)},
      {6}));
  // 65504 is not a bfloat16 (8 significant bits): it rounds to 65536.
  EXPECT_TRUE(HasValue<float>(op::Cast(bf, DataType::kFloat),
                              {1.0f, 0.5f, -2.0f, 65536.0f, 6.103515625e-05f, 0.0f}, {6}));
}

TEST(CastValueTest, FloatToHalfRoundsToNearestEven) {
  Graph g;
  // Midpoints go to the even neighbour; subnormal halves (multiples of 2^-24) likewise.
  const Var x = Const<float>(g,
                             {std::ldexp(1.0f, -24), std::ldexp(1.0f, -25), std::ldexp(3.0f, -25),
                              std::ldexp(1023.0f, -24), 1.0f + std::ldexp(1.0f, -11),
                              1.0f + std::ldexp(3.0f, -11), 65519.0f, 65520.0f},
                             {8});
  EXPECT_TRUE(HasValue<Float16>(op::Cast(x, DataType::kFloat16),
                                {F16(0x0001), F16(0x0000), F16(0x0002), F16(0x03FF), F16(0x3C00),
                                 F16(0x3C02), F16(0x7BFF), F16(0x7C00)},
                                {8}));
  const Var y = Const<float>(g, {1.0f + std::ldexp(1.0f, -8), 1.0f + std::ldexp(3.0f, -8)}, {2});
  EXPECT_TRUE(
      HasValue<BFloat16>(op::Cast(y, DataType::kBfloat16), {BF16(0x3F80), BF16(0x3F82)}, {2}));
  const Var nan = op::Cast(Const<float>(g, {kNaN}, {1}), DataType::kBfloat16);
  ASSERT_TRUE(nan.value().has_value());
  EXPECT_TRUE(std::isnan(nan.value()->data<BFloat16>()[0].ToFloat()));
}

TEST(CastValueTest, FloatToFloat16Overflows) {
  Graph g;
  EXPECT_TRUE(HasValue<Float16>(op::Cast(Const<float>(g, {1e5f, -1e5f}, {2}), DataType::kFloat16),
                                {F16(0x7C00), F16(0xFC00)}, {2}));
}

TEST(CastValueTest, DoubleToFloatOverflowGivesInfinity) {
  Graph g;
  const Var x =
      Const<double>(g, {1e300, -1e300, 1.5, std::numeric_limits<double>::infinity()}, {4});
  EXPECT_TRUE(HasValue<float>(op::Cast(x, DataType::kFloat), {kInf, -kInf, 1.5f, kInf}, {4}));
}

// IEEE round to nearest: a double above FLT_MAX but less than half a float ulp (2^103) above it
// rounds to FLT_MAX; from FLT_MAX + 2^103 on it rounds to infinity.
TEST(CastValueTest, DoubleToFloatRoundsToFltMaxBelowTheOverflowThreshold) {
  Graph g;
  constexpr float kFltMax = std::numeric_limits<float>::max();
  const Var x = Const<double>(g, {3.4028235e38, -3.4028235e38, 3.4028236e38}, {3});
  EXPECT_TRUE(HasValue<float>(op::Cast(x, DataType::kFloat), {kFltMax, -kFltMax, kInf}, {3}));
}

// IEEE round to nearest from the exact double: 1 + 2^-11 + 2^-40 lies just above the midpoint
// of the float16 values 1 and 1 + 2^-10, so it rounds up (numpy's astype(float16) gives 0x3C01).
// Rounding to float first would make it the midpoint and round it to even (1.0).
TEST(CastValueTest, DoubleToFloat16RoundsOnce) {
  Graph g;
  const double just_above_midpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  const Var x = Const<double>(g, {just_above_midpoint, -just_above_midpoint}, {2});
  EXPECT_TRUE(HasValue<Float16>(op::Cast(x, DataType::kFloat16), {F16(0x3C01), F16(0xBC01)}, {2}));
}

TEST(CastValueTest, SameTypeKeepsTheValue) {
  Graph g;
  const Var x = Const<int16_t>(g, {-3, 4}, {2});
  EXPECT_TRUE(HasValue<int16_t>(op::Cast(x, DataType::kInt16), {-3, 4}, {2}));
}

TEST(CastValueTest, StringsConvertAsOnnxsReferenceDoes) {
  Graph g;
  // The shortest text that reads back as the same float (ONNX Runtime prints "0.60484552").
  EXPECT_TRUE(
      HasValue<std::string>(op::Cast(Const<float>(g, {1.5f, 0.60484552f}, {2}), DataType::kString),
                            {"1.5", "0.6048455"}, {2}));
  EXPECT_TRUE(HasValue<float>(
      op::Cast(Const<std::string>(g, {"1.5", "-1e3", "INF"}, {3}), DataType::kFloat),
      {1.5f, -1000.0f, kInf}, {3}));
  // Text that is not a number: ONNX leaves it undefined, so no value.
  EXPECT_TRUE(HasTypeButNoValue(op::Cast(Const<std::string>(g, {"Hello"}, {1}), DataType::kFloat),
                                DataType::kFloat, {1}));
}

// --- When values are (not) computed -----------------------------------------------------------

TEST(PropagationTest, ChainsThroughSeveralOps) {
  Graph g;
  const Var x = Const<float>(g, {-1, 2, -3, 4}, {2, 2});
  const Var w = Const<float>(g, {1, 1, 1, 1}, {2, 2});
  const Var y = op::Relu(op::Add(op::MatMul(x, w), Scalar<float>(g, 0.5f)));
  // x @ ones = [[1,1],[1,1]]; + 0.5 = 1.5 everywhere.
  EXPECT_TRUE(HasValue<float>(y, {1.5f, 1.5f, 1.5f, 1.5f}, {2, 2}));
  EXPECT_TRUE(HasValue<int32_t>(op::Cast(op::Neg(y), DataType::kInt32), {-1, -1, -1, -1}, {2, 2}));
}

TEST(PropagationTest, AnArgumentInputMeansNoValue) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var c = Const<float>(g, {1, 2}, {2});
  EXPECT_TRUE(HasTypeButNoValue(op::Add(x, c), DataType::kFloat, {2}));
  EXPECT_TRUE(HasTypeButNoValue(op::Identity(x), DataType::kFloat, {2}));
}

TEST(PropagationTest, ValuesAboveTheBudgetAreNotComputed) {
  Graph g(gg::GraphOptions{.max_value_bytes = 8});
  const Var small = Const<float>(g, {1, 2}, {2});
  EXPECT_TRUE(HasValue<float>(op::Add(small, small), {2, 4}, {2}));
  const Var large = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_TRUE(HasTypeButNoValue(op::Add(large, large), DataType::kFloat, {3}));
}

}  // namespace
