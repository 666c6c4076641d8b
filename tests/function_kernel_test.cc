// Function ops without a kernel of their own get values by expanding ONNX's function body.
#include "graphgc/opset/values/function_kernel.h"

#include <cmath>

#include "graphgc/graphgc.h"
#include "gtest/gtest.h"

namespace graphgc {
namespace {

using kernels::KernelAttribute;
using kernels::KernelCall;
using kernels::KernelContext;
using kernels::OutputSpec;

kernels::KernelResult RunBody(const char* op, int version,
                              std::vector<std::optional<Tensor>> inputs,
                              std::vector<KernelAttribute> attributes,
                              std::vector<OutputSpec> outputs) {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, version, "");
  EXPECT_NE(schema, nullptr);
  std::optional<kernels::Kernel> kernel = internal::FunctionBodyKernel(*schema);
  EXPECT_TRUE(kernel.has_value());
  std::vector<const Tensor*> views;
  for (const std::optional<Tensor>& input : inputs) {
    views.push_back(input.has_value() ? &*input : nullptr);
  }
  KernelCall call;
  call.op_type = op;
  call.version = schema->since_version();
  call.inputs = views;
  call.attributes = attributes;
  call.outputs = outputs;
  return (*kernel)(KernelContext(call));
}

TEST(FunctionKernelTest, CeluExpandsItsBody) {
  const Tensor x = Tensor::from_vector<float>({-2.0f, -0.5f, 0.0f, 1.5f}, {4});
  kernels::KernelResult result =
      RunBody("Celu", 17, {x}, {{"alpha", 2.0f}}, {{DataType::kFloat, Shape{4}}});
  ASSERT_TRUE(result.ok()) << result.status();
  // Celu's body is Div, Elu and Mul: without Elu's kernel it has no value (never a wrong one).
  ASSERT_EQ((*result)[0].has_value(), has_kernel("Elu"));
  if (!has_kernel("Elu")) return;
  auto y = (*result)[0]->data<float>();
  const float in[] = {-2.0f, -0.5f, 0.0f, 1.5f};
  for (int i = 0; i < 4; ++i) {
    const float expected =
        std::max(0.0f, in[i]) + std::min(0.0f, 2.0f * (std::exp(in[i] / 2.0f) - 1));
    EXPECT_NEAR(y[i], expected, 1e-6) << i;
  }
}

TEST(FunctionKernelTest, CastLikeBuildsItsContextDependentBody) {
  const Tensor x = Tensor::from_vector<float>({1.5f, -2.25f}, {2});
  const Tensor like = Tensor::scalar<double>(0.0);
  kernels::KernelResult result =
      RunBody("CastLike", 15, {x, like}, {}, {{DataType::kDouble, Shape{2}}});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_TRUE((*result)[0].has_value());
  EXPECT_EQ(*(*result)[0], Tensor::from_vector<double>({1.5, -2.25}, {2}));
}

TEST(FunctionKernelTest, MissingInputsDecline) {
  // Celu's body reads its input X; without it there is nothing to compute.
  kernels::KernelResult result =
      RunBody("Celu", 17, {std::nullopt}, {}, {{DataType::kFloat, Shape{1}}});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(kernels::MeansNoValue(result.status())) << result.status();
}

TEST(FunctionKernelTest, ThroughMakeNode) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3}, {3}));
  const Var like = g.constant(Tensor::scalar<int32_t>(0));
  std::vector<Var> y = make_node("CastLike", {x, like});
  ASSERT_TRUE(y[0].ok()) << y[0].status();
  ASSERT_TRUE(y[0].value().has_value());
  EXPECT_EQ(*y[0].value(), Tensor::from_vector<int32_t>({1, 2, 3}, {3}));
}

}  // namespace
}  // namespace graphgc
