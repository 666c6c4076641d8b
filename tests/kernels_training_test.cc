// Values of the ai.onnx.preview.training optimizers (Adagrad, Momentum, Adam), checked against
// ONNX's reference evaluator (onnx 1.23, onnx.reference; ONNX Runtime has no kernels for them):
// two tensors ([2] and [1]) optimized in one node, R = 0.1, float. Also how the kernels refuse
// malformed calls: a status naming the op, never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

constexpr char kTraining[] = "ai.onnx.preview.training";
constexpr double kTolerance = 1e-6;

// R, T, X1, X2, G1, G2, then `states` states per tensor (state s of X1 is [0.25, 1] * (s + 1),
// of X2 [4] * (s + 1)): the inputs the reference was given.
std::vector<Var> Inputs(Graph& g, int64_t count, int states) {
  std::vector<Var> inputs = {Scalar<float>(g, 0.1f),          Scalar<int64_t>(g, count),
                             Const<float>(g, {1, -2}, {2}),   Const<float>(g, {0.5}, {1}),
                             Const<float>(g, {0.5, -1}, {2}), Const<float>(g, {2}, {1})};
  for (int s = 1; s <= states; ++s) {
    inputs.push_back(Const<float>(g, {0.25f * s, 1.0f * s}, {2}));
    inputs.push_back(Const<float>(g, {4.0f * s}, {1}));
  }
  return inputs;
}

std::vector<Var> Optimize(const std::string& op, const std::vector<Var>& inputs,
                          const std::vector<Attribute>& attributes, int outputs) {
  return make_node(op, inputs, attributes,
                   {.domain = kTraining, .version = 1, .num_outputs = outputs});
}

TEST(TrainingKernels, AdagradDecaysTheRateAndAccumulatesSquares) {
  Graph g;
  const std::vector<Var> y =
      Optimize("Adagrad", Inputs(g, 2, 1),
               {{"decay_factor", 0.5f}, {"epsilon", 1e-3f}, {"norm_coefficient", 0.1f}}, 4);
  ASSERT_EQ(y.size(), 4u);
  EXPECT_TRUE(HasValues<float>(y[0], {0.961638033, -1.96161354}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[1], {0.464223385}, {1}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[2], {0.610000014, 2.44000006}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[3], {8.20249939}, {1}, kTolerance));
}

TEST(TrainingKernels, MomentumStandardAtTheFirstUpdateAndNesterovLater) {
  Graph g;
  const std::vector<Var> standard = Optimize("Momentum", Inputs(g, 0, 1),
                                             {{"alpha", 0.9f},
                                              {"beta", 0.5f},
                                              {"mode", std::string("standard")},
                                              {"norm_coefficient", 0.1f}},
                                             4);
  EXPECT_TRUE(HasValues<float>(standard[0], {0.917500019, -1.97000003}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(standard[1], {-0.0649999976}, {1}, kTolerance));
  EXPECT_TRUE(HasValues<float>(standard[2], {0.825000048, -0.300000072}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(standard[3], {5.64999962}, {1}, kTolerance));
  const std::vector<Var> nesterov = Optimize("Momentum", Inputs(g, 3, 1),
                                             {{"alpha", 0.9f},
                                              {"beta", 0.5f},
                                              {"mode", std::string("nesterov")},
                                              {"norm_coefficient", 0.0f}},
                                             4);
  EXPECT_TRUE(HasValues<float>(nesterov[0], {0.907249987, -1.93599999}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(nesterov[1], {-0.114000022}, {1}, kTolerance));
  EXPECT_TRUE(HasValues<float>(nesterov[2], {0.474999994, 0.399999976}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(nesterov[3], {4.5999999}, {1}, kTolerance));
}

TEST(TrainingKernels, AdamCorrectsTheBiasOfBothMomentums) {
  Graph g;
  const std::vector<Var> y = Optimize("Adam", Inputs(g, 2, 2),
                                      {{"alpha", 0.9f},
                                       {"beta", 0.99f},
                                       {"epsilon", 1e-3f},
                                       {"norm_coefficient", 0.1f},
                                       {"norm_coefficient_post", 0.01f}},
                                      6);
  ASSERT_EQ(y.size(), 6u);
  EXPECT_TRUE(HasValues<float>(y[0], {0.960374773, -2.02056861}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[1], {0.395917535}, {1}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[2], {0.285000026, 0.779999971}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[3], {3.80499983}, {1}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[4], {0.498600006, 1.99440002}, {2}, kTolerance));
  EXPECT_TRUE(HasValues<float>(y[5], {7.96202517}, {1}, kTolerance));
}

TEST(TrainingKernels, MalformedCallsAreStatusesNamingTheOp) {
  Graph g;
  // Five inputs after R and T do not group into X, G, H triples.
  std::vector<Var> odd = Inputs(g, 1, 1);
  odd.pop_back();
  for (const Var& y : Optimize("Adagrad", odd, {}, 2)) {
    EXPECT_FALSE(y.ok() && y.value().has_value());
  }
  // A gradient of another shape than its tensor.
  std::vector<Var> mismatched = Inputs(g, 1, 1);
  mismatched[4] = Const<float>(g, {1, 2, 3}, {3});
  const std::vector<Var> y =
      Optimize("Momentum", mismatched, {{"mode", std::string("standard")}}, 4);
  ASSERT_FALSE(y.empty());
  EXPECT_FALSE(y[0].ok() && y[0].value().has_value());
  if (!y[0].ok())
    EXPECT_NE(std::string(y[0].status().message()).find("Momentum"), std::string::npos);
  // The domain's ops are ONNX's: a custom op may not be registered in it.
  graphgc::CustomOp custom;
  custom.domain = kTraining;
  custom.op_type = "Mine";
  custom.version = 1;
  custom.infer = [](const graphgc::CustomOpContext&) {
    return absl::StatusOr<std::vector<graphgc::TensorType>>(
        std::vector<graphgc::TensorType>{{DataType::kFloat, Dims{1}}});
  };
  const absl::Status refused = graphgc::register_op(custom);
  EXPECT_NE(std::string(refused.message()).find("reserved"), std::string::npos) << refused;
}

TEST(TrainingKernels, ExportedModelsDeclareTheDomain) {
  Graph g;
  const std::vector<Var> y = Optimize("Adagrad", Inputs(g, 2, 1), {{"epsilon", 1e-3f}}, 4);
  absl::StatusOr<onnx::ModelProto> model = graphgc::to_onnx(g, {{"x1", y[0]}, {"h1", y[2]}});
  ASSERT_TRUE(model.ok()) << model.status();
  bool declared = false;
  for (const auto& opset : model->opset_import()) {
    declared = declared || (opset.domain() == kTraining && opset.version() == 1);
  }
  EXPECT_TRUE(declared);
}

}  // namespace
