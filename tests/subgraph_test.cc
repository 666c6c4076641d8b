// If, Loop and Scan: bodies built from Subgraph functions, typed at construction, exported as
// nested GraphProtos that the checker and ONNX's own inference accept; If propagates the chosen
// branch; vars made in a body stay in it; every misuse is a status, and the graph stays usable.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graphgc/graphgc.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/subgraph_table.h"
#include "onnx/onnx_pb.h"
#include "onnx_inference_check.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
using gg::DataType;
using gg::Graph;
using gg::NamedVars;
using gg::Subgraph;
using gg::Tensor;
using gg::Var;
using gg::testing_support::ExpectOnnxInferenceAgrees;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Dims = std::vector<int64_t>;
using Vars = std::vector<Var>;
using Args = absl::Span<const Var>;

onnx::ModelProto Export(const Graph& g, const NamedVars& outputs) {
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, outputs);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : onnx::ModelProto();
}

const onnx::NodeProto* FindNode(const onnx::GraphProto& graph, const std::string& op_type) {
  for (const onnx::NodeProto& node : graph.node()) {
    if (node.op_type() == op_type) return &node;
  }
  return nullptr;
}

const onnx::GraphProto& Body(const onnx::NodeProto& node, const std::string& attribute) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == attribute) return a.g();
  }
  ADD_FAILURE() << node.op_type() << " has no attribute " << attribute;
  static const onnx::GraphProto kEmpty;
  return kEmpty;
}

std::vector<std::string> OpTypes(const onnx::GraphProto& graph) {
  std::vector<std::string> types;
  for (const onnx::NodeProto& node : graph.node()) types.push_back(node.op_type());
  return types;
}

TEST(If, TypesItsOutputsFromTheBranchesAndExports) {
  Graph g;
  const Var cond = g.argument("cond", DataType::kBool, {});
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Vars out = op::If(cond, {.else_branch = [&] { return Vars{op::Neg(x)}; },
                                 .then_branch = [&] { return Vars{op::Relu(x)}; }});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_EQ(out[0].dtype(), DataType::kFloat);
  EXPECT_EQ(out[0].shape(), std::optional<Dims>(Dims{2, 3}));
  EXPECT_FALSE(out[0].value().has_value());

  const NamedVars outputs = {{"y", out[0]}};
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("If"));  // the branch ops stay in the branches
  const onnx::NodeProto* node = FindNode(model.graph(), "If");
  ASSERT_NE(node, nullptr);
  EXPECT_THAT(OpTypes(Body(*node, "then_branch")), ElementsAre("Relu"));
  EXPECT_THAT(OpTypes(Body(*node, "else_branch")), ElementsAre("Neg"));
  EXPECT_EQ(Body(*node, "then_branch").input_size(), 0);
  EXPECT_EQ(model.graph().input_size(), 2);  // cond and x, used inside the branches
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(If, BranchesOfDifferentShapesGiveTheirUnion) {
  Graph g;
  const Var cond = g.argument("cond", DataType::kBool, {});
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Var y = g.argument("y", DataType::kFloat, {4, 3});
  const Vars out = op::If(
      cond, {.else_branch = [&] { return Vars{y}; }, .then_branch = [&] { return Vars{x}; }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_EQ(out[0].shape(), std::optional<Dims>(Dims{-1, 3}));
  const NamedVars outputs = {{"z", out[0]}};
  const onnx::ModelProto model = Export(g, outputs);
  const onnx::NodeProto* node = FindNode(model.graph(), "If");
  ASSERT_NE(node, nullptr);
  // A branch returning an outer var passes it through an Identity of its own.
  EXPECT_THAT(OpTypes(Body(*node, "then_branch")), ElementsAre("Identity"));
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(If, AKnownConditionPropagatesTheChosenBranch) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({1, 2}));
  const Var b = g.constant(Tensor::from_vector<float>({10, 20}));
  for (const bool which : {true, false}) {
    const Var cond = g.constant(Tensor::scalar<bool>(which));
    const Vars out = op::If(cond, {.else_branch = [&] { return Vars{op::Mul(a, b)}; },
                                   .then_branch = [&] { return Vars{op::Add(a, b)}; }});
    ASSERT_TRUE(out[0].ok()) << out[0].status();
    ASSERT_TRUE(out[0].value().has_value());
    const std::vector<float> expected =
        which ? std::vector<float>{11, 22} : std::vector<float>{10, 40};
    EXPECT_THAT(out[0].value()->data<float>(), ElementsAre(expected[0], expected[1]));
  }
}

TEST(If, BranchValuesAreCollectedOnceTheNodeIsMade) {
  Graph g;
  const Var big = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
  const Var cond = g.constant(Tensor::scalar<bool>(true));
  const Vars out = op::If(cond, {.else_branch = [&] { return Vars{op::Neg(op::Relu(big))}; },
                                 .then_branch = [&] { return Vars{op::Relu(op::Neg(big))}; }});
  ASSERT_TRUE(out[0].value().has_value());
  g.collect();
  // Only the If's own value is left; the four branch values went with their handles.
  EXPECT_EQ(g.stats().live_value_bytes, 4000);
  const NamedVars outputs = {{"y", out[0]}};
  ExpectOnnxInferenceAgrees(Export(g, outputs), outputs);
}

TEST(Loop, TypesCarriedValuesAndScanOutputs) {
  Graph g;
  const Var trips = g.constant(Tensor::scalar<int64_t>(4));
  const Var x = g.argument("x", DataType::kFloat, {3});
  const Var start = g.constant(Tensor::zeros(DataType::kFloat, {3}));
  std::vector<std::optional<Dims>> argument_shapes;
  std::vector<DataType> argument_types;
  const Vars out = op::Loop(trips, Var(), {start}, {.body = [&](Args args) {
                              for (const Var& arg : args) {
                                argument_shapes.push_back(arg.shape());
                                argument_types.push_back(arg.dtype());
                              }
                              const Var next = op::Add(args[2], x);
                              return Vars{args[1], next, op::Mul(next, next)};
                            }});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  // Iteration number and condition are scalars; a carried value keeps its rank, not its dims.
  EXPECT_THAT(argument_types, ElementsAre(DataType::kInt64, DataType::kBool, DataType::kFloat));
  EXPECT_THAT(argument_shapes, ElementsAre(Dims{}, Dims{}, Dims{-1}));
  EXPECT_EQ(out[0].dtype(), DataType::kFloat);
  // The final value is the start value (no iteration) or a body result: both are [3].
  EXPECT_EQ(out[0].shape(), std::optional<Dims>(Dims{3}));
  // The body may end the loop early, so the number of iterations stays unknown.
  EXPECT_EQ(out[1].shape(), std::optional<Dims>(Dims{-1, 3}));

  const NamedVars outputs = {{"sum", out[0]}, {"squares", out[1]}};
  const onnx::ModelProto model = Export(g, outputs);
  const onnx::NodeProto* node = FindNode(model.graph(), "Loop");
  ASSERT_NE(node, nullptr);
  const onnx::GraphProto& body = Body(*node, "body");
  EXPECT_EQ(body.input_size(), 3);
  EXPECT_EQ(body.output_size(), 3);
  EXPECT_THAT(OpTypes(body), ElementsAre("Add", "Mul", "Identity"));  // cond passes through
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(Scan, SlicesScanInputsAlongTheirAxis) {
  Graph g;
  const Var state = g.argument("state", DataType::kFloat, {2});
  const Var rows = g.argument("rows", DataType::kFloat, {5, 2});
  const Var columns = g.argument("columns", DataType::kFloat, {2, 5});
  std::vector<std::optional<Dims>> shapes;
  const Vars out = op::Scan({state, rows, columns},
                            {.body =
                                 [&](Args args) {
                                   for (const Var& arg : args) shapes.push_back(arg.shape());
                                   return Vars{op::Add(args[0], args[1]), op::Neg(args[2])};
                                 },
                             .num_scan_inputs = 2,
                             .scan_input_axes = std::vector<int64_t>{0, -1}});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_THAT(shapes, ElementsAre(Dims{2}, Dims{2}, Dims{2}));
  EXPECT_EQ(out[0].shape(), std::optional<Dims>(Dims{2}));
  EXPECT_EQ(out[1].shape(), std::optional<Dims>(Dims{5, 2}));
  const NamedVars outputs = {{"final", out[0]}, {"negated", out[1]}};
  ExpectOnnxInferenceAgrees(Export(g, outputs), outputs);
}

TEST(Nesting, AnIfInsideALoopBodySeesTheLoopsArguments) {
  Graph g;
  const Var trips = g.constant(Tensor::scalar<int64_t>(3));
  const Var flag = g.argument("flag", DataType::kBool, {});
  const Var start = g.argument("start", DataType::kInt64, {2});
  const Vars out =
      op::Loop(trips, Var(), {start}, {.body = [&](Args args) {
                 const Var carried = args[2];
                 const Vars chosen =
                     op::If(flag, {.else_branch = [&] { return Vars{op::Neg(carried)}; },
                                   .then_branch = [&] { return Vars{op::Add(carried, args[0])}; }});
                 return Vars{args[1], chosen[0]};
               }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_EQ(out[0].dtype(), DataType::kInt64);
  const NamedVars outputs = {{"r", out[0]}};
  const onnx::ModelProto model = Export(g, outputs);
  const onnx::NodeProto* loop = FindNode(model.graph(), "Loop");
  ASSERT_NE(loop, nullptr);
  const onnx::NodeProto* inner = FindNode(Body(*loop, "body"), "If");
  ASSERT_NE(inner, nullptr);
  EXPECT_THAT(OpTypes(Body(*inner, "then_branch")), ElementsAre("Add"));
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(Nesting, MembershipFollowsTheOpenSubgraph) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  Var inside;
  const Var cond = g.constant(Tensor::scalar<bool>(true));
  const Var before = op::Neg(x);
  const Vars out = op::If(cond, {.else_branch = [&] { return Vars{x}; },
                                 .then_branch =
                                     [&] {
                                       inside = op::Relu(x);
                                       return Vars{inside};
                                     }});
  const Var after = op::Neg(x);
  const gg::internal::Arena& arena = g.core()->arena();
  EXPECT_FALSE(arena.var_subgraph(before.id()).valid());
  EXPECT_TRUE(arena.var_subgraph(inside.id()).valid());
  EXPECT_FALSE(arena.var_subgraph(out[0].id()).valid());
  EXPECT_FALSE(arena.var_subgraph(after.id()).valid());
  EXPECT_EQ(arena.subgraphs().size(), 2u);
  EXPECT_EQ(arena.subgraphs().current(), gg::SubgraphId());
}

// --- misuse ----------------------------------------------------------------------------------

TEST(Misuse, AVarMadeInABodyCannotBeUsedOutsideIt) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var cond = g.argument("cond", DataType::kBool, {});
  Var leaked;
  const Vars out = op::If(cond, {.else_branch = [&] { return Vars{x}; },
                                 .then_branch =
                                     [&] {
                                       leaked = op::Relu(x);
                                       return Vars{leaked};
                                     }});
  ASSERT_TRUE(out[0].ok());
  const Var bad = op::Add(leaked, x);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("Add: input 0 (A)"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("inside the body"));
  const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, {{"leak", leaked}});
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  // A sibling body cannot return it either.
  const Vars again = op::If(
      cond, {.else_branch = [&] { return Vars{x}; }, .then_branch = [&] { return Vars{leaked}; }});
  EXPECT_FALSE(again[0].ok());
  EXPECT_THAT(std::string(again[0].status().message()),
              HasSubstr("If: body 'then_branch': result 0 was made inside another body"));
  ExpectOnnxInferenceAgrees(Export(g, {{"y", out[0]}}), {{"y", out[0]}});
}

TEST(Misuse, BranchesThatDisagreeAreReported) {
  Graph g;
  const Var cond = g.argument("cond", DataType::kBool, {});
  const Var f = g.argument("f", DataType::kFloat, {2});
  const Var i = g.argument("i", DataType::kInt64, {2});
  const Vars count = op::If(cond, {.else_branch = [&] { return Vars{f}; },
                                   .then_branch =
                                       [&] {
                                         return Vars{f, f};
                                       }});
  EXPECT_FALSE(count[0].ok());
  EXPECT_THAT(std::string(count[0].status().message()), HasSubstr("If:"));
  const Vars types = op::If(
      cond, {.else_branch = [&] { return Vars{i}; }, .then_branch = [&] { return Vars{f}; }});
  EXPECT_FALSE(types[0].ok());
  EXPECT_THAT(std::string(types[0].status().message()), HasSubstr("If:"));
}

TEST(Misuse, BadBodiesAndAttributesGiveStatuses) {
  Graph g;
  const Var cond = g.argument("cond", DataType::kBool, {});
  const Var x = g.argument("x", DataType::kFloat, {2});
  auto message = [](const Vars& vars) { return std::string(vars.at(0).status().message()); };

  EXPECT_THAT(message(op::If(cond, {.then_branch = [&] { return Vars{x}; }})),
              HasSubstr("If: missing required attribute 'else_branch'"));
  EXPECT_THAT(message(op::If(cond, {.else_branch = [&] { return Vars{}; },
                                    .then_branch = [&] { return Vars{x}; }})),
              HasSubstr("If: body 'else_branch': the builder returned no results"));
  EXPECT_THAT(message(op::If(cond, {.else_branch = [&] { return Vars{Var()}; },
                                    .then_branch = [&] { return Vars{x}; }})),
              HasSubstr("result 0 is an empty Var"));
  EXPECT_THAT(message(op::If(cond, {.else_branch = [&] { return Vars{op::MatMul(x, cond)}; },
                                    .then_branch = [&] { return Vars{x}; }})),
              HasSubstr("If: body 'else_branch': result 0 failed: MatMul"));
  Graph other;
  const Var foreign = other.argument("x", DataType::kFloat, {2});
  EXPECT_THAT(message(op::If(cond, {.else_branch = [&] { return Vars{foreign}; },
                                    .then_branch = [&] { return Vars{x}; }})),
              HasSubstr("belongs to another Graph"));
  EXPECT_THAT(message(op::If(x, {.else_branch = [&] { return Vars{x}; },
                                 .then_branch = [&] { return Vars{x}; }})),
              HasSubstr("If: input 0 (cond) has type tensor(float)"));
  EXPECT_THAT(message(op::Scan({x}, {.body = [&](Args a) { return Vars{a[0]}; }})),
              HasSubstr("Scan: missing required attribute 'num_scan_inputs'"));
  EXPECT_THAT(message(op::Scan({x}, {.body = [&](Args a) { return Vars{a[0]}; },
                                     .num_scan_inputs = 1,
                                     .scan_input_axes = std::vector<int64_t>{3}})),
              HasSubstr("Scan: scan input 0 has rank 1, no axis 3"));
  const Vars scan8 = gg::make_node(
      "Scan", {Var(), x},
      {{"body", Subgraph([&](Args a) { return Vars{a[0]}; })}, {"num_scan_inputs", int64_t{1}}},
      {.version = 8});
  EXPECT_THAT(message(scan8),
              HasSubstr("Scan: input 1 has rank 1, less than its batch and sequence axes"));
  // A body given to an op without one, through the generic entry.
  const std::vector<Var> relu =
      gg::make_node("Relu", {x}, {{"body", Subgraph([&] { return Vars{x}; })}});
  EXPECT_THAT(message(relu), HasSubstr("Relu: unknown attribute 'body'"));
  const std::vector<Var> empty =
      gg::make_node("If", {cond}, {{"then_branch", Subgraph()}, {"else_branch", Subgraph()}});
  EXPECT_THAT(message(empty), HasSubstr("the Subgraph is empty"));

  // None of it touched what the graph exports.
  const Var fine = op::Relu(x);
  const NamedVars outputs = {{"fine", fine}};
  ExpectOnnxInferenceAgrees(Export(g, outputs), outputs);
}

TEST(Misuse, ALoopCarriedValueOfUnknownRankCannotBeExported) {
  Graph g;
  const Var trips = g.constant(Tensor::scalar<int64_t>(2));
  const Var target = g.argument("target", DataType::kInt64, {-1});  // a shape of unknown length
  const Var start = op::Reshape(g.argument("x", DataType::kFloat, {6}), target);
  ASSERT_FALSE(start.rank().has_value());
  const Vars out = op::Loop(trips, Var(), {start}, {.body = [&](Args a) {
                              return Vars{a[1], op::Neg(a[2])};
                            }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  const Var flat = op::Reshape(out[0], g.constant(Tensor::from_vector<int64_t>({-1})));
  ASSERT_EQ(flat.rank(), std::optional<int64_t>(1));
  const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, {{"r", flat}});
  EXPECT_FALSE(model.ok());
  EXPECT_THAT(std::string(model.status().message()),
              HasSubstr("an argument of the body of an If, Loop or Scan has unknown rank"));
}

TEST(Misuse, ABuilderThatThrowsLeavesTheGraphUsable) {
  Graph g;
  const Var cond = g.argument("cond", DataType::kBool, {});
  const Var x = g.argument("x", DataType::kFloat, {2});
  // No exception leaves the API, the user's own included: it becomes the op's status.
  Vars failed;
  EXPECT_NO_THROW(
      failed = op::If(cond, {.else_branch = [&]() -> Vars { throw std::runtime_error("user"); },
                             .then_branch = [&] { return Vars{op::Neg(x)}; }}));
  ASSERT_FALSE(failed.empty());
  EXPECT_THAT(std::string(failed[0].status().message()),
              AllOf(HasSubstr("If"), HasSubstr("the body builder threw: user")));
  EXPECT_EQ(g.core()->arena().subgraphs().current(), gg::SubgraphId());
  const Var after = op::Relu(x);  // made in the main graph again
  ASSERT_TRUE(after.ok()) << after.status();
  const NamedVars outputs = {{"after", after}};
  ExpectOnnxInferenceAgrees(Export(g, outputs), outputs);
}

TEST(Misuse, SequenceMapTakesASequenceAndOtherDomainsTakeNoBodies) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Vars mapped = op::SequenceMap(x, {}, {.body = [&](Args a) { return Vars{a[0]}; }});
  EXPECT_FALSE(mapped[0].ok());
  EXPECT_THAT(std::string(mapped[0].status().message()),
              HasSubstr("SequenceMap: input 0 (input_sequence) is not a sequence"));
  const std::vector<Var> ml = gg::make_node(
      "If", {x}, {{"then_branch", Subgraph([&] { return Vars{x}; })}}, {.domain = "ai.onnx.ml"});
  EXPECT_FALSE(ml[0].ok());
  EXPECT_THAT(std::string(ml[0].status().message()), HasSubstr("graph attributes are supported"));
}

TEST(SequenceMap, MapsEachElementWithTheOtherInputsAsTheyAre) {
  using gg::VarType;
  Graph g;
  const Var rows =
      g.argument("rows", VarType::Sequence(VarType::Tensor(DataType::kFloat, Dims{-1})));
  const Var bias = g.argument("bias", DataType::kFloat, {1});
  std::vector<std::string> argument_types;
  const Vars out = op::SequenceMap(rows, {bias}, {.body = [&](Args a) {
                                     for (const Var& arg : a)
                                       argument_types.push_back(arg.type().Key());
                                     return Vars{op::Add(a[0], a[1]), op::Shape(a[0])};
                                   }});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_THAT(argument_types, ElementsAre("tensor(float)[-1]", "tensor(float)[1]"));
  EXPECT_EQ(out[0].type().Key(), "seq(tensor(float)[-1])");
  EXPECT_EQ(out[1].type().ToString(), "seq(tensor(int64))");
  const NamedVars outputs = {{"sums", out[0]}, {"shapes", out[1]}};
  ExpectOnnxInferenceAgrees(Export(g, outputs), outputs);
}

}  // namespace
