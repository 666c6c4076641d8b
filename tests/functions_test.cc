// Functions defined from code (define_function) and called like ops (call): types through the
// body at each call, values, collection of the bodies' values, the export of the functions once
// per model, and the errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "onnx/checker.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;

std::string Message(const absl::Status& status) { return std::string(status.message()); }

VarType FloatTensor(std::vector<int64_t> dims) { return VarType::Tensor(DataType::kFloat, dims); }

// Act(x) = x * Sigmoid(x); Layer(x) = Act(x * w + b), w = [1, -2, 3] and b = 0.5 constants of
// the body.
Function DefineAct() {
  absl::StatusOr<Function> act = define_function(
      {.domain = "local", .name = "Act", .inputs = {{"x", FloatTensor({3})}}},
      [](absl::Span<const Var> x) { return std::vector<Var>{op::Mul(x[0], op::Sigmoid(x[0]))}; });
  EXPECT_TRUE(act.ok()) << act.status();
  return *act;
}

Function DefineLayer(const Function& act) {
  absl::StatusOr<Function> layer =
      define_function({.domain = "local", .name = "Layer", .inputs = {{"x", FloatTensor({3})}}},
                      [&act](Graph& graph, absl::Span<const Var> x) {
                        const Var w = graph.constant(Tensor::from_vector<float>({1, -2, 3}, {3}));
                        const Var b = graph.constant(Tensor::from_vector<float>({0.5f}, {}));
                        return call(act, {op::Add(op::Mul(x[0], w), b)});
                      });
  EXPECT_TRUE(layer.ok()) << layer.status();
  return *layer;
}

float Silu(float v) { return v / (1 + std::exp(-v)); }

std::vector<float> LayerOf(const std::vector<float>& x) {
  const float w[3] = {1, -2, 3};
  std::vector<float> y;
  for (size_t i = 0; i < x.size(); ++i) y.push_back(Silu(x[i] * w[i % 3] + 0.5f));
  return y;
}

TEST(FunctionsTest, ATwoLevelFunctionCalledThreeTimes) {
  const Function act = DefineAct();
  const Function layer = DefineLayer(act);
  EXPECT_EQ(layer.num_inputs(), 1);
  EXPECT_EQ(layer.num_outputs(), 1);
  ASSERT_EQ(layer.definitions().size(), 2);  // Layer, then its callee Act
  EXPECT_EQ(layer.definitions().Get(1).name(), "Act");

  Graph g;
  const std::vector<float> x0 = {0.25f, -1, 2};
  Var y = g.constant(Tensor::from_vector<float>(x0, {3}));
  for (int i = 0; i < 3; ++i) {
    std::vector<Var> out = call(layer, {y});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_TRUE(out[0].ok()) << out[0].status();
    y = out[0];
  }
  EXPECT_EQ(y.dtype(), DataType::kFloat);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{3}));
  ASSERT_TRUE(y.value().has_value()) << y.status();
  const std::vector<float> expected = LayerOf(LayerOf(LayerOf(x0)));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(y.value()->data<float>()[i], expected[i], 1e-5f);
}

TEST(FunctionsTest, ExportsEachFunctionOnce) {
  const Function act = DefineAct();
  const Function layer = DefineLayer(act);
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  Var y = call(layer, {call(layer, {call(layer, {x})[0]})[0]})[0];
  Var z = call(act, {x})[0];
  auto model = to_onnx(g, {{"y", y}, {"z", z}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->functions_size(), 2);
  int calls = 0;
  for (const onnx::NodeProto& node : model->graph().node()) calls += node.domain() == "local";
  EXPECT_EQ(calls, 4);
  try {
    onnx::checker::check_model(*model, /*full_check=*/true);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
}

TEST(FunctionsTest, ExportsCallsInlinedOnRequest) {
  const Function act = DefineAct();
  const Function layer = DefineLayer(act);
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3});
  Var y = call(layer, {call(layer, {x})[0]})[0];
  ExportOptions options;
  options.inline_functions = true;
  options.check = true;
  auto model = to_onnx(g, {{"y", y}}, options);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->functions_size(), 0);
  std::map<std::string, int> ops;
  for (const onnx::NodeProto& node : model->graph().node())
    ++ops[node.domain() + ":" + node.op_type()];
  // Each Layer: Mul, Add and Act's Mul and Sigmoid, its constants; no call left, no "local" import.
  EXPECT_EQ(ops[":Sigmoid"], 2);
  EXPECT_EQ(ops[":Mul"], 4);
  EXPECT_EQ(ops[":Add"], 2);
  for (const auto& [op, count] : ops) EXPECT_FALSE(op.starts_with("local:")) << op;
  for (const onnx::OperatorSetIdProto& opset : model->opset_import()) {
    EXPECT_NE(opset.domain(), "local");
  }
  // The bytes say the same.
  auto bytes = to_onnx_bytes(g, {{"y", y}}, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  onnx::ModelProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(*bytes));
  EXPECT_EQ(parsed.functions_size(), 0);
  EXPECT_EQ(parsed.graph().node_size(), model->graph().node_size());
}

TEST(FunctionsTest, TypesFollowEachCallsInputs) {
  const Function act = DefineAct();  // traced on float[3]
  Graph g;
  Var wide = g.argument("wide", DataType::kFloat, {2, 5});
  Var doubles = g.argument("doubles", DataType::kDouble, {-1});
  EXPECT_EQ(call(act, {wide})[0].shape(), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(call(act, {doubles})[0].dtype(), DataType::kDouble);
  // Symbolic dims come through the call as through any op.
  Var named = g.argument("named", DataType::kFloat, std::vector<Dim>{Dim("N"), Dim(3)});
  const std::optional<std::vector<Dim>> dims = call(act, {named})[0].dims();
  ASSERT_TRUE(dims.has_value());
  ASSERT_EQ(dims->size(), 2u);
  EXPECT_EQ((*dims)[0].name(), "N");
  EXPECT_EQ((*dims)[1].size(), 3);
  // What the body refuses, the call refuses, naming the function.
  Var ints = g.argument("ints", DataType::kInt64, {3});
  const Var refused = call(act, {ints})[0];
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(Message(refused.status()), HasSubstr("call local.Act"));
}

TEST(FunctionsTest, ALoopOfCallsKeepsFewValues) {
  absl::StatusOr<Function> step =
      define_function({.domain = "local", .name = "Step", .inputs = {{"s", FloatTensor({1000})}}},
                      [](Graph& graph, absl::Span<const Var> s) {
                        const Var half = graph.constant(Tensor::from_vector<float>({0.5f}, {}));
                        return std::vector<Var>{op::Add(op::Mul(s[0], half), half)};
                      });
  ASSERT_TRUE(step.ok()) << step.status();
  Graph g;
  Var state = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
  for (int i = 0; i < 10000; ++i) state = call(*step, {state})[0];
  ASSERT_TRUE(state.value().has_value()) << state.status();
  EXPECT_NEAR(state.value()->data<float>()[0], 1.0f, 1e-6f);
  EXPECT_LT(g.stats().peak_value_bytes, int64_t{1} << 20);
  EXPECT_EQ(g.collect().live_bytes, 4000);
}

TEST(FunctionsTest, DefinitionErrors) {
  auto relu = [](absl::Span<const Var> x) { return std::vector<Var>{op::Relu(x[0])}; };
  const std::vector<FunctionInput> one = {{"x", FloatTensor({3})}};
  EXPECT_THAT(
      Message(define_function({.domain = "local", .name = "", .inputs = one}, relu).status()),
      HasSubstr("needs a name"));
  EXPECT_THAT(Message(define_function({.domain = "", .name = "F", .inputs = one}, relu).status()),
              HasSubstr("a domain of your own"));
  EXPECT_THAT(
      Message(define_function({.domain = "ai.onnx.ml", .name = "F", .inputs = one}, relu).status()),
      HasSubstr("a domain of your own"));
  EXPECT_THAT(
      Message(define_function({.domain = "local",
                               .name = "F",
                               .inputs = {{"x", FloatTensor({3})}, {"x", FloatTensor({3})}}},
                              relu)
                  .status()),
      HasSubstr("two inputs are named 'x'"));
  EXPECT_THAT(Message(define_function({.domain = "local", .name = "F", .inputs = one},
                                      [](absl::Span<const Var>) { return std::vector<Var>{}; })
                          .status()),
              HasSubstr("returned no Var"));
  EXPECT_THAT(Message(define_function({.domain = "local", .name = "F", .inputs = one},
                                      [](absl::Span<const Var> x) {
                                        return std::vector<Var>{op::Reshape(x[0], x[0])};
                                      })
                          .status()),
              HasSubstr("output 0 failed"));
  Graph other;
  Var foreign = other.argument("y", DataType::kFloat, {3});
  EXPECT_THAT(
      Message(define_function({.domain = "local", .name = "F", .inputs = one},
                              [&](absl::Span<const Var>) { return std::vector<Var>{foreign}; })
                  .status()),
      HasSubstr("not a Var the body made"));
  EXPECT_THAT(Message(define_function({.domain = "local", .name = "F", .inputs = one},
                                      [](absl::Span<const Var>) -> std::vector<Var> {
                                        throw std::runtime_error("no");
                                      })
                          .status()),
              HasSubstr("the body threw: no"));
}

TEST(FunctionsTest, CallErrors) {
  const Function act = DefineAct();
  Graph g;
  Graph h;
  Var x = g.argument("x", DataType::kFloat, {3});
  Var y = h.argument("y", DataType::kFloat, {3});
  EXPECT_THAT(Message(call(Function(), {x})[0].status()), HasSubstr("the Function is empty"));
  EXPECT_THAT(Message(call(act, {x, x})[0].status()), HasSubstr("2 inputs; the function takes 1"));
  EXPECT_THAT(Message(call(act, {})[0].status()), HasSubstr("no input belongs to a graph"));
  EXPECT_THAT(Message(call(g, act, {y})[0].status()), HasSubstr("belongs to another graph"));
  const Var failed = op::Reshape(x, x);
  EXPECT_EQ(call(act, {failed})[0].status(), failed.status());
  // Another function under the same name in the same graph.
  absl::StatusOr<Function> other_act =
      define_function({.domain = "local", .name = "Act", .inputs = {{"x", FloatTensor({3})}}},
                      [](absl::Span<const Var> in) { return std::vector<Var>{op::Neg(in[0])}; });
  ASSERT_TRUE(other_act.ok()) << other_act.status();
  ASSERT_TRUE(call(act, {x})[0].ok());
  EXPECT_THAT(Message(call(*other_act, {x})[0].status()),
              HasSubstr("already holds another function local.Act"));
  EXPECT_TRUE(call(*other_act, {y})[0].ok());  // another graph is free to
}

// Leaky(x) = LeakyRelu(x, alpha = the function's alpha, 0.1 unless the call sets it).
absl::StatusOr<Function> DefineLeaky() {
  return define_function({.domain = "local",
                          .name = "Leaky",
                          .inputs = {{"x", FloatTensor({3})}},
                          .attributes = {{"alpha", 0.1f}}},
                         [](absl::Span<const Var> x) {
                           return make_node("LeakyRelu", {x[0]}, {{"alpha", 0.1f}},
                                            {.attribute_refs = {{"alpha", "alpha"}}});
                         });
}

// The alpha of each LeakyRelu of `outputs` exported with the calls inlined (and checked); a
// LeakyRelu without alpha gives NaN.
std::vector<float> InlinedLeakyReluAlphas(const Graph& g, const NamedVars& outputs) {
  ExportOptions inlined;
  inlined.inline_functions = true;
  inlined.check = true;
  auto flat = to_onnx(g, outputs, inlined);
  EXPECT_TRUE(flat.ok()) << flat.status();
  std::vector<float> alphas;
  if (!flat.ok()) return alphas;
  for (const onnx::NodeProto& node : flat->graph().node()) {
    if (node.op_type() != "LeakyRelu") continue;
    alphas.push_back(node.attribute_size() == 1 ? node.attribute(0).f() : std::nanf(""));
  }
  return alphas;
}

TEST(FunctionsTest, AttributesTakenByReference) {
  absl::StatusOr<Function> leaky = DefineLeaky();
  ASSERT_TRUE(leaky.ok()) << leaky.status();
  const onnx::FunctionProto& definition = leaky->definitions().Get(0);
  ASSERT_EQ(definition.attribute_proto_size(), 1);
  EXPECT_EQ(definition.attribute_proto(0).name(), "alpha");
  EXPECT_FLOAT_EQ(definition.attribute_proto(0).f(), 0.1f);
  ASSERT_EQ(definition.node(0).attribute_size(), 1);
  EXPECT_EQ(definition.node(0).attribute(0).ref_attr_name(), "alpha");

  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({-2, 0, 4}, {3}));
  Var by_default = call(*leaky, {x})[0];
  Var half = call(*leaky, {x}, {{"alpha", 0.5f}})[0];
  ASSERT_TRUE(by_default.value().has_value()) << by_default.status();
  ASSERT_TRUE(half.value().has_value()) << half.status();
  EXPECT_NEAR(by_default.value()->data<float>()[0], -0.2f, 1e-6f);
  EXPECT_NEAR(half.value()->data<float>()[0], -1.0f, 1e-6f);
  EXPECT_NEAR(half.value()->data<float>()[2], 4.0f, 1e-6f);

  auto model = to_onnx(g, {{"a", by_default}, {"b", half}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->functions_size(), 1);
  EXPECT_GE(model->ir_version(), 9);  // attribute defaults
  std::vector<int> call_attributes;
  for (const onnx::NodeProto& node : model->graph().node()) {
    if (node.domain() == "local") call_attributes.push_back(node.attribute_size());
  }
  EXPECT_EQ(call_attributes, (std::vector<int>{0, 1}));
  try {
    onnx::checker::check_model(*model, /*full_check=*/true);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what();
  }
  EXPECT_EQ(InlinedLeakyReluAlphas(g, {{"a", by_default}, {"b", half}}),
            (std::vector<float>{0.1f, 0.5f}));
}

TEST(FunctionsTest, AttributeReferenceErrors) {
  absl::StatusOr<Function> leaky = DefineLeaky();
  ASSERT_TRUE(leaky.ok()) << leaky.status();
  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({-2, 0, 4}, {3}));
  const int64_t nodes = g.stats().nodes;
  const Var undeclared = call(*leaky, {x}, {{"beta", 0.5f}})[0];
  ASSERT_FALSE(undeclared.ok());
  EXPECT_THAT(Message(undeclared.status()), HasSubstr("beta"));
  EXPECT_EQ(g.stats().nodes, nodes);

  // A reference to an attribute the function does not declare.
  absl::StatusOr<Function> stray =
      define_function({.domain = "local", .name = "Stray", .inputs = {{"x", FloatTensor({3})}}},
                      [](absl::Span<const Var> x) {
                        return make_node("LeakyRelu", {x[0]}, {{"alpha", 0.1f}},
                                         {.attribute_refs = {{"alpha", "alpha"}}});
                      });
  ASSERT_FALSE(stray.ok());
  EXPECT_THAT(Message(stray.status()), HasSubstr("does not declare"));

  // A reference for an attribute the node is not given.
  const Var ungiven = make_node("LeakyRelu", {x}, {}, {.attribute_refs = {{"alpha", "alpha"}}})[0];
  ASSERT_FALSE(ungiven.ok());
  EXPECT_THAT(Message(ungiven.status()), HasSubstr("attribute 'alpha' refers to a function"));

  // Outside a function's body, a reference cannot be exported.
  const Var outside =
      make_node("LeakyRelu", {x}, {{"alpha", 0.3f}}, {.attribute_refs = {{"alpha", "alpha"}}})[0];
  ASSERT_TRUE(outside.ok()) << outside.status();
  auto model = to_onnx(g, {{"y", outside}});
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(Message(model.status()), HasSubstr("only the body of define_function"));
}

// Block<slope = 0.2>(x) = Leaky(x * 2, alpha = @slope): a function passing its attribute on to
// the function it calls.
absl::StatusOr<Function> DefineBlock(const Function& leaky) {
  return define_function({.domain = "local",
                          .name = "Block",
                          .inputs = {{"x", FloatTensor({3})}},
                          .attributes = {{"slope", 0.2f}}},
                         [&leaky](Graph& graph, absl::Span<const Var> x) {
                           const Var two = graph.constant(Tensor::from_vector<float>({2}, {}));
                           return call(leaky, {op::Mul(x[0], two)}, {{"alpha", 0.2f}},
                                       {.attribute_refs = {{"alpha", "slope"}}});
                         });
}

TEST(FunctionsTest, AttributesPassedOnToACalledFunction) {
  absl::StatusOr<Function> leaky = DefineLeaky();
  ASSERT_TRUE(leaky.ok()) << leaky.status();
  absl::StatusOr<Function> block = DefineBlock(*leaky);
  ASSERT_TRUE(block.ok()) << block.status();
  ASSERT_EQ(block->definitions().size(), 2);
  const onnx::NodeProto& inner_call = block->definitions().Get(0).node().rbegin()[0];
  EXPECT_EQ(inner_call.op_type(), "Leaky");
  ASSERT_EQ(inner_call.attribute_size(), 1);
  EXPECT_EQ(inner_call.attribute(0).name(), "alpha");
  EXPECT_EQ(inner_call.attribute(0).ref_attr_name(), "slope");

  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({-2, 0, 4}, {3}));
  Var by_default = call(*block, {x})[0];
  Var steep = call(*block, {x}, {{"slope", 0.5f}})[0];
  ASSERT_TRUE(by_default.value().has_value()) << by_default.status();
  ASSERT_TRUE(steep.value().has_value()) << steep.status();
  EXPECT_NEAR(by_default.value()->data<float>()[0], -0.8f, 1e-6f);  // -4 * 0.2
  EXPECT_NEAR(steep.value()->data<float>()[0], -2.0f, 1e-6f);       // -4 * 0.5
  EXPECT_NEAR(steep.value()->data<float>()[2], 8.0f, 1e-6f);

  ExportOptions checked;
  checked.check = true;
  auto model = to_onnx(g, {{"a", by_default}, {"b", steep}}, checked);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->functions_size(), 2);
  EXPECT_EQ(InlinedLeakyReluAlphas(g, {{"a", by_default}, {"b", steep}}),
            (std::vector<float>{0.2f, 0.5f}));

  // The reference names an attribute the call is not given, or one Block does not declare.
  absl::StatusOr<Function> ungiven =
      define_function({.domain = "local",
                       .name = "Ungiven",
                       .inputs = {{"x", FloatTensor({3})}},
                       .attributes = {{"slope", 0.2f}}},
                      [&leaky](absl::Span<const Var> x) {
                        return call(*leaky, {x[0]}, {}, {.attribute_refs = {{"alpha", "slope"}}});
                      });
  ASSERT_FALSE(ungiven.ok());
  EXPECT_THAT(Message(ungiven.status()), HasSubstr("attribute 'alpha' refers to a function"));
  absl::StatusOr<Function> undeclared = define_function(
      {.domain = "local", .name = "Undeclared", .inputs = {{"x", FloatTensor({3})}}},
      [&leaky](absl::Span<const Var> x) {
        return call(*leaky, {x[0]}, {{"alpha", 0.2f}}, {.attribute_refs = {{"alpha", "slope"}}});
      });
  ASSERT_FALSE(undeclared.ok());
  EXPECT_THAT(Message(undeclared.status()), HasSubstr("does not declare"));
}

}  // namespace
}  // namespace graphgc
