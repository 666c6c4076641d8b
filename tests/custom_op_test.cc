// Custom operators: registered with an inference function and an optional kernel, created through
// make_node, exported with their domain in opset_import.
#include "graphgc/opset/build/custom_op.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graphgc/graphgc.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/values/kernel_registry.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// "Twice": doubles a float tensor; typed like its input; kernel given.
CustomOp TwiceOp() {
  CustomOp op;
  op.domain = "com.graphgc.test";
  op.op_type = "Twice";
  op.min_inputs = op.max_inputs = 1;
  op.infer = [](const CustomOpContext& c) -> absl::StatusOr<std::vector<TensorType>> {
    if (c.inputs[0].dtype != DataType::kFloat) {
      return absl::InvalidArgumentError("input 0 must be float");
    }
    return std::vector<TensorType>{c.inputs[0]};
  };
  op.kernel = [](const CustomOpContext& c) -> std::optional<std::vector<Tensor>> {
    std::vector<float> out;
    for (float v : c.values[0]->data<float>()) out.push_back(2 * v);
    return std::vector<Tensor>{Tensor::from_vector<float>(out, c.values[0]->shape())};
  };
  return op;
}

class CustomOpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(register_op(TwiceOp()).ok()); }
};

TEST_F(CustomOpTest, InfersPropagatesAndExports) {
  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({1, 2, 3}));
  std::vector<Var> y = make_node("Twice", {x}, {}, {.domain = "com.graphgc.test"});
  ASSERT_TRUE(y[0].ok()) << y[0].status();
  EXPECT_EQ(y[0].shape(), (std::vector<int64_t>{3}));
  EXPECT_THAT(y[0].value()->data<float>(), ElementsAre(2, 4, 6));
  Var z = op::Relu(y[0]);
  auto model = to_onnx(g, {{"z", z}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->opset_import_size(), 2);
  EXPECT_EQ(model->opset_import(1).domain(), "com.graphgc.test");
  EXPECT_EQ(model->opset_import(1).version(), 1);
  EXPECT_EQ(model->graph().node(1).domain(), "com.graphgc.test");
  EXPECT_EQ(SupportedOpsetVersion("com.graphgc.test"), 1);
}

// Only a kernel that says so may have its values dropped and computed again; the default is not.
TEST_F(CustomOpTest, ItsKernelIsDeterministicOnlyWhenDeclared) {
  CustomOp declared = TwiceOp();
  declared.op_type = "TwiceDeclared";
  declared.version = 3;
  declared.deterministic = true;
  ASSERT_TRUE(register_op(declared).ok());
  const internal::ResolvedOp* twice = internal::ResolveOp("com.graphgc.test", "Twice", 1);
  const internal::ResolvedOp* twice_declared =
      internal::ResolveOp("com.graphgc.test", "TwiceDeclared", 3);
  EXPECT_FALSE(twice->deterministic);
  EXPECT_TRUE(twice_declared->deterministic);
  EXPECT_EQ(twice->since_version, 1);
  EXPECT_EQ(twice_declared->since_version, 3);
  ASSERT_NE(twice_declared->kernel, nullptr);
}

TEST_F(CustomOpTest, ItsInferenceErrorsAndArityAreReported) {
  Graph g;
  Var i = g.argument("i", DataType::kInt32, {2});
  EXPECT_THAT(
      std::string(
          make_node("Twice", {i}, {}, {.domain = "com.graphgc.test"})[0].status().message()),
      HasSubstr("Twice: input 0 must be float"));
  EXPECT_THAT(
      std::string(
          make_node("Twice", {i, i}, {}, {.domain = "com.graphgc.test"})[0].status().message()),
      HasSubstr("2 inputs"));
  EXPECT_THAT(
      std::string(
          make_node("Thrice", {i}, {}, {.domain = "com.graphgc.test"})[0].status().message()),
      HasSubstr("no such operator"));
}

TEST_F(CustomOpTest, RegistrationIsValidated) {
  EXPECT_EQ(register_op(TwiceOp()).code(), absl::StatusCode::kAlreadyExists);
  CustomOp reserved = TwiceOp();
  reserved.domain = "ai.onnx.ml";
  EXPECT_FALSE(register_op(reserved).ok());
  reserved.domain = "ai.onnx.training";  // ONNX's checker rejects every op of it
  EXPECT_FALSE(register_op(reserved).ok());
  CustomOp no_infer = TwiceOp();
  no_infer.op_type = "NoInfer";
  no_infer.infer = nullptr;
  EXPECT_FALSE(register_op(no_infer).ok());
  CustomOp bad_arity = TwiceOp();
  bad_arity.op_type = "BadArity";
  bad_arity.max_inputs = -1;
  EXPECT_FALSE(register_op(bad_arity).ok());
}

}  // namespace
}  // namespace graphgc
