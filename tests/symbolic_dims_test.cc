// Named (symbolic) dims: Graph::argument takes {"batch", 16}; the ops carry the names as ONNX's
// inference derives them (Var::dims, Var::type); the export writes dim_param in the input and
// wherever ONNX's shape inference carries it; an imported model's dim_params come back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;

// Each dim as text: its dim_value, its dim_param, or "?".
std::vector<std::string> Dims(const onnx::TypeProto& type) {
  std::vector<std::string> dims;
  for (const auto& dim : type.tensor_type().shape().dim()) {
    dims.push_back(dim.has_dim_value()   ? std::to_string(dim.dim_value())
                   : dim.has_dim_param() ? dim.dim_param()
                                         : "?");
  }
  return dims;
}

const onnx::TypeProto* ValueInfoType(const onnx::ModelProto& model, const std::string& name) {
  for (const auto& info : model.graph().value_info()) {
    if (info.name() == name) return &info.type();
  }
  return nullptr;
}

TEST(SymbolicDimsTest, ANamedDimIsWrittenAndCarriedByOnnxInference) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {"batch", 16});
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_EQ(x.shape(), (std::vector<int64_t>{-1, 16}));
  Var hidden = op::MatMul(x, g.constant(Tensor::zeros(DataType::kFloat, {16, 4})));
  ASSERT_TRUE(hidden.set_name("hidden").ok());
  const NamedVars outputs = {{"y", op::Relu(hidden)}};
  auto model = to_onnx(g, outputs);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_THAT(Dims(model->graph().input(0).type()), ElementsAre("batch", "16"));
  EXPECT_THAT(Dims(model->graph().output(0).type()), ElementsAre("batch", "4"));
  const onnx::TypeProto* hidden_type = ValueInfoType(*model, "hidden");
  ASSERT_NE(hidden_type, nullptr);
  EXPECT_THAT(Dims(*hidden_type), ElementsAre("batch", "4"));
  auto bytes = to_onnx_bytes(g, outputs);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, model->SerializeAsString());
}

TEST(SymbolicDimsTest, BracedSizesMeanWhatTheyMeant) {
  Graph g;
  EXPECT_EQ(g.argument("empty", DataType::kFloat, {0, 3}).shape(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(g.argument("unknown", DataType::kFloat, {2, -1}).shape(),
            (std::vector<int64_t>{2, -1}));
  EXPECT_EQ(g.argument("scalar", DataType::kFloat, {}).shape(), (std::vector<int64_t>{}));
  const std::vector<int64_t> sizes = {4, 5};
  EXPECT_EQ(g.argument("vector", DataType::kFloat, sizes).shape(), sizes);
  const size_t n = 7;
  EXPECT_EQ(g.argument("size_t", DataType::kFloat, {n, "n"}).shape(),
            (std::vector<int64_t>{7, -1}));
  EXPECT_FALSE(g.argument("bad", DataType::kFloat, {"b", -2}).ok());
  // An unnamed unknown dim stays without a name.
  auto model = to_onnx(g, {{"y", op::Neg(g.argument("mixed", DataType::kFloat, {"b", -1, 3}))}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_THAT(Dims(model->graph().input(0).type()), ElementsAre("b", "?", "3"));
}

// Each dim of a var as text: its size, its name, or "?".
std::vector<std::string> DimsOf(const Var& var) {
  std::vector<std::string> text;
  for (const Dim& dim : var.dims().value_or(std::vector<Dim>{})) {
    text.push_back(!dim.name().empty() ? dim.name()
                   : dim.size() < 0    ? "?"
                                       : std::to_string(dim.size()));
  }
  return text;
}

TEST(SymbolicDimsTest, OpsCarryTheNamesAsOnnxInferenceDerivesThem) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {"N", 4});
  EXPECT_THAT(DimsOf(x), ElementsAre("N", "4"));
  EXPECT_EQ(x.shape(), (std::vector<int64_t>{-1, 4}));
  // Through ops with graphgc's own fast inference (Relu, Add, MatMul) and ONNX's (Transpose).
  const Var relu = op::Relu(x);
  EXPECT_THAT(DimsOf(relu), ElementsAre("N", "4"));
  const Var hidden = op::MatMul(relu, g.constant(Tensor::zeros(DataType::kFloat, {4, 3})));
  EXPECT_THAT(DimsOf(hidden), ElementsAre("N", "3"));
  EXPECT_THAT(DimsOf(op::Transpose(hidden)), ElementsAre("3", "N"));
  EXPECT_THAT(DimsOf(op::Add(hidden, g.constant(Tensor::zeros(DataType::kFloat, {3})))),
              ElementsAre("N", "3"));
  // Printed in the type; equality of types ignores them.
  std::ostringstream printed;
  printed << hidden.type();
  EXPECT_EQ(printed.str(), "tensor(float)[N,3]");
  EXPECT_EQ(hidden.type(), VarType::Tensor(DataType::kFloat, std::vector<int64_t>{-1, 3}));
  // Two names that meet: ONNX's inference keeps neither where they may differ.
  const Var y = g.argument("y", DataType::kFloat, {"M", 4});
  EXPECT_THAT(DimsOf(op::Concat({x, y}, {.axis = 0})), ElementsAre("?", "4"));
  // A known size wins over a name.
  EXPECT_THAT(DimsOf(op::Add(x, g.constant(Tensor::zeros(DataType::kFloat, {5, 4})))),
              ElementsAre("5", "4"));
}

TEST(SymbolicDimsTest, AnArgumentOfANamedTypeKeepsTheNames) {
  Graph g;
  const VarType type = VarType::TensorOfDims(DataType::kFloat, {"N", 3});
  EXPECT_EQ(type.shape(), (std::vector<int64_t>{-1, 3}));
  EXPECT_THAT(type.dim_names(), ElementsAre("N", ""));
  const Var x = g.argument("x", type);
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_THAT(DimsOf(x), ElementsAre("N", "3"));
  auto model = to_onnx(g, {{"z", op::Neg(x)}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_THAT(Dims(model->graph().input(0).type()), ElementsAre("N", "3"));
  EXPECT_THAT(Dims(model->graph().output(0).type()), ElementsAre("N", "3"));
}

TEST(SymbolicDimsTest, AnImportedModelsDimParamsComeBack) {
  Graph source;
  Var a = source.argument("a", DataType::kFloat, {"N", 2});
  Var b = source.argument("b", DataType::kFloat, {"N", 2});
  auto model = to_onnx(source, {{"z", op::Add(a, b)}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_THAT(Dims(model->graph().output(0).type()), ElementsAre("N", "2"));

  Graph g;
  auto outputs = inline_model(g, *model);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  auto again = to_onnx(g, {{"w", op::Sigmoid(outputs->at("z"))}});
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->graph().input_size(), 2);
  EXPECT_THAT(Dims(again->graph().input(0).type()), ElementsAre("N", "2"));
  EXPECT_THAT(Dims(again->graph().output(0).type()), ElementsAre("N", "2"));
}

}  // namespace
}  // namespace graphgc
