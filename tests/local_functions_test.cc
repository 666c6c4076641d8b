// Models with their own functions (ModelProto.functions): calls typed and valued through the
// functions' bodies, kept as calls or inlined, with the bodies' values collected; and the models
// refused before anything is built (recursion, opset clashes) or at the call (arity, attributes).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "graphgc/export/onnx/inline_model.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "two_level_functions.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatNear;
using ::testing::HasSubstr;

onnx::ModelProto Parse(const std::string& text) {
  onnx::ModelProto model;
  const onnx::Status status = onnx::OnnxParser::Parse(model, text.c_str());
  EXPECT_TRUE(status.IsOK()) << status.ErrorMessage();
  return model;
}

using testing_models::kTwoLevelFunctions;

// A main graph that calls local.F once; append F's definition (and what it calls).
const char* const kCallsF = R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.F (x)
    }
)";
const char* const kFunctions = kTwoLevelFunctions;

onnx::ModelProto TwoLevelModel() {
  return Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y1, float[3] y2) {
      a = local.Layer <alpha = 0.5> (x)
      y1 = local.Layer <alpha = 0.25> (a)
      y2 = local.Layer (x)
    }
  )") + kFunctions);
}

std::string Message(const absl::Status& status) { return std::string(status.message()); }

// x = [1, 2, -3]: Layer(x, alpha) = LeakyRelu([1, -4, -9], alpha).
Var ConstantX(Graph& g) { return g.constant(Tensor::from_vector<float>({1, 2, -3}, {3})); }

TEST(LocalFunctionsTest, CallsAreTypedAndValuedThroughTheirBodies) {
  Graph g;
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", ConstantX(g)}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  const Var& y1 = outputs->at("y1");
  const Var& y2 = outputs->at("y2");
  EXPECT_EQ(y1.dtype(), DataType::kFloat);
  EXPECT_EQ(y1.shape(), (std::vector<int64_t>{3}));
  ASSERT_TRUE(y1.value().has_value()) << y1.status();
  // a = [1, -2, -4.5]; a * w = [1, 4, -13.5]; alpha 0.25.
  EXPECT_THAT(y1.value()->data<float>(), ElementsAre(1, 4, -3.375f));
  ASSERT_TRUE(y2.value().has_value()) << y2.status();
  EXPECT_THAT(y2.value()->data<float>(), ElementsAre(1, -0.4f, -0.90000004f));
}

TEST(LocalFunctionsTest, UnknownInputsStillGetTypes) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(outputs->at("y1").dtype(), DataType::kFloat);
  EXPECT_EQ(outputs->at("y1").shape(), (std::vector<int64_t>{3}));
  EXPECT_FALSE(outputs->at("y1").value().has_value());
}

TEST(LocalFunctionsTest, KeptCallsHoldNoBodyValuesAfterTheImport) {
  Graph g;
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", ConstantX(g)}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  const CollectStats stats = g.collect();
  // y1 and y2 only: the bodies' h, the inner calls' values and a are unreachable.
  EXPECT_EQ(stats.live_values, 2);
  EXPECT_EQ(stats.live_bytes, 2 * 3 * static_cast<int64_t>(sizeof(float)));
}

TEST(LocalFunctionsTest, InlinedCallsExportWithoutTheFunctions) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  InlineOptions options;
  options.inline_functions = true;
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", x}}, options);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  auto model = to_onnx(g, {{"y1", outputs->at("y1")}, {"y2", outputs->at("y2")}});
  ASSERT_TRUE(model.ok()) << model.status();
  int leaky_relus = 0;
  for (const onnx::NodeProto& node : model->graph().node()) {
    EXPECT_NE(node.domain(), "local") << node.op_type();
    if (node.op_type() == "LeakyRelu") {
      ++leaky_relus;
      ASSERT_EQ(node.attribute_size(), 1);
      EXPECT_EQ(node.attribute(0).name(), "alpha");
    }
  }
  EXPECT_EQ(leaky_relus, 3);
  EXPECT_EQ(model->functions_size(), 0);
}

TEST(LocalFunctionsTest, InlinedCallsHaveTheValuesOfKeptOnes) {
  Graph g;
  InlineOptions options;
  options.inline_functions = true;
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", ConstantX(g)}}, options);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_TRUE(outputs->at("y1").value().has_value());
  EXPECT_THAT(outputs->at("y1").value()->data<float>(), ElementsAre(1, 4, -3.375f));
}

TEST(LocalFunctionsTest, AnUnsetAttributeWithoutDefaultIsLeftOut) {
  // Act's alpha is not set and has no default: LeakyRelu takes its own (0.01).
  Graph g;
  auto outputs = inline_model(g, Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.Act (x)
    }
  )") + kFunctions),
                              {{"x", g.constant(Tensor::from_vector<float>({-1, 2, -100}, {3}))}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_TRUE(outputs->at("y").value().has_value());
  EXPECT_THAT(outputs->at("y").value()->data<float>(), ElementsAre(-0.01f, 2, -1));
}

TEST(LocalFunctionsTest, RecursionIsRefusedBeforeAnythingIsBuilt) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  const GraphStats before = g.stats();
  auto outputs = inline_model(g, Parse(std::string(kCallsF) + R"(
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    F (x) => (y) {
      y = local.G (x)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    G (x) => (y) {
      a = Relu (x)
      y = local.F (a)
    }
  )"),
                              {{"x", x}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_THAT(Message(outputs.status()), HasSubstr("calls itself"));
  EXPECT_THAT(Message(outputs.status()), HasSubstr("local.F -> local.G -> local.F"));
  EXPECT_EQ(g.stats().nodes, before.nodes);
}

TEST(LocalFunctionsTest, ACallWithTooManyInputsIsRefused) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  auto outputs = inline_model(g, Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.Act (x, x)
    }
  )") + kFunctions),
                              {{"x", x}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_THAT(Message(outputs.status()), HasSubstr("function local.Act"));
  EXPECT_THAT(Message(outputs.status()), HasSubstr("with 2 inputs"));
}

TEST(LocalFunctionsTest, ACallOfAFunctionWithTooManyOutputsIsRefusedBeforeBuilding) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  const GraphStats before = g.stats();
  auto outputs = inline_model(g, Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.Outer (x)
    }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    Outer (x) => (y) {
      y, z = local.Act (x)
    }
  )") + kFunctions),
                              {{"x", x}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_THAT(Message(outputs.status()), HasSubstr("1 outputs"));
  EXPECT_EQ(g.stats().nodes, before.nodes);
}

TEST(LocalFunctionsTest, AnUndeclaredAttributeIsRefused) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  auto refers = inline_model(g, Parse(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.F <alpha = 0.5> (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    F <alpha> (x) => (y) {
      y = LeakyRelu <alpha: float = @beta> (x)
    }
  )"),
                             {{"x", x}});
  ASSERT_FALSE(refers.ok());
  EXPECT_THAT(Message(refers.status()), HasSubstr("refers to attribute 'beta'"));
  auto sets = inline_model(g, Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.Act <gamma = 2.0> (x)
    }
  )") + kFunctions),
                           {{"x", x}});
  ASSERT_FALSE(sets.ok());
  EXPECT_THAT(Message(sets.status()), HasSubstr("sets attribute 'gamma'"));
}

TEST(LocalFunctionsTest, AFunctionImportingAnotherOpsetIsRefused) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  const GraphStats before = g.stats();
  auto outputs = inline_model(g, Parse(std::string(kCallsF) + R"(
    <domain: "local", opset_import: ["" : 17]>
    F (x) => (y) {
      y = Relu (x)
    }
  )"),
                              {{"x", x}});
  ASSERT_FALSE(outputs.ok());
  EXPECT_THAT(Message(outputs.status()),
              HasSubstr("imports ai.onnx opset 17 but the model imports opset 18"));
  EXPECT_EQ(g.stats().nodes, before.nodes);
}

TEST(LocalFunctionsTest, ACallMayLeaveTrailingInputsAndOutputsOut) {
  Graph g;
  auto outputs = inline_model(g, Parse(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[2] x) => (float[2] y) {
      y = local.F (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    F (x, bias) => (y, twice) {
      y = Neg (x)
      twice = Add (x, x)
    }
  )"),
                              {{"x", g.constant(Tensor::from_vector<float>({1, -2}, {2}))}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ASSERT_TRUE(outputs->at("y").value().has_value());
  EXPECT_THAT(outputs->at("y").value()->data<float>(), ElementsAre(-1, 2));
}

TEST(LocalFunctionsTest, KeptCallsExportWithTheirFunctionsOnce) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  auto model = to_onnx(g, {{"y1", outputs->at("y1")}, {"y2", outputs->at("y2")}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->functions_size(), 2);
  EXPECT_EQ(model->functions(0).name(), "Layer");
  EXPECT_EQ(model->functions(1).name(), "Act");
  int calls = 0;
  for (const onnx::NodeProto& node : model->graph().node()) calls += node.domain() == "local";
  EXPECT_EQ(calls, 3);
  try {
    onnx::checker::check_model(*model, /*full_check=*/true);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  // Only what the exported outputs call: y2 alone still needs both.
  auto act_only = to_onnx(g, {{"y2", outputs->at("y2")}});
  ASSERT_TRUE(act_only.ok()) << act_only.status();
  EXPECT_EQ(act_only->functions_size(), 2);
}

// ONNX's inliner leaves out an attribute the call does not set, even one the function gives a
// default: y2's LeakyRelu would then run with LeakyRelu's own alpha (0.01), not Layer's 0.1.
TEST(LocalFunctionsTest, AnInlinedExportKeepsTheFunctionsDefaults) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  auto outputs = inline_model(g, TwoLevelModel(), {{"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ExportOptions options;
  options.inline_functions = true;
  options.check = true;
  auto model = to_onnx(g, {{"y1", outputs->at("y1")}, {"y2", outputs->at("y2")}}, options);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->functions_size(), 0);
  std::map<std::string, float> alpha_of;  // by the output each LeakyRelu makes
  for (const onnx::NodeProto& node : model->graph().node()) {
    if (node.op_type() != "LeakyRelu") continue;
    ASSERT_EQ(node.attribute_size(), 1) << node.DebugString();
    alpha_of[node.output(0)] = node.attribute(0).f();
  }
  ASSERT_EQ(alpha_of.size(), 3u);
  EXPECT_FLOAT_EQ(alpha_of.at("y1"), 0.25f);
  EXPECT_FLOAT_EQ(alpha_of.at("y2"), 0.1f);
  // And the values: the inlined model, imported on x = [1, 2, -3], gives Layer's.
  Graph check;
  const Var known = check.constant(Tensor::from_vector<float>({1, 2, -3}, {3}));
  auto values = inline_model(check, *model, {{"x", known}});
  ASSERT_TRUE(values.ok()) << values.status();
  const absl::Span<const float> y2 = values->at("y2").value()->data<float>();
  EXPECT_THAT(
      y2, ElementsAre(FloatNear(1.0f, 1e-6f), FloatNear(-0.4f, 1e-6f), FloatNear(-0.9f, 1e-6f)));
}

TEST(LocalFunctionsTest, AnotherDefinitionOfAnImportedFunctionIsRefused) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  ASSERT_TRUE(inline_model(g, TwoLevelModel(), {{"x", x}}).ok());
  const onnx::ModelProto other_act = Parse(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.Act (x)
    }
    <domain: "local", opset_import: ["" : 18]>
    Act <alpha> (x) => (y) {
      y = Relu (x)
    }
  )");
  auto again = inline_model(g, other_act, {{"x", x}});
  ASSERT_FALSE(again.ok());
  EXPECT_THAT(Message(again.status()), HasSubstr("another function local.Act"));
  InlineOptions inlined;
  inlined.inline_functions = true;
  EXPECT_TRUE(inline_model(g, other_act, {{"x", x}}, inlined).ok());
}

// F's scale is Sqrt(2) * Pow(2, 3) computed from constants; its shift reads the call's attribute.
const char* const kFunctionWithConstantWork = R"(
    <domain: "local", opset_import: ["" : 18]>
    F <shift> (x) => (y) {
      two = Constant <value = float {2}> ()
      three = Constant <value = float {3}> ()
      root = Sqrt (two)
      cube = Pow (two, three)
      scale = Mul (root, cube)
      shift = Constant <value_float: float = @shift> ()
      shifted = Add (x, shift)
      y = Mul (shifted, scale)
    }
)";

onnx::ModelProto CallsFWithConstantWork() {
  return Parse(std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) {
      y = local.F <shift: float = 0.5> (x)
    }
  )") + kFunctionWithConstantWork);
}

int CountOps(const onnx::FunctionProto& function, const std::string& op_type) {
  int count = 0;
  for (const onnx::NodeProto& node : function.node()) count += node.op_type() == op_type;
  return count;
}

TEST(LocalFunctionsTest, FoldComputesWhatAFunctionBodyGetsFromConstants) {
  onnx::ModelProto model = CallsFWithConstantWork();
  for (const char* name : {"root", "shifted"}) {  // IR 10 value_info: root's goes with root
    onnx::ValueInfoProto* info = model.mutable_functions(0)->add_value_info();
    info->set_name(name);
    info->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  absl::StatusOr<FoldResult> folded = fold(model);
  ASSERT_TRUE(folded.ok()) << folded.status();
  ASSERT_EQ(folded->model.functions_size(), 1);
  const onnx::FunctionProto& f = folded->model.functions(0);
  EXPECT_EQ(CountOps(f, "Sqrt") + CountOps(f, "Pow"), 0);
  EXPECT_EQ(f.node_size(), 4);  // scale, then shift's Constant, Add and Mul as they were
  EXPECT_EQ(folded->stats.function_nodes_folded, 4);
  const onnx::NodeProto& scale = f.node(0);
  ASSERT_EQ(scale.output(0), "scale");
  absl::StatusOr<Tensor> value = internal::FromTensorProto(scale.attribute(0).t());
  ASSERT_TRUE(value.ok()) << value.status();
  EXPECT_NEAR(value->data<float>()[0], 8 * std::sqrt(2.0f), 1e-5f);
  EXPECT_EQ(f.node(1).attribute(0).ref_attr_name(), "shift");  // the reference stays
  ASSERT_EQ(f.value_info_size(), 1);
  EXPECT_EQ(f.value_info(0).name(), "shifted");
  try {
    onnx::checker::check_model(folded->model, /*full_check=*/true);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  // The kept call computes what the original does (each in a graph of its own: one graph holds
  // one definition of local.F).
  const Tensor x = Tensor::from_vector<float>({1, 2, 3}, {3});
  Graph original_graph;
  Graph folded_graph;
  auto before = inline_model(original_graph, model, {{"x", original_graph.constant(x)}});
  auto after = inline_model(folded_graph, folded->model, {{"x", folded_graph.constant(x)}});
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(after.ok()) << after.status();
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(after->at("y").value()->data<float>()[i], before->at("y").value()->data<float>()[i],
                1e-5f);
  }
}

TEST(LocalFunctionsTest, AFunctionBodyIsNotFoldedWhenItsValuesAreTooLarge) {
  const onnx::ModelProto model = CallsFWithConstantWork();
  FoldOptions options;
  options.max_fold_bytes = 2;  // a float is 4
  absl::StatusOr<FoldResult> folded = fold(model, options);
  ASSERT_TRUE(folded.ok()) << folded.status();
  ASSERT_EQ(folded->model.functions_size(), 1);
  EXPECT_EQ(folded->model.functions(0).node_size(), 8);
  EXPECT_EQ(folded->stats.function_nodes_folded, 0);
}

}  // namespace
}  // namespace graphgc
