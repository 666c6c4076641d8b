// Fusions: each rewrite gives a checker-valid model that computes what the original computed (both
// evaluated by graphgc's own propagation), and every condition that makes a rewrite inexact leaves
// the model byte for byte as it was.
#include "graphgc/export/fold/fusions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <exception>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "onnx/checker.h"

namespace graphgc {
namespace {

using internal::ApplyFusions;
using internal::FusionCounts;
using ::testing::HasSubstr;

Tensor Random(std::vector<int64_t> shape, uint32_t seed, float low = -1, float high = 1) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& value : values) value = distribution(generator);
  return Tensor::from_vector<float>(std::move(values), shape);
}

void DeclareTensor(onnx::ValueInfoProto* info, const std::string& name, int32_t type,
                   const std::vector<int64_t>& dims) {
  info->set_name(name);
  onnx::TypeProto::Tensor* tensor = info->mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(type);
  tensor->mutable_shape();
  for (int64_t dim : dims) tensor->mutable_shape()->add_dim()->set_dim_value(dim);
}

// A model written proto by proto, so that every attribute and name is exactly what a test says.
class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset) {
    model_.set_ir_version(8);
    model_.add_opset_import()->set_version(opset);
    model_.mutable_graph()->set_name("fusions_test");
  }

  ModelBuilder& Input(const std::string& name, const std::vector<int64_t>& dims,
                      int32_t type = onnx::TensorProto::FLOAT) {
    DeclareTensor(model_.mutable_graph()->add_input(), name, type, dims);
    return *this;
  }
  ModelBuilder& Output(const std::string& name, const std::vector<int64_t>& dims,
                       int32_t type = onnx::TensorProto::FLOAT) {
    DeclareTensor(model_.mutable_graph()->add_output(), name, type, dims);
    return *this;
  }
  ModelBuilder& Initializer(const std::string& name, const Tensor& value) {
    onnx::TensorProto* proto = model_.mutable_graph()->add_initializer();
    *proto = internal::ToTensorProto(value);
    proto->set_name(name);
    return *this;
  }
  onnx::NodeProto& Node(const std::string& op, std::vector<std::string> inputs,
                        std::vector<std::string> outputs) {
    onnx::NodeProto* node = model_.mutable_graph()->add_node();
    node->set_op_type(op);
    for (const std::string& input : inputs) node->add_input(input);
    for (const std::string& output : outputs) node->add_output(output);
    return *node;
  }
  onnx::ModelProto& model() { return model_; }

 private:
  onnx::ModelProto model_;
};

void SetInt(onnx::NodeProto& node, const std::string& name, int64_t value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void SetFloat(onnx::NodeProto& node, const std::string& name, float value) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}

void SetInts(onnx::NodeProto& node, const std::string& name, std::vector<int64_t> values) {
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INTS);
  for (int64_t value : values) attribute->add_ints(value);
}

// BatchNormalization parameters for `channels` channels named <prefix>.scale, .bias, .mean, .var.
void AddBatchNormParams(ModelBuilder& builder, const std::string& prefix, int64_t channels,
                        uint32_t seed) {
  builder.Initializer(prefix + ".scale", Random({channels}, seed, 0.5f, 2.0f))
      .Initializer(prefix + ".bias", Random({channels}, seed + 1))
      .Initializer(prefix + ".mean", Random({channels}, seed + 2))
      .Initializer(prefix + ".var", Random({channels}, seed + 3, 0.2f, 3.0f));
}

onnx::NodeProto& AddBatchNorm(ModelBuilder& builder, const std::string& prefix,
                              const std::string& input, const std::string& output) {
  onnx::NodeProto& node = builder.Node(
      "BatchNormalization",
      {input, prefix + ".scale", prefix + ".bias", prefix + ".mean", prefix + ".var"}, {output});
  SetFloat(node, "epsilon", 1e-3f);
  return node;
}

absl::StatusOr<FusionCounts> Fuse(onnx::ModelProto& model) {
  return ApplyFusions(model, internal::InitializerLoader());
}

void ExpectCheckerValid(const onnx::ModelProto& model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& error) {
    ADD_FAILURE() << "check_model: " << error.what();
  }
}

// The graph outputs' values, propagated by graphgc from constant inputs.
std::map<std::string, Tensor> Evaluate(const onnx::ModelProto& model,
                                       const std::map<std::string, Tensor>& inputs) {
  Graph graph;
  std::map<std::string, Var> given;
  for (const auto& [name, tensor] : inputs) given[name] = graph.constant(tensor);
  auto outputs = inline_model(graph, model, given);
  std::map<std::string, Tensor> values;
  EXPECT_TRUE(outputs.ok()) << outputs.status();
  if (!outputs.ok()) return values;
  for (const auto& [name, var] : *outputs) {
    std::optional<Tensor> value = var.value();
    EXPECT_TRUE(value.has_value()) << "no value for output " << name << ": " << var.status();
    if (value.has_value()) values.emplace(name, *value);
  }
  return values;
}

std::vector<double> AsDoubles(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kDouble) {
    auto data = tensor.data<double>();
    return std::vector<double>(data.begin(), data.end());
  }
  auto data = tensor.data<float>();
  return std::vector<double>(data.begin(), data.end());
}

void ExpectSameOutputs(const onnx::ModelProto& original, const onnx::ModelProto& fused,
                       const std::map<std::string, Tensor>& inputs) {
  std::map<std::string, Tensor> expected = Evaluate(original, inputs);
  std::map<std::string, Tensor> actual = Evaluate(fused, inputs);
  ASSERT_FALSE(expected.empty());
  ASSERT_EQ(expected.size(), actual.size());
  for (const auto& [name, want] : expected) {
    ASSERT_TRUE(actual.contains(name)) << name;
    const Tensor& got = actual.at(name);
    ASSERT_EQ(got.dtype(), want.dtype()) << name;
    ASSERT_EQ(ShapeToString(got.shape()), ShapeToString(want.shape())) << name;
    std::vector<double> a = AsDoubles(want);
    std::vector<double> b = AsDoubles(got);
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_NEAR(b[i], a[i], 1e-4 + 1e-4 * std::abs(a[i])) << name << " element " << i;
    }
  }
}

std::vector<std::string> OpTypes(const onnx::ModelProto& model) {
  std::vector<std::string> ops;
  for (const auto& node : model.graph().node()) ops.push_back(node.op_type());
  return ops;
}

std::vector<std::string> InitializerNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const auto& initializer : model.graph().initializer()) names.push_back(initializer.name());
  return names;
}

std::vector<std::string> OutputNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const auto& output : model.graph().output()) names.push_back(output.name());
  return names;
}

// Applies the fusions and expects nothing to change.
void ExpectUnchanged(onnx::ModelProto model) {
  const std::string before = model.SerializeAsString();
  absl::StatusOr<FusionCounts> counts = Fuse(model);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nodes_removed(), 0);
  EXPECT_EQ(model.SerializeAsString(), before);
}

// x [1,3,6,6] -> Conv (W [4,3,3,3], B [4] if with_bias, pads 1) -> "conv" -> BatchNormalization
// -> y.
ModelBuilder ConvBatchNormModel(int64_t opset, bool with_bias) {
  ModelBuilder builder(opset);
  builder.Input("x", {1, 3, 6, 6})
      .Output("y", {1, 4, 6, 6})
      .Initializer("W", Random({4, 3, 3, 3}, 1));
  std::vector<std::string> inputs = {"x", "W"};
  if (with_bias) {
    builder.Initializer("B", Random({4}, 2));
    inputs.push_back("B");
  }
  SetInts(builder.Node("Conv", inputs, {"conv"}), "pads", {1, 1, 1, 1});
  AddBatchNormParams(builder, "bn", 4, 10);
  AddBatchNorm(builder, "bn", "conv", "y");
  return builder;
}

std::map<std::string, Tensor> ConvInput() { return {{"x", Random({1, 3, 6, 6}, 99)}}; }

TEST(FusionsTest, BatchNormIntoConv) {
  onnx::ModelProto original = ConvBatchNormModel(15, /*with_bias=*/true).model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 1);
  EXPECT_EQ(counts->nodes_removed(), 1);
  EXPECT_EQ(OpTypes(fused), std::vector<std::string>{"Conv"});
  EXPECT_EQ(fused.graph().node(0).output(0), "y");
  // The weights were read only by the Conv: rewritten in place; the BN parameters are gone.
  EXPECT_EQ(InitializerNames(fused), (std::vector<std::string>{"W", "B"}));
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, ConvInput());
}

TEST(FusionsTest, BatchNormIntoConvWithoutBiasCreatesOne) {
  onnx::ModelProto original = ConvBatchNormModel(9, /*with_bias=*/false).model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 1);
  ASSERT_EQ(OpTypes(fused), std::vector<std::string>{"Conv"});
  ASSERT_EQ(fused.graph().node(0).input_size(), 3);
  EXPECT_EQ(fused.graph().node(0).input(2), "W_bias_fused");
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, ConvInput());
}

TEST(FusionsTest, BatchNormIntoDoubleConv) {
  ModelBuilder builder(13);
  builder.Input("x", {1, 2, 4, 4}, onnx::TensorProto::DOUBLE)
      .Output("y", {1, 3, 2, 2}, onnx::TensorProto::DOUBLE);
  auto to_double = [](const Tensor& t) {
    auto data = t.data<float>();
    return Tensor::from_vector<double>(std::vector<double>(data.begin(), data.end()), t.shape());
  };
  builder.Initializer("W", to_double(Random({3, 2, 3, 3}, 1)));
  builder.Node("Conv", {"x", "W"}, {"conv"});
  builder.Initializer("bn.scale", to_double(Random({3}, 2, 0.5f, 2)))
      .Initializer("bn.bias", to_double(Random({3}, 3)))
      .Initializer("bn.mean", to_double(Random({3}, 4)))
      .Initializer("bn.var", to_double(Random({3}, 5, 0.2f, 3)));
  AddBatchNorm(builder, "bn", "conv", "y");
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->batchnorm_into_conv, 1);
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", to_double(Random({1, 2, 4, 4}, 7))}});
}

TEST(FusionsTest, BatchNormStaysWhenConvOutputHasAnotherConsumer) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  builder.Output("z", {1, 4, 6, 6});
  builder.Node("Relu", {"conv"}, {"z"});
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, BatchNormStaysWhenConvOutputIsAGraphOutput) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  builder.Output("conv", {1, 4, 6, 6});
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, BatchNormInTrainingModeStays) {
  ModelBuilder builder(15);
  builder.Input("x", {1, 3, 6, 6})
      .Output("y", {1, 4, 6, 6})
      .Initializer("W", Random({4, 3, 3, 3}, 1));
  SetInts(builder.Node("Conv", {"x", "W"}, {"conv"}), "pads", {1, 1, 1, 1});
  AddBatchNormParams(builder, "bn", 4, 10);
  onnx::NodeProto& bn =
      builder.Node("BatchNormalization", {"conv", "bn.scale", "bn.bias", "bn.mean", "bn.var"},
                   {"y", "running_mean", "running_var"});
  SetInt(bn, "training_mode", 1);
  ExpectCheckerValid(builder.model());
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, BatchNormWithTrainingOutputsBeforeOpset14Stays) {
  // Opsets 7 to 13: five outputs are the training mode, even when nobody reads the extra four.
  ModelBuilder builder(9);
  builder.Input("x", {1, 3, 6, 6})
      .Output("y", {1, 4, 6, 6})
      .Initializer("W", Random({4, 3, 3, 3}, 1));
  SetInts(builder.Node("Conv", {"x", "W"}, {"conv"}), "pads", {1, 1, 1, 1});
  AddBatchNormParams(builder, "bn", 4, 10);
  builder.Node("BatchNormalization", {"conv", "bn.scale", "bn.bias", "bn.mean", "bn.var"},
               {"y", "m", "v", "sm", "sv"});
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, BatchNormNotSpatialStays) {
  // Opsets 7 and 8: spatial=0 normalizes per element, not per channel.
  ModelBuilder builder = ConvBatchNormModel(7, true);
  SetInt(*builder.model().mutable_graph()->mutable_node(1), "spatial", 0);
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, BatchNormWithNonFiniteScaleStays) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  // var + epsilon == 0: the scale is infinite, which the weights cannot carry.
  onnx::TensorProto* var = builder.model().mutable_graph()->mutable_initializer(5);
  ASSERT_EQ(var->name(), "bn.var");
  *var = internal::ToTensorProto(Tensor::from_vector<float>({1, -1e-3f, 1, 1}));
  var->set_name("bn.var");
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, WeightThatIsAGraphInputStays) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  // IR >= 4: an initializer that is also a graph input is only a default; a caller may override.
  builder.Input("W", {4, 3, 3, 3});
  ExpectCheckerValid(builder.model());
  ExpectUnchanged(builder.model());
}

// A weight read by another Conv too would stay beside its scaled copy: the model would grow by a
// whole weight, so the BatchNormalization stays (graphgc-fold never grows a model).
TEST(FusionsTest, SharedWeightIsNotCopied) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  builder.Output("z", {1, 4, 6, 6});
  SetInts(builder.Node("Conv", {"x", "W", "B"}, {"z"}), "pads", {1, 1, 1, 1});
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 0);
  EXPECT_EQ(fused.SerializeAsString(), original.SerializeAsString());
  EXPECT_LE(fused.ByteSizeLong(), original.ByteSizeLong());
}

// x [2,5] -> Gemm(alpha 0.5, beta 2, C) -> "gemm" [2,3] -> BatchNormalization -> y.
ModelBuilder GemmBatchNormModel(bool trans_b, std::vector<int64_t> c_shape) {
  ModelBuilder builder(15);
  builder.Input("x", {2, 5}).Output("y", {2, 3});
  builder.Initializer("B",
                      Random(trans_b ? std::vector<int64_t>{3, 5} : std::vector<int64_t>{5, 3}, 1));
  std::vector<std::string> inputs = {"x", "B"};
  if (!c_shape.empty()) {
    builder.Initializer("C", Random(c_shape, 2));
    inputs.push_back("C");
  }
  onnx::NodeProto& gemm = builder.Node("Gemm", inputs, {"gemm"});
  SetFloat(gemm, "alpha", 0.5f);
  SetFloat(gemm, "beta", 2.0f);
  if (trans_b) SetInt(gemm, "transB", 1);
  AddBatchNormParams(builder, "bn", 3, 20);
  AddBatchNorm(builder, "bn", "gemm", "y");
  return builder;
}

void ExpectGemmFuses(bool trans_b, std::vector<int64_t> c_shape) {
  onnx::ModelProto original = GemmBatchNormModel(trans_b, c_shape).model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_gemm, 1);
  ASSERT_EQ(OpTypes(fused), std::vector<std::string>{"Gemm"});
  EXPECT_EQ(fused.graph().node(0).output(0), "y");
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({2, 5}, 98)}});
}

TEST(FusionsTest, BatchNormIntoGemmWithTransB) { ExpectGemmFuses(true, {3}); }
TEST(FusionsTest, BatchNormIntoGemmWithRowOfC) { ExpectGemmFuses(false, {1, 3}); }
TEST(FusionsTest, BatchNormIntoGemmWithScalarC) { ExpectGemmFuses(true, {1}); }
TEST(FusionsTest, BatchNormIntoGemmWithoutC) { ExpectGemmFuses(false, {}); }

TEST(FusionsTest, BatchNormAfterGemmWithPerRowCStays) {
  ExpectUnchanged(GemmBatchNormModel(true, {2, 3}).model());
  ExpectUnchanged(GemmBatchNormModel(true, {2, 1}).model());
}

TEST(FusionsTest, BatchNormIntoGroupedConvTranspose) {
  // W [C_in 4, M/group 3, 2, 2] with group 2: 6 output channels, group g's rows feed 3g..3g+2.
  ModelBuilder builder(15);
  builder.Input("x", {1, 4, 3, 3}).Output("y", {1, 6, 6, 6});
  builder.Initializer("W", Random({4, 3, 2, 2}, 1)).Initializer("B", Random({6}, 2));
  onnx::NodeProto& deconv = builder.Node("ConvTranspose", {"x", "W", "B"}, {"deconv"});
  SetInt(deconv, "group", 2);
  SetInts(deconv, "strides", {2, 2});
  AddBatchNormParams(builder, "bn", 6, 30);
  AddBatchNorm(builder, "bn", "deconv", "y");
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 1);
  EXPECT_EQ(OpTypes(fused), std::vector<std::string>{"ConvTranspose"});
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({1, 4, 3, 3}, 97)}});
}

TEST(FusionsTest, BatchNormWithWrongChannelCountStays) {
  // Opset 7 to 8 allow spatial=0 with per-element parameters; either way [3] is not [4].
  ModelBuilder builder(15);
  builder.Input("x", {1, 3, 6, 6})
      .Output("y", {1, 4, 6, 6})
      .Initializer("W", Random({4, 3, 3, 3}, 1));
  SetInts(builder.Node("Conv", {"x", "W"}, {"conv"}), "pads", {1, 1, 1, 1});
  AddBatchNormParams(builder, "bn", 3, 10);
  AddBatchNorm(builder, "bn", "conv", "y");
  ExpectUnchanged(builder.model());
}

// x -> Conv -> "conv" -> Mul by `scale` -> "scaled" -> Add `shift` -> y.
ModelBuilder ConvMulAddModel(std::vector<int64_t> scale_shape, std::vector<int64_t> shift_shape,
                             bool constant_first) {
  ModelBuilder builder(13);
  builder.Input("x", {1, 3, 6, 6})
      .Output("y", {1, 4, 6, 6})
      .Initializer("W", Random({4, 3, 3, 3}, 1));
  builder.Initializer("scale", Random(scale_shape, 3, 0.5f, 2))
      .Initializer("shift", Random(shift_shape, 4));
  SetInts(builder.Node("Conv", {"x", "W"}, {"conv"}), "pads", {1, 1, 1, 1});
  if (constant_first) {
    builder.Node("Mul", {"scale", "conv"}, {"scaled"});
  } else {
    builder.Node("Mul", {"conv", "scale"}, {"scaled"});
  }
  builder.Node("Add", {"scaled", "shift"}, {"y"});
  return builder;
}

TEST(FusionsTest, MulAndAddByChannelConstantsIntoConv) {
  for (bool constant_first : {false, true}) {
    onnx::ModelProto original = ConvMulAddModel({4, 1, 1}, {1, 4, 1, 1}, constant_first).model();
    onnx::ModelProto fused = original;
    absl::StatusOr<FusionCounts> counts = Fuse(fused);
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->mul_add_into_weights, 2);
    EXPECT_EQ(OpTypes(fused), std::vector<std::string>{"Conv"});
    EXPECT_EQ(InitializerNames(fused), (std::vector<std::string>{"W", "W_bias_fused"}));
    ExpectCheckerValid(fused);
    ExpectSameOutputs(original, fused, ConvInput());
  }
}

TEST(FusionsTest, MulAndAddByScalarsIntoConv) {
  onnx::ModelProto original = ConvMulAddModel({}, {1}, false).model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->mul_add_into_weights, 2);
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, ConvInput());
}

TEST(FusionsTest, MulByConstantThatVariesOverSpaceStays) {
  // [C,H,W] = [4,6,6] differs per pixel; [4] would broadcast along the last (width) axis.
  ModelBuilder builder = ConvMulAddModel({4, 6, 6}, {4, 6, 6}, false);
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, MulThatWouldGrowTheRankStays) {
  // [1,4,1,1,1] makes the 4-D conv output 5-D.
  ModelBuilder builder = ConvMulAddModel({1, 4, 1, 1, 1}, {1, 4, 1, 1, 1}, false);
  ExpectUnchanged(builder.model());
}

// x -> MatMul W [5,3] -> "mm" -> Mul by c -> y.
ModelBuilder MatMulMulModel(std::vector<int64_t> x_shape, std::vector<int64_t> c_shape) {
  ModelBuilder builder(13);
  std::vector<int64_t> y_shape = x_shape;
  y_shape.back() = 3;
  builder.Input("x", x_shape).Output("y", y_shape);
  builder.Initializer("W", Random({5, 3}, 1)).Initializer("c", Random(c_shape, 2, 0.5f, 2));
  builder.Node("MatMul", {"x", "W"}, {"mm"});
  builder.Node("Mul", {"mm", "c"}, {"y"});
  return builder;
}

TEST(FusionsTest, MulByColumnConstantIntoMatMul) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> cases = {
      {{2, 5}, {3}}, {{2, 5}, {1, 3}}, {{4, 2, 5}, {1, 3}}, {{5}, {3}}, {{2, 5}, {}}};
  for (const auto& [x_shape, c_shape] : cases) {
    SCOPED_TRACE(ShapeToString(x_shape) + " * " + ShapeToString(c_shape));
    onnx::ModelProto original = MatMulMulModel(x_shape, c_shape).model();
    onnx::ModelProto fused = original;
    absl::StatusOr<FusionCounts> counts = Fuse(fused);
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->mul_add_into_weights, 1);
    EXPECT_EQ(OpTypes(fused), std::vector<std::string>{"MatMul"});
    ExpectCheckerValid(fused);
    ExpectSameOutputs(original, fused, {{"x", Random(x_shape, 96)}});
  }
}

TEST(FusionsTest, MulThatBroadcastsMatMulOutputStays) {
  // x [5] makes the MatMul output [3]; times [1,3] it becomes [1,3].
  ExpectUnchanged(MatMulMulModel({5}, {1, 3}).model());
  // Per row, not per column.
  ExpectUnchanged(MatMulMulModel({2, 5}, {2, 1}).model());
}

TEST(FusionsTest, MulByConstantOfUnknownRankPartnerStays) {
  // The left operand's rank is unknown, so [1,3] might grow the output's rank.
  ModelBuilder builder = MatMulMulModel({2, 5}, {1, 3});
  builder.model()
      .mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->clear_shape();
  ExpectUnchanged(builder.model());

  // value_info is only a hint: a rank it claims for an intermediate does not count.
  ModelBuilder hinted(13);
  hinted.Input("x", {2, 5}).Output("y", {2, 3});
  hinted.Initializer("W", Random({5, 3}, 1)).Initializer("c", Random({1, 3}, 2));
  hinted.Node("Relu", {"x"}, {"r"});
  hinted.Node("MatMul", {"r", "W"}, {"mm"});
  hinted.Node("Mul", {"mm", "c"}, {"y"});
  DeclareTensor(hinted.model().mutable_graph()->add_value_info(), "r", onnx::TensorProto::FLOAT,
                {2, 5});
  ExpectUnchanged(hinted.model());
}

TEST(FusionsTest, AddAfterMatMulStays) {
  ModelBuilder builder(13);
  builder.Input("x", {2, 5}).Output("y", {2, 3});
  builder.Initializer("W", Random({5, 3}, 1)).Initializer("c", Random({3}, 2));
  builder.Node("MatMul", {"x", "W"}, {"mm"});
  builder.Node("Add", {"mm", "c"}, {"y"});
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, ChainFusesIntoOneConvKeepingTheOutputName) {
  ModelBuilder builder = ConvBatchNormModel(13, true);
  onnx::GraphProto& graph = *builder.model().mutable_graph();
  graph.mutable_node(1)->set_output(0, "bn_out");
  builder.Initializer("scale", Random({1, 4, 1, 1}, 5, 0.5f, 2))
      .Initializer("shift", Random({4, 1, 1}, 6));
  builder.Node("Mul", {"bn_out", "scale"}, {"scaled"});
  builder.Node("Add", {"shift", "scaled"}, {"shifted"});
  builder.Node("Identity", {"shifted"}, {"y"});
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 1);
  EXPECT_EQ(counts->mul_add_into_weights, 2);
  EXPECT_EQ(counts->identity_removed, 1);
  EXPECT_EQ(counts->nodes_removed(), 4);
  ASSERT_EQ(OpTypes(fused), std::vector<std::string>{"Conv"});
  EXPECT_EQ(fused.graph().node(0).output(0), "y");
  EXPECT_EQ(InitializerNames(fused), (std::vector<std::string>{"W", "B"}));
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, ConvInput());
}

TEST(FusionsTest, IdentityInTheMiddleIsRemoved) {
  ModelBuilder builder(13);
  builder.Input("x", {2, 3}).Output("y", {2, 3}).Output("z", {2, 3});
  builder.Node("Identity", {"x"}, {"t"});
  builder.Node("Relu", {"t"}, {"y"});
  builder.Node("Neg", {"t"}, {"z"});
  DeclareTensor(builder.model().mutable_graph()->add_value_info(), "t", onnx::TensorProto::FLOAT,
                {2, 3});
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->identity_removed, 1);
  EXPECT_EQ(OpTypes(fused), (std::vector<std::string>{"Relu", "Neg"}));
  EXPECT_EQ(fused.graph().node(0).input(0), "x");
  EXPECT_EQ(fused.graph().node(1).input(0), "x");
  EXPECT_EQ(fused.graph().value_info_size(), 0);  // "t" no longer exists
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({2, 3}, 95)}});
}

TEST(FusionsTest, IdentityFeedingAGraphOutputKeepsTheOutputName) {
  ModelBuilder builder(13);
  builder.Input("x", {2, 3}).Output("y", {2, 3}).Output("z", {2, 3});
  builder.Node("Relu", {"x"}, {"t"});
  builder.Node("Neg", {"t"}, {"z"});
  builder.Node("Identity", {"t"}, {"y"});
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->identity_removed, 1);
  EXPECT_EQ(OpTypes(fused), (std::vector<std::string>{"Relu", "Neg"}));
  EXPECT_EQ(fused.graph().node(0).output(0), "y");
  EXPECT_EQ(fused.graph().node(1).input(0), "y");
  EXPECT_EQ(OutputNames(fused), OutputNames(original));
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({2, 3}, 94)}});
}

TEST(FusionsTest, IdentityBetweenGraphInterfaceNamesStays) {
  {
    ModelBuilder builder(13);  // graph input straight to a graph output
    builder.Input("x", {2, 3}).Output("y", {2, 3});
    builder.Node("Identity", {"x"}, {"y"});
    ExpectUnchanged(builder.model());
  }
  {
    ModelBuilder builder(13);  // one graph output copied to another
    builder.Input("x", {2, 3}).Output("t", {2, 3}).Output("y", {2, 3});
    builder.Node("Relu", {"x"}, {"t"});
    builder.Node("Identity", {"t"}, {"y"});
    ExpectUnchanged(builder.model());
  }
  {
    ModelBuilder builder(13);  // an initializer to a graph output
    builder.Input("x", {2, 3}).Output("y", {2}).Initializer("w", Random({2}, 1));
    builder.Node("Identity", {"w"}, {"y"});
    ExpectUnchanged(builder.model());
  }
}

// A body of If that reads `name` from the main graph.
onnx::GraphProto BodyReading(const std::string& name, const std::string& output,
                             const std::vector<int64_t>& dims) {
  onnx::GraphProto body;
  body.set_name("body_" + output);
  onnx::NodeProto* node = body.add_node();
  node->set_op_type("Identity");
  node->add_input(name);
  node->add_output(output);
  DeclareTensor(body.add_output(), output, onnx::TensorProto::FLOAT, dims);
  return body;
}

void AddIfReading(ModelBuilder& builder, const std::string& name, const std::string& output,
                  const std::vector<int64_t>& dims) {
  builder.Input("cond", {}, onnx::TensorProto::BOOL).Output(output, dims);
  onnx::NodeProto& node = builder.Node("If", {"cond"}, {output});
  for (const char* branch : {"then_branch", "else_branch"}) {
    onnx::AttributeProto* attribute = node.add_attribute();
    attribute->set_name(branch);
    attribute->set_type(onnx::AttributeProto::GRAPH);
    *attribute->mutable_g() = BodyReading(name, absl::StrCat(output, "_", branch), dims);
  }
}

TEST(FusionsTest, NamesABodyReadsAreNotTouched) {
  // The conv output is read inside an If: the BatchNormalization stays, and so does the Identity
  // inside the body.
  ModelBuilder builder = ConvBatchNormModel(15, true);
  AddIfReading(builder, "conv", "z", {1, 4, 6, 6});
  ExpectCheckerValid(builder.model());
  ExpectUnchanged(builder.model());
}

TEST(FusionsTest, IdentityWhoseOutputABodyReadsGivesItsNameToTheProducer) {
  ModelBuilder builder(13);
  builder.Input("x", {2, 3}).Output("y", {2, 3});
  builder.Node("Relu", {"x"}, {"t"});
  builder.Node("Identity", {"t"}, {"u"});
  builder.Node("Neg", {"u"}, {"y"});
  AddIfReading(builder, "u", "z", {2, 3});
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->identity_removed, 1);
  EXPECT_EQ(OpTypes(fused), (std::vector<std::string>{"Relu", "Neg", "If"}));
  EXPECT_EQ(fused.graph().node(0).output(0), "u");
  ExpectCheckerValid(fused);
  for (bool cond : {true, false}) {
    ExpectSameOutputs(original, fused,
                      {{"x", Random({2, 3}, 93)}, {"cond", Tensor::scalar<bool>(cond)}});
  }
}

// x -> Relu -> "r" -> Dropout -> y (and the mask as `mask`).
ModelBuilder DropoutModel(int64_t opset, std::vector<std::string> inputs, bool mask) {
  ModelBuilder builder(opset);
  builder.Input("x", {2, 3}).Output("y", {2, 3});
  builder.Node("Relu", {"x"}, {"r"});
  inputs.insert(inputs.begin(), "r");
  std::vector<std::string> outputs = {"y"};
  if (mask) outputs.push_back("mask");
  builder.Node("Dropout", inputs, outputs);
  return builder;
}

void ExpectDropoutRemoved(ModelBuilder builder) {
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  absl::StatusOr<FusionCounts> counts = Fuse(fused);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->dropout_removed, 1);
  EXPECT_EQ(OpTypes(fused), std::vector<std::string>{"Relu"});
  EXPECT_EQ(fused.graph().node(0).output(0), "y");
  EXPECT_TRUE(fused.graph().initializer().empty());
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({2, 3}, 92)}});
}

TEST(FusionsTest, InferenceDropoutIsRemoved) {
  ExpectDropoutRemoved(DropoutModel(13, {}, /*mask=*/true));  // mask named but unread
  ModelBuilder with_ratio = DropoutModel(13, {"ratio"}, false);
  with_ratio.Initializer("ratio", Tensor::scalar<float>(0.3f));
  ExpectDropoutRemoved(with_ratio);
  ModelBuilder constant_false = DropoutModel(13, {"ratio", "training"}, false);
  constant_false.Initializer("ratio", Tensor::scalar<float>(0.3f))
      .Initializer("training", Tensor::scalar<bool>(false));
  ExpectDropoutRemoved(constant_false);
  ExpectDropoutRemoved(DropoutModel(10, {}, true));
}

TEST(FusionsTest, DropoutWithConstantNodeFalseTrainingModeIsRemoved) {
  ModelBuilder builder = DropoutModel(13, {"", "training"}, false);
  onnx::NodeProto& constant = builder.Node("Constant", {}, {"training"});
  onnx::AttributeProto* value = constant.add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  *value->mutable_t() = internal::ToTensorProto(Tensor::scalar<bool>(false));
  onnx::GraphProto& graph = *builder.model().mutable_graph();
  graph.mutable_node()->SwapElements(1, 2);  // the Constant before the Dropout
  onnx::ModelProto original = builder.model();
  onnx::ModelProto fused = original;
  ASSERT_EQ(Fuse(fused)->dropout_removed, 1);
  // The Constant is dead now; the folder drops what no output needs.
  EXPECT_EQ(OpTypes(fused), (std::vector<std::string>{"Relu", "Constant"}));
  ExpectCheckerValid(fused);
  ExpectSameOutputs(original, fused, {{"x", Random({2, 3}, 91)}});
}

TEST(FusionsTest, DropoutThatMayTrainOrWhoseMaskIsReadStays) {
  ModelBuilder mask_read = DropoutModel(13, {}, true);
  mask_read.Output("mask", {2, 3}, onnx::TensorProto::BOOL);
  ExpectUnchanged(mask_read.model());

  ModelBuilder training_input = DropoutModel(13, {"", "training"}, false);
  training_input.Input("training", {}, onnx::TensorProto::BOOL);
  ExpectUnchanged(training_input.model());

  ModelBuilder training_true = DropoutModel(13, {"", "training"}, false);
  training_true.Initializer("training", Tensor::scalar<bool>(true));
  ExpectUnchanged(training_true.model());

  ModelBuilder not_test = DropoutModel(6, {}, false);  // is_test defaults to 0: training
  ExpectUnchanged(not_test.model());
}

TEST(FusionsTest, LoaderReadsExternalWeights) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  onnx::GraphProto& graph = *builder.model().mutable_graph();
  const Tensor weight = Random({4, 3, 3, 3}, 1);
  onnx::TensorProto& proto = *graph.mutable_initializer(0);
  ASSERT_EQ(proto.name(), "W");
  proto.clear_raw_data();
  proto.set_data_location(onnx::TensorProto::EXTERNAL);
  onnx::StringStringEntryProto* location = proto.add_external_data();
  location->set_key("location");
  location->set_value("weights.bin");
  int loads = 0;
  internal::InitializerLoader load =
      [&](const onnx::TensorProto& tensor) -> absl::StatusOr<Tensor> {
    ++loads;
    if (tensor.name() == "W") return weight;
    return internal::FromTensorProto(tensor);
  };
  onnx::ModelProto fused = builder.model();
  absl::StatusOr<FusionCounts> counts = ApplyFusions(fused, load);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->batchnorm_into_conv, 1);
  EXPECT_GE(loads, 1);
  EXPECT_NE(fused.graph().initializer(0).data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(fused.graph().initializer(0).external_data_size(), 0);

  onnx::ModelProto inline_original = ConvBatchNormModel(15, true).model();
  ExpectSameOutputs(inline_original, fused, ConvInput());
}

TEST(FusionsTest, UnreadableInitializerIsAnError) {
  ModelBuilder builder = ConvBatchNormModel(15, true);
  onnx::TensorProto* mean = builder.model().mutable_graph()->mutable_initializer(4);
  ASSERT_EQ(mean->name(), "bn.mean");
  mean->set_raw_data("abc");  // 3 bytes for 4 floats
  onnx::ModelProto model = builder.model();
  absl::StatusOr<FusionCounts> counts = Fuse(model);
  ASSERT_FALSE(counts.ok());
  EXPECT_THAT(std::string(counts.status().message()), HasSubstr("bn.mean"));
}

TEST(FusionsTest, ErrorLeavesEarlierRewritesComplete) {
  // The Identity goes first; then the BatchNormalization's mean cannot be read.
  ModelBuilder builder = ConvBatchNormModel(15, true);
  onnx::GraphProto& graph = *builder.model().mutable_graph();
  graph.mutable_node(0)->set_input(0, "x_copy");
  onnx::NodeProto identity;
  identity.set_op_type("Identity");
  identity.add_input("x");
  identity.add_output("x_copy");
  graph.mutable_node()->Add(std::move(identity));
  graph.mutable_node()->SwapElements(0, 2);
  graph.mutable_node()->SwapElements(1, 2);
  ASSERT_EQ(OpTypes(builder.model()),
            (std::vector<std::string>{"Identity", "Conv", "BatchNormalization"}));
  graph.mutable_initializer(4)->set_raw_data("abc");
  onnx::ModelProto model = builder.model();
  ASSERT_FALSE(Fuse(model).ok());
  EXPECT_EQ(OpTypes(model), (std::vector<std::string>{"Conv", "BatchNormalization"}));
  EXPECT_EQ(model.graph().node(0).input(0), "x");
}

TEST(FusionsTest, GraphDefiningANameTwiceIsLeftAlone) {
  ModelBuilder builder(13);
  builder.Input("x", {2, 3}).Output("y", {2, 3});
  builder.Node("Identity", {"x"}, {"t"});
  builder.Node("Identity", {"x"}, {"t"});
  builder.Node("Relu", {"t"}, {"y"});
  ExpectUnchanged(builder.model());
}

}  // namespace
}  // namespace graphgc
