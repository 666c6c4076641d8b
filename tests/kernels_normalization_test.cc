// Value propagation of the normalization family (opset/kernels/normalization/) where ONNX's node
// test data says nothing: BatchNormalization at every version (is_test, spatial = 0, training
// with its running and saved statistics, mixed parameter types of opset 15, the ambiguous modes
// that get no value), InstanceNormalization and LRN on each floating type, even LRN sizes, empty
// tensors, the op failing on bad attributes, and the value budget. Expected values by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

template <class T>
Var Values(Graph& g, const std::vector<double>& values, const std::vector<int64_t>& shape) {
  return Const<T>(g, ValuesOf<T>(values), shape);
}

template <class T>
double Tolerance() {
  return kIsHalf<T> ? 1e-2 : 1e-6;
}

template <class T>
class NormalizationTypedTest : public ::testing::Test {};
TYPED_TEST_SUITE(NormalizationTypedTest, FloatElementTypes);

// x [1, 2, 1, 2], per channel: mean 1.5 / 3.5, var 0.25, scale 1 / 2, B 0 / 1.
TYPED_TEST(NormalizationTypedTest, BatchNormalizationInference) {
  using T = TypeParam;
  Graph g;
  const Var x = Values<T>(g, {1, 2, 3, 4}, {1, 2, 1, 2});
  const Var scale = Values<T>(g, {1, 2}, {2});
  const Var bias = Values<T>(g, {0, 1}, {2});
  const Var mean = Values<T>(g, {1.5, 3.5}, {2});
  const Var var = Values<T>(g, {0.25, 0.25}, {2});
  const Var y =
      One(NodeAt("BatchNormalization", {x, scale, bias, mean, var}, {{"epsilon", 0.0f}}, 15));
  EXPECT_TRUE(HasValues<T>(y, {-1, 1, -1, 3}, {1, 2, 1, 2}, Tolerance<T>()));
}

TYPED_TEST(NormalizationTypedTest, InstanceNormalization) {
  using T = TypeParam;
  Graph g;
  const Var x = Values<T>(g, {1, 3, 2, 6}, {1, 2, 2});
  const Var y =
      One(NodeAt("InstanceNormalization", {x, Values<T>(g, {2, 3}, {2}), Values<T>(g, {0, 1}, {2})},
                 {{"epsilon", 0.0f}}, 6));
  if constexpr (std::is_same_v<T, BFloat16>) {
    EXPECT_TRUE(IsRefusedFor(y, "bfloat16"));  // not in its schema's types
  } else {
    EXPECT_TRUE(HasValues<T>(y, {-2, 2, -2, 4}, {1, 2, 2}, Tolerance<T>()));
  }
}

TYPED_TEST(NormalizationTypedTest, LrnWithOddAndEvenSizes) {
  using T = TypeParam;
  Graph g;
  const Var x = Values<T>(g, {1, 2, 3}, {1, 3, 1, 1});
  const std::vector<gg::Attribute> unit = {{"alpha", 1.0f}, {"beta", 1.0f}, {"bias", 1.0f}};
  auto lrn = [&](int64_t size) {
    std::vector<gg::Attribute> attributes = unit;
    attributes.push_back({"size", size});
    return One(NodeAt("LRN", {x}, attributes, 13));
  };
  // size 3: channels c-1 .. c+1; size 2: channels c .. c+1.
  EXPECT_TRUE(HasValues<T>(lrn(3), {1 / (1 + 5 / 3.0), 2 / (1 + 14 / 3.0), 3 / (1 + 13 / 3.0)},
                           {1, 3, 1, 1}, Tolerance<T>()));
  EXPECT_TRUE(HasValues<T>(lrn(2), {1 / 3.5, 2 / 7.5, 3 / 5.5}, {1, 3, 1, 1}, Tolerance<T>()));
}

// x [2, 1, 2] = 1, 2, 3, 4: batch mean 2.5, population variance 1.25.
struct TrainingCase {
  std::vector<double> y;
  double running_mean = 0 * 0.9 + 2.5 * 0.1;
  double running_var = 1 * 0.9 + 1.25 * 0.1;
  TrainingCase() {
    for (double x : {1.0, 2.0, 3.0, 4.0}) y.push_back((x - 2.5) / std::sqrt(1.25) * 2 + 1);
  }
};

std::vector<Var> TrainingInputs(Graph& g) {
  return {Const<float>(g, {1, 2, 3, 4}, {2, 1, 2}), Const<float>(g, {2}, {1}),
          Const<float>(g, {1}, {1}), Const<float>(g, {0}, {1}), Const<float>(g, {1}, {1})};
}

TEST(BatchNormalizationTest, TrainingModeGivesRunningStatistics) {
  Graph g;
  const TrainingCase want;
  const std::vector<Var> y = NodeAt("BatchNormalization", TrainingInputs(g),
                                    {{"epsilon", 0.0f}, {"training_mode", int64_t{1}}}, 15, 3);
  EXPECT_TRUE(HasValues<float>(y[0], want.y, {2, 1, 2}));
  EXPECT_TRUE(HasValues<float>(y[1], {want.running_mean}, {1}));
  EXPECT_TRUE(HasValues<float>(y[2], {want.running_var}, {1}));
}

TEST(BatchNormalizationTest, Opset9TrainingGivesSavedMeanButNotSavedVar) {
  // ONNX calls output 4 the saved variance, ONNX Runtime writes the inverse std there.
  Graph g;
  const TrainingCase want;
  const std::vector<Var> y =
      NodeAt("BatchNormalization", TrainingInputs(g), {{"epsilon", 0.0f}}, 9, 5);
  EXPECT_TRUE(HasValues<float>(y[0], want.y, {2, 1, 2}));
  EXPECT_TRUE(HasValues<float>(y[1], {want.running_mean}, {1}));
  EXPECT_TRUE(HasValues<float>(y[2], {want.running_var}, {1}));
  EXPECT_TRUE(HasValues<float>(y[3], {2.5}, {1}));
  EXPECT_TRUE(HasNoValue(y[4]));
}

TEST(BatchNormalizationTest, Opset6NeedsIsTest) {
  Graph g;
  const std::vector<Var> inputs = TrainingInputs(g);
  EXPECT_TRUE(HasNoValue(One(NodeAt("BatchNormalization", inputs, {}, 6))));
  // Inference with mean 0, var 1: y = x * 2 + 1 (epsilon 0).
  EXPECT_TRUE(HasValues<float>(
      One(NodeAt("BatchNormalization", inputs, {{"is_test", int64_t{1}}, {"epsilon", 0.0f}}, 6)),
      {3, 5, 7, 9}, {2, 1, 2}));
}

TEST(BatchNormalizationTest, Opset7NonSpatialNormalizesEachElement) {
  Graph g;
  const Var x = Const<float>(g, {3, 5}, {1, 1, 2});
  const std::vector<int64_t> shape = {1, 2};
  const Var y = One(NodeAt("BatchNormalization",
                           {x, Const<float>(g, {1, 2}, shape), Const<float>(g, {0, 0}, shape),
                            Const<float>(g, {0, 1}, shape), Const<float>(g, {1, 4}, shape)},
                           {{"epsilon", 0.0f}, {"spatial", int64_t{0}}}, 7));
  EXPECT_TRUE(HasValues<float>(y, {3, 4}, {1, 1, 2}));
}

TEST(BatchNormalizationTest, Opset15MixesParameterTypes) {
  Graph g;
  const Var x = Values<Float16>(g, {1, 2, 3, 4}, {1, 2, 1, 2});
  const Var y = One(NodeAt("BatchNormalization",
                           {x, Const<float>(g, {1, 2}, {2}), Const<float>(g, {0, 1}, {2}),
                            Const<double>(g, {1.5, 3.5}, {2}), Const<double>(g, {0.25, 0.25}, {2})},
                           {{"epsilon", 0.0f}}, 15));
  EXPECT_TRUE(HasValues<Float16>(y, {-1, 1, -1, 3}, {1, 2, 1, 2}));
}

TEST(BatchNormalizationTest, EmptyBatchAndNaN) {
  Graph g;
  const Var scale = Const<float>(g, {1}, {1});
  const Var zero = Const<float>(g, {0}, {1});
  const Var empty = One(NodeAt("BatchNormalization",
                               {Const<float>(g, {}, {0, 1, 3}), scale, zero, zero, scale}, {}, 15));
  EXPECT_TRUE(HasValues<float>(empty, {}, {0, 1, 3}));
  const Var nan = One(NodeAt("BatchNormalization",
                             {Const<float>(g, {NAN, 1}, {1, 1, 2}), scale, zero, zero, scale},
                             {{"epsilon", 0.0f}}, 15));
  EXPECT_TRUE(HasValues<float>(nan, {NAN, 1}, {1, 1, 2}));
}

TEST(LrnTest, NonPositiveSizeFails) {
  Graph g;
  const Var y = One(NodeAt("LRN", {Const<float>(g, {1, 2}, {1, 2})}, {{"size", int64_t{0}}}, 13));
  EXPECT_TRUE(FailsWith(y, {"size", "0"}));
}

TEST(NormalizationBudgetTest, PastTheBudgetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 32});
  const Var x = Const<float>(g, std::vector<float>(64, 1.0f), {1, 4, 16});
  const Var four = Const<float>(g, {1, 1, 1, 1}, {4});
  EXPECT_TRUE(HasNoValue(One(NodeAt("LRN", {x}, {{"size", int64_t{3}}}, 13))));
  EXPECT_TRUE(HasNoValue(One(NodeAt("InstanceNormalization", {x, four, four}, {}, 6))));
  EXPECT_TRUE(HasNoValue(One(NodeAt("BatchNormalization", {x, four, four, four, four}, {}, 15))));
}

}  // namespace

// GroupNormalization-21: scale and bias per channel; the statistics per group of channels.
// The values are ONNX Runtime 1.32's.
TEST(GroupNormalizationTest, Opset21ScalesPerChannel) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 4, 2});
  const Var scale = Const<float>(g, {1, 2, 1, 0.5}, {4});
  const Var bias = Const<float>(g, {0, 0, 1, -1}, {4});
  const Var y = One(NodeAt("GroupNormalization", {x, scale, bias},
                           {{"num_groups", int64_t{2}}, {"epsilon", 0.0f}}, 21));
  ASSERT_TRUE(y.ok()) << y.status();
  const double r = 1 / std::sqrt(1.25);  // each group: mean 2.5 (6.5), variance 1.25
  EXPECT_TRUE(HasValues<float>(y,
                               {-1.5 * r, -0.5 * r, 2 * 0.5 * r, 2 * 1.5 * r, -1.5 * r + 1,
                                -0.5 * r + 1, 0.25 * r - 1, 0.75 * r - 1},
                               {1, 4, 2}, 1e-5));
  // It exports at its opset: what the differential test runs in ONNX Runtime.
  const Var argument = g.argument("x", DataType::kFloat, {1, 4, 2});
  const Var z =
      One(NodeAt("GroupNormalization", {argument, scale, bias}, {{"num_groups", int64_t{2}}}, 21));
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, {{"z", z}});
  EXPECT_TRUE(model.ok()) << model.status();
}
