// The calling convention of the generated op constructors (graphgc::op beyond ops.h,
// graphgc::opset1 ... opset24, graphgc::ml): checked at compile time on the signatures and at run
// time through make_node, on one op per rule of the convention.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset13.h"
#include "graphgc/opset/generated/opset14.h"
#include "graphgc/opset/generated/opset15.h"
#include "graphgc/opset/generated/opset16.h"
#include "graphgc/opset/generated/opset17.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
namespace ml = graphgc::ml;
using gg::DataType;
using gg::Graph;
using gg::Tensor;
using gg::Var;
using Dims = std::vector<int64_t>;

// Compile-time checks of the signatures.
static_assert(std::is_same_v<decltype(op::TopK(Var(), Var())), op::TopKOutputs>);
static_assert(std::is_same_v<decltype(op::Split(Var(), Var(), {}, 2)), std::vector<Var>>);
static_assert(std::is_same_v<decltype(op::Clip(Var())), Var>);
static_assert(std::is_same_v<decltype(op::Concat({Var(), Var()}, {.axis = 0})), Var>);
static_assert(std::is_same_v<decltype(op::Dropout(Var())), op::DropoutOutputs>);
static_assert(std::is_same_v<decltype(gg::opset13::Add(Var(), Var())), Var>);
// List attributes take a plain braced list (OptionalList), which std::optional could not.
static_assert(std::is_same_v<decltype(op::ConvAttributes{}.pads), gg::OptionalList<int64_t>>);
static_assert(std::is_same_v<decltype(op::ConvAttributes{}.auto_pad), std::optional<std::string>>);
static_assert(
    std::is_same_v<decltype(op::ConstantOfShapeAttributes{}.value), std::optional<Tensor>>);
static_assert(std::is_same_v<decltype(ml::BinarizerAttributes{}.threshold), std::optional<float>>);
// A schema's structs exist once, shared by the opsets that have the schema (Softmax's is opset
// 13's up to 17; BatchNormalization changed at 15).
static_assert(std::is_same_v<gg::opset14::SoftmaxAttributes, gg::opset17::SoftmaxAttributes>);
static_assert(std::is_same_v<gg::opset13::SoftmaxAttributes, op::SoftmaxAttributes>);
static_assert(std::is_same_v<gg::opset16::TopKOutputs, gg::opset17::TopKOutputs>);
// TopK changed at 24 (bfloat16), so op's is a schema of its own.
static_assert(!std::is_same_v<decltype(gg::opset17::TopK), decltype(op::TopK)>);
static_assert(op::TopK.opset == 24 && gg::opset13::TopK.opset == 13);
static_assert(!std::is_same_v<gg::opset14::BatchNormalizationAttributes,
                              gg::opset15::BatchNormalizationAttributes>);

std::optional<Dims> ShapeOf(const Var& var) { return var.shape(); }

class GeneratedOpsTest : public ::testing::Test {
 protected:
  Var Floats(const std::vector<float>& values, const Dims& shape) {
    return g_.constant(Tensor::from_vector<float>(values, shape));
  }
  Var Int64s(const Dims& values) { return g_.constant(Tensor::from_vector<int64_t>(values)); }

  Graph g_;
};

TEST_F(GeneratedOpsTest, MultipleOutputsBindToNamedFields) {
  Var x = Floats({1, 5, 3, 4}, {4});
  auto [values, indices] = op::TopK(x, Int64s({2}));
  ASSERT_TRUE(values.ok()) << values.status();
  ASSERT_TRUE(indices.ok()) << indices.status();
  EXPECT_EQ(values.dtype(), DataType::kFloat);
  EXPECT_EQ(indices.dtype(), DataType::kInt64);
  EXPECT_EQ(ShapeOf(values), Dims{2});
  EXPECT_EQ(ShapeOf(indices), Dims{2});

  op::TopKOutputs named = op::TopK(x, Int64s({1}), {.largest = 0});
  EXPECT_TRUE(named.Values.ok()) << named.Values.status();
  EXPECT_EQ(ShapeOf(named.Indices), Dims{1});
}

TEST_F(GeneratedOpsTest, OptionalInputsAreOmittedByDefault) {
  Var x = g_.argument("x", DataType::kFloat, {2, 3});
  Var clipped = op::Clip(x);
  ASSERT_TRUE(clipped.ok()) << clipped.status();
  EXPECT_EQ(ShapeOf(clipped), (Dims{2, 3}));

  // Only the upper bound: the lower one is passed as an empty Var.
  Var capped = op::Clip(x, Var(), Floats({1}, {}));
  ASSERT_TRUE(capped.ok()) << capped.status();
  EXPECT_EQ(ShapeOf(capped), (Dims{2, 3}));
}

TEST_F(GeneratedOpsTest, ConvWithoutBiasTakesDesignatedAttributes) {
  Var x = g_.argument("x", DataType::kFloat, {1, 1, 4, 4});
  Var w = g_.argument("w", DataType::kFloat, {1, 1, 3, 3});
  Var valid = op::Conv(x, w);
  ASSERT_TRUE(valid.ok()) << valid.status();
  EXPECT_EQ(ShapeOf(valid), (Dims{1, 1, 2, 2}));

  Var same = op::Conv(x, w, Var(), {.pads = {{1, 1, 1, 1}}, .strides = {{1, 1}}});
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(ShapeOf(same), (Dims{1, 1, 4, 4}));
}

TEST_F(GeneratedOpsTest, BracedInitializersFillOptionalFields) {
  op::ConvAttributes attributes{
      .auto_pad = "VALID", .group = 1, .pads = {{1, 1, 1, 1}}, .strides = {{2, 2}}};
  EXPECT_EQ(attributes.auto_pad, "VALID");
  EXPECT_EQ(attributes.group, 1);
  EXPECT_EQ(attributes.pads, (Dims{1, 1, 1, 1}));
  EXPECT_EQ(attributes.strides, (Dims{2, 2}));
  EXPECT_FALSE(attributes.dilations.has_value());
  EXPECT_FALSE(attributes.kernel_shape.has_value());

  op::ConstantOfShapeAttributes fill{.value = Tensor::from_vector<float>({7}, {1})};
  Var filled = op::ConstantOfShape(Int64s({2, 2}), fill);
  ASSERT_TRUE(filled.ok()) << filled.status();
  EXPECT_EQ(filled.dtype(), DataType::kFloat);
  EXPECT_EQ(ShapeOf(filled), (Dims{2, 2}));
}

TEST_F(GeneratedOpsTest, ListAttributesTakePlainBracedLists) {
  Var x = g_.argument("x", DataType::kFloat, {1, 1, 4, 4});
  Var w = g_.argument("w", DataType::kFloat, {1, 1, 3, 3});
  Var same = op::Conv(x, w, Var(), {.pads = {1, 1, 1, 1}, .strides = {1, 1}});
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(ShapeOf(same), (Dims{1, 1, 4, 4}));
  Var strided = op::Conv(x, w, Var(), {.strides = {2, 2}});
  EXPECT_EQ(ShapeOf(strided), (Dims{1, 1, 1, 1}));

  op::ConvAttributes unset;
  EXPECT_FALSE(unset.strides.has_value());
  EXPECT_TRUE(unset.strides.value().empty());  // an unset list reads as empty, never aborts
  op::ConvAttributes empty_braces{.strides = {}};
  EXPECT_FALSE(empty_braces.strides.has_value());
  const std::vector<int64_t> from_vector = {3, 3};
  op::ConvAttributes from_variables{.kernel_shape = from_vector,
                                    .strides = std::optional<std::vector<int64_t>>({1, 2})};
  EXPECT_EQ(*from_variables.kernel_shape, from_vector);
  EXPECT_EQ(from_variables.strides->at(1), 2);

  // Float lists take float, double and int literals; string lists take string literals.
  Var scaled = ml::Scaler(g_.constant(Tensor::from_vector<float>({1, 2}, {1, 2})),
                          {.offset = {0.5, 1.0}, .scale = {2, 3}});
  ASSERT_TRUE(scaled.ok()) << scaled.status();
  ASSERT_TRUE(scaled.value().has_value());
  const auto scaled_values = scaled.value()->data<float>();
  EXPECT_EQ(std::vector<float>(scaled_values.begin(), scaled_values.end()),
            (std::vector<float>{1.0f, 3.0f}));  // (x - offset) * scale
  Var words = op::StringNormalizer(
      g_.constant(Tensor::from_vector<std::string>({"the", "cat"}, {2})), {.stopwords = {"the"}});
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ(ShapeOf(words), (Dims{1}));
}

TEST_F(GeneratedOpsTest, VariadicInputTakesABracedList) {
  Var a = Floats({1, 2, 3, 4, 5, 6}, {2, 3});
  Var b = Floats({7, 8, 9}, {1, 3});
  Var joined = op::Concat({a, b}, {.axis = 0});
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_EQ(ShapeOf(joined), (Dims{3, 3}));

  Var total = op::Sum({a, a, a});
  ASSERT_TRUE(total.ok()) << total.status();
  EXPECT_EQ(ShapeOf(total), (Dims{2, 3}));
}

TEST_F(GeneratedOpsTest, VariadicOutputHasNumOutputsVars) {
  Var x = g_.argument("x", DataType::kFloat, {6, 2});
  // From opset 18 the attribute num_outputs (num_outputs_, beside the parameter) says how many
  // when no `split` input does.
  std::vector<Var> thirds = op::Split(x, Var(), {.axis = 0, .num_outputs_ = 3}, 3);
  ASSERT_EQ(thirds.size(), 3u);
  for (const Var& part : thirds) {
    ASSERT_TRUE(part.ok()) << part.status();
    EXPECT_EQ(ShapeOf(part), (Dims{2, 2}));
  }

  std::vector<Var> uneven = op::Split(x, Int64s({1, 5}), {}, 2);
  ASSERT_EQ(uneven.size(), 2u);
  EXPECT_EQ(ShapeOf(uneven[0]), (Dims{1, 2}));
  EXPECT_EQ(ShapeOf(uneven[1]), (Dims{5, 2}));
}

TEST_F(GeneratedOpsTest, OptionalOutputsAreMadeOnRequest) {
  Var x = g_.argument("x", DataType::kFloat, {2, 3});
  auto [output, mask] = op::Dropout(x);
  ASSERT_TRUE(output.ok()) << output.status();
  EXPECT_TRUE(mask.empty());

  auto [with_mask, requested] = op::Dropout(x, Var(), Var(), {}, /*num_outputs=*/2);
  ASSERT_TRUE(with_mask.ok()) << with_mask.status();
  ASSERT_TRUE(requested.ok()) << requested.status();
  EXPECT_EQ(requested.dtype(), DataType::kBool);
  EXPECT_EQ(ShapeOf(requested), (Dims{2, 3}));
}

TEST_F(GeneratedOpsTest, OpsWithoutInputsTakeTheGraph) {
  Var noise = op::RandomNormal(g_, {.shape = {{2, 3}}});
  ASSERT_TRUE(noise.ok()) << noise.status();
  EXPECT_EQ(noise.dtype(), DataType::kFloat);
  EXPECT_EQ(ShapeOf(noise), (Dims{2, 3}));

  Var constant = gg::opset13::Constant(g_, {.value_ints = {{1, 2, 3}}});
  ASSERT_TRUE(constant.ok()) << constant.status();
  EXPECT_EQ(constant.dtype(), DataType::kInt64);
  EXPECT_EQ(ShapeOf(constant), Dims{3});
}

TEST_F(GeneratedOpsTest, MlOpsUseTheMlDomain) {
  Var x = g_.argument("x", DataType::kFloat, {2, 3});
  Var normalized = ml::Normalizer(x, {.norm = "L2"});
  ASSERT_TRUE(normalized.ok()) << normalized.status();
  EXPECT_EQ(normalized.dtype(), DataType::kFloat);

  // ONNX 1.12 infers no shape for Binarizer; a Reshape gives the exported output a rank.
  Var binary = ml::Binarizer(x, {.threshold = 0.5f});
  ASSERT_TRUE(binary.ok()) << binary.status();
  EXPECT_EQ(binary.dtype(), DataType::kFloat);
  Var y = op::Reshape(binary, Int64s({3, 2}));
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g_, {{"y", y}});
  ASSERT_TRUE(model.ok()) << model.status();
  int64_t ml_opset = 0;
  for (const onnx::OperatorSetIdProto& opset : model->opset_import()) {
    if (opset.domain() == "ai.onnx.ml") ml_opset = opset.version();
  }
  EXPECT_EQ(ml_opset, 5);  // graphgc::ml is ai.onnx.ml 5, the newest
}

// The opset a model declares for ai.onnx.
int64_t OnnxOpset(const onnx::ModelProto& model) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (opset.domain().empty()) return opset.version();
  }
  return 0;
}

TEST_F(GeneratedOpsTest, VersionedNamespacesBuildAtTheirOpset) {
  Var x = g_.argument("x", DataType::kFloat, {2});
  Var old_sum = gg::opset13::Add(x, x);
  Var new_sum = gg::opset17::Add(x, x);
  ASSERT_TRUE(old_sum.ok()) << old_sum.status();
  ASSERT_TRUE(new_sum.ok()) << new_sum.status();

  absl::StatusOr<onnx::ModelProto> old_model = gg::to_onnx(g_, {{"y", old_sum}});
  ASSERT_TRUE(old_model.ok()) << old_model.status();
  EXPECT_EQ(OnnxOpset(*old_model), 13);
  absl::StatusOr<onnx::ModelProto> new_model = gg::to_onnx(g_, {{"y", new_sum}});
  ASSERT_TRUE(new_model.ok()) << new_model.status();
  EXPECT_EQ(OnnxOpset(*new_model), 17);

  // Add changed at opset 14, so one model cannot hold both.
  EXPECT_FALSE(gg::to_onnx(g_, {{"a", old_sum}, {"b", new_sum}}).ok());
}

TEST_F(GeneratedOpsTest, PinnedNodesRecordTheirOpsetWhenTheSchemaIsShared) {
  // Softmax's schema is opset 13's in opsets 13 to 24: one function object, bound to each opset.
  Var x = g_.argument("x", DataType::kFloat, {2, 3});
  const std::pair<int64_t, Var> pinned[] = {
      {13, gg::opset13::Softmax(x)}, {14, gg::opset14::Softmax(x, {.axis = 0})},
      {15, gg::opset15::Softmax(x)}, {16, gg::opset16::Softmax(x)},
      {17, gg::opset17::Softmax(x)}, {24, op::Softmax(x)}};
  for (const auto& [opset, y] : pinned) {
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(ShapeOf(y), (Dims{2, 3}));
    absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g_, {{"y", y}});
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_EQ(OnnxOpset(*model), opset);
  }
  // Nodes pinned to different opsets of one schema fit in one model, at the newest.
  absl::StatusOr<onnx::ModelProto> both =
      gg::to_onnx(g_, {{"a", pinned[0].second}, {"b", pinned[2].second}});
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(OnnxOpset(*both), 15);
}

TEST_F(GeneratedOpsTest, MissingRequiredAttributeFailsNamingOpAndAttribute) {
  Var a = Floats({1, 2}, {2});
  Var joined = op::Concat({a, a});
  ASSERT_FALSE(joined.ok());
  EXPECT_TRUE(absl::StrContains(joined.status().message(), "Concat")) << joined.status();
  EXPECT_TRUE(absl::StrContains(joined.status().message(), "axis")) << joined.status();
  EXPECT_TRUE(a.ok());
}

TEST_F(GeneratedOpsTest, FailureReachesEveryOutput) {
  Var ints = Int64s({1, 2, 3});
  auto [values, indices] = op::TopK(Var(), ints);
  EXPECT_FALSE(values.ok());
  EXPECT_FALSE(indices.ok());
  EXPECT_TRUE(absl::StrContains(values.status().message(), "TopK")) << values.status();
}

}  // namespace
