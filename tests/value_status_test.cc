// Var::value_status: OK with a value, otherwise why there is none, naming the op.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;

std::string Why(const Var& var) {
  EXPECT_FALSE(var.value().has_value());
  return std::string(var.value_status().message());
}

TEST(ValueStatusTest, OkWithAValue) {
  Graph g;
  Var c = g.constant(Tensor::from_vector<float>({1, -2}));
  EXPECT_TRUE(c.value_status().ok());
  EXPECT_TRUE(op::Relu(c).value_status().ok());
}

TEST(ValueStatusTest, ArgumentsAndTheChainsThatStartThere) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  Var c = g.constant(Tensor::from_vector<float>({1, -2}));
  EXPECT_THAT(Why(x), HasSubstr("'x' is an argument (a graph input), known only at run time"));
  EXPECT_THAT(Why(op::Add(c, x)),
              HasSubstr("no value: input 1 of Add has no value: 'x' is an argument"));
  Var chain = op::Relu(op::Neg(op::Abs(op::Add(x, c))));
  EXPECT_THAT(Why(chain), HasSubstr("no value: input 0 of Relu has no value; 4 inputs without "
                                    "values back up the chain: 'x' is an argument"));
}

TEST(ValueStatusTest, PropagationOff) {
  GraphOptions options;
  options.propagate_values = false;
  Graph g(options);
  Var c = g.constant(Tensor::from_vector<float>({1, -2}));
  EXPECT_THAT(Why(op::Relu(c)), HasSubstr("value propagation is off"));
}

TEST(ValueStatusTest, RandomOps) {
  Graph g;
  Var c = g.constant(Tensor::from_vector<float>({1, -2}));
  EXPECT_THAT(Why(op::RandomNormalLike(c)), HasSubstr("RandomNormalLike is random"));
  EXPECT_THAT(Why(op::Relu(op::RandomUniformLike(c))),
              HasSubstr("input 0 of Relu has no value: RandomUniformLike is random"));
  // A function op whose body is random is random too, and says it has no kernel for values.
  Var p = g.constant(Tensor::from_vector<float>({0.25f, 0.75f}));
  EXPECT_THAT(Why(op::Bernoulli(p)), HasSubstr("Bernoulli is random"));
  EXPECT_FALSE(has_kernel("Bernoulli"));
  EXPECT_TRUE(has_kernel("Relu"));
}

TEST(ValueStatusTest, NoKernel) {
  CustomOp op;
  op.domain = "com.graphgc.value_status_test";
  op.op_type = "Opaque";
  op.min_inputs = op.max_inputs = 1;
  op.infer = [](const CustomOpContext& c) -> absl::StatusOr<std::vector<TensorType>> {
    return std::vector<TensorType>{c.inputs[0]};
  };
  ASSERT_TRUE(register_op(op).ok());
  Graph g;
  Var c = g.constant(Tensor::from_vector<float>({1, -2}));
  std::vector<Var> out = make_node("Opaque", {c}, {}, {.domain = op.domain});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_THAT(Why(out[0]), HasSubstr("graphgc has no kernel for "
                                     "com.graphgc.value_status_test.Opaque at opset 1"));
  EXPECT_EQ(out[0].value_status().code(), absl::StatusCode::kUnimplemented);
}

TEST(ValueStatusTest, OutputsOverMaxValueBytes) {
  GraphOptions options;
  options.max_value_bytes = 100;
  Graph g(options);
  Var c = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
  EXPECT_THAT(Why(op::Neg(c)), HasSubstr("the output of Neg would be 4000 bytes, over "
                                         "GraphOptions::max_value_bytes (100)"));
}

// The budget is a node's: when one output is over it, no output gets a value, and each says so.
TEST(ValueStatusTest, OutputsOfOneNodeShareTheBudget) {
  GraphOptions options;
  options.max_value_bytes = 50;  // TopK's 10 float values fit, its 10 int64 indices do not
  Graph g(options);
  Var x = g.constant(Tensor::zeros(DataType::kFloat, {20}));
  auto [values, indices] = op::TopK(x, g.constant(Tensor::from_vector<int64_t>({10})));
  ASSERT_TRUE(values.ok()) << values.status();
  EXPECT_THAT(Why(values), HasSubstr("the outputs of TopK would be 120 bytes, over "
                                     "GraphOptions::max_value_bytes (50)"));
  EXPECT_THAT(Why(indices), HasSubstr("the outputs of TopK would be 120 bytes"));
}

TEST(ValueStatusTest, LiveValueBudget) {
  GraphOptions options;
  options.max_live_value_bytes = 6000;
  Graph g(options);
  Var c = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
  Var first = op::Neg(c);   // 4000 bytes: within the budget
  Var second = op::Abs(c);  // 4000 more: over it while `first` lives
  EXPECT_TRUE(first.value_status().ok());
  EXPECT_THAT(Why(second), HasSubstr("to keep live values under "
                                     "GraphOptions::max_live_value_bytes (6000)"));
}

TEST(ValueStatusTest, KernelsThatGiveNoValueForSomeInputs) {
  Graph g;
  // ONNX's inference and ONNX Runtime disagree on NonZero of a scalar.
  Var nonzero = op::NonZero(g.constant(Tensor::scalar<float>(3)));
  ASSERT_TRUE(nonzero.ok()) << nonzero.status();
  EXPECT_THAT(Why(nonzero), HasSubstr("NonZero's kernel gives none for these inputs"));
}

TEST(ValueStatusTest, FailedAndEmptyVars) {
  Graph g;
  Var failed = op::Add(g.constant(Tensor::from_vector<float>({1, 2})),
                       g.constant(Tensor::from_vector<int64_t>({1, 2})));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.value_status(), failed.status());
  EXPECT_FALSE(Var().value_status().ok());
}

}  // namespace
}  // namespace graphgc
