// Error paths of the ops and of Graph::argument: every bad call returns a failed Var (never a crash
// or an exception) whose status names the op and the offending input or type; the failed op adds
// no node; every other var of the graph stays ok, keeps its value and stays exportable.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
using gg::DataType;
using gg::Graph;
using gg::Tensor;
using gg::Var;
using Dims = std::vector<int64_t>;

// The var failed: not ok, a non-OK status whose message contains every piece, no type, no value.
::testing::AssertionResult IsFailure(const Var& var, const std::vector<std::string>& pieces) {
  if (var.ok()) return ::testing::AssertionFailure() << "the var is ok";
  const absl::Status status = var.status();
  if (status.ok()) return ::testing::AssertionFailure() << "ok() is false but status() is OK";
  for (const std::string& piece : pieces) {
    if (!absl::StrContains(status.message(), piece)) {
      return ::testing::AssertionFailure()
             << "status \"" << status.message() << "\" does not mention \"" << piece << "\"";
    }
  }
  if (var.dtype() != DataType::kUndefined) {
    return ::testing::AssertionFailure()
           << "a failed var has element type " << gg::DataTypeName(var.dtype());
  }
  if (var.value().has_value()) return ::testing::AssertionFailure() << "a failed var has a value";
  return ::testing::AssertionSuccess();
}

class OpsErrorsTest : public ::testing::Test {
 protected:
  OpsErrorsTest()
      : x_(g_.argument("x", DataType::kFloat, {2, 3})),
        healthy_(op::Relu(x_)),
        folded_(op::Neg(g_.constant(Tensor::from_vector<float>({1, -2}, {2})))) {}

  Var Arg(const std::string& name, DataType dtype, const Dims& shape) {
    return g_.argument(name, dtype, shape);
  }
  Var Int64s(const Dims& values) { return g_.constant(Tensor::from_vector<int64_t>(values)); }

  // Runs `make` (the failing call alone: build its operands before) and checks that it fails
  // with every piece in its message, adds no node to g_, and leaves the other vars ok, with their
  // values, and exportable. The failed var is stored in *failed if given.
  ::testing::AssertionResult FailsCleanly(absl::FunctionRef<Var()> make,
                                          const std::vector<std::string>& pieces,
                                          Var* failed = nullptr) {
    const int64_t nodes_before = g_.stats().nodes;
    const Var result = make();
    if (failed != nullptr) *failed = result;
    ::testing::AssertionResult failure = IsFailure(result, pieces);
    if (!failure) return failure;
    if (g_.stats().nodes != nodes_before) {
      return ::testing::AssertionFailure()
             << "the failed op added " << g_.stats().nodes - nodes_before << " node(s)";
    }
    if (!healthy_.ok() || !x_.ok() || !folded_.ok()) {
      return ::testing::AssertionFailure() << "an unrelated var failed";
    }
    if (folded_.value() != Tensor::from_vector<float>({-1, 2}, {2})) {
      return ::testing::AssertionFailure() << "an unrelated var lost its value";
    }
    absl::StatusOr<onnx::ModelProto> model =
        gg::to_onnx(g_, {{"healthy", healthy_}, {"folded", folded_}});
    if (!model.ok()) {
      return ::testing::AssertionFailure()
             << "unrelated outputs no longer export: " << model.status();
    }
    // The graph still builds: a new op on the unrelated vars works.
    if (!op::Add(healthy_, x_).ok()) {
      return ::testing::AssertionFailure() << "a new op on unrelated vars failed";
    }
    return ::testing::AssertionSuccess();
  }

  Graph g_;
  Var x_;        // float [2,3] argument
  Var healthy_;  // Relu(x_)
  Var folded_;   // Neg of a constant: has the value [-1, 2]
};

// --- Element types ----------------------------------------------------------------------------

TEST_F(OpsErrorsTest, AddOfFloatAndDouble) {
  const Var d = Arg("d", DataType::kDouble, {2, 3});
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(x_, d); }, {"Add", "input 1", "double", "float"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Sub(d, x_); }, {"Sub", "input 1", "double", "float"}));
}

TEST_F(OpsErrorsTest, BinaryOpsRejectNonNumericTypes) {
  const Var s = Arg("s", DataType::kString, {2});
  const Var b = Arg("b", DataType::kBool, {2});
  EXPECT_TRUE(FailsCleanly([&] { return op::Mul(s, s); }, {"Mul", "input 0", "string"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Div(b, b); }, {"Div", "input 0", "bool"}));
}

TEST_F(OpsErrorsTest, UnaryOpsRejectUnsignedAndBool) {
  const Var u = Arg("u", DataType::kUint8, {3});
  const Var v = Arg("v", DataType::kUint32, {3});
  const Var b = Arg("b", DataType::kBool, {3});
  EXPECT_TRUE(FailsCleanly([&] { return op::Neg(u); }, {"Neg", "input 0", "uint8"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Relu(v); }, {"Relu", "input 0", "uint32"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Neg(b); }, {"Neg", "input 0", "bool"}));
}

TEST_F(OpsErrorsTest, MatMulRejectsUnsupportedTypes) {
  const Var a = Arg("a", DataType::kInt8, {2, 2});
  const Var b = Arg("b", DataType::kInt8, {2, 2});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(a, b); }, {"MatMul", "input 0", "int8"}));
  const Var c = Arg("c", DataType::kUint8, {2, 2});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(c, c); }, {"MatMul", "uint8"}));
  const Var d = Arg("d", DataType::kDouble, {3, 4});
  EXPECT_TRUE(
      FailsCleanly([&] { return op::MatMul(x_, d); }, {"MatMul", "input 1", "double", "float"}));
}

// The type check remembers the operand types it accepted (per schema); what it accepted for one
// call must never let another set of types through, whatever was accepted before and in between.
TEST_F(OpsErrorsTest, TypeChecksHoldAfterManyAcceptedCalls) {
  const std::vector<DataType> types = {DataType::kFloat, DataType::kDouble,  DataType::kInt32,
                                       DataType::kInt64, DataType::kFloat16, DataType::kInt8};
  std::vector<Var> args;
  for (DataType type : types) {
    args.push_back(Arg(absl::StrCat("t", static_cast<int>(type)), type, {2, 3}));
  }
  // Many accepted calls (more pairs than the check remembers), then every mixed pair refused.
  for (int round = 0; round < 3; ++round) {
    for (const Var& a : args) {
      ASSERT_TRUE(gg::make_node("Max", {a, a})[0].ok());
      ASSERT_TRUE(gg::make_node("Concat", {a, a, a}, {{"axis", int64_t{0}}})[0].ok());
      ASSERT_TRUE(gg::make_node("Clip", {a})[0].ok());
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    for (size_t j = 0; j < args.size(); ++j) {
      if (i == j) continue;
      EXPECT_TRUE(IsFailure(gg::make_node("Max", {args[i], args[j]})[0], {"Max", "input 1"}));
      EXPECT_TRUE(
          IsFailure(gg::make_node("Concat", {args[i], args[i], args[j]}, {{"axis", int64_t{0}}})[0],
                    {"Concat", "input 2"}));
      // Clip's min and max are optional: each position keeps its own type check.
      const Var bound = gg::make_node("Gather", {args[j], g_.constant(Tensor::scalar<int64_t>(0))},
                                      {{"axis", int64_t{1}}})[0];
      ASSERT_TRUE(bound.ok());
      const Var clipped_min = gg::make_node("Clip", {args[i], bound})[0];
      EXPECT_TRUE(IsFailure(clipped_min, {"Clip", "input 1"}));
      const Var clipped_max = gg::make_node("Clip", {args[i], Var(), bound})[0];
      EXPECT_TRUE(IsFailure(clipped_max, {"Clip", "input 2"}));
    }
  }
}

TEST_F(OpsErrorsTest, ReshapeWithAFloatShape) {
  const Var shape = g_.constant(Tensor::from_vector<float>({3, 2}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, shape); },
                           {"Reshape", "input 1 (shape)", "float"}));
  const Var int32_shape = Arg("int32_shape", DataType::kInt32, {2});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, int32_shape); },
                           {"Reshape", "input 1 (shape)", "int32"}));
}

TEST_F(OpsErrorsTest, ReshapeWithAShapeOfRankTwo) {
  const Var shape = g_.constant(Tensor::from_vector<int64_t>({3, 2}, {1, 2}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, shape); },
                           {"Reshape", "input 1 (shape)", "[1,2]"}));
  const Var scalar_shape = g_.constant(Tensor::scalar<int64_t>(6));
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Reshape(x_, scalar_shape); }, {"Reshape", "input 1 (shape)"}));
}

TEST_F(OpsErrorsTest, CastToUndefined) {
  EXPECT_TRUE(FailsCleanly([&] { return op::Cast(x_, DataType::kUndefined); },
                           {"Cast", "to", "undefined"}));
  // 14 is ONNX's complex128, which graphgc does not support.
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Cast(x_, static_cast<DataType>(14)); }, {"Cast", "to", "14"}));
}

// --- Shapes -----------------------------------------------------------------------------------

TEST_F(OpsErrorsTest, IncompatibleBroadcast) {
  const Var y = Arg("y", DataType::kFloat, {4});
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(x_, y); }, {"Add", "[2,3]", "[4]"}));
  const Var z = Arg("z", DataType::kFloat, {3, 3});
  EXPECT_TRUE(FailsCleanly([&] { return op::Mul(z, x_); }, {"Mul", "[3,3]", "[2,3]"}));
}

TEST_F(OpsErrorsTest, IncompatibleBroadcastWithConstants) {
  const Var a = g_.constant(Tensor::from_vector<int32_t>({1, 2, 3}));
  const Var b = g_.constant(Tensor::from_vector<int32_t>({1, 2}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Div(a, b); }, {"Div", "[3]", "[2]"}));
}

TEST_F(OpsErrorsTest, MatMulInnerDimensionMismatch) {
  const Var b = Arg("b", DataType::kFloat, {4, 5});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(x_, b); }, {"MatMul", "[2,3]", "[4,5]"}));
  const Var v = Arg("v", DataType::kFloat, {2});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(x_, v); }, {"MatMul", "[2,3]", "[2]"}));
}

TEST_F(OpsErrorsTest, MatMulBatchDimensionsDoNotBroadcast) {
  const Var a = Arg("a", DataType::kFloat, {2, 2, 3});
  const Var b = Arg("b", DataType::kFloat, {3, 3, 4});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(a, b); }, {"MatMul", "batch"}));
}

TEST_F(OpsErrorsTest, MatMulOfAScalar) {
  const Var s = Arg("s", DataType::kFloat, {});
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(s, x_); }, {"MatMul", "input 0", "scalar"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(x_, s); }, {"MatMul", "input 1", "scalar"}));
}

TEST_F(OpsErrorsTest, ReshapeElementCountMismatch) {
  const Var shape = Int64s({4});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, shape); }, {"Reshape", "[2,3]", "[4]"}));
  const Var indivisible = Int64s({4, -1});
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Reshape(x_, indivisible); }, {"Reshape", "[2,3]", "[4,-1]"}));
}

TEST_F(OpsErrorsTest, ReshapeWithTwoMinusOnes) {
  const Var shape = Int64s({-1, -1});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, shape); }, {"Reshape", "-1"}));
}

TEST_F(OpsErrorsTest, ReshapeInvalidEntries) {
  const Var negative = Int64s({-2, 3});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, negative); }, {"Reshape", "-2"}));
  // A 0 copies the input dim, so the input must have that dim.
  const Var copies_too_many = Int64s({0, 0, 0});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, copies_too_many); }, {"Reshape"}));
}

TEST_F(OpsErrorsTest, ReshapeAllowZeroRules) {
  // With allowzero=1 a 0 is a zero dim: 6 elements cannot become [0,6].
  const Var zero = Int64s({0, 6});
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Reshape(x_, zero, {.allowzero = 1}); }, {"Reshape", "[0,6]"}));
  // 0 and -1 together are invalid when allowzero=1.
  const Var both = Int64s({0, -1});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, both, {.allowzero = 1}); },
                           {"Reshape", "allowzero"}));
  const Var fine = Int64s({3, 2});
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, fine, {.allowzero = 2}); },
                           {"Reshape", "allowzero", "2"}));
}

// --- Bad operands -----------------------------------------------------------------------------

TEST_F(OpsErrorsTest, EmptyVarOperand) {
  const Var empty;
  EXPECT_FALSE(empty.ok());
  EXPECT_FALSE(empty.status().ok());
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(x_, empty); }, {"Add", "input 1", "empty"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(empty, x_); }, {"Add", "input 0", "empty"}));
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Reshape(x_, empty); }, {"Reshape", "input 1", "empty"}));
}

TEST_F(OpsErrorsTest, OnlyEmptyOperands) {
  const Var empty;
  EXPECT_TRUE(FailsCleanly([&] { return op::Neg(empty); }, {"Neg", "input 0", "empty"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(empty, Var()); }, {"MatMul", "empty"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Cast(empty, DataType::kFloat); }, {"Cast", "empty"}));
}

TEST_F(OpsErrorsTest, MovedFromVarOperand) {
  Var moved = op::Neg(x_);
  const Var taker = std::move(moved);
  EXPECT_TRUE(taker.ok());
  EXPECT_TRUE(FailsCleanly([&] { return op::Relu(moved); }, {"Relu", "input 0"}));  // NOLINT
}

TEST_F(OpsErrorsTest, FailedOperandChainsTheCause) {
  const Var d = Arg("d", DataType::kDouble, {2, 3});
  Var add;
  ASSERT_TRUE(FailsCleanly([&] { return op::Add(x_, d); }, {"Add", "double"}, &add));
  Var relu;
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Relu(add); }, {"Relu", "input 0", "Add", "double"}, &relu));
  EXPECT_EQ(relu.status().code(), add.status().code());
  EXPECT_TRUE(FailsCleanly([&] { return op::MatMul(x_, relu); },
                           {"MatMul", "input 1", "Relu", "Add", "double"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Cast(relu, DataType::kInt32); }, {"Cast", "Add"}));
}

TEST_F(OpsErrorsTest, VarsOfTwoGraphs) {
  Graph other;
  const Var y = other.argument("y", DataType::kFloat, {2, 3});
  const int64_t other_nodes = other.stats().nodes;
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(x_, y); }, {"Add", "input 1", "another Graph"}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(y, x_); }, {"Add", "input 1", "another Graph"}));
  EXPECT_EQ(other.stats().nodes, other_nodes);
  const Var other_shape = other.constant(Tensor::from_vector<int64_t>({6}));
  EXPECT_TRUE(FailsCleanly([&] { return op::Reshape(x_, other_shape); },
                           {"Reshape", "input 1", "another Graph"}));
  EXPECT_EQ(other.stats().nodes, other_nodes + 1);  // only the constant
  EXPECT_TRUE(op::Neg(y).ok());
  EXPECT_TRUE(gg::to_onnx(other, {{"y", y}}).ok());
}

TEST_F(OpsErrorsTest, VarOfADestroyedGraph) {
  Var orphan;
  Var orphan_constant;
  {
    Graph doomed;
    orphan = doomed.argument("a", DataType::kFloat, {2, 3});
    orphan_constant = doomed.constant(Tensor::from_vector<float>({1, 2}));
    ASSERT_TRUE(orphan.ok());
    ASSERT_TRUE(orphan_constant.value().has_value());
  }
  for (const Var* var : {&orphan, &orphan_constant}) {
    EXPECT_FALSE(var->ok());
    EXPECT_EQ(var->status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_EQ(var->dtype(), DataType::kUndefined);
    EXPECT_EQ(var->shape(), std::nullopt);
    EXPECT_FALSE(var->value().has_value());
  }
  const Var copy = orphan;  // copying and destroying handles of a dead graph is safe
  EXPECT_EQ(copy.status().code(), absl::StatusCode::kFailedPrecondition);

  Var neg;
  EXPECT_TRUE(FailsCleanly([&] { return op::Neg(orphan); }, {"Neg", "input 0", "destroyed"}, &neg));
  EXPECT_EQ(neg.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(FailsCleanly([&] { return op::Add(x_, orphan); }, {"Add", "input 1", "destroyed"}));
  EXPECT_TRUE(
      FailsCleanly([&] { return op::Add(orphan_constant, x_); }, {"Add", "input 0", "destroyed"}));
}

// --- Arguments --------------------------------------------------------------------------------

TEST_F(OpsErrorsTest, ArgumentWithAnEmptyName) {
  EXPECT_TRUE(
      FailsCleanly([&] { return g_.argument("", DataType::kFloat, {1}); }, {"argument", "empty"}));
}

TEST_F(OpsErrorsTest, ArgumentWithADuplicateName) {
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return g_.argument("x", DataType::kFloat, {2, 3});
      },
      {"argument", "'x'"}));
  EXPECT_TRUE(FailsCleanly([&] { return g_.argument_unranked("x", DataType::kInt64); },
                           {"argument", "'x'"}));
  const Var y = g_.argument("y", DataType::kFloat, {1});
  EXPECT_TRUE(y.ok());
}

TEST_F(OpsErrorsTest, ArgumentWithADimBelowMinusOne) {
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return g_.argument("d", DataType::kFloat, {2, -2});
      },
      {"argument", "'d'", "-2"}));
  // The name of a failed argument is not taken.
  EXPECT_TRUE(g_.argument("d", DataType::kFloat, {2, 2}).ok());
}

TEST_F(OpsErrorsTest, ArgumentWithAnUndefinedType) {
  EXPECT_TRUE(FailsCleanly([&] { return g_.argument("u", DataType::kUndefined, {2}); },
                           {"argument", "'u'"}));
}

TEST_F(OpsErrorsTest, ConstantOfAnEmptyTensor) {
  EXPECT_TRUE(FailsCleanly([&] { return g_.constant(Tensor()); }, {"Constant"}));
}

TEST_F(OpsErrorsTest, WindowsOfZeroStrideDilationOrSize) {
  // ONNX 1.12's inference divides by these: without the check, SIGFPE.
  const Var x = g_.argument("image", DataType::kFloat, {1, 1, 5, 5});
  const Var w = g_.argument("weights", DataType::kFloat, {1, 1, 3, 3});
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return op::Conv(x, w, Var(), {.strides = std::vector<int64_t>{0, 1}});
      },
      {"Conv", "'strides' has 0"}));
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return op::Conv(x, w, Var(), {.dilations = std::vector<int64_t>{1, 0}});
      },
      {"Conv", "'dilations' has 0"}));
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return op::AveragePool(x, {.kernel_shape = std::vector<int64_t>{2, -1}});
      },
      {"AveragePool", "'kernel_shape' has -1"}));
  EXPECT_TRUE(FailsCleanly(
      [&] {
        return op::MaxPool(x, {.kernel_shape = std::vector<int64_t>{2, 2},
                               .strides = std::vector<int64_t>{0, 0}})
            .Y;
      },
      {"MaxPool", "'strides' has 0"}));
}

TEST(GraphErrorsTest, MovedFromGraph) {
  Graph g;
  Graph taker = std::move(g);
  const Var a = g.argument("a", DataType::kFloat, {1});  // NOLINT(bugprone-use-after-move)
  EXPECT_FALSE(a.ok());
  EXPECT_FALSE(a.status().ok());
  EXPECT_FALSE(g.constant(Tensor::scalar<float>(1)).ok());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(taker.argument("a", DataType::kFloat, {1}).ok());
}

TEST(GraphErrorsTest, ErrorsDoNotThrow) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  EXPECT_NO_THROW({
    const Var bad = op::MatMul(op::Reshape(x, g.constant(Tensor::from_vector<int64_t>({5}))),
                               op::Cast(Var(), DataType::kUndefined));
    EXPECT_FALSE(bad.ok());
  });
}

}  // namespace
