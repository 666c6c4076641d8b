// inline_model: an ONNX model added to a graph, inputs bound by name; malformed models are statuses
// that leave the graph's Vars and their exports as they were.
#include "graphgc/export/onnx/inline_model.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// y = Relu(x * w + b) with w and b as initializers, exported from a graphgc graph.
onnx::ModelProto SmallModel() {
  Graph source;
  Var x = source.argument("x", DataType::kFloat, {2, 3});
  Var w = source.constant(Tensor::from_vector<float>({1, -1, 2}, {3}));
  Var b = source.constant(Tensor::from_vector<float>({0.5f}, {1}));
  auto model = to_onnx(source, {{"y", op::Relu(op::Add(op::Mul(x, w), b))}});
  EXPECT_TRUE(model.ok()) << model.status();
  return *model;
}

std::string Message(const absl::Status& status) { return std::string(status.message()); }

TEST(InlineModelTest, BindsInputsAndPropagates) {
  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, -1, -2, -3}, {2, 3}));
  auto outputs = inline_model(g, SmallModel(), {{"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  const Var& y = outputs->at("y");
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  ASSERT_TRUE(y.value().has_value());
  EXPECT_THAT(y.value()->data<float>(), ElementsAre(1.5f, 0, 6.5f, 0, 2.5f, 0));
  EXPECT_TRUE(to_onnx(g, {{"y", y}}).ok());
}

TEST(InlineModelTest, InputsNotGivenBecomeArguments) {
  Graph g;
  auto outputs = inline_model(g, SmallModel());
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  auto model = to_onnx(g, *outputs);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->graph().input_size(), 1);
  EXPECT_EQ(model->graph().input(0).name(), "x");
}

TEST(InlineModelTest, InliningTwiceChainsModels) {
  Graph g;
  Var x = g.argument("in", DataType::kFloat, {2, 3});
  auto first = inline_model(g, SmallModel(), {{"x", x}});
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = inline_model(g, SmallModel(), {{"x", first->at("y")}});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->at("y").shape(), (std::vector<int64_t>{2, 3}));
}

// A malformed model fails, and what the graph held before is untouched and still exports.
class MalformedModelTest : public ::testing::Test {
 protected:
  void ExpectRejected(const onnx::ModelProto& model, const std::string& why) {
    Var before = op::Neg(g_.constant(Tensor::from_vector<float>({1, 2})));
    const onnx::ModelProto exported_before = *to_onnx(g_, {{"n", before}});
    auto outputs = inline_model(g_, model, {});
    ASSERT_FALSE(outputs.ok());
    EXPECT_THAT(Message(outputs.status()), HasSubstr(why));
    EXPECT_THAT(before.value()->data<float>(), ElementsAre(-1, -2));
    auto exported_after = to_onnx(g_, {{"n", before}});
    ASSERT_TRUE(exported_after.ok());
    EXPECT_EQ(exported_after->SerializeAsString(), exported_before.SerializeAsString());
  }
  Graph g_;
};

TEST_F(MalformedModelTest, Cycle) {
  onnx::ModelProto model = SmallModel();
  // Feed the last node's output back into the first node.
  *model.mutable_graph()->mutable_node(2)->mutable_input(0) = model.graph().output(0).name();
  ExpectRejected(model, "cycle");
}

TEST_F(MalformedModelTest, DanglingName) {
  onnx::ModelProto model = SmallModel();
  *model.mutable_graph()->mutable_node(2)->mutable_input(0) = "nowhere";
  ExpectRejected(model, "'nowhere', which nothing defines");
}

TEST_F(MalformedModelTest, TensorDataDoesNotMatchItsShape) {
  onnx::ModelProto model = SmallModel();
  onnx::TensorProto* w = model.mutable_graph()->add_initializer();
  w->set_name("extra");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(4);
  w->add_float_data(1);
  ExpectRejected(model, "1 values for shape [4]");
}

TEST_F(MalformedModelTest, AbsurdDimensions) {
  onnx::ModelProto model = SmallModel();
  onnx::TensorProto* w = model.mutable_graph()->add_initializer();
  w->set_name("huge");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(int64_t{1} << 40);
  w->add_dims(int64_t{1} << 40);
  ExpectRejected(model, "too many elements");
  onnx::ModelProto negative = SmallModel();
  onnx::TensorProto* n = negative.mutable_graph()->add_initializer();
  n->set_name("negative");
  n->set_data_type(onnx::TensorProto::FLOAT);
  n->add_dims(-3);
  ExpectRejected(negative, "negative dimension");
}

TEST_F(MalformedModelTest, OpsetNewerThanSupported) {
  onnx::ModelProto model = SmallModel();
  model.mutable_opset_import(0)->set_version(kNewestOnnxOpset + 1);
  ExpectRejected(model, "opset 25");
}

TEST_F(MalformedModelTest, UnknownInputNameOrWrongType) {
  Var wrong = g_.argument("w", DataType::kDouble, {2, 3});
  auto unknown = inline_model(g_, SmallModel(), {{"nope", wrong}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(Message(unknown.status()), HasSubstr("no input 'nope'"));
  auto mistyped = inline_model(g_, SmallModel(), {{"x", wrong}});
  ASSERT_FALSE(mistyped.ok());
  EXPECT_THAT(Message(mistyped.status()),
              HasSubstr("is tensor(float) in the model but the Var given is tensor(double)"));
}

// z = Add(a, b), both inputs declared [N, 2]: one symbolic dim shared by two inputs.
onnx::ModelProto SymbolicModel() {
  Graph source;
  Var a = source.argument("a", DataType::kFloat, {-1, 2});
  Var b = source.argument("b", DataType::kFloat, {-1, 2});
  auto model = to_onnx(source, {{"z", op::Add(a, b)}});
  EXPECT_TRUE(model.ok()) << model.status();
  for (auto& input : *model->mutable_graph()->mutable_input()) {
    input.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param(
        "N");
  }
  return *model;
}

TEST_F(MalformedModelTest, BoundInputsMustHaveTheDeclaredRankAndDims) {
  Var flat = g_.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {6}));
  auto wrong_rank = inline_model(g_, SmallModel(), {{"x", flat}});
  ASSERT_FALSE(wrong_rank.ok());
  EXPECT_THAT(Message(wrong_rank.status()),
              HasSubstr("input 'x' is tensor(float)[2,3] in the model but the Var given is "
                        "tensor(float)[6]: rank 2 declared, 1 given"));
  Var square = g_.argument("sq", DataType::kFloat, {2, 2});
  auto wrong_dim = inline_model(g_, SmallModel(), {{"x", square}});
  ASSERT_FALSE(wrong_dim.ok());
  EXPECT_THAT(Message(wrong_dim.status()), HasSubstr("dim 1 is 3 declared, 2 given"));
  // What the Var leaves unknown binds: it is checked when known.
  Var unknown = g_.argument("u", DataType::kFloat, {-1, 3});
  EXPECT_TRUE(inline_model(g_, SmallModel(), {{"x", unknown}}).ok());
  Var unranked = g_.argument_unranked("r", DataType::kFloat);
  EXPECT_TRUE(inline_model(g_, SmallModel(), {{"x", unranked}}).ok());
}

TEST_F(MalformedModelTest, ASymbolicDimBindsOneSizeAcrossInputs) {
  Var three = g_.argument("three", DataType::kFloat, {3, 2});
  Var four = g_.argument("four", DataType::kFloat, {4, 2});
  Var other_three = g_.argument("other", DataType::kFloat, {3, 2});
  auto agreeing = inline_model(g_, SymbolicModel(), {{"a", three}, {"b", other_three}});
  ASSERT_TRUE(agreeing.ok()) << agreeing.status();
  EXPECT_EQ(agreeing->at("z").shape(), (std::vector<int64_t>{3, 2}));
  auto disagreeing = inline_model(g_, SymbolicModel(), {{"a", three}, {"b", four}});
  ASSERT_FALSE(disagreeing.ok());
  EXPECT_THAT(Message(disagreeing.status()),
              HasSubstr("input 'b' is tensor(float)[N,2] in the model but the Var given is "
                        "tensor(float)[4,2]: dim 0 is 'N', which input 'a' bound to 3, but here "
                        "is 4"));
  // One input bound, the other an argument of the declared type.
  auto half = inline_model(g_, SymbolicModel(), {{"a", four}}, {.prefix = "half/"});
  ASSERT_TRUE(half.ok()) << half.status();
}

TEST(InlineModelTest, OneModelInlinedTwiceWithPrefixes) {
  Graph g;
  auto first = inline_model(g, SmallModel());
  ASSERT_TRUE(first.ok()) << first.status();
  auto clash = inline_model(g, SmallModel());
  ASSERT_FALSE(clash.ok());
  EXPECT_THAT(Message(clash.status()),
              HasSubstr("input 'x' is not bound, and the graph already has an argument 'x': bind "
                        "it, or give InlineOptions::prefix"));
  auto left = inline_model(g, SmallModel(), {}, {.prefix = "left/"});
  auto right = inline_model(g, SmallModel(), {}, {.prefix = "right/"});
  ASSERT_TRUE(left.ok()) << left.status();
  ASSERT_TRUE(right.ok()) << right.status();
  auto model = to_onnx(g, {{"first", first->at("y")},
                           {"left", left->at("y")},
                           {"right", right->at("y")},
                           {"sum", op::Add(left->at("y"), right->at("y"))}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->graph().input_size(), 3);
  EXPECT_EQ(model->graph().input(0).name(), "x");
  EXPECT_EQ(model->graph().input(1).name(), "left/x");
  EXPECT_EQ(model->graph().input(2).name(), "right/x");
}

TEST_F(MalformedModelTest, BadNode) {
  onnx::ModelProto model = SmallModel();
  model.mutable_graph()->mutable_node(3)->set_op_type("NoSuchOp");
  ExpectRejected(model, "NoSuchOp");
}

// A model with control flow: a Loop whose body holds an If, both reading outer names.
onnx::ModelProto ControlFlowModel() {
  using Vars = std::vector<Var>;
  Graph source;
  Var flag = source.argument("flag", DataType::kBool, {});
  Var x = source.argument("x", DataType::kFloat, {3});
  Var trips = source.constant(Tensor::scalar<int64_t>(3));
  Vars loop = op::Loop(trips, Var(), {x}, {.body = [&](absl::Span<const Var> a) {
                         Vars chosen =
                             op::If(flag, {.else_branch = [&] { return Vars{op::Neg(a[2])}; },
                                           .then_branch = [&] { return Vars{op::Add(a[2], x)}; }});
                         return Vars{a[1], chosen[0]};
                       }});
  auto model = to_onnx(source, {{"y", loop[0]}});
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : onnx::ModelProto();
}

TEST(InlineModelTest, ImportsBodiesWithOuterNames) {
  const onnx::ModelProto model = ControlFlowModel();
  Graph g;
  Var flag = g.argument("f", DataType::kBool, {});
  Var x = g.argument("in", DataType::kFloat, {3});
  auto outputs = inline_model(g, model, {{"flag", flag}, {"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  const Var& y = outputs->at("y");
  EXPECT_EQ(y.dtype(), DataType::kFloat);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{-1}));  // the branches disagree on the dim
  auto again = to_onnx(g, {{"y", y}});
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->graph().node_size(), model.graph().node_size());
  // The same nesting comes back: a Loop whose body holds an If with one op per branch.
  const onnx::NodeProto* loop = nullptr;
  for (const auto& node : again->graph().node()) {
    if (node.op_type() == "Loop") loop = &node;
  }
  ASSERT_NE(loop, nullptr);
  const onnx::GraphProto& body = loop->attribute(0).g();
  int ifs = 0;
  for (const auto& node : body.node()) ifs += node.op_type() == "If" ? 1 : 0;
  EXPECT_EQ(ifs, 1);
  EXPECT_EQ(body.input_size(), 3);
}

// An If whose condition is known but whose other branch does not type-check for the given
// inputs (ONNX's own expansion of AffineGrid squeezes a dim of 1 in the branch for the other
// rank) imports as the branch it takes, as ONNX Runtime runs only that branch.
onnx::ModelProto SqueezeOrNotModel() {
  using Vars = std::vector<Var>;
  Graph source;
  Var flag = source.argument("flag", DataType::kBool, {});
  Var x = source.argument("x", DataType::kFloat, {-1, 3});
  Var axes = source.constant(Tensor::from_vector<int64_t>({0}, {1}));
  Vars chosen =
      op::If(flag, {.else_branch = [&] { return Vars{op::ReduceSum(x, axes, {.keepdims = 0})}; },
                    .then_branch = [&] { return Vars{op::Squeeze(x, axes)}; }});
  auto model = to_onnx(source, {{"y", chosen[0]}});
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : onnx::ModelProto();
}

TEST(InlineModelTest, AnIfOfAKnownConditionImportsAsTheBranchItTakes) {
  const onnx::ModelProto model = SqueezeOrNotModel();
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  auto taken =
      inline_model(g, model, {{"flag", g.constant(Tensor::scalar<bool>(false))}, {"x", x}});
  ASSERT_TRUE(taken.ok()) << taken.status();
  const std::optional<Tensor> y = taken->at("y").value();
  ASSERT_TRUE(y.has_value()) << taken->at("y").value_status();
  EXPECT_EQ(*y, Tensor::from_vector<float>({5, 7, 9}, {3}));
  // Taking the branch that cannot squeeze [2, 3], or not knowing which branch runs, is an error.
  auto squeezed =
      inline_model(g, model, {{"flag", g.constant(Tensor::scalar<bool>(true))}, {"x", x}});
  EXPECT_FALSE(squeezed.ok());
  auto unknown = inline_model(g, model, {{"flag", g.argument("f", DataType::kBool, {})}, {"x", x}});
  EXPECT_FALSE(unknown.ok());
}

TEST(InlineModelTest, BodyOutputsTakeTheirDeclaredShape) {
  onnx::ModelProto model = ControlFlowModel();
  for (auto& node : *model.mutable_graph()->mutable_node()) {
    if (node.op_type() != "Loop") continue;
    onnx::ValueInfoProto* carried = node.mutable_attribute(0)->mutable_g()->mutable_output(1);
    carried->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(
        3);
  }
  Graph g;
  auto outputs = inline_model(g, model, {});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  // The body's result is declared [3], the initial value is [3]: so is the Loop's output.
  EXPECT_EQ(outputs->at("y").shape(), (std::vector<int64_t>{3}));
}

TEST_F(MalformedModelTest, BodyReadingAnUndefinedName) {
  onnx::ModelProto model = ControlFlowModel();
  onnx::GraphProto* body = nullptr;
  for (auto& node : *model.mutable_graph()->mutable_node()) {
    if (node.op_type() == "Loop") body = node.mutable_attribute(0)->mutable_g();
  }
  ASSERT_NE(body, nullptr);
  body->mutable_node(0)->set_input(0, "nowhere");
  ExpectRejected(model, "reads 'nowhere', which nothing defines");
}

TEST_F(MalformedModelTest, BodyWithTheWrongNumberOfInputs) {
  onnx::ModelProto model = ControlFlowModel();
  for (auto& node : *model.mutable_graph()->mutable_node()) {
    if (node.op_type() != "Loop") continue;
    onnx::GraphProto* body = node.mutable_attribute(0)->mutable_g();
    *body->add_input() = body->input(2);
    body->mutable_input(3)->set_name("extra");
  }
  ExpectRejected(model, "has 4 inputs but its op gives it 3 arguments");
}

}  // namespace
}  // namespace graphgc
