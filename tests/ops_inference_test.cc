// Type and shape inference of the hand-written ops (ONNX opset 17 semantics): the element type and
// shape of each op's output, with ONNX multidirectional broadcasting, unknown dims (-1), unknown
// rank, MatMul's 1-D promotion and batch broadcasting, Reshape's 0 / -1 / allowzero rules, Cast's
// target types, Identity and Constant. Also: turning propagation off changes no type.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
using gg::DataType;
using gg::Graph;
using gg::Tensor;
using gg::Var;
using Dims = std::vector<int64_t>;
using MaybeDims = std::optional<Dims>;

constexpr DataType kNumericTypes[] = {DataType::kUint8,  DataType::kUint16, DataType::kUint32,
                                      DataType::kUint64, DataType::kInt8,   DataType::kInt16,
                                      DataType::kInt32,  DataType::kInt64,  DataType::kFloat16,
                                      DataType::kFloat,  DataType::kDouble, DataType::kBfloat16};
constexpr DataType kSignedTypes[] = {DataType::kInt8,   DataType::kInt16,   DataType::kInt32,
                                     DataType::kInt64,  DataType::kFloat16, DataType::kFloat,
                                     DataType::kDouble, DataType::kBfloat16};
constexpr DataType kMatMulTypes[] = {DataType::kUint32, DataType::kUint64,  DataType::kInt32,
                                     DataType::kInt64,  DataType::kFloat16, DataType::kFloat,
                                     DataType::kDouble, DataType::kBfloat16};
constexpr DataType kAllTypes[] = {
    DataType::kUint8,  DataType::kUint16,   DataType::kUint32, DataType::kUint64,  DataType::kInt8,
    DataType::kInt16,  DataType::kInt32,    DataType::kInt64,  DataType::kFloat16, DataType::kFloat,
    DataType::kDouble, DataType::kBfloat16, DataType::kBool,   DataType::kString};

std::string Describe(const MaybeDims& shape) {
  if (!shape.has_value()) return "unknown rank";
  return absl::StrCat("[", absl::StrJoin(*shape, ","), "]");
}

std::string TypeName(DataType dtype) { return std::string(gg::DataTypeName(dtype)); }

// An argument of the given shape, or of unknown rank for nullopt.
Var Arg(Graph& g, const std::string& name, DataType dtype, const MaybeDims& shape) {
  return shape.has_value() ? g.argument(name, dtype, *shape) : g.argument_unranked(name, dtype);
}

// A constant int64 1-D tensor (a Reshape target).
Var Int64s(Graph& g, const Dims& values) {
  return g.constant(Tensor::from_vector<int64_t>(values));
}

// The var is ok and has exactly this element type and shape.
::testing::AssertionResult HasType(const Var& var, DataType dtype, const MaybeDims& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.dtype() != dtype) {
    return ::testing::AssertionFailure()
           << "element type " << TypeName(var.dtype()) << ", expected " << TypeName(dtype);
  }
  if (var.shape() != shape) {
    return ::testing::AssertionFailure()
           << "shape " << Describe(var.shape()) << ", expected " << Describe(shape);
  }
  return ::testing::AssertionSuccess();
}

// --- Elementwise binary ops -----------------------------------------------------------------

using BinaryFn = Var (*)(const Var&, const Var&);
struct BinaryOp {
  const char* name;
  BinaryFn fn;
};
constexpr BinaryOp kBinaryOps[] = {
    {"Add", &op::Add}, {"Sub", &op::Sub}, {"Mul", &op::Mul}, {"Div", &op::Div}};

class BinaryTypeTest : public ::testing::TestWithParam<std::tuple<BinaryOp, DataType>> {};

TEST_P(BinaryTypeTest, KeepsTheElementTypeAndBroadcasts) {
  const auto [binary, dtype] = GetParam();
  Graph g;
  const Var a = g.argument("a", dtype, {2, 3});
  const Var b = g.argument("b", dtype, {3});
  EXPECT_TRUE(HasType(binary.fn(a, b), dtype, Dims{2, 3}));
  EXPECT_TRUE(HasType(binary.fn(b, a), dtype, Dims{2, 3}));
}

INSTANTIATE_TEST_SUITE_P(AllNumericTypes, BinaryTypeTest,
                         ::testing::Combine(::testing::ValuesIn(kBinaryOps),
                                            ::testing::ValuesIn(kNumericTypes)),
                         [](const ::testing::TestParamInfo<BinaryTypeTest::ParamType>& info) {
                           return absl::StrCat(std::get<0>(info.param).name, "_",
                                               TypeName(std::get<1>(info.param)));
                         });

struct BroadcastCase {
  MaybeDims a;
  MaybeDims b;
  MaybeDims expected;
};

void PrintTo(const BroadcastCase& c, std::ostream* os) {
  *os << Describe(c.a) << " with " << Describe(c.b) << " -> " << Describe(c.expected);
}

class BroadcastShapeTest : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(BroadcastShapeTest, EveryBinaryOpInfersTheBroadcastShape) {
  const BroadcastCase& c = GetParam();
  Graph g;
  const Var a = Arg(g, "a", DataType::kFloat, c.a);
  const Var b = Arg(g, "b", DataType::kFloat, c.b);
  for (const BinaryOp& binary : kBinaryOps) {
    SCOPED_TRACE(binary.name);
    EXPECT_TRUE(HasType(binary.fn(a, b), DataType::kFloat, c.expected));
    EXPECT_TRUE(HasType(binary.fn(b, a), DataType::kFloat, c.expected));  // broadcasting commutes
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BroadcastShapeTest,
    ::testing::Values(BroadcastCase{Dims{2, 3}, Dims{2, 3}, Dims{2, 3}},
                      BroadcastCase{Dims{2, 3}, Dims{3}, Dims{2, 3}},
                      BroadcastCase{Dims{4, 1}, Dims{1, 5}, Dims{4, 5}},
                      BroadcastCase{Dims{2, 1, 3}, Dims{2, 1}, Dims{2, 2, 3}},
                      BroadcastCase{Dims{}, Dims{2, 3}, Dims{2, 3}},
                      BroadcastCase{Dims{}, Dims{}, Dims{}},
                      BroadcastCase{Dims{1}, Dims{}, Dims{1}},
                      BroadcastCase{Dims{0, 3}, Dims{1, 3}, Dims{0, 3}},
                      BroadcastCase{Dims{0}, Dims{1}, Dims{0}},
                      // An unknown dim against k > 1 must be k (or 1) at run time: the result is k.
                      BroadcastCase{Dims{2, -1}, Dims{3}, Dims{2, 3}},
                      // Against 1 or another unknown dim it stays unknown.
                      BroadcastCase{Dims{2, -1}, Dims{1}, Dims{2, -1}},
                      BroadcastCase{Dims{2, -1}, Dims{-1}, Dims{2, -1}},
                      BroadcastCase{Dims{-1, 1}, Dims{1, 5}, Dims{-1, 5}},
                      BroadcastCase{Dims{2, -1}, Dims{4, 1, 1}, Dims{4, 2, -1}},
                      BroadcastCase{Dims{-1}, Dims{}, Dims{-1}},
                      // Unknown rank on either side: the result's rank is unknown.
                      BroadcastCase{std::nullopt, Dims{3}, std::nullopt},
                      BroadcastCase{std::nullopt, Dims{}, std::nullopt},
                      BroadcastCase{std::nullopt, std::nullopt, std::nullopt}));

// --- Neg and Relu -----------------------------------------------------------------------------

class UnaryTypeTest : public ::testing::TestWithParam<DataType> {};

TEST_P(UnaryTypeTest, NegAndReluKeepTypeAndShape) {
  const DataType dtype = GetParam();
  Graph g;
  const Var known = g.argument("known", dtype, {2, 3});
  const Var partial = g.argument("partial", dtype, {2, -1});
  const Var scalar = g.argument("scalar", dtype, {});
  const Var unranked = g.argument_unranked("unranked", dtype);
  for (const auto& [name, fn] : {std::pair<const char*, Var (*)(const Var&)>{"Neg", &op::Neg},
                                 std::pair<const char*, Var (*)(const Var&)>{"Relu", &op::Relu}}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(HasType(fn(known), dtype, Dims{2, 3}));
    EXPECT_TRUE(HasType(fn(partial), dtype, Dims{2, -1}));
    EXPECT_TRUE(HasType(fn(scalar), dtype, Dims{}));
    EXPECT_TRUE(HasType(fn(unranked), dtype, std::nullopt));
  }
}

INSTANTIATE_TEST_SUITE_P(SignedTypes, UnaryTypeTest, ::testing::ValuesIn(kSignedTypes),
                         [](const ::testing::TestParamInfo<DataType>& info) {
                           return TypeName(info.param);
                         });

// --- MatMul -----------------------------------------------------------------------------------

class MatMulTypeTest : public ::testing::TestWithParam<DataType> {};

TEST_P(MatMulTypeTest, KeepsTheElementType) {
  const DataType dtype = GetParam();
  Graph g;
  const Var a = g.argument("a", dtype, {2, 3});
  const Var b = g.argument("b", dtype, {3, 4});
  EXPECT_TRUE(HasType(op::MatMul(a, b), dtype, Dims{2, 4}));
}

INSTANTIATE_TEST_SUITE_P(MatMulTypes, MatMulTypeTest, ::testing::ValuesIn(kMatMulTypes),
                         [](const ::testing::TestParamInfo<DataType>& info) {
                           return TypeName(info.param);
                         });

class MatMulShapeTest : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(MatMulShapeTest, FollowsNumpyMatmul) {
  const BroadcastCase& c = GetParam();
  Graph g;
  const Var a = Arg(g, "a", DataType::kFloat, c.a);
  const Var b = Arg(g, "b", DataType::kFloat, c.b);
  EXPECT_TRUE(HasType(op::MatMul(a, b), DataType::kFloat, c.expected));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatMulShapeTest,
    ::testing::Values(BroadcastCase{Dims{2, 3}, Dims{3, 4}, Dims{2, 4}},
                      // 1-D operands are promoted ([k] -> [1,k] on the left, [k,1] on the right)
                      // and the promoted dim is removed from the result.
                      BroadcastCase{Dims{3}, Dims{3, 4}, Dims{4}},
                      BroadcastCase{Dims{2, 3}, Dims{3}, Dims{2}},
                      BroadcastCase{Dims{3}, Dims{3}, Dims{}},
                      BroadcastCase{Dims{3}, Dims{5, 3, 4}, Dims{5, 4}},
                      BroadcastCase{Dims{5, 2, 3}, Dims{3}, Dims{5, 2}},
                      // Batch dims broadcast.
                      BroadcastCase{Dims{5, 2, 3}, Dims{3, 4}, Dims{5, 2, 4}},
                      BroadcastCase{Dims{2, 3}, Dims{5, 3, 4}, Dims{5, 2, 4}},
                      BroadcastCase{Dims{2, 1, 2, 3}, Dims{5, 3, 4}, Dims{2, 5, 2, 4}},
                      BroadcastCase{Dims{1, 2, 3}, Dims{6, 3, 4}, Dims{6, 2, 4}},
                      BroadcastCase{Dims{2, 0}, Dims{0, 3}, Dims{2, 3}},
                      // Unknown dims.
                      BroadcastCase{Dims{-1, 3}, Dims{3, -1}, Dims{-1, -1}},
                      BroadcastCase{Dims{2, -1}, Dims{-1, 4}, Dims{2, 4}},
                      BroadcastCase{Dims{2, -1}, Dims{5, 4}, Dims{2, 4}},
                      BroadcastCase{Dims{-1, 2, 3}, Dims{4, 3, 5}, Dims{4, 2, 5}},
                      BroadcastCase{Dims{-1}, Dims{-1}, Dims{}},
                      // Unknown rank.
                      BroadcastCase{std::nullopt, Dims{3, 4}, std::nullopt},
                      BroadcastCase{Dims{2, 3}, std::nullopt, std::nullopt}));

// --- Reshape ----------------------------------------------------------------------------------

struct ReshapeCase {
  MaybeDims data;
  Dims target;
  int64_t allowzero;
  MaybeDims expected;
};

void PrintTo(const ReshapeCase& c, std::ostream* os) {
  *os << Describe(c.data) << " to " << Describe(c.target) << " allowzero=" << c.allowzero << " -> "
      << Describe(c.expected);
}

class ReshapeConstantShapeTest : public ::testing::TestWithParam<ReshapeCase> {};

TEST_P(ReshapeConstantShapeTest, ResolvesTheTarget) {
  const ReshapeCase& c = GetParam();
  Graph g;
  const Var data = Arg(g, "data", DataType::kFloat, c.data);
  const Var r = op::Reshape(data, Int64s(g, c.target), {.allowzero = c.allowzero});
  EXPECT_TRUE(HasType(r, DataType::kFloat, c.expected));
}

INSTANTIATE_TEST_SUITE_P(
    Targets, ReshapeConstantShapeTest,
    ::testing::Values(
        ReshapeCase{Dims{2, 3, 4}, Dims{6, 4}, 0, Dims{6, 4}},
        ReshapeCase{Dims{2, 3, 4}, Dims{-1}, 0, Dims{24}},
        ReshapeCase{Dims{2, 3, 4}, Dims{0, -1}, 0, Dims{2, 12}},
        ReshapeCase{Dims{2, 3, 4}, Dims{0, 0, 2, 2}, 0, Dims{2, 3, 2, 2}},
        ReshapeCase{Dims{2, 3, 4}, Dims{-1, 0, 2}, 0, Dims{4, 3, 2}},
        ReshapeCase{Dims{2, 3, 4}, Dims{4, -1, 3}, 0, Dims{4, 2, 3}},
        ReshapeCase{Dims{1, 1}, Dims{}, 0, Dims{}},
        ReshapeCase{Dims{}, Dims{1, 1, 1}, 0, Dims{1, 1, 1}},
        // allowzero=1: a 0 is a zero dim.
        ReshapeCase{Dims{0, 3}, Dims{3, 0}, 1, Dims{3, 0}},
        ReshapeCase{Dims{3, 0}, Dims{0, 4}, 1, Dims{0, 4}},
        ReshapeCase{Dims{2, 3}, Dims{3, 2}, 1, Dims{3, 2}},
        // allowzero=0 with a zero-size input: 0 copies the input dim; -1 can still be inferred
        // when the other dims are not zero.
        ReshapeCase{Dims{0, 3}, Dims{0, 3}, 0, Dims{0, 3}},
        ReshapeCase{Dims{0, 3}, Dims{-1, 3}, 0, Dims{0, 3}},
        // Unknown input dims: copied dims stay unknown, an inferred dim cannot be computed.
        ReshapeCase{Dims{2, -1}, Dims{0, -1}, 0, Dims{2, -1}},
        ReshapeCase{Dims{-1, 3}, Dims{0, 3}, 0, Dims{-1, 3}},
        ReshapeCase{Dims{-1, 3}, Dims{3, 2, 5}, 0, Dims{3, 2, 5}},
        // Unknown input rank: the target's rank is known.
        ReshapeCase{std::nullopt, Dims{2, -1}, 0, Dims{2, -1}},
        ReshapeCase{std::nullopt, Dims{0, 5}, 0, Dims{-1, 5}},
        ReshapeCase{std::nullopt, Dims{4, 6}, 0, Dims{4, 6}}));

TEST(ReshapeInferenceTest, ShapeArgumentOfKnownLengthGivesTheRank) {
  Graph g;
  const Var data = g.argument("data", DataType::kInt32, {2, 3, 4});
  const Var shape = g.argument("shape", DataType::kInt64, {3});
  EXPECT_TRUE(HasType(op::Reshape(data, shape), DataType::kInt32, Dims{-1, -1, -1}));
  const Var unranked_data = g.argument_unranked("unranked", DataType::kInt32);
  EXPECT_TRUE(HasType(op::Reshape(unranked_data, shape), DataType::kInt32, Dims{-1, -1, -1}));
  const Var empty_shape = g.argument("empty_shape", DataType::kInt64, {0});
  EXPECT_TRUE(HasType(op::Reshape(data, empty_shape), DataType::kInt32, Dims{}));
}

TEST(ReshapeInferenceTest, ShapeArgumentOfUnknownLengthGivesUnknownRank) {
  Graph g;
  const Var data = g.argument("data", DataType::kFloat, {2, 3});
  const Var unknown_length = g.argument("unknown_length", DataType::kInt64, {-1});
  EXPECT_TRUE(HasType(op::Reshape(data, unknown_length), DataType::kFloat, std::nullopt));
  const Var unranked_shape = g.argument_unranked("unranked_shape", DataType::kInt64);
  EXPECT_TRUE(HasType(op::Reshape(data, unranked_shape), DataType::kFloat, std::nullopt));
}

TEST(ReshapeInferenceTest, PropagatedShapeValueResolvesTheTarget) {
  Graph g;
  const Var data = g.argument("data", DataType::kFloat, {9});
  const Var shape = op::Add(Int64s(g, {2, 2}), Int64s(g, {1, 1}));  // [3, 3], computed
  EXPECT_TRUE(HasType(op::Reshape(data, shape), DataType::kFloat, Dims{3, 3}));
}

TEST(ReshapeInferenceTest, KeepsEveryElementType) {
  for (DataType dtype : kAllTypes) {
    SCOPED_TRACE(TypeName(dtype));
    Graph g;
    const Var data = g.argument("data", dtype, {2, 3});
    EXPECT_TRUE(HasType(op::Reshape(data, Int64s(g, {3, 2})), dtype, Dims{3, 2}));
  }
}

// --- Cast, Identity, Constant -----------------------------------------------------------------

TEST(CastInferenceTest, ResultHasTheTargetTypeAndTheInputShape) {
  for (DataType from : kAllTypes) {
    for (DataType to : kAllTypes) {
      SCOPED_TRACE(absl::StrCat(TypeName(from), " to ", TypeName(to)));
      Graph g;
      const Var x = g.argument("x", from, {2, -1});
      const Var u = g.argument_unranked("u", from);
      EXPECT_TRUE(HasType(op::Cast(x, to), to, Dims{2, -1}));
      EXPECT_TRUE(HasType(op::Cast(u, {.to = to}), to, std::nullopt));
    }
  }
}

TEST(CastInferenceTest, TargetMatchesAttributeStructAndShorthand) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {});
  EXPECT_TRUE(
      HasType(op::Cast(x, op::CastAttributes{.to = DataType::kInt64}), DataType::kInt64, Dims{}));
  EXPECT_TRUE(HasType(op::Cast(x, DataType::kBool), DataType::kBool, Dims{}));
}

TEST(IdentityInferenceTest, KeepsTypeAndShape) {
  for (DataType dtype : kAllTypes) {
    SCOPED_TRACE(TypeName(dtype));
    Graph g;
    EXPECT_TRUE(HasType(op::Identity(g.argument("x", dtype, {2, -1, 0})), dtype, Dims{2, -1, 0}));
    EXPECT_TRUE(HasType(op::Identity(g.argument_unranked("u", dtype)), dtype, std::nullopt));
  }
}

TEST(ConstantInferenceTest, TypeAndShapeComeFromTheTensor) {
  Graph g;
  const Tensor matrix = Tensor::from_vector<int16_t>({1, 2, 3, 4, 5, 6}, {3, 2});
  const Var c = op::Constant(g, matrix);
  EXPECT_TRUE(HasType(c, DataType::kInt16, Dims{3, 2}));
  ASSERT_TRUE(c.value().has_value());
  EXPECT_EQ(*c.value(), matrix);

  const Var scalar = g.constant(Tensor::scalar<double>(2.5));
  EXPECT_TRUE(HasType(scalar, DataType::kDouble, Dims{}));

  const Var empty = g.constant(Tensor::zeros(DataType::kBool, {0, 4}));
  EXPECT_TRUE(HasType(empty, DataType::kBool, Dims{0, 4}));
  const Var text = g.constant(Tensor::from_vector<std::string>({"a", "b"}));
  EXPECT_TRUE(HasType(text, DataType::kString, Dims{2}));
}

TEST(ConstantInferenceTest, OpConstantAddsAConstantNode) {
  Graph g;
  const int64_t nodes_before = g.stats().nodes;
  const Var c = op::Constant(g, Tensor::from_vector<float>({1, 2}));
  EXPECT_TRUE(HasType(c, DataType::kFloat, Dims{2}));
  EXPECT_EQ(g.stats().nodes, nodes_before + 1);
}

TEST(InferenceTest, ArgumentsHaveTheirDeclaredTypes) {
  Graph g;
  EXPECT_TRUE(HasType(g.argument("x", DataType::kFloat, {2, -1}), DataType::kFloat, Dims{2, -1}));
  EXPECT_TRUE(HasType(g.argument("s", DataType::kInt8, {}), DataType::kInt8, Dims{}));
  EXPECT_TRUE(HasType(g.argument_unranked("u", DataType::kBool), DataType::kBool, std::nullopt));
}

TEST(InferenceTest, ChainedOpsComposeInference) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {-1, 3});
  const Var w = g.argument("w", DataType::kFloat, {3, 4});
  const Var bias = g.argument("bias", DataType::kFloat, {4});
  const Var y = op::Relu(op::Add(op::MatMul(x, w), bias));
  EXPECT_TRUE(HasType(y, DataType::kFloat, Dims{-1, 4}));
  const Var flat = op::Reshape(y, Int64s(g, {-1}));
  EXPECT_TRUE(HasType(flat, DataType::kFloat, Dims{-1}));
  EXPECT_TRUE(HasType(op::Cast(flat, DataType::kInt64), DataType::kInt64, Dims{-1}));
}

// --- Propagation off --------------------------------------------------------------------------

// One of each op on constants (so every input has a value when propagation is on).
std::vector<std::pair<std::string, Var>> BuildOnConstants(Graph& g) {
  const Var a = g.constant(Tensor::from_vector<float>({1, -2, 3, -4, 5, -6}, {2, 3}));
  const Var b = g.constant(Tensor::from_vector<float>({1, 2, 4}, {3}));
  const Var w = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2}));
  const Var i = g.constant(Tensor::from_vector<int32_t>({7, -7, 9}, {3}));
  const Var two = g.constant(Tensor::scalar<int32_t>(2));
  const Var shape = op::Add(Int64s(g, {1, 5}), Int64s(g, {0, 1}));  // [1, 6], computed
  return {{"Add", op::Add(a, b)},
          {"Sub", op::Sub(a, b)},
          {"Mul", op::Mul(a, b)},
          {"Div", op::Div(a, b)},
          {"IntDiv", op::Div(i, two)},
          {"Neg", op::Neg(a)},
          {"Relu", op::Relu(a)},
          {"MatMul", op::MatMul(a, w)},
          {"MatMulVector", op::MatMul(b, w)},
          {"Reshape", op::Reshape(a, Int64s(g, {3, -1}))},
          {"ReshapeAllowZero", op::Reshape(a, Int64s(g, {6, 1}), {.allowzero = 1})},
          {"Cast", op::Cast(a, DataType::kInt8)},
          {"CastHalf", op::Cast(i, DataType::kFloat16)},
          {"Identity", op::Identity(a)},
          {"ComputedShape", shape}};
}

TEST(PropagationOffTest, SameTypesButNoValues) {
  Graph on;
  Graph off(gg::GraphOptions{.propagate_values = false});
  const auto with_values = BuildOnConstants(on);
  const auto without_values = BuildOnConstants(off);
  ASSERT_EQ(with_values.size(), without_values.size());
  for (size_t k = 0; k < with_values.size(); ++k) {
    const auto& [name, expected] = with_values[k];
    const Var& actual = without_values[k].second;
    SCOPED_TRACE(name);
    ASSERT_TRUE(expected.ok()) << expected.status();
    EXPECT_TRUE(expected.value().has_value());
    EXPECT_TRUE(HasType(actual, expected.dtype(), expected.shape()));
    EXPECT_FALSE(actual.value().has_value());
  }
}

TEST(PropagationOffTest, ConstantsKeepTheirValue) {
  Graph g(gg::GraphOptions{.propagate_values = false});
  const Tensor t = Tensor::from_vector<int64_t>({4, 5});
  const Var c = g.constant(t);
  ASSERT_TRUE(c.value().has_value());
  EXPECT_EQ(*c.value(), t);
  EXPECT_FALSE(op::Neg(c).value().has_value());
}

TEST(PropagationOffTest, ReshapeStillReadsAConstantShape) {
  Graph g(gg::GraphOptions{.propagate_values = false});
  const Var data = g.argument("data", DataType::kFloat, {2, 6});
  EXPECT_TRUE(HasType(op::Reshape(data, Int64s(g, {0, 2, -1})), DataType::kFloat, Dims{2, 2, 3}));
  // A shape that would have to be computed is not: only its length is known.
  const Var computed = op::Add(Int64s(g, {3, 2}), Int64s(g, {1, 0}));
  EXPECT_TRUE(HasType(op::Reshape(data, computed), DataType::kFloat, Dims{-1, -1}));
}

}  // namespace
