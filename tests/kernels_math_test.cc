// The math kernels (opset/kernels/math) through the public API, for what ONNX's node test data does
// not cover: every element type, broadcasting patterns against a naive reference, empty tensors,
// NaN, integer wraparound, rounding, the legacy (pre-opset-7) forms, omitted optional inputs,
// strings, the inputs ONNX leaves undefined (no value), the ones that make an op fail (a status),
// and the value budget.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::NanSensitiveDoubleEq;
using ::testing::Optional;
using ::testing::Pointwise;
using Doubles = std::vector<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// --- Building inputs and reading values ---------------------------------------------------------

// v as T: the 16-bit floats rounded from float, the others converted.
template <class T>
T Element(double v) {
  if constexpr (kIsHalf<T>) {
    return T::FromFloat(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
Var In(Graph& g, const Doubles& values, const Dims& shape) {
  std::vector<T> elements(values.size());
  std::transform(values.begin(), values.end(), elements.begin(), Element<T>);
  return g.constant(Tensor::from_vector<T>(std::move(elements), shape));
}

Var Strings(Graph& g, std::vector<std::string> values) {
  const Dims shape = {static_cast<int64_t>(values.size())};
  return g.constant(Tensor::from_vector<std::string>(std::move(values), shape));
}

// Appends the elements of `value` to `out` as doubles if its type is one of Ts.
template <class... Ts>
bool AppendAsDoubles(const Tensor& value, Doubles& out) {
  const auto append = [&](auto tag) {
    for (auto v : value.data<decltype(tag)>()) out.push_back(ToDouble(v));
    return true;
  };
  return ((value.dtype() == gg::DataTypeOf<Ts>::value && append(Ts{})) || ...);
}

// The var's value as doubles (any numeric or bool type); nullopt when it has none.
std::optional<Doubles> Numbers(const Var& var) {
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return std::nullopt;
  Doubles out;
  const bool numeric =
      AppendAsDoubles<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t,
                      uint16_t, uint32_t, uint64_t, bool>(*value, out);
  EXPECT_TRUE(numeric) << "not a number type: " << gg::DataTypeName(value->dtype());
  return out;
}

// The elements of a value of type T exactly (int64 beyond 2^53, bit patterns of 16-bit floats).
template <class T>
std::optional<std::vector<T>> Elements(const Var& var) {
  const std::optional<Tensor> value = var.value();
  if (!value.has_value() || value->dtype() != gg::DataTypeOf<T>::value) return std::nullopt;
  const auto data = value->data<T>();
  return std::vector<T>(data.begin(), data.end());
}

std::vector<uint16_t> Bits(const Var& var) {
  std::vector<uint16_t> out;
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return out;
  if (value->dtype() == DataType::kFloat16) {
    for (Float16 v : value->data<Float16>()) out.push_back(v.bits);
  } else if (value->dtype() == DataType::kBfloat16) {
    for (BFloat16 v : value->data<BFloat16>()) out.push_back(v.bits);
  }
  return out;
}

Dims ValueShape(const Var& var) {
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return {-1};
  return Dims(value->shape().begin(), value->shape().end());
}

// One output of the op `type` at `version` (0: the newest).
Var Node(const std::string& type, std::vector<Var> inputs,
         std::vector<gg::Attribute> attributes = {}, int version = 0) {
  std::vector<Var> outputs = gg::make_node(type, inputs, attributes, {.version = version});
  return outputs.empty() ? Var() : outputs[0];
}

// --- Every numeric type
// ---------------------------------------------------------------------------

template <class T>
class EveryNumericTypeTest : public ::testing::Test {};
using NumericTypes = ::testing::Types<uint8_t, uint16_t, uint32_t, uint64_t, int8_t, int16_t,
                                      int32_t, int64_t, Float16, BFloat16, float, double>;
TYPED_TEST_SUITE(EveryNumericTypeTest, NumericTypes);

TYPED_TEST(EveryNumericTypeTest, ArithmeticOnARowBroadcast) {
  using T = TypeParam;
  Graph g;
  const Var a = In<T>(g, {4, 2, 6, 8, 4, 3}, {2, 3});
  const Var b = In<T>(g, {2, 1, 3}, {3});
  EXPECT_THAT(Numbers(op::Add(a, b)), Optional(ElementsAre(6, 3, 9, 10, 5, 6)));
  EXPECT_THAT(Numbers(op::Sub(a, b)), Optional(ElementsAre(2, 1, 3, 6, 3, 0)));
  EXPECT_THAT(Numbers(op::Mul(a, b)), Optional(ElementsAre(8, 2, 18, 16, 4, 9)));
  EXPECT_THAT(Numbers(op::Div(a, b)), Optional(ElementsAre(2, 2, 2, 4, 4, 1)));
  const int64_t fmod = gg::IsFloatingPoint(gg::DataTypeOf<T>::value) ? 1 : 0;
  EXPECT_THAT(Numbers(op::Mod(a, In<T>(g, {3}, {}), {.fmod = fmod})),
              Optional(ElementsAre(1, 2, 0, 2, 1, 0)));
  EXPECT_THAT(Numbers(op::Max({a, b})), Optional(ElementsAre(4, 2, 6, 8, 4, 3)));
  EXPECT_THAT(Numbers(op::Min({a, b})), Optional(ElementsAre(2, 1, 3, 2, 1, 3)));
  EXPECT_THAT(ValueShape(op::Add(a, b)), ElementsAre(2, 3));
}

TYPED_TEST(EveryNumericTypeTest, ComparisonsGiveBools) {
  using T = TypeParam;
  Graph g;
  const Var a = In<T>(g, {4, 1, 3, 0}, {4});
  const Var b = In<T>(g, {1, 1, 5, 0}, {4});
  EXPECT_THAT(Numbers(op::Equal(a, b)), Optional(ElementsAre(0, 1, 0, 1)));
  EXPECT_THAT(Numbers(op::Greater(a, b)), Optional(ElementsAre(1, 0, 0, 0)));
  EXPECT_THAT(Numbers(op::GreaterOrEqual(a, b)), Optional(ElementsAre(1, 1, 0, 1)));
  EXPECT_THAT(Numbers(op::Less(a, b)), Optional(ElementsAre(0, 0, 1, 0)));
  EXPECT_THAT(Numbers(op::LessOrEqual(a, b)), Optional(ElementsAre(0, 1, 1, 1)));
  EXPECT_EQ(op::Equal(a, b).value()->dtype(), DataType::kBool);
}

TYPED_TEST(EveryNumericTypeTest, UnaryClipWhereAndCast) {
  using T = TypeParam;
  Graph g;
  const Var x = In<T>(g, {0, 5, 2, 7}, {2, 2});
  EXPECT_THAT(Numbers(op::Abs(x)), Optional(ElementsAre(0, 5, 2, 7)));
  EXPECT_THAT(Numbers(op::Sign(x)), Optional(ElementsAre(0, 1, 1, 1)));
  EXPECT_THAT(Numbers(op::Clip(x, In<T>(g, {1}, {}), In<T>(g, {6}, {}))),
              Optional(ElementsAre(1, 5, 2, 6)));
  EXPECT_THAT(Numbers(op::Clip(x, Var(), In<T>(g, {3}, {}))), Optional(ElementsAre(0, 3, 2, 3)));
  EXPECT_THAT(Numbers(op::Clip(x)), Optional(ElementsAre(0, 5, 2, 7)));
  const Var condition = g.constant(Tensor::from_vector<bool>({true, false}, {2}));
  EXPECT_THAT(Numbers(op::Where(condition, x, In<T>(g, {9}, {}))),
              Optional(ElementsAre(0, 9, 2, 9)));
  const Var wide = op::Cast(x, DataType::kDouble);
  EXPECT_THAT(Numbers(wide), Optional(ElementsAre(0, 5, 2, 7)));
  const Var back = op::Cast(wide, gg::DataTypeOf<T>::value);
  EXPECT_THAT(Numbers(back), Optional(ElementsAre(0, 5, 2, 7)));
  EXPECT_THAT(Numbers(op::CastLike(In<int32_t>(g, {3, 4}, {2}), x)), Optional(ElementsAre(3, 4)));
}

TYPED_TEST(EveryNumericTypeTest, EmptyTensors) {
  using T = TypeParam;
  Graph g;
  const Var empty = In<T>(g, {}, {0, 3});
  const Var row = In<T>(g, {1, 2, 3}, {3});
  for (const Var& v :
       {op::Add(empty, row), op::Max({row, empty}), op::Abs(empty),
        op::Clip(empty, Var(), In<T>(g, {1}, {})), op::Cast(empty, DataType::kString)}) {
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_TRUE(v.value().has_value());
    EXPECT_EQ(v.value()->size(), 0);
    EXPECT_THAT(ValueShape(v), ElementsAre(0, 3));
  }
}

// --- Broadcasting, against a naive reference -----------------------------------------------------

// Reference a - b under numpy broadcasting, by index arithmetic.
Doubles NaiveSub(const Doubles& a, const Dims& a_shape, const Doubles& b, const Dims& b_shape,
                 Dims& out_shape) {
  const size_t rank = std::max(a_shape.size(), b_shape.size());
  const auto dim = [rank](const Dims& s, size_t d) {
    return d + s.size() < rank ? int64_t{1} : s[d + s.size() - rank];
  };
  out_shape.assign(rank, 0);
  int64_t total = 1;
  for (size_t d = 0; d < rank; ++d) {
    total *= out_shape[d] = dim(a_shape, d) == 1 ? dim(b_shape, d) : dim(a_shape, d);
  }
  Doubles out;
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = rank; d-- > 0;) {
      const int64_t index = rest % out_shape[d];
      rest /= out_shape[d];
      if (dim(a_shape, d) != 1) ia += index * sa;
      if (dim(b_shape, d) != 1) ib += index * sb;
      sa *= dim(a_shape, d);
      sb *= dim(b_shape, d);
    }
    out.push_back(a[ia] - b[ib]);
  }
  return out;
}

Doubles Iota(int64_t n, double scale) {
  Doubles out;
  for (int64_t i = 0; i < n; ++i) out.push_back(static_cast<double>(i) * scale);
  return out;
}

TEST(BroadcastTest, MatchesANaiveReferenceOnEveryPattern) {
  const std::vector<std::pair<Dims, Dims>> cases = {{{2, 3, 4}, {2, 3, 4}},
                                                    {{2, 3, 4}, {4}},
                                                    {{2, 3, 4}, {3, 1}},
                                                    {{2, 1, 4}, {3, 1}},
                                                    {{4, 1}, {1, 5}},
                                                    {{}, {2, 3}},
                                                    {{2, 3}, {}},
                                                    {{1, 1}, {3}},
                                                    {{}, {}},
                                                    {{1}, {}},
                                                    {{3, 1, 2}, {1, 4, 1}},
                                                    {{2, 3, 1, 4}, {3, 1, 1}},
                                                    {{2, 0, 3}, {3}},
                                                    {{5, 1, 1, 7}, {5, 6, 1, 7}}};
  for (const auto& [a_shape, b_shape] : cases) {
    Graph g;
    int64_t na = 1, nb = 1;
    for (int64_t d : a_shape) na *= d;
    for (int64_t d : b_shape) nb *= d;
    const Doubles a = Iota(na, 10), b = Iota(nb, 1);
    Dims out_shape;
    const Doubles expected = NaiveSub(a, a_shape, b, b_shape, out_shape);
    const Var diff = op::Sub(In<double>(g, a, a_shape), In<double>(g, b, b_shape));
    EXPECT_THAT(Numbers(diff), Optional(ElementsAreArray(expected)))
        << ::testing::PrintToString(a_shape) << " - " << ::testing::PrintToString(b_shape);
    EXPECT_EQ(ValueShape(diff), out_shape);
  }
}

TEST(BroadcastTest, WhereBroadcastsThreeWays) {
  Graph g;
  const Var condition = g.constant(Tensor::from_vector<bool>({true, false}, {2, 1}));
  const Var x = In<int32_t>(g, {1, 2, 3}, {1, 3});
  const Var y = In<int32_t>(g, {-1}, {});
  EXPECT_THAT(Numbers(op::Where(condition, x, y)), Optional(ElementsAre(1, 2, 3, -1, -1, -1)));
  EXPECT_THAT(ValueShape(op::Where(condition, x, y)), ElementsAre(2, 3));
  const Var cond3 = g.constant(Tensor::from_vector<bool>({false, true, false}, {3}));
  EXPECT_THAT(Numbers(op::Where(cond3, In<int32_t>(g, {7}, {1}), In<int32_t>(g, {1, 2}, {2, 1}))),
              Optional(ElementsAre(1, 7, 1, 2, 7, 2)));
}

TEST(BroadcastTest, WhereOnStrings) {
  Graph g;
  const Var condition = g.constant(Tensor::from_vector<bool>({true, false, true}, {3}));
  const Var chosen = op::Where(condition, Strings(g, {"a", "b", "c"}), Strings(g, {"z"}));
  EXPECT_THAT(Elements<std::string>(chosen), Optional(ElementsAre("a", "z", "c")));
}

// One operand twice (x * x) reads it once; the result is what two operands give, also for the
// elements where f(x, x) is not x-like (0 / 0, NaN == NaN), for views and for mixed operands.
TEST(BroadcastTest, OneOperandTwiceMatchesTwoCopies) {
  Graph g;
  const Doubles elements = {0, -1.5, 2, kNaN, kInf, -0.0};
  const Var x = In<double>(g, elements, {2, 3});
  const Var copy = In<double>(g, elements, {2, 3});
  for (const char* op_type : {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"}) {
    const auto once = Numbers(Node(op_type, {x, x}, {}, 17));
    const auto twice = Numbers(Node(op_type, {x, copy}, {}, 17));
    ASSERT_TRUE(once.has_value() && twice.has_value()) << op_type;
    EXPECT_THAT(*once, ::testing::Pointwise(::testing::NanSensitiveDoubleEq(), *twice)) << op_type;
  }
  EXPECT_THAT(Numbers(gg::op::Equal(x, x)), Optional(ElementsAre(1, 1, 1, 0, 1, 1)));
  EXPECT_THAT(Numbers(gg::op::Div(x, x)),
              Optional(ElementsAre(::testing::IsNan(), 1, 1, ::testing::IsNan(), ::testing::IsNan(),
                                   ::testing::IsNan())));
  // The same buffer in another shape broadcasts as two operands.
  const Var row = gg::op::Reshape(x, In<int64_t>(g, {1, 6}, {2}));
  const Var column = gg::op::Reshape(x, In<int64_t>(g, {6, 1}, {2}));
  EXPECT_EQ(ValueShape(gg::op::Mul(row, column)), (Dims{6, 6}));
  EXPECT_THAT(Numbers(gg::op::Mul(row, row)),
              Optional(ElementsAre(0, 2.25, 4, ::testing::IsNan(), kInf, 0)));
}

TEST(BroadcastTest, LegacyBroadcastBeforeOpset7) {
  Graph g;
  const Var a = In<float>(g, Iota(24, 1), {2, 3, 4});
  // B matches A's dims from axis 1 on: B[j] is added along dim 1.
  const Var by_axis = Node("Add", {a, In<float>(g, {100, 200, 300}, {3})},
                           {{"broadcast", int64_t{1}}, {"axis", int64_t{1}}}, 6);
  ASSERT_THAT(Numbers(by_axis), Optional(::testing::SizeIs(24)));
  EXPECT_EQ((*Numbers(by_axis))[5], 205);   // [0,1,1]
  EXPECT_EQ((*Numbers(by_axis))[23], 323);  // [1,2,3]
  // Default axis: B is A's trailing dims.
  EXPECT_THAT(
      Numbers(Node("Mul", {In<float>(g, {1, 2, 3, 4}, {2, 2}), In<float>(g, {10, 100}, {2})},
                   {{"broadcast", int64_t{1}}}, 6)),
      Optional(ElementsAre(10, 200, 30, 400)));
  // A one-element B, of any rank.
  EXPECT_THAT(Numbers(Node("Sub", {In<float>(g, {1, 2}, {2}), In<float>(g, {1}, {1, 1})},
                           {{"broadcast", int64_t{1}}}, 1)),
              Optional(ElementsAre(0, 1)));
  // Same shapes without broadcasting.
  EXPECT_THAT(Numbers(Node("Div", {In<float>(g, {8, 9}, {2}), In<float>(g, {2, 3}, {2})}, {}, 6)),
              Optional(ElementsAre(4, 3)));
  EXPECT_THAT(Numbers(Node("Pow", {In<float>(g, {2, 3}, {2}), In<float>(g, {2}, {1})},
                           {{"broadcast", int64_t{1}}}, 1)),
              Optional(ElementsAre(4, 9)));
}

// --- Unary functions
// ------------------------------------------------------------------------------

struct RealFunction {
  const char* op;
  double (*reference)(double);
  Doubles inputs;
  bool bfloat16;  // whether opset 17 allows bfloat16
};

const std::vector<RealFunction>& RealFunctions() {
  static const auto* functions = new std::vector<RealFunction>{
      {"Sqrt", [](double x) { return std::sqrt(x); }, {0, 0.25, 2, 9, -1}, true},
      {"Exp", [](double x) { return std::exp(x); }, {-2, 0, 0.5, 3}, true},
      {"Log", [](double x) { return std::log(x); }, {0.5, 1, 10, 0, -1}, true},
      {"Reciprocal", [](double x) { return 1 / x; }, {-4, 0.5, 8}, true},
      {"Ceil", [](double x) { return std::ceil(x); }, {-1.5, -0.25, 0.25, 2}, true},
      {"Floor", [](double x) { return std::floor(x); }, {-1.5, -0.25, 0.25, 2}, true},
      {"Tanh", [](double x) { return std::tanh(x); }, {-2, 0, 0.5}, true},
      {"Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, {-100, -2, 0, 3, 100}, true},
      {"Erf", [](double x) { return std::erf(x); }, {-1, 0, 0.5, 3}, true},
      {"Sin", [](double x) { return std::sin(x); }, {-2, 0, 0.5, 3}, false},
      {"Cos", [](double x) { return std::cos(x); }, {-2, 0, 0.5, 3}, false},
      {"Tan", [](double x) { return std::tan(x); }, {-1, 0, 0.5}, false},
      {"Asin", [](double x) { return std::asin(x); }, {-0.9, 0, 0.5, 2}, false},
      {"Acos", [](double x) { return std::acos(x); }, {-0.9, 0, 0.5, 2}, false},
      {"Atan", [](double x) { return std::atan(x); }, {-9, 0, 0.5}, false},
      {"Sinh", [](double x) { return std::sinh(x); }, {-2, 0, 0.5}, false},
      {"Cosh", [](double x) { return std::cosh(x); }, {-2, 0, 0.5}, false},
      {"Asinh", [](double x) { return std::asinh(x); }, {-2, 0, 0.5}, false},
      {"Acosh", [](double x) { return std::acosh(x); }, {1, 2, 0.5}, false},
      {"Atanh", [](double x) { return std::atanh(x); }, {-0.5, 0, 0.9, 1}, false},
      {"Softplus", [](double x) { return std::log1p(std::exp(x)); }, {-100, -1, 0, 2, 100}, false},
      {"Softsign", [](double x) { return x / (1 + std::fabs(x)); }, {-3, 0, 1}, false},
      {"HardSwish",
       [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); },
       {-4, -1, 0, 2, 5},
       false},
  };
  return *functions;
}

// Close to the reference computed in double (relative to the type's precision); NaN where it is.
template <class T>
void ExpectRealFunction(const RealFunction& f, double relative) {
  Graph g;
  const Var y = Node(f.op, {In<T>(g, f.inputs, {static_cast<int64_t>(f.inputs.size())})});
  ASSERT_TRUE(y.ok()) << f.op << ": " << y.status();
  const std::optional<Doubles> got = Numbers(y);
  ASSERT_TRUE(got.has_value()) << f.op << " has no value";
  const Doubles rounded_inputs =
      *Numbers(In<T>(g, f.inputs, {static_cast<int64_t>(f.inputs.size())}));
  for (size_t i = 0; i < f.inputs.size(); ++i) {
    const double want = f.reference(rounded_inputs[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan((*got)[i])) << f.op << "(" << f.inputs[i] << ") = " << (*got)[i];
    } else if (std::isinf(want)) {
      EXPECT_EQ((*got)[i], want) << f.op << "(" << f.inputs[i] << ")";
    } else {
      EXPECT_NEAR((*got)[i], want, relative * std::max(1.0, std::fabs(want)) + 1e-30)
          << f.op << "(" << f.inputs[i] << ")";
    }
  }
}

TEST(UnaryTest, RealFunctionsInEveryFloatingPointType) {
  for (const RealFunction& f : RealFunctions()) {
    ExpectRealFunction<double>(f, 1e-12);
    ExpectRealFunction<float>(f, 1e-6);
    ExpectRealFunction<Float16>(f, 1e-3);
    if (f.bfloat16) ExpectRealFunction<BFloat16>(f, 8e-3);
  }
}

TEST(UnaryTest, RoundsHalfToEven) {
  Graph g;
  const Var x = In<float>(
      g, {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.4, 4194304.5, kNaN, -kInf}, {11});
  const Var y = op::Round(x);
  EXPECT_THAT(Numbers(y),
              Optional(Pointwise(NanSensitiveDoubleEq(),
                                 Doubles{0, 2, 2, -0.0, -2, -2, 0, -0.0, 4194304, kNaN, -kInf})));
  EXPECT_TRUE(std::signbit((*Numbers(y))[3]));  // -0.5 rounds to -0
  EXPECT_THAT(Bits(op::Round(In<Float16>(g, {2.5, 3.5}, {2}))), ElementsAre(0x4000, 0x4400));
}

TEST(UnaryTest, SignAbsNegOfSpecialValues) {
  Graph g;
  const Var x = In<double>(g, {kNaN, -0.0, 3, -kInf}, {4});
  EXPECT_THAT(Numbers(op::Sign(x)),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, 0, 1, -1})));
  EXPECT_THAT(Numbers(op::Abs(x)),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, 0, 3, kInf})));
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  const Var ints = g.constant(Tensor::from_vector<int32_t>({kMin, -5, 0, 7}, {4}));
  EXPECT_THAT(Elements<int32_t>(op::Abs(ints)), Optional(ElementsAre(kMin, 5, 0, 7)));  // wraps
  EXPECT_THAT(Elements<int32_t>(op::Neg(ints)), Optional(ElementsAre(kMin, 5, 0, -7)));
  EXPECT_THAT(Numbers(op::Sign(ints)), Optional(ElementsAre(-1, -1, 0, 1)));
  // ONNX Runtime's float16 Sign makes NaN 0 (its float and double ones keep NaN): no value.
  EXPECT_TRUE(HasNoValue(op::Sign(In<Float16>(g, {1, kNaN}, {2}))));
  EXPECT_THAT(Numbers(op::Sign(In<Float16>(g, {-2, 0}, {2}))), Optional(ElementsAre(-1, 0)));
  EXPECT_THAT(Numbers(op::Abs(In<uint8_t>(g, {255, 0}, {2}))), Optional(ElementsAre(255, 0)));
}

// As ONNX's reference: erf rounded to float, truncated (erf(4) = 0.99999998 is 1 in float).
TEST(UnaryTest, ErfOfIntegersTruncates) {
  Graph g;
  EXPECT_THAT(Numbers(op::Erf(In<int32_t>(g, {0, 1, 3, 4, 5, 6, -7, 100}, {8}))),
              Optional(ElementsAre(0, 0, 0, 1, 1, 1, -1, 1)));
  EXPECT_THAT(Numbers(op::Erf(In<uint8_t>(g, {0, 200}, {2}))), Optional(ElementsAre(0, 1)));
}

TEST(UnaryTest, IsNaNIsInfAndNot) {
  Graph g;
  const Var x = In<float>(g, {kNaN, kInf, -kInf, 1}, {4});
  EXPECT_THAT(Numbers(op::IsNaN(x)), Optional(ElementsAre(1, 0, 0, 0)));
  EXPECT_THAT(Numbers(op::IsInf(x)), Optional(ElementsAre(0, 1, 1, 0)));
  EXPECT_THAT(Numbers(op::IsInf(x, {.detect_negative = 0})), Optional(ElementsAre(0, 1, 0, 0)));
  EXPECT_THAT(Numbers(op::IsInf(x, {.detect_positive = 0})), Optional(ElementsAre(0, 0, 1, 0)));
  EXPECT_THAT(Numbers(op::IsNaN(In<BFloat16>(g, {kNaN, 1}, {2}))), Optional(ElementsAre(1, 0)));
  const Var b = g.constant(Tensor::from_vector<bool>({true, false}, {2}));
  EXPECT_THAT(Numbers(op::Not(b)), Optional(ElementsAre(0, 1)));
}

// --- Activations
// ----------------------------------------------------------------------------------

TEST(ActivationTest, AttributesAndDefaults) {
  Graph g;
  const Doubles xs = {-2, -0.5, 0, 1.5};
  const Var x = In<double>(g, xs, {4});
  const auto each = [&](auto f) {
    Doubles out;
    for (double v : xs) out.push_back(f(v));
    return out;
  };
  const auto near = [](const Doubles& want) {
    return Optional(Pointwise(NanSensitiveDoubleEq(), want));
  };
  EXPECT_THAT(Numbers(op::Relu(x)), near(each([](double v) { return std::max(v, 0.0); })));
  EXPECT_THAT(Numbers(op::LeakyRelu(x)),
              near(each([](double v) { return v < 0 ? 0.01f * v : v; })));
  EXPECT_THAT(Numbers(op::LeakyRelu(x, {.alpha = 0.5f})),
              near(each([](double v) { return v < 0 ? 0.5 * v : v; })));
  EXPECT_THAT(Numbers(op::Elu(x, {.alpha = 2})),
              near(each([](double v) { return v < 0 ? 2 * std::expm1(v) : v; })));
  EXPECT_THAT(Numbers(op::ThresholdedRelu(x, {.alpha = 0})),
              near(each([](double v) { return v > 0 ? v : 0; })));
  EXPECT_THAT(Numbers(op::HardSigmoid(x)),
              near(each([](double v) { return std::clamp(0.2f * v + 0.5f, 0.0, 1.0); })));
  EXPECT_THAT(Numbers(op::Shrink(x, {.bias = 0.25f, .lambd = 1})),
              near(each([](double v) { return v < -1 ? v + 0.25 : (v > 1 ? v - 0.25 : 0); })));
  const double alpha = 1.67326319f, gamma = 1.05070102f;  // the schema's defaults, floats
  EXPECT_THAT(Numbers(op::Selu(x)),
              near(each([&](double v) { return gamma * (v > 0 ? v : alpha * std::expm1(v)); })));
  const Var f = In<float>(g, {-2, 0.5}, {2});
  EXPECT_THAT(Numbers(op::Celu(f, {.alpha = 2})),
              Optional(ElementsAre(::testing::DoubleNear(2 * std::expm1(-1.0f), 1e-6), 0.5)));
}

TEST(ActivationTest, NaNStaysNaNExceptInConstantBranches) {
  Graph g;
  const Var nan = In<float>(g, {kNaN}, {1});
  for (const char* name : {"Relu", "LeakyRelu", "Elu", "Selu", "HardSigmoid", "HardSwish",
                           "Sigmoid", "Softplus", "Softsign", "Celu"}) {
    const std::optional<Doubles> y = Numbers(Node(name, {nan}));
    ASSERT_TRUE(y.has_value()) << name;
    EXPECT_TRUE(std::isnan((*y)[0])) << name;
  }
  EXPECT_THAT(Numbers(op::ThresholdedRelu(nan)), Optional(ElementsAre(0)));
  EXPECT_THAT(Numbers(op::Shrink(nan)), Optional(ElementsAre(0)));
}

TEST(ActivationTest, ReluAndPReluOnIntegers) {
  Graph g;
  EXPECT_THAT(Numbers(op::Relu(In<int8_t>(g, {-128, -1, 0, 127}, {4}))),
              Optional(ElementsAre(0, 0, 0, 127)));
  // The slope broadcasts to X ([3,1] over [2,3,2]); integer products wrap.
  const Var x = In<int32_t>(g, {-1, 2, -3, 4, -5, 6, 7, -8, 9, -10, 11, -2147483648.0}, {2, 3, 2});
  const Var slope = In<int32_t>(g, {2, 3, 4}, {3, 1});
  EXPECT_THAT(Numbers(op::PRelu(x, slope)),
              Optional(ElementsAre(-2, 2, -9, 4, -20, 6, 7, -16, 9, -30, 11, 0)));
  EXPECT_THAT(Numbers(op::PRelu(In<uint32_t>(g, {5, 0}, {2}), In<uint32_t>(g, {3}, {1}))),
              Optional(ElementsAre(5, 0)));
  EXPECT_THAT(Numbers(op::PRelu(In<Float16>(g, {-2, 2}, {2}), In<Float16>(g, {0.25}, {}))),
              Optional(ElementsAre(-0.5, 2)));
}

TEST(ActivationTest, ShrinkOfIntegers) {
  Graph g;
  EXPECT_THAT(Numbers(op::Shrink(In<int32_t>(g, {-5, -1, 0, 2, 16777217}, {5}),
                                 {.bias = 1.5f, .lambd = 1})),
              Optional(ElementsAre(-3, 0, 0, 0, 16777215)));
  // 127 - (-10) is outside int8: ONNX leaves it undefined.
  EXPECT_TRUE(HasNoValue(op::Shrink(In<int8_t>(g, {127}, {1}), {.bias = -10, .lambd = 1})));
}

// --- Binary arithmetic
// ------------------------------------------------------------------------------

TEST(ArithmeticTest, IntegersWrap) {
  Graph g;
  EXPECT_THAT(Numbers(op::Add(In<int8_t>(g, {127, -128}, {2}), In<int8_t>(g, {1, -1}, {2}))),
              Optional(ElementsAre(-128, 127)));
  EXPECT_THAT(Numbers(op::Mul(In<uint16_t>(g, {256}, {1}), In<uint16_t>(g, {256}, {1}))),
              Optional(ElementsAre(0)));
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  EXPECT_THAT(Elements<int64_t>(op::Sub(g.constant(Tensor::scalar<int64_t>(kMin)),
                                        g.constant(Tensor::scalar<int64_t>(1)))),
              Optional(ElementsAre(std::numeric_limits<int64_t>::max())));
  EXPECT_THAT(Elements<int32_t>(op::Div(In<int32_t>(g, {-2147483648.0, -7, 7}, {3}),
                                        In<int32_t>(g, {-1, 2, -2}, {3}))),
              Optional(ElementsAre(std::numeric_limits<int32_t>::min(), -3, -3)));
}

// Opset 18's bitwise ops, in the operands' own width (two's complement), broadcasting.
TEST(ArithmeticTest, BitwiseOpsOfEveryWidth) {
  Graph g;
  const Var a = In<int8_t>(g, {12, -1, -128}, {3});
  const Var b = In<int8_t>(g, {10}, {1});
  EXPECT_THAT(Numbers(Node("BitwiseAnd", {a, b}, {}, 18)), Optional(ElementsAre(8, 10, 0)));
  EXPECT_THAT(Numbers(Node("BitwiseOr", {a, b})), Optional(ElementsAre(14, -1, -118)));
  EXPECT_THAT(Numbers(Node("BitwiseXor", {a, b})), Optional(ElementsAre(6, -11, -118)));
  EXPECT_THAT(Numbers(Node("BitwiseNot", {a})), Optional(ElementsAre(-13, 0, 127)));
  EXPECT_THAT(Numbers(Node("BitwiseNot", {In<uint16_t>(g, {0, 65535}, {2})})),
              Optional(ElementsAre(65535, 0)));
  constexpr uint64_t kHigh = uint64_t{1} << 63;
  EXPECT_THAT(
      Elements<uint64_t>(Node("BitwiseXor", {g.constant(Tensor::scalar<uint64_t>(kHigh | 5)),
                                             g.constant(Tensor::scalar<uint64_t>(kHigh))})),
      Optional(ElementsAre(uint64_t{5})));
  EXPECT_FALSE(Node("BitwiseAnd", {In<float>(g, {1}, {1}), In<float>(g, {1}, {1})}).ok());
  EXPECT_FALSE(Node("BitwiseAnd", {a, b}, {}, 17).ok());  // no such op before 18
}

TEST(ArithmeticTest, IntegerDivisionOrModuloByZeroHasNoValue) {
  Graph g;
  EXPECT_TRUE(HasNoValue(op::Div(In<int32_t>(g, {1, 2}, {2}), In<int32_t>(g, {1, 0}, {2}))));
  EXPECT_TRUE(HasNoValue(op::Div(In<uint8_t>(g, {1, 2}, {2}), In<uint8_t>(g, {0}, {}))));
  EXPECT_TRUE(HasNoValue(op::Mod(In<int64_t>(g, {1, 2}, {2}), In<int64_t>(g, {0}, {1}))));
  EXPECT_TRUE(HasNoValue(op::Mod(In<int64_t>(g, {1}, {1}), In<int64_t>(g, {0}, {1}), {.fmod = 1})));
  // Floating point follows IEEE.
  EXPECT_THAT(Numbers(op::Div(In<float>(g, {1, -1, 0}, {3}), In<float>(g, {0}, {}))),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kInf, -kInf, kNaN})));
}

TEST(ArithmeticTest, ModSigns) {
  Graph g;
  const Var a = In<int32_t>(g, {5, -5, 5, -5, -2147483648.0}, {5});
  const Var b = In<int32_t>(g, {3, 3, -3, -3, -1}, {5});
  EXPECT_THAT(Numbers(op::Mod(a, b)), Optional(ElementsAre(2, 1, -1, -2, 0)));  // divisor's sign
  EXPECT_THAT(Numbers(op::Mod(a, b, {.fmod = 1})),
              Optional(ElementsAre(2, -2, 2, -2, 0)));  // dividend's
  EXPECT_THAT(
      Numbers(op::Mod(In<double>(g, {5.5, -5.5}, {2}), In<double>(g, {2}, {}), {.fmod = 1})),
      Optional(ElementsAre(1.5, -1.5)));
  // Exact for 64-bit integers beyond 2^53.
  const int64_t big = (int64_t{1} << 62) + 1;
  EXPECT_THAT(Elements<int64_t>(op::Mod(g.constant(Tensor::scalar<int64_t>(big)),
                                        g.constant(Tensor::scalar<int64_t>(int64_t{1} << 40)),
                                        {.fmod = 1})),
              Optional(ElementsAre(1)));
}

TEST(ArithmeticTest, ModOfFloatsRequiresFmod) {
  Graph g;
  const Var r = op::Mod(In<float>(g, {1}, {1}), In<float>(g, {2}, {1}));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("fmod"));
}

TEST(ArithmeticTest, BitShift) {
  Graph g;
  const Var x = In<uint8_t>(g, {1, 1, 255, 3}, {4});
  const Var y = In<uint8_t>(g, {7, 8, 4, 200}, {4});
  EXPECT_THAT(Numbers(op::BitShift(x, y, {.direction = "LEFT"})),
              Optional(ElementsAre(128, 0, 240, 0)));
  EXPECT_THAT(Numbers(op::BitShift(x, y, {.direction = "RIGHT"})),
              Optional(ElementsAre(0, 0, 15, 0)));
  EXPECT_THAT(
      Elements<uint64_t>(op::BitShift(In<uint64_t>(g, {1, 1}, {2}), In<uint64_t>(g, {63, 64}, {2}),
                                      {.direction = "LEFT"})),
      Optional(ElementsAre(uint64_t{1} << 63, 0)));
  const Var bad = op::BitShift(x, y, {.direction = "UP"});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("direction"));
}

TEST(PowTest, IntegerPowersAreExact) {
  Graph g;
  const Var base = g.constant(Tensor::from_vector<int64_t>({3, -2, 2, 1, -1, 5}, {6}));
  const Var exponent = g.constant(Tensor::from_vector<int64_t>({39, 63, -1, -7, -3, 0}, {6}));
  EXPECT_THAT(
      Elements<int64_t>(op::Pow(base, exponent)),
      Optional(ElementsAre(4052555153018976267, std::numeric_limits<int64_t>::min(), 0, 1, -1, 1)));
  EXPECT_THAT(Numbers(op::Pow(In<int32_t>(g, {2, -3}, {2}), In<uint8_t>(g, {10, 3}, {2}))),
              Optional(ElementsAre(1024, -27)));
}

TEST(PowTest, UndefinedIntegerPowersHaveNoValue) {
  Graph g;
  EXPECT_TRUE(
      HasNoValue(op::Pow(In<int32_t>(g, {2}, {1}), In<int32_t>(g, {31}, {1}))));  // overflow
  EXPECT_TRUE(HasNoValue(op::Pow(In<int32_t>(g, {0}, {1}), In<int32_t>(g, {-1}, {1}))));  // 1/0
  EXPECT_TRUE(HasNoValue(op::Pow(In<int32_t>(g, {-8}, {1}), In<float>(g, {0.5}, {1}))));  // NaN
}

TEST(PowTest, MixedTypes) {
  Graph g;
  // Real exponents on integer bases truncate; integer exponents on real bases are computed in
  // double.
  EXPECT_THAT(Numbers(op::Pow(In<int32_t>(g, {2, 9, 10}, {3}), In<float>(g, {0.5, 0.5, -1}, {3}))),
              Optional(ElementsAre(1, 3, 0)));
  EXPECT_THAT(Numbers(op::Pow(In<float>(g, {2, 1.5}, {2}), In<int64_t>(g, {3, 2}, {2}))),
              Optional(ElementsAre(8, 2.25)));
  EXPECT_THAT(
      Numbers(op::Pow(In<double>(g, {4, -8, 0}, {3}), In<double>(g, {0.5, 1.0 / 3, -1}, {3}))),
      Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{2, kNaN, kInf})));
  EXPECT_THAT(Numbers(op::Pow(In<BFloat16>(g, {3}, {1}), In<uint16_t>(g, {2}, {1}))),
              Optional(ElementsAre(9)));
}

// --- Comparisons and logic
// ------------------------------------------------------------------------

TEST(CompareTest, NaNComparesFalse) {
  Graph g;
  const Var a = In<float>(g, {kNaN, kNaN, 1}, {3});
  const Var b = In<float>(g, {kNaN, 1, 1}, {3});
  EXPECT_THAT(Numbers(op::Equal(a, b)), Optional(ElementsAre(0, 0, 1)));
  EXPECT_THAT(Numbers(op::Less(a, b)), Optional(ElementsAre(0, 0, 0)));
  EXPECT_THAT(Numbers(op::GreaterOrEqual(a, b)), Optional(ElementsAre(0, 0, 1)));
}

TEST(CompareTest, LogicOnBools) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<bool>({false, false, true, true}, {2, 2}));
  const Var b = g.constant(Tensor::from_vector<bool>({false, true}, {2}));
  EXPECT_THAT(Numbers(op::And(a, b)), Optional(ElementsAre(0, 0, 0, 1)));
  EXPECT_THAT(Numbers(op::Or(a, b)), Optional(ElementsAre(0, 1, 1, 1)));
  EXPECT_THAT(Numbers(op::Xor(a, b)), Optional(ElementsAre(0, 1, 1, 0)));
  EXPECT_THAT(Numbers(op::Equal(a, b)), Optional(ElementsAre(1, 0, 0, 1)));
}

// --- Variadic
// ---------------------------------------------------------------------------------------

TEST(VariadicTest, MaxMinPropagateNaNFromAnyInput) {
  Graph g;
  const Var a = In<float>(g, {kNaN, 1, 2}, {3});
  const Var b = In<float>(g, {1, kNaN, 3}, {3});
  EXPECT_THAT(Numbers(op::Max({a, b})),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, kNaN, 3})));
  EXPECT_THAT(Numbers(op::Min({b, a})),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, kNaN, 2})));
}

TEST(VariadicTest, BroadcastsManyInputs) {
  Graph g;
  const Var a = In<double>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var b = In<double>(g, {10, 20}, {2, 1});
  const Var c = In<double>(g, {100}, {});
  EXPECT_THAT(Numbers(op::Sum({a, b, c})), Optional(ElementsAre(111, 112, 113, 124, 125, 126)));
  EXPECT_THAT(Numbers(op::Mean({a, b, c})),
              Optional(ElementsAre(37, 112.0 / 3, 113.0 / 3, 124.0 / 3, 125.0 / 3, 42)));
  EXPECT_THAT(Numbers(op::Max({c, a, b})), Optional(ElementsAre(100, 100, 100, 100, 100, 100)));
  EXPECT_THAT(Numbers(op::Min({b})), Optional(ElementsAre(10, 20)));
  EXPECT_THAT(ValueShape(op::Sum({c})), ElementsAre());
  EXPECT_THAT(Numbers(op::Max({In<int64_t>(g, {-5, 9}, {2}), In<int64_t>(g, {3}, {1})})),
              Optional(ElementsAre(3, 9)));
}

TEST(VariadicTest, HalfPrecisionAccumulatesInFloat) {
  Graph g;
  // 1 + (1 + 2^-10) + (1 + 2^-10), rounded to float16 at each step, would be 3 (two ties to even);
  // accumulated in float it is 3 + 2^-9, whose mean rounds to 1 + 2^-10.
  const Var one = In<Float16>(g, {1}, {1});
  const Var next = g.constant(Tensor::from_vector<Float16>({Float16{0x3C01}}, {1}));
  EXPECT_THAT(Bits(op::Mean({one, next, next})), ElementsAre(0x3C01));
  EXPECT_THAT(Bits(op::Sum({one, next, next})), ElementsAre(0x4201));
}

TEST(VariadicTest, BeforeOpset8TheShapesMustMatch) {
  Graph g;
  const Var a = In<float>(g, {1, 5}, {2});
  EXPECT_THAT(Numbers(Node("Max", {a, In<float>(g, {3, 4}, {2})}, {}, 6)),
              Optional(ElementsAre(3, 5)));
  EXPECT_THAT(Numbers(Node("Sum", {a, a, a}, {}, 1)), Optional(ElementsAre(3, 15)));
  const Var mixed = Node("Max", {a, In<float>(g, {3}, {1})}, {}, 6);
  if (mixed.ok()) {
    EXPECT_FALSE(mixed.value().has_value());
  }
  EXPECT_THAT(Numbers(Node("Max", {a, In<float>(g, {3}, {1})}, {}, 8)),
              Optional(ElementsAre(3, 5)));
}

// --- Clip
// -------------------------------------------------------------------------------------------

TEST(ClipTest, BoundsAsInputs) {
  Graph g;
  const Var x = In<float>(g, {kNaN, -kInf, -3, 0.5, 7, kInf}, {6});
  const Var lo = In<float>(g, {-1}, {});
  const Var hi = In<float>(g, {1}, {1});  // one element of rank 1 is accepted too
  EXPECT_THAT(Numbers(op::Clip(x, lo, hi)),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, -1, -1, 0.5, 1, 1})));
  EXPECT_THAT(
      Numbers(op::Clip(x, Var(), hi)),
      Optional(Pointwise(NanSensitiveDoubleEq(),
                         Doubles{kNaN, -std::numeric_limits<float>::max(), -3, 0.5, 1, 1})));
  // min > max gives max; a NaN bound is ignored.
  EXPECT_THAT(Numbers(op::Clip(x, In<float>(g, {5}, {}), hi)),
              Optional(Pointwise(NanSensitiveDoubleEq(), Doubles{kNaN, 1, 1, 1, 1, 1})));
  EXPECT_THAT(Numbers(op::Clip(In<float>(g, {-3, 3}, {2}), In<float>(g, {kNaN}, {}), hi)),
              Optional(ElementsAre(-3, 1)));
  // Without a bound, the infinities become the type's largest finite values.
  EXPECT_THAT(Numbers(op::Clip(In<Float16>(g, {kInf, -kInf}, {2}))),
              Optional(ElementsAre(65504, -65504)));
  EXPECT_THAT(Numbers(op::Clip(In<int8_t>(g, {-128, 127}, {2}))), Optional(ElementsAre(-128, 127)));
}

TEST(ClipTest, ANonScalarBoundFailsTheOp) {
  Graph g;
  const Var clipped = op::Clip(In<float>(g, {1, 2}, {2}), In<float>(g, {0, 1}, {2}));
  ASSERT_FALSE(clipped.ok());
  EXPECT_THAT(clipped.status().message(), HasSubstr("input 1"));
}

TEST(ClipTest, BoundsAsAttributesBeforeOpset11) {
  Graph g;
  const Var x = In<float>(g, {-5, 0.5, 5, kInf}, {4});
  EXPECT_THAT(Numbers(Node("Clip", {x}, {{"min", -1.0f}, {"max", 2.0f}}, 6)),
              Optional(ElementsAre(-1, 0.5, 2, 2)));
  // Opset 6's defaults are -+FLT_MAX.
  EXPECT_THAT(Numbers(Node("Clip", {x}, {{"max", 2.0f}}, 6)), Optional(ElementsAre(-5, 0.5, 2, 2)));
  EXPECT_THAT(Numbers(Node("Clip", {x}, {}, 6)),
              Optional(ElementsAre(-5, 0.5, 5, std::numeric_limits<float>::max())));
  // Opset 1 has no defaults: an absent bound is the largest finite value.
  EXPECT_THAT(Numbers(Node("Clip", {x}, {{"min", -1.0f}}, 1)),
              Optional(ElementsAre(-1, 0.5, 5, std::numeric_limits<float>::max())));
}

// --- Cast
// -------------------------------------------------------------------------------------------

TEST(CastTest, RealsToIntegersTruncateOrHaveNoValue) {
  Graph g;
  EXPECT_THAT(Numbers(op::Cast(In<float>(g, {2.7, 0.9, 255.9, -0.5}, {4}), DataType::kUint8)),
              Optional(ElementsAre(2, 0, 255, 0)));
  EXPECT_THAT(Numbers(op::Cast(In<float>(g, {2.7, -2.7, 127.9, -128.9}, {4}), DataType::kInt8)),
              Optional(ElementsAre(2, -2, 127, -128)));
  EXPECT_THAT(Numbers(op::Cast(In<double>(g, {4294967295.5, 0.5}, {2}), DataType::kUint32)),
              Optional(ElementsAre(4294967295.0, 0)));
  // Outside the target's range (NaN and the infinities too), ONNX leaves the result undefined.
  for (double v : {300.0, -1.0, kNaN, kInf}) {
    EXPECT_TRUE(HasNoValue(op::Cast(In<float>(g, {1, v}, {2}), DataType::kUint8))) << v;
  }
  EXPECT_TRUE(HasNoValue(op::Cast(In<double>(g, {2147483648.0}, {1}), DataType::kInt32)));
  EXPECT_TRUE(HasNoValue(op::Cast(In<Float16>(g, {kInf}, {1}), DataType::kInt64)));
  EXPECT_THAT(
      Elements<int64_t>(op::Cast(In<double>(g, {-9223372036854775808.0}, {1}), DataType::kInt64)),
      Optional(ElementsAre(std::numeric_limits<int64_t>::min())));
}

TEST(CastTest, RoundingToSixteenBitFloats) {
  Graph g;
  // float to bfloat16 rounds to nearest even (1 + 2^-8 is a tie: down to 1; 1 + 3*2^-8 up).
  EXPECT_THAT(Bits(op::Cast(In<float>(g,
                                      {1 + std::ldexp(1.0, -8), 1 + 3 * std::ldexp(1.0, -8),
                                       1 + std::ldexp(1.0, -7) + std::ldexp(1.0, -9)},
                                      {3}),
                            DataType::kBfloat16)),
              ElementsAre(0x3F80, 0x3F82, 0x3F81));
  // A double just above a float16 tie rounds up, once.
  const double above_tie = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_THAT(Bits(op::Cast(In<double>(g, {above_tie}, {1}), DataType::kFloat16)),
              ElementsAre(0x3C01));
  EXPECT_THAT(Bits(op::Cast(In<BFloat16>(g, {1.5}, {1}), DataType::kFloat16)), ElementsAre(0x3E00));
  EXPECT_THAT(Numbers(op::Cast(In<int64_t>(g, {2049}, {1}), DataType::kFloat16)),
              Optional(ElementsAre(2048)));
}

TEST(CastTest, BoolAndIntegers) {
  Graph g;
  EXPECT_THAT(Numbers(op::Cast(In<float>(g, {0, -0.0, 0.1, kNaN}, {4}), DataType::kBool)),
              Optional(ElementsAre(0, 0, 1, 1)));
  EXPECT_THAT(Numbers(op::Cast(g.constant(Tensor::from_vector<bool>({true, false}, {2})),
                               DataType::kBfloat16)),
              Optional(ElementsAre(1, 0)));
  EXPECT_THAT(Numbers(op::Cast(In<int64_t>(g, {300, -1}, {2}), DataType::kUint8)),
              Optional(ElementsAre(44, 255)));
  EXPECT_THAT(Elements<uint64_t>(op::Cast(In<int8_t>(g, {-1}, {1}), DataType::kUint64)),
              Optional(ElementsAre(std::numeric_limits<uint64_t>::max())));
}

TEST(CastTest, NumbersToStrings) {
  Graph g;
  EXPECT_THAT(
      Elements<std::string>(op::Cast(
          In<float>(g, {0.6048455238342285, 1e-5, 1e20, -0.0, kNaN, kInf, -kInf, 100}, {8}),
          DataType::kString)),
      Optional(ElementsAre("0.6048455", "1e-05", "1e+20", "-0", "NaN", "INF", "-INF", "100")));
  EXPECT_THAT(Elements<std::string>(op::Cast(In<double>(g, {0.1}, {1}), DataType::kString)),
              Optional(ElementsAre("0.1")));
  EXPECT_THAT(Elements<std::string>(op::Cast(In<Float16>(g, {1.0 / 3}, {1}), DataType::kString)),
              Optional(ElementsAre("0.33325195")));
  // The shortest form that reads back as the same double, not 8 digits.
  EXPECT_THAT(Elements<std::string>(op::Cast(In<double>(g, {1.0 / 3}, {1}), DataType::kString)),
              Optional(ElementsAre("0.3333333333333333")));
  EXPECT_THAT(Elements<std::string>(op::Cast(g.constant(Tensor::from_vector<int64_t>(
                                                 {-5, std::numeric_limits<int64_t>::max()}, {2})),
                                             DataType::kString)),
              Optional(ElementsAre("-5", "9223372036854775807")));
  EXPECT_THAT(Elements<std::string>(op::Cast(In<uint8_t>(g, {255}, {1}), DataType::kString)),
              Optional(ElementsAre("255")));
  EXPECT_THAT(Elements<std::string>(op::Cast(
                  g.constant(Tensor::from_vector<bool>({true, false}, {2})), DataType::kString)),
              Optional(ElementsAre("1", "0")));
}

TEST(CastTest, StringsToNumbers) {
  Graph g;
  const Var reals =
      Strings(g, {"1.5", " 2.5 ", "-1e3", "INF", "+inf", "-Infinity", "NaN", ".5", "7.", "1e-400"});
  EXPECT_THAT(Numbers(op::Cast(reals, DataType::kDouble)),
              Optional(Pointwise(NanSensitiveDoubleEq(),
                                 Doubles{1.5, 2.5, -1000, kInf, kInf, -kInf, kNaN, 0.5, 7, 0})));
  EXPECT_THAT(Numbers(op::Cast(Strings(g, {"0.1"}), DataType::kFloat)),
              Optional(ElementsAre(0.1f)));
  EXPECT_THAT(Numbers(op::Cast(Strings(g, {"1e5"}), DataType::kFloat16)),
              Optional(ElementsAre(kInf)));
  EXPECT_THAT(Numbers(op::Cast(Strings(g, {"12", "-12", "+7", " 300"}), DataType::kUint8)),
              Optional(ElementsAre(12, 244, 7, 44)));
  EXPECT_THAT(Elements<int64_t>(op::Cast(Strings(g, {"-9223372036854775808"}), DataType::kInt64)),
              Optional(ElementsAre(std::numeric_limits<int64_t>::min())));
  EXPECT_THAT(Numbers(op::Cast(Strings(g, {"0", "-3", "00"}), DataType::kBool)),
              Optional(ElementsAre(0, 1, 0)));
  EXPECT_THAT(Numbers(op::CastLike(Strings(g, {"3"}), In<int16_t>(g, {0}, {1}))),
              Optional(ElementsAre(3)));
}

TEST(CastTest, StringsThatAreNotNumbersHaveNoValue) {
  Graph g;
  for (const char* text : {"abc", "", "1.5abc", "0x10", "1e400", "--1", "1 2"}) {
    EXPECT_TRUE(HasNoValue(op::Cast(Strings(g, {"1", text}), DataType::kFloat))) << text;
  }
  for (const char* text : {"2.718", "1e3", "9223372036854775808", "true"}) {
    EXPECT_TRUE(HasNoValue(
        op::Cast(Strings(g, {text}), text[0] == 't' ? DataType::kBool : DataType::kInt64)))
        << text;
  }
}

// --- The value budget
// ---------------------------------------------------------------------------------

TEST(BudgetTest, OutputsAndTemporariesPastTheBudgetGetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 12});
  const Var four = In<float>(g, {1, 2, 3, 4}, {4});  // 16 bytes: a constant is not a computed value
  EXPECT_TRUE(HasNoValue(op::Add(four, four)));
  EXPECT_TRUE(HasNoValue(op::Sqrt(four)));
  EXPECT_TRUE(HasNoValue(op::Cast(In<int16_t>(g, {1, 2, 3, 4}, {4}), DataType::kDouble)));
  const Var two = In<float>(g, {1, 2}, {2});
  EXPECT_THAT(Numbers(op::Add(two, two)), Optional(ElementsAre(2, 4)));
  EXPECT_TRUE(HasNoValue(op::Add(two, In<float>(g, {1, 2}, {2, 1}))));  // broadcast to 4 elements
  // Mean of float16 sums in a float temporary: 4 halves fit (8 bytes), their float sums (16) do
  // not.
  const Var halves = In<Float16>(g, {1, 2, 3, 4}, {4});
  EXPECT_TRUE(HasNoValue(op::Mean({halves, halves})));
  EXPECT_THAT(Numbers(op::Max({halves, halves})), Optional(ElementsAre(1, 2, 3, 4)));
}

}  // namespace

// Gelu (opset 20): float takes a vectorized path (erfc through a polynomial and FastExp); it stays
// within 1e-6 + 6e-8 x^2 relative of the definition in double (the tail's exp argument, -x^2 / 2,
// is a float), tails included. Non-finite inputs and the tanh form take the exact path.
TEST(GeluTest, FloatPathFollowsTheDefinition) {
  Graph g;
  std::vector<float> xs;
  for (int i = -2000; i <= 2000; ++i) xs.push_back(static_cast<float>(i) * 0.01f);
  for (float x : {-30.0f, -14.0f, -9.5f, 1e-20f, -1e-20f, 0.0f}) xs.push_back(x);
  const Var y =
      One(NodeAt("Gelu", {Const<float>(g, xs, {static_cast<int64_t>(xs.size())})}, {}, 20));
  ASSERT_TRUE(y.value().has_value()) << y.value_status();
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    const double exact = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
    const double got = y.value()->data<float>()[i];
    // Past |x| = 13.2 Gelu is below float's normal range, and the fast path gives 0.
    EXPECT_LE(std::fabs(got - exact), (1e-6 + 6e-8 * x * x) * std::fabs(exact) + 1e-37)
        << "x = " << x;
  }
  const Var special = One(NodeAt("Gelu",
                                 {Const<float>(g,
                                               {std::numeric_limits<float>::quiet_NaN(),
                                                std::numeric_limits<float>::infinity(),
                                                -std::numeric_limits<float>::infinity(), 1},
                                               {4})},
                                 {}, 20));
  ASSERT_TRUE(special.value().has_value());
  EXPECT_TRUE(std::isnan(special.value()->data<float>()[0]));
  EXPECT_EQ(special.value()->data<float>()[1], std::numeric_limits<float>::infinity());
  EXPECT_FLOAT_EQ(special.value()->data<float>()[3], 0.5f * std::erfc(-1 / std::sqrt(2.0f)));
  // One non-finite element inside a vectorized stretch sends the whole tensor down the exact
  // path: the fast loop's finiteness test sees it, wherever it is. The paths are told apart at
  // an x where their last bits differ (which x depends on the machine's vector units).
  const auto precise = [](float v) {
    return 0.5f * v * std::erfc(-v * static_cast<float>(M_SQRT1_2));
  };
  const auto gelu_of = [&](const std::vector<float>& values) {
    return One(
        NodeAt("Gelu", {Const<float>(g, values, {static_cast<int64_t>(values.size())})}, {}, 20));
  };
  std::optional<float> telling;
  for (size_t i = 0; i < xs.size() && !telling.has_value(); ++i) {
    if (y.value()->data<float>()[i] != precise(xs[i])) telling = xs[i];
  }
  ASSERT_TRUE(telling.has_value()) << "the fast path gives the exact path's every bit";
  ASSERT_NE(gelu_of(std::vector<float>(1023, *telling)).value()->data<float>()[0],
            precise(*telling));
  for (size_t at : {size_t{0}, size_t{517}, size_t{1022}}) {
    std::vector<float> values(1023, *telling);
    values[at] = (at % 2 == 0) ? std::numeric_limits<float>::infinity()
                               : std::numeric_limits<float>::quiet_NaN();
    const Var mixed = gelu_of(values);
    ASSERT_TRUE(mixed.value().has_value()) << mixed.value_status();
    const auto got = mixed.value()->data<float>();
    EXPECT_EQ(std::isnan(got[at]), std::isnan(values[at])) << "at " << at;
    EXPECT_EQ(got[at == 0 ? 1 : 0], precise(*telling)) << "at " << at;
  }
  const Var tanh =
      One(NodeAt("Gelu", {Const<float>(g, {1}, {1})}, {{"approximate", std::string("tanh")}}, 20));
  ASSERT_TRUE(tanh.value().has_value());
  EXPECT_NEAR(tanh.value()->data<float>()[0], 0.841192f, 1e-6);
  EXPECT_FALSE(
      One(NodeAt("Gelu", {Const<float>(g, {1}, {1})}, {{"approximate", std::string("erf")}}, 20))
          .value()
          .has_value());
}
