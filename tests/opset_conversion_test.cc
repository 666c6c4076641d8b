// Importing models of older opsets: converted to opset 17 with ONNX's version converter by
// default, so that new ops join them; kept at their own opset, with a warning, where the
// converter cannot convert them; and the export's mixing error naming the ways out.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset13.h"
#include "graphgc/opset/generated/opset18.h"
#include "graphgc/opset/generated/opset5.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pointwise;

// PyTorch-converted models of ONNX's test data, all at opset 6.
const std::string kConverted = "/usr/share/libonnx-testdata/data/pytorch-converted/";

int OnnxOpset(const onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") return opset.version();
  }
  return 0;
}

struct TestCase {
  onnx::ModelProto model;
  Tensor input;
  Tensor output;
};

TestCase Load(const std::string& name) {
  const std::string dir = kConverted + name + "/";
  absl::StatusOr<onnx::ModelProto> model = load_model(dir + "model.onnx");
  absl::StatusOr<Tensor> input = load_tensor(dir + "test_data_set_0/input_0.pb");
  absl::StatusOr<Tensor> output = load_tensor(dir + "test_data_set_0/output_0.pb");
  EXPECT_TRUE(model.ok()) << model.status() << " (tools/bootstrap installs libonnx-testdata)";
  EXPECT_TRUE(input.ok()) << input.status();
  EXPECT_TRUE(output.ok()) << output.status();
  if (!model.ok() || !input.ok() || !output.ok()) return {};
  return {*model, *input, *output};
}

TEST(OpsetConversionTest, AnOpset6ConvModelIsConvertedAndTakesNewOps) {
  const TestCase conv = Load("test_Conv2d");
  ASSERT_EQ(OnnxOpset(conv.model), 6);
  const std::string input_name = conv.model.graph().input(0).name();
  Graph g;
  Var x = g.constant(conv.input);
  auto imported = import_model(g, conv.model, {{input_name, x}});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, kNewestOnnxOpset);
  EXPECT_THAT(imported->warnings, IsEmpty());
  ASSERT_EQ(imported->outputs.size(), 1u);
  const Var y = op::Relu(imported->outputs.begin()->second);
  // The value: the test data's output, through Relu.
  ASSERT_TRUE(y.value().has_value()) << y.status();
  const Var expected = op::Relu(g.constant(conv.output));
  EXPECT_THAT(y.value()->data<float>(),
              Pointwise(::testing::FloatNear(1e-4f), expected.value()->data<float>()));
  ExportOptions check;
  check.check = true;
  auto model = to_onnx(g, {{"y", y}}, check);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(OnnxOpset(*model), kNewestOnnxOpset);
}

// The pytorch-operator models of ONNX's test data, also at opset 6.
const std::string kOperators = "/usr/share/libonnx-testdata/data/pytorch-operator/";

// The model's one output, imported with its inputs bound to test_data_set_0's, at `opset`
// (0: the model's own), against the stored output.
void ExpectStoredOutput(const std::string& dir, int opset) {
  absl::StatusOr<onnx::ModelProto> model = load_model(dir + "model.onnx");
  ASSERT_TRUE(model.ok()) << model.status();
  Graph g;
  std::map<std::string, Var> inputs;
  for (int i = 0; i < model->graph().input_size(); ++i) {
    absl::StatusOr<Tensor> value =
        load_tensor(absl::StrCat(dir, "test_data_set_0/input_", i, ".pb"));
    if (!value.ok()) break;
    inputs[model->graph().input(i).name()] = g.constant(*value);
  }
  absl::StatusOr<Tensor> expected = load_tensor(dir + "test_data_set_0/output_0.pb");
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto imported = import_model(g, *model, inputs, {.opset = opset});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_THAT(imported->warnings, IsEmpty());
  EXPECT_EQ(imported->onnx_opset, opset == 0 ? 6 : opset);
  const Var y = imported->outputs.begin()->second;
  ASSERT_TRUE(y.value().has_value()) << dir << ": " << y.value_status();
  EXPECT_THAT(y.value()->data<float>(),
              Pointwise(::testing::FloatNear(1e-5f), expected->data<float>()))
      << dir << " at opset " << opset;
}

// Before opset 7, PRelu applies a slope [C] per channel (X's dim 1) and Add takes `broadcast`
// and `axis`, a dim of 1 in B broadcasting too. Both at the model's own opset and converted to
// the newest: the converter bumps PRelu without changing it, so the import unsqueezes such a
// slope to [C, 1, ...] first.
TEST(OpsetConversionTest, Opset6PReluSlopesAndLegacyBroadcastKeepTheirMeaning) {
  for (const char* name : {"test_PReLU_1d_multiparam", "test_PReLU_2d_multiparam",
                           "test_PReLU_3d_multiparam", "test_PReLU_2d"}) {
    ExpectStoredOutput(kConverted + name + "/", 0);
    ExpectStoredOutput(kConverted + name + "/", kNewestOnnxOpset);
  }
  for (const char* name :
       {"test_operator_add_broadcast", "test_operator_add_size1_broadcast",
        "test_operator_add_size1_singleton_broadcast", "test_operator_add_size1_right_broadcast"}) {
    ExpectStoredOutput(kOperators + name + "/", 0);
    ExpectStoredOutput(kOperators + name + "/", kNewestOnnxOpset);
  }
}

TEST(OpsetConversionTest, KeepingTheModelsOpsetAndMixingNamesTheWaysOut) {
  const TestCase conv = Load("test_Conv2d");
  Graph g;
  auto imported = import_model(g, conv.model, {}, {.opset = 0});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, 6);
  const Var y = op::Relu(imported->outputs.begin()->second);
  auto model = to_onnx(g, {{"y", y}});
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("Conv was made at opset 6"));
  EXPECT_THAT(model.status().message(),
              HasSubstr("Two ways out: make the newer nodes at opset 6 too"));
  EXPECT_THAT(model.status().message(), HasSubstr("InlineOptions::opset"));
  // Its own nodes alone export at its opset.
  auto alone = to_onnx(g, imported->outputs);
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_EQ(OnnxOpset(*alone), 6);
}

// A graph input or a value_info entry: a float tensor (an int64 one with `int64`) of `dims`, an
// empty string a dim named "n".
onnx::ValueInfoProto Info(const std::string& name, const std::vector<std::string>& dims,
                          bool int64 = false) {
  onnx::ValueInfoProto info;
  info.set_name(name);
  onnx::TypeProto::Tensor& tensor = *info.mutable_type()->mutable_tensor_type();
  tensor.set_elem_type(int64 ? onnx::TensorProto::INT64 : onnx::TensorProto::FLOAT);
  onnx::TensorShapeProto& shape = *tensor.mutable_shape();
  for (const std::string& dim : dims) {
    if (dim.empty()) {
      shape.add_dim()->set_dim_param("n");
    } else {
      shape.add_dim()->set_dim_value(std::stoll(dim));
    }
  }
  return info;
}

onnx::ModelProto Opset6Model(std::vector<onnx::NodeProto> nodes,
                             std::vector<onnx::ValueInfoProto> inputs,
                             std::vector<onnx::ValueInfoProto> outputs,
                             std::vector<onnx::ValueInfoProto> value_info = {}) {
  onnx::ModelProto model;
  model.set_ir_version(3);
  model.add_opset_import()->set_version(6);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("g");
  for (onnx::NodeProto& node : nodes) *graph.add_node() = std::move(node);
  for (onnx::ValueInfoProto& input : inputs) *graph.add_input() = std::move(input);
  for (onnx::ValueInfoProto& output : outputs) *graph.add_output() = std::move(output);
  for (onnx::ValueInfoProto& info : value_info) *graph.add_value_info() = std::move(info);
  return model;
}

onnx::NodeProto Node(const std::string& op_type, std::vector<std::string> inputs,
                     const std::string& output) {
  onnx::NodeProto node;
  node.set_op_type(op_type);
  for (const std::string& input : inputs) node.add_input(input);
  node.add_output(output);
  return node;
}

// Gemm's B and C in the tests below: a [3, 4] matrix of ones and a [2, 4] one of halves, so that
// each row of the result is its row of A summed, plus 0.5.
Var GemmOnes(Graph& g) {
  return g.constant(Tensor::from_vector<float>(std::vector<float>(12, 1.0f), {3, 4}));
}
Var GemmHalves(Graph& g) {
  return g.constant(Tensor::from_vector<float>(std::vector<float>(8, 0.5f), {2, 4}));
}

// An import converted to the newest opset without a warning, whose output y has `expected`.
void ExpectConvertedWithY(const absl::StatusOr<ImportedModel>& imported,
                          const std::vector<float>& expected) {
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, kNewestOnnxOpset);
  EXPECT_THAT(imported->warnings, IsEmpty());
  const Var y = imported->outputs.at("y");
  ASSERT_TRUE(y.value().has_value()) << y.status();
  EXPECT_THAT(y.value()->data<float>(), Pointwise(::testing::Eq(), expected));
}

TEST(OpsetConversionTest, AModelTheConverterCannotConvertKeepsItsOpsetWithAWarning) {
  // Div's opset-6 to 7 adapter needs both input shapes for a legacy broadcast, and the rank of a
  // Reshape to a shape of unknown length is unknown: the converter refuses. Without the output
  // of known rank (Relu's), no output is left whose declared shape graphgc could vouch for, and
  // the model does not reach the converter at all (ONNX's checker wants a shape for each).
  for (const bool with_known_output : {true, false}) {
    onnx::NodeProto div = Node("Div", {"r", "x"}, "y");
    onnx::AttributeProto& broadcast = *div.add_attribute();
    broadcast.set_name("broadcast");
    broadcast.set_type(onnx::AttributeProto::INT);
    broadcast.set_i(1);
    std::vector<onnx::NodeProto> nodes = {Node("Reshape", {"x", "shape"}, "r"), div};
    std::vector<onnx::ValueInfoProto> outputs = {Info("y", {"2", "3"})};
    if (with_known_output) {
      nodes.push_back(Node("Relu", {"x"}, "z"));
      outputs.push_back(Info("z", {"2", "3"}));
    }
    const onnx::ModelProto model =
        Opset6Model(nodes, {Info("x", {"2", "3"}), Info("shape", {""}, /*int64=*/true)}, outputs);
    Graph g;
    const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
    const Var shape = g.constant(Tensor::from_vector<int64_t>({2, 3}));
    auto imported = import_model(g, model, {{"x", x}, {"shape", shape}});
    ASSERT_TRUE(imported.ok()) << imported.status();
    EXPECT_EQ(imported->onnx_opset, 6);
    ASSERT_EQ(imported->warnings.size(), 1u);
    EXPECT_THAT(
        imported->warnings[0],
        HasSubstr(with_known_output ? "the model was kept at ai.onnx opset 6, not converted to 24: "
                                      "ONNX's version converter says:"
                                    : "the model was kept at ai.onnx opset 6, not converted to 24: "
                                      "graphgc cannot infer the rank of any of its outputs"));
    const Var y = imported->outputs.at("y");
    ASSERT_TRUE(y.value().has_value()) << y.status();
    EXPECT_THAT(y.value()->data<float>(), ::testing::Each(1.0f));
  }
}

// ONNX's converter takes the types it adapts nodes by from the model, and reads their dims
// unchecked: Gemm 6 to 7 reads A's dim 0, so a value_info that calls Relu's matrix a scalar made
// it read an empty shape (import_fuzzer's kind of input: SEGV). It is given the types graphgc
// inferred instead.
TEST(OpsetConversionTest, TheConverterReadsTheInferredTypesNotContradictingDeclaredOnes) {
  const onnx::ModelProto model =
      Opset6Model({Node("Relu", {"x"}, "r"), Node("Gemm", {"r", "b", "c"}, "y")},
                  {Info("x", {"2", "3"}), Info("b", {"3", "4"}), Info("c", {"2", "4"})},
                  {Info("y", {"2", "4"})}, {Info("r", {})});
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, -2, 3, -4, 5, -6}, {2, 3}));
  const Var b = GemmOnes(g);
  const Var c = GemmHalves(g);
  // Rows of Relu(x) sum to 4 and 5; times a matrix of ones, plus 0.5.
  ExpectConvertedWithY(import_model(g, model, {{"x", x}, {"b", b}, {"c", c}}),
                       {4.5f, 4.5f, 4.5f, 4.5f, 5.5f, 5.5f, 5.5f, 5.5f});
  FoldOptions fold_options;
  fold_options.opset = 18;
  auto folded = fold(model, fold_options);
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(OnnxOpset(folded->model), 18);
}

// The same read through a graph output: Reshape to a shape of unknown length has no rank graphgc
// can infer, so the declared output type, calling it a scalar, was what the converter read for
// Gemm's A (SEGV). Unverified declared shapes reach the converter nowhere: it refuses the model,
// which keeps its opset.
TEST(OpsetConversionTest, AGraphOutputsDeclaredShapeGraphgcCannotCheckIsNotReadByTheConverter) {
  const onnx::ModelProto model =
      Opset6Model({Node("Reshape", {"x", "shape"}, "r"), Node("Gemm", {"r", "b", "c"}, "y")},
                  {Info("x", {"2", "3"}), Info("shape", {""}, /*int64=*/true),
                   Info("b", {"3", "4"}), Info("c", {"2", "4"})},
                  {Info("y", {"2", "4"}), Info("r", {})});
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Var shape = g.constant(Tensor::from_vector<int64_t>({2, 3}));
  const Var b = GemmOnes(g);
  const Var c = GemmHalves(g);
  auto imported = import_model(g, model, {{"x", x}, {"shape", shape}, {"b", b}, {"c", c}});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, 6);
  ASSERT_EQ(imported->warnings.size(), 1u);
  EXPECT_THAT(imported->warnings[0], HasSubstr("kept at ai.onnx opset 6"));
  const Var y = imported->outputs.at("y");
  ASSERT_TRUE(y.value().has_value()) << y.status();
  EXPECT_THAT(y.value()->data<float>(),
              ElementsAre(6.5f, 6.5f, 6.5f, 6.5f, 15.5f, 15.5f, 15.5f, 15.5f));
}

// Inside a body too: a Loop body is built with the types the Loop carries, and its input `a`
// declared a scalar where the Loop carries a matrix had Gemm 6 to 7 read past that shape (SEGV).
// Bodies reach the converter without shapes; it refuses, and the model keeps its opset.
TEST(OpsetConversionTest, ABodyInputsDeclaredShapeIsNotReadByTheConverter) {
  onnx::GraphProto body;
  body.set_name("body");
  for (onnx::NodeProto node :
       {Node("Gemm", {"a", "b", "c"}, "y"), Node("Identity", {"cond"}, "cond_out"),
        Node("Identity", {"a"}, "a_out"), Node("Identity", {"b"}, "b_out"),
        Node("Identity", {"c"}, "c_out")}) {
    *body.add_node() = std::move(node);
  }
  onnx::ValueInfoProto iteration = Info("i", {}, /*int64=*/true);
  onnx::ValueInfoProto cond = Info("cond", {});
  cond.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  onnx::ValueInfoProto cond_out = cond;
  cond_out.set_name("cond_out");
  for (onnx::ValueInfoProto info :
       {iteration, cond, Info("a", {}), Info("b", {"3", "4"}), Info("c", {"2", "4"})}) {
    *body.add_input() = std::move(info);
  }
  for (onnx::ValueInfoProto info : {cond_out, Info("a_out", {}), Info("b_out", {"3", "4"}),
                                    Info("c_out", {"2", "4"}), Info("y", {"2", "4"})}) {
    *body.add_output() = std::move(info);
  }
  onnx::NodeProto loop;
  loop.set_op_type("Loop");
  for (const char* input : {"n", "t", "x", "bb", "cc"}) loop.add_input(input);
  for (const char* output : {"xf", "bf", "cf", "ys"}) loop.add_output(output);
  onnx::AttributeProto& attribute = *loop.add_attribute();
  attribute.set_name("body");
  attribute.set_type(onnx::AttributeProto::GRAPH);
  *attribute.mutable_g() = body;
  onnx::ValueInfoProto t = Info("t", {});
  t.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  const onnx::ModelProto model =
      Opset6Model({loop},
                  {Info("n", {}, /*int64=*/true), t, Info("x", {"2", "3"}), Info("bb", {"3", "4"}),
                   Info("cc", {"2", "4"})},
                  {Info("xf", {"2", "3"}), Info("bf", {"3", "4"}), Info("cf", {"2", "4"}),
                   Info("ys", {"", "2", "4"})});
  Graph g;
  const Var n = g.constant(Tensor::scalar<int64_t>(2));
  const Var keep_going = g.constant(Tensor::scalar<bool>(true));
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Var b = GemmOnes(g);
  const Var c = GemmHalves(g);
  auto imported =
      import_model(g, model, {{"n", n}, {"t", keep_going}, {"x", x}, {"bb", b}, {"cc", c}});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, 6);
  ASSERT_EQ(imported->warnings.size(), 1u);
  EXPECT_THAT(imported->warnings[0], HasSubstr("kept at ai.onnx opset 6"));
  const std::optional<Tensor> ys = imported->outputs.at("ys").value();
  ASSERT_TRUE(ys.has_value()) << imported->outputs.at("ys").status();
  EXPECT_THAT(ys->shape(), ElementsAre(2, 2, 4));
  EXPECT_THAT(ys->data<float>(), ElementsAre(6.5f, 6.5f, 6.5f, 6.5f, 15.5f, 15.5f, 15.5f, 15.5f,
                                             6.5f, 6.5f, 6.5f, 6.5f, 15.5f, 15.5f, 15.5f, 15.5f));
}

// A graph input named like an initializer is the initializer: its declared type (a scalar, for
// a [2, 3] tensor) is not what the converter reads (Gemm 6 to 7 read past it: SEGV).
TEST(OpsetConversionTest, AnInitializersDeclaredInputTypeIsNotReadByTheConverter) {
  onnx::ModelProto model = Opset6Model(
      {Node("Gemm", {"a", "b", "c"}, "y")},
      {Info("a", {}), Info("b", {"3", "4"}), Info("c", {"2", "4"})}, {Info("y", {"2", "4"})});
  onnx::TensorProto& a = *model.mutable_graph()->add_initializer();
  a.set_name("a");
  a.set_data_type(onnx::TensorProto::FLOAT);
  a.add_dims(2);
  a.add_dims(3);
  for (float element : {1, 2, 3, 4, 5, 6}) a.add_float_data(element);
  Graph g;
  const Var b = GemmOnes(g);
  const Var c = GemmHalves(g);
  ExpectConvertedWithY(import_model(g, model, {{"b", b}, {"c", c}}),
                       {6.5f, 6.5f, 6.5f, 6.5f, 15.5f, 15.5f, 15.5f, 15.5f});
}

// An output of unknown rank needs no shape for the adapters of the other nodes: the model still
// converts, with that output withheld from ONNX's checker and converter and put back in its place.
TEST(OpsetConversionTest, AnOutputOfUnknownRankIsPutBackInItsPlaceAfterConversion) {
  const onnx::ModelProto model =
      Opset6Model({Node("Reshape", {"x", "shape"}, "r"), Node("Relu", {"x"}, "z")},
                  {Info("x", {"2", "3"}), Info("shape", {""}, /*int64=*/true)},
                  {Info("r", {}), Info("z", {"2", "3"})});
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, -2, 3, -4, 5, -6}, {2, 3}));
  const Var shape = g.constant(Tensor::from_vector<int64_t>({3, 2}));
  auto imported = import_model(g, model, {{"x", x}, {"shape", shape}});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, kNewestOnnxOpset);
  EXPECT_THAT(imported->warnings, IsEmpty());
  const std::optional<Tensor> r = imported->outputs.at("r").value();
  const std::optional<Tensor> z = imported->outputs.at("z").value();
  ASSERT_TRUE(r.has_value() && z.has_value());
  EXPECT_THAT(r->shape(), ElementsAre(3, 2));
  EXPECT_THAT(z->data<float>(), ElementsAre(1, 0, 3, 0, 5, 0));
  FoldOptions fold_options;
  fold_options.opset = 18;
  auto folded = fold(model, fold_options);
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(OnnxOpset(folded->model), 18);
  ASSERT_EQ(folded->model.graph().output_size(), 2);
  EXPECT_EQ(folded->model.graph().output(0).name(), "r");
  EXPECT_EQ(folded->model.graph().output(1).name(), "z");
}

// A declared rank the nodes contradict gave wrong values, not only crashes: Softmax 12 to 13 keeps
// axis 1 of a rank-2 input as the last axis, but flattens a rank-3 one from axis 1. With the
// value_info's rank 2 for Relu's [2, 3, 4], the converted Softmax normalized each row of 4
// instead of each batch of 12 (each batch summed to 3, not 1).
TEST(OpsetConversionTest, ADeclaredRankTheNodesContradictDoesNotChangeTheConvertedValues) {
  onnx::ModelProto model = Opset6Model({Node("Relu", {"x"}, "r"), Node("Softmax", {"r"}, "y")},
                                       {Info("x", {"2", "3", "4"})}, {Info("y", {"2", "3", "4"})},
                                       {Info("r", {"2", "3"})});
  model.set_ir_version(7);
  model.mutable_opset_import(0)->set_version(12);
  onnx::AttributeProto& axis = *model.mutable_graph()->mutable_node(1)->add_attribute();
  axis.set_name("axis");
  axis.set_type(onnx::AttributeProto::INT);
  axis.set_i(1);
  std::vector<float> elements(24);
  for (int i = 0; i < 24; ++i) elements[i] = 0.1f * static_cast<float>(i);
  std::vector<std::vector<float>> results;
  for (const int opset : {12, kNewestOnnxOpset}) {
    Graph g;
    const Var x = g.constant(Tensor::from_vector<float>(elements, {2, 3, 4}));
    auto imported = import_model(g, model, {{"x", x}}, {.opset = opset});
    ASSERT_TRUE(imported.ok()) << imported.status();
    EXPECT_EQ(imported->onnx_opset, opset);
    EXPECT_THAT(imported->warnings, IsEmpty());
    const std::optional<Tensor> y = imported->outputs.at("y").value();
    ASSERT_TRUE(y.has_value());
    const auto values = y->data<float>();
    results.emplace_back(values.begin(), values.end());
  }
  float first_batch = 0;
  for (int i = 0; i < 12; ++i) first_batch += results[1][i];
  EXPECT_NEAR(first_batch, 1.0f, 1e-5f);
  EXPECT_THAT(results[1], Pointwise(::testing::FloatNear(1e-6f), results[0]));
}

// Models whose shapes the converter's adapters need and the model does not declare (Div's and
// Gemm's broadcast adapters): graphgc's inferred types let them convert, with the same values.
TEST(OpsetConversionTest, ModelsWithoutDeclaredShapesConvertFromTheInferredOnes) {
  ExpectStoredOutput(kConverted + "test_Softsign/", kNewestOnnxOpset);
  for (const char* name :
       {"test_operator_addconstant", "test_operator_addmm", "test_operator_mm"}) {
    ExpectStoredOutput(kOperators + name + "/", kNewestOnnxOpset);
  }
}

// ONNX's converter dereferences a null value for a graph output nothing defines (found by
// import_fuzzer): such a model must be refused before it gets there.
TEST(OpsetConversionTest, AnInvalidOlderModelIsRefusedNotHandedToTheConverter) {
  onnx::ModelProto model;
  model.set_ir_version(6);
  model.add_opset_import()->set_version(11);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("g");
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type("Constant");
  node.add_output("made");
  onnx::AttributeProto& value = *node.add_attribute();
  value.set_name("value");
  value.set_type(onnx::AttributeProto::TENSOR);
  value.mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  value.mutable_t()->add_dims(1);
  value.mutable_t()->add_float_data(1);
  onnx::ValueInfoProto& output = *graph.add_output();
  output.set_name("never_made");
  output.mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  Graph g;
  auto imported = import_model(g, model);
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.status().message(), HasSubstr("output 'never_made' is not defined"));
  FoldOptions fold_options;
  fold_options.opset = 17;
  auto folded = fold(model, fold_options);
  ASSERT_FALSE(folded.ok());
  EXPECT_THAT(folded.status().message(), HasSubstr("output 'never_made' is not defined"));
}

TEST(OpsetConversionTest, TheTargetOpsetIsChecked) {
  const TestCase conv = Load("test_Conv2d");
  Graph g;
  auto too_new = import_model(g, conv.model, {}, {.opset = kNewestOnnxOpset + 1});
  ASSERT_FALSE(too_new.ok());
  EXPECT_THAT(too_new.status().message(), HasSubstr("InlineOptions::opset is 25"));
  // Converted to 13, the model's nodes are made at 13 (pinned ops join them).
  auto at13 = import_model(g, conv.model, {}, {.prefix = "at13/", .opset = 13});
  ASSERT_TRUE(at13.ok()) << at13.status();
  EXPECT_EQ(at13->onnx_opset, 13);
  auto model = to_onnx(g, {{"y", opset13::Relu(at13->outputs.begin()->second)}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(OnnxOpset(*model), 13);
}

// ONNX 1.19's converter goes down too: an opset-18 ReduceMean (axes as an input, a constant)
// becomes ReduceMean-13 (axes as an attribute) at opset 17, where its kernel computes it.
TEST(OpsetConversionTest, ANewerModelIsConvertedDownWhereOnnxCan) {
  Graph source;
  Var x = source.argument("x", DataType::kFloat, {2, 3});
  Var axes = source.constant(Tensor::from_vector<int64_t>({1}));
  auto model = to_onnx(source, {{"m", opset18::ReduceMean(x, axes, {.keepdims = 0})}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(OnnxOpset(*model), 18);
  Graph g;
  Var data = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  auto imported = import_model(g, *model, {{"x", data}}, {.opset = 17});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, 17);
  EXPECT_THAT(imported->warnings, IsEmpty());
  const Var mean = imported->outputs.at("m");
  ASSERT_TRUE(mean.value().has_value()) << mean.value_status();
  EXPECT_THAT(mean.value()->data<float>(), ::testing::ElementsAre(2.0f, 5.0f));
  auto exported = to_onnx(g, {{"m", mean}});
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(OnnxOpset(*exported), 17);
  // With the axes an initializer, ONNX 1.19's adapter writes an empty `axes` attribute (it reads
  // no raw data) and reads the initializer after erasing it: the guard keeps the model at its own
  // opset before the converter runs, and the warning says why.
  auto with_initializer = to_onnx(source, {{"m", opset18::ReduceMean(x, axes, {.keepdims = 0})}},
                                  {.constants_as_initializers = true});
  ASSERT_TRUE(with_initializer.ok()) << with_initializer.status();
  auto kept = import_model(g, *with_initializer, {{"x", data}}, {.prefix = "kept/", .opset = 17});
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->onnx_opset, 18);
  ASSERT_EQ(kept->warnings.size(), 1u);
  EXPECT_THAT(kept->warnings[0], HasSubstr("kept at ai.onnx opset 18, not converted to 17"));
  EXPECT_THAT(kept->warnings[0], HasSubstr("from the initializer"));
  EXPECT_THAT(kept->outputs.at("m").shape(), ::testing::Optional(std::vector<int64_t>{2}));
}

// The same for every adapter that takes input 1 back into an attribute from an initializer
// (ONNX 1.19 reads it after erasing it, and drops its raw data): Squeeze-13's axes, Split-13's
// split and Reshape-5's shape, each kept at its opset with the reason, its value unchanged.
TEST(OpsetConversionTest, AttributesAreNotTakenFromInitializersGoingDown) {
  Graph source;
  const Var x = source.argument("x", DataType::kFloat, {2, 1, 3});
  const Var one = source.constant(Tensor::from_vector<int64_t>({1}));
  const Var split = source.constant(Tensor::from_vector<int64_t>({1, 2}));
  const Var shape = source.constant(Tensor::from_vector<int64_t>({3, 2}));
  struct Case {
    Var output;
    int from;
    int to;
  };
  const Case cases[] = {{opset13::Squeeze(x, one), 13, 12},
                        {opset13::Split(x, split, {.axis = 2}, 2)[1], 13, 12},
                        {opset5::Reshape(x, shape), 5, 4}};
  const Tensor data = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 1, 3});
  for (const Case& c : cases) {
    auto model = to_onnx(source, {{"y", c.output}}, {.constants_as_initializers = true});
    ASSERT_TRUE(model.ok()) << model.status();
    ASSERT_EQ(OnnxOpset(*model), c.from);
    Graph g;
    auto kept = import_model(g, *model, {{"x", g.constant(data)}}, {.opset = c.to});
    ASSERT_TRUE(kept.ok()) << kept.status();
    EXPECT_EQ(kept->onnx_opset, c.from);
    ASSERT_EQ(kept->warnings.size(), 1u);
    EXPECT_THAT(kept->warnings[0], HasSubstr("from the initializer"));
    Graph own;
    auto at_own = import_model(own, *model, {{"x", own.constant(data)}}, {.opset = 0});
    ASSERT_TRUE(at_own.ok()) << at_own.status();
    ASSERT_TRUE(kept->outputs.at("y").value().has_value());
    EXPECT_EQ(*kept->outputs.at("y").value(), *at_own->outputs.at("y").value());
  }
}

// Going down, ONNX's Softmax 13 to 12 adapter keeps the axis, though opset 12 normalizes over
// every axis from it on: a Softmax over axis 1 of a [2, 3, 4] input converted to opset 12
// normalized over 12 elements, not 3 (a wrong value). Only the last axis converts. And the
// adapter that puts ReduceMax-18's `axes` input back into an attribute reads that input even
// where the node omits it (past the end of its inputs): such a model keeps its opset too.
TEST(OpsetConversionTest, ConvertingDownKeepsWhatTheNodesCompute) {
  std::vector<float> elements(24);
  for (int i = 0; i < 24; ++i) elements[i] = 0.1f * static_cast<float>(i);
  for (const int64_t axis : {1, -1}) {
    Graph source;
    const Var x = source.argument("x", DataType::kFloat, {2, 3, 4});
    auto model = to_onnx(source, {{"s", opset13::Softmax(x, {.axis = axis})}});
    ASSERT_TRUE(model.ok()) << model.status();
    std::vector<std::vector<float>> results;
    for (const int opset : {13, 12}) {
      Graph g;
      const Var data = g.constant(Tensor::from_vector<float>(elements, {2, 3, 4}));
      auto imported = import_model(g, *model, {{"x", data}}, {.opset = opset});
      ASSERT_TRUE(imported.ok()) << imported.status();
      if (opset == 12 && axis == 1) {
        EXPECT_EQ(imported->onnx_opset, 13);
        ASSERT_EQ(imported->warnings.size(), 1u);
        EXPECT_THAT(imported->warnings[0],
                    HasSubstr("normalizes over every axis from `axis` on, and the converter "
                              "keeps axis 1 of a rank-3 input"));
      } else {
        EXPECT_EQ(imported->onnx_opset, opset);
        EXPECT_THAT(imported->warnings, IsEmpty());
      }
      const std::optional<Tensor> s = imported->outputs.at("s").value();
      ASSERT_TRUE(s.has_value());
      results.emplace_back(s->data<float>().begin(), s->data<float>().end());
    }
    EXPECT_THAT(results[1], Pointwise(::testing::FloatNear(1e-6f), results[0])) << axis;
  }
  Graph source;
  const Var x = source.argument("x", DataType::kFloat, {2, 3});
  auto reduce = to_onnx(source, {{"m", opset18::ReduceMax(x)}});
  ASSERT_TRUE(reduce.ok()) << reduce.status();
  Graph g;
  const Var data = g.constant(Tensor::from_vector<float>({1, 7, 3, 4, 5, 6}, {2, 3}));
  auto imported = import_model(g, *reduce, {{"x", data}}, {.opset = 17});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, 18);
  ASSERT_EQ(imported->warnings.size(), 1u);
  EXPECT_THAT(imported->warnings[0],
              HasSubstr("ONNX's converter would read input 1 of ReduceMax node"));
  const std::optional<Tensor> m = imported->outputs.at("m").value();
  ASSERT_TRUE(m.has_value());
  EXPECT_THAT(m->data<float>(), ElementsAre(7.0f));
}

TEST(OpsetConversionTest, ModelsWithoutAnOnnxImportOrAtTheTargetAreNotTouched) {
  Graph source;
  Var a = source.argument("a", DataType::kFloat, {2});
  auto model = to_onnx(source, {{"b", op::Neg(a)}});
  ASSERT_TRUE(model.ok()) << model.status();
  Graph g;
  auto imported = import_model(g, *model);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->onnx_opset, kNewestOnnxOpset);
  EXPECT_THAT(imported->warnings, IsEmpty());
}

}  // namespace
}  // namespace graphgc
