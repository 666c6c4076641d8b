// graphgc::fold: folded models compute what the originals compute (checked by running both with
// graphgc itself), pass the checker, never grow past the size policy, keep the model's own facts,
// pass unknown ops through, and hold only what later nodes need while folding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "graphgc/graphgc.h"
#include "onnx/checker.h"
#include "onnx/onnx_pb.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
using gg::DataType;
using gg::Graph;
using gg::Tensor;
using gg::Var;
using Dims = std::vector<int64_t>;

onnx::ModelProto Export(const Graph& g, const gg::NamedVars& outputs) {
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, outputs);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : onnx::ModelProto();
}

gg::FoldResult Fold(const onnx::ModelProto& model, const gg::FoldOptions& options = {}) {
  absl::StatusOr<gg::FoldResult> folded = gg::fold(model, options);
  EXPECT_TRUE(folded.ok()) << folded.status();
  if (!folded.ok()) return gg::FoldResult();
  EXPECT_NO_THROW(onnx::checker::check_model(folded->model));
  return *std::move(folded);
}

// The model's output `name` for the given inputs, computed by graphgc's kernels.
std::vector<float> Evaluate(const onnx::ModelProto& model,
                            const std::map<std::string, Tensor>& feeds, const std::string& name) {
  Graph g;
  std::map<std::string, Var> inputs;
  for (const auto& [input, tensor] : feeds) inputs[input] = g.constant(tensor);
  absl::StatusOr<std::map<std::string, Var>> outputs = gg::inline_model(g, model, inputs);
  EXPECT_TRUE(outputs.ok()) << outputs.status();
  if (!outputs.ok() || !outputs->contains(name)) return {};
  std::optional<Tensor> value = outputs->at(name).value();
  EXPECT_TRUE(value.has_value()) << name << " has no value";
  if (!value.has_value()) return {};
  const auto elements = value->data<float>();
  return std::vector<float>(elements.begin(), elements.end());
}

std::vector<std::string> OpTypes(const onnx::ModelProto& model) {
  std::vector<std::string> types;
  for (const onnx::NodeProto& node : model.graph().node()) types.push_back(node.op_type());
  return types;
}

Tensor Floats(const std::vector<float>& values, const Dims& shape) {
  return Tensor::from_vector<float>(values, shape);
}

TEST(FoldTest, ConstantWorkBecomesInitializersAndOutputsAgree) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2, 3});
  Var c = g.constant(Floats({1, 2, 3}, {3}));
  Var scale = op::Add(op::Mul(c, c), op::Sqrt(c));  // constant work: folds
  Var y = op::Relu(op::Sub(op::Mul(x, scale), c));
  const onnx::ModelProto model = Export(g, {{"y", y}});
  ASSERT_EQ(model.graph().node_size(), 7);  // c is a Constant node

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Mul", "Sub", "Relu"));
  EXPECT_EQ(folded.stats.nodes_before, 7);
  EXPECT_EQ(folded.stats.nodes_after, 3);
  EXPECT_EQ(folded.stats.nodes_folded, 4);
  EXPECT_EQ(folded.model.graph().initializer_size(), 2);  // scale and c
  const Tensor feed = Floats({-1, 0, 1, 2, 3, 4}, {2, 3});
  EXPECT_EQ(Evaluate(folded.model, {{"x", feed}}, "y"), Evaluate(model, {{"x", feed}}, "y"));
}

TEST(FoldTest, KeepsTheModelsOwnFacts) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {4});
  Var unused = g.argument("unused", DataType::kFloat, {1});
  Var y = op::Add(x, op::Neg(g.constant(Floats({1, 2, 3, 4}, {4}))));
  onnx::ModelProto model = Export(g, {{"y", y}, {"also_unused", unused}});
  model.set_producer_name("exporter");
  model.set_producer_version("9.9");
  model.set_doc_string("a model");
  model.mutable_graph()->set_doc_string("its graph");
  auto* prop = model.add_metadata_props();
  prop->set_key("author");
  prop->set_value("someone");
  model.mutable_opset_import(0)->set_version(13);
  (*model.mutable_graph()
        ->mutable_output(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(0))
      .set_dim_param("four");  // a declared type less precise than inferred: kept as declared

  const gg::FoldResult folded = Fold(model);
  EXPECT_EQ(folded.model.producer_name(), "exporter");
  EXPECT_EQ(folded.model.producer_version(), "9.9");
  EXPECT_EQ(folded.model.doc_string(), "a model");
  EXPECT_EQ(folded.model.graph().doc_string(), "its graph");
  ASSERT_EQ(folded.model.metadata_props_size(), 1);
  EXPECT_EQ(folded.model.metadata_props(0).value(), "someone");
  ASSERT_EQ(folded.model.opset_import_size(), 1);
  EXPECT_EQ(folded.model.opset_import(0).version(), 13);
  ASSERT_EQ(folded.model.graph().input_size(), 2);
  EXPECT_EQ(folded.model.graph().input(0).name(), "x");
  EXPECT_EQ(folded.model.graph().input(1).name(), "unused");
  EXPECT_EQ(folded.model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "four");
  EXPECT_THAT(OpTypes(folded.model), ::testing::Contains("Add"));
}

TEST(FoldTest, RefusesToGrowTheModel) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {1000, 1000});
  Var small = g.constant(Floats({1, 2, 3, 4}, {4, 1}));
  Var shape = g.constant(Tensor::from_vector<int64_t>({1000, 1000}));
  Var big = op::Expand(op::Tile(small, g.constant(Tensor::from_vector<int64_t>({250, 1}))),
                       shape);  // 4 MB from 16 bytes
  Var y = op::Add(x, big);
  const onnx::ModelProto model = Export(g, {{"y", y}});

  const gg::FoldResult folded = Fold(model);
  EXPECT_LE(folded.model.ByteSizeLong(), model.ByteSizeLong());
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Tile", "Expand", "Add"));
  EXPECT_EQ(folded.stats.nodes_kept_for_size, 2);

  gg::FoldOptions anyway;
  anyway.fold_anyway = true;
  const gg::FoldResult grown = Fold(model, anyway);
  EXPECT_THAT(OpTypes(grown.model), ::testing::ElementsAre("Add"));
  EXPECT_GT(grown.model.ByteSizeLong(), 4'000'000u);
}

// A generator's value is written only where that does not grow the model: 16 KiB of zeros from a
// ConstantOfShape that a node with an unknown input reads stays a node (it was written before the
// never-grow rule, which made the model 16 KiB larger), while a small shape computation that
// replaces its nodes is still written.
// flat = Reshape(MatMul(x [rows, 64], ConstantOfShape([64, columns])), [rows, -1]): a weight made
// by a generator, read by a node of the input, beside a shape computation that folds.
onnx::ModelProto ModelWithAGeneratedWeight(int64_t rows, int64_t columns) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {rows, 64});
  Var w = op::ConstantOfShape(g.constant(Tensor::from_vector<int64_t>({64, columns}, {2})));
  Var y = op::MatMul(x, w);
  Var flat = op::Reshape(
      y, op::Concat({op::Shape(x, {.end = 1}), g.constant(Tensor::from_vector<int64_t>({-1}, {1}))},
                    {.axis = 0}));
  return Export(g, {{"flat", flat}});
}

TEST(FoldTest, AGeneratorStaysANodeWhenItsValueWouldGrowTheModel) {
  const onnx::ModelProto model = ModelWithAGeneratedWeight(8, 64);
  const gg::FoldResult folded = Fold(model);
  EXPECT_LE(folded.model.ByteSizeLong(), model.ByteSizeLong());
  EXPECT_THAT(OpTypes(folded.model),
              ::testing::ElementsAre("ConstantOfShape", "MatMul", "Reshape"));
  EXPECT_EQ(folded.stats.nodes_kept_for_size, 1);

  gg::FoldOptions anyway;
  anyway.fold_anyway = true;
  const gg::FoldResult grown = Fold(model, anyway);
  EXPECT_THAT(OpTypes(grown.model), ::testing::ElementsAre("MatMul", "Reshape"));
  EXPECT_GT(grown.model.ByteSizeLong(), model.ByteSizeLong() + 16'000);
}

TEST(FoldTest, ALargeValueThatReplacesAsManyInitializerBytesIsWritten) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {512, 1024});
  Tensor weight = Tensor::zeros(DataType::kFloat, {1024, 512});  // 2 MiB, read only here
  Var w = g.constant(weight);
  Var y = op::Add(x, op::Transpose(w));
  const onnx::ModelProto model = Export(g, {{"y", y}});
  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Add"));
  EXPECT_EQ(folded.stats.initializer_bytes_after, 2 << 20);
  EXPECT_LE(folded.model.ByteSizeLong(), model.ByteSizeLong());

  // The same weight read by a second node stays in the model: the transpose would add to it.
  Var z = op::Mul(x, op::ReduceSum(w, Var(), {.keepdims = 0}));
  const gg::FoldResult shared = Fold(Export(g, {{"y", y}, {"z", z}}));
  EXPECT_THAT(OpTypes(shared.model), ::testing::ElementsAre("Transpose", "Add", "Mul"));
}

TEST(FoldTest, IntermediatesDieOnceReduced) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {1});
  Var shape = g.constant(Tensor::from_vector<int64_t>({1 << 20}));  // 4 MiB floats
  Var sum = g.constant(Floats({0}, {1}));
  for (int i = 0; i < 16; ++i) {
    Var big = op::ConstantOfShape(shape, {.value = Floats({static_cast<float>(i)}, {1})});
    sum = op::Add(sum, op::ReduceSum(op::Mul(big, big), Var(), {.keepdims = 0}));
  }
  Var y = op::Add(x, sum);
  const onnx::ModelProto model = Export(g, {{"y", y}});

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Add"));
  // 16 x 2 intermediates of 4 MiB were made; at most an op's input and output were alive at once.
  EXPECT_LE(folded.stats.peak_live_value_bytes, 2 * (int64_t{4} << 20) + 4096);
  EXPECT_GT(folded.stats.peak_live_value_bytes, int64_t{4} << 20);
}

TEST(FoldTest, AMemoryBudgetKeepsNodesInsteadOfFailing) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {1});
  Var shape = g.constant(Tensor::from_vector<int64_t>({1 << 20}));
  Var big = op::ConstantOfShape(shape, {.value = Floats({2}, {1})});
  Var y = op::Add(x, op::ReduceSum(big, Var(), {.keepdims = 0}));
  const onnx::ModelProto model = Export(g, {{"y", y}});

  gg::FoldOptions tight;
  tight.memory_budget_bytes = 1 << 20;  // the 4 MiB intermediate does not fit
  const gg::FoldResult folded = Fold(model, tight);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("ConstantOfShape", "ReduceSum", "Add"));
  EXPECT_GE(folded.stats.nodes_kept_for_budget, 1);
  EXPECT_LE(folded.stats.peak_live_value_bytes, 1 << 20);
  const Tensor feed = Floats({1}, {1});
  EXPECT_EQ(Evaluate(folded.model, {{"x", feed}}, "y"), Evaluate(model, {{"x", feed}}, "y"));
}

// y = Sum(x, w_0 .. w_7), each w_i = Tile(row_i, 1024) * (1 + i) a 1 MiB weight made from 1 KiB:
// 8 MiB of folded weights from a model of 10 KB.
onnx::ModelProto TiledWeights() {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {256 * 1024});
  std::vector<Var> terms = {x};
  for (int i = 0; i < 8; ++i) {
    std::vector<float> row(256);
    for (int k = 0; k < 256; ++k) row[static_cast<size_t>(k)] = 0.01f * static_cast<float>(k - i);
    const Var tiled =
        op::Tile(g.constant(Floats(row, {256})), g.constant(Tensor::from_vector<int64_t>({1024})));
    terms.push_back(op::Mul(tiled, g.constant(Tensor::scalar(1.0f + static_cast<float>(i)))));
  }
  return Export(g, {{"y", op::Sum(terms)}});
}

TEST(FoldTest, UnderAMemoryBudgetValuesAreComputedAgainAndTheModelIsTheSame) {
  const onnx::ModelProto model = TiledWeights();
  gg::FoldOptions anyway;
  anyway.fold_anyway = true;
  const gg::FoldResult unbounded = Fold(model, anyway);
  gg::FoldOptions tight = anyway;
  tight.memory_budget_bytes = 3 << 20;  // three of the eight weights at once
  const gg::FoldResult folded = Fold(model, tight);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Sum"));
  EXPECT_EQ(folded.model.SerializeAsString(), unbounded.model.SerializeAsString());
  EXPECT_EQ(folded.stats.nodes_kept_for_budget, 0);
  EXPECT_GT(folded.stats.values_evicted, 0);
  EXPECT_GT(folded.stats.values_recomputed, 0);
  EXPECT_GT(folded.stats.recomputed_bytes, 0);
  EXPECT_LE(folded.stats.peak_live_value_bytes, 3 << 20);
  EXPECT_EQ(unbounded.stats.values_evicted, 0);
  // Without external data the ModelProto holds the 8 MiB the budget cannot bound: it says so.
  ASSERT_EQ(folded.warnings.size(), 1u);
  EXPECT_THAT(folded.warnings[0],
              ::testing::HasSubstr("bounds the values computed, not the model"));
}

// A node of a domain graphgc does not know, as a model exported by another tool holds it.
onnx::ModelProto ModelWithAContribOp(bool with_value_info) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2, 2});
  Var y = op::Add(x, op::Neg(g.constant(Floats({1, 1, 1, 1}, {2, 2}))));
  onnx::ModelProto model = Export(g, {{"y", y}});
  onnx::GraphProto* graph = model.mutable_graph();
  // y = Add(FusedGelu(x), Neg(c)): the contrib op reads x and feeds the Add.
  onnx::NodeProto* gelu = graph->add_node();
  gelu->set_op_type("FusedGelu");
  gelu->set_domain("com.example.contrib");
  gelu->add_input("x");
  gelu->add_output("g");
  auto* alpha = gelu->add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(0.5f);
  for (onnx::NodeProto& node : *graph->mutable_node()) {
    if (node.op_type() == "Add") node.set_input(0, "g");
  }
  // Keep the nodes in topological order: move the contrib node first.
  graph->mutable_node()->SwapElements(0, graph->node_size() - 1);
  if (with_value_info) {
    onnx::ValueInfoProto* info = graph->add_value_info();
    info->set_name("g");
    *info->mutable_type() = graph->input(0).type();
  }
  auto* opset = model.add_opset_import();
  opset->set_domain("com.example.contrib");
  opset->set_version(1);
  return model;
}

TEST(FoldTest, UnknownDomainsPassThroughAsOpaqueNodes) {
  for (bool with_value_info : {true, false}) {
    const onnx::ModelProto model = ModelWithAContribOp(with_value_info);
    const gg::FoldResult folded = Fold(model);
    EXPECT_EQ(folded.stats.opaque_nodes, with_value_info ? 1 : 2) << with_value_info;
    EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("FusedGelu", "Add"));
    bool kept_attribute = false;
    for (const onnx::NodeProto& node : folded.model.graph().node()) {
      if (node.op_type() != "FusedGelu") continue;
      EXPECT_EQ(node.domain(), "com.example.contrib");
      kept_attribute = node.attribute_size() == 1 && node.attribute(0).f() == 0.5f;
    }
    EXPECT_TRUE(kept_attribute);

    gg::FoldOptions strict;
    strict.unknown_ops_are_errors = true;
    const absl::StatusOr<gg::FoldResult> refused = gg::fold(model, strict);
    EXPECT_FALSE(refused.ok());
    EXPECT_THAT(std::string(refused.status().message()), ::testing::HasSubstr("com.example"));
  }
}

TEST(FoldTest, AnUnknownOpOfAiOnnxIsAnError) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  onnx::ModelProto model = Export(g, {{"y", op::Neg(x)}});
  model.mutable_graph()->mutable_node(0)->set_op_type("Negg");
  const absl::StatusOr<gg::FoldResult> folded = gg::fold(model);
  EXPECT_FALSE(folded.ok());
  EXPECT_THAT(std::string(folded.status().message()), ::testing::HasSubstr("Negg"));
}

TEST(FoldTest, InlineModelKeepsUnknownOpsOpaque) {
  const onnx::ModelProto model = ModelWithAContribOp(true);
  Graph g;
  absl::StatusOr<std::map<std::string, Var>> outputs = gg::inline_model(g, model);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(outputs->at("y").shape(), (Dims{2, 2}));
  EXPECT_FALSE(outputs->at("y").value().has_value());
  absl::StatusOr<onnx::ModelProto> again = gg::to_onnx(g, *outputs);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_THAT(OpTypes(*again), ::testing::Contains("FusedGelu"));
  const absl::StatusOr<std::map<std::string, Var>> strict =
      gg::inline_model(g, model, {}, {.opaque_unknown_ops = false});
  EXPECT_FALSE(strict.ok());
}

// Under IR >= 4 an initializer that is also a graph input is only the input's default: a caller
// may feed another value, so nothing folds through it. Under IR 3 it is a constant.
TEST(FoldTest, AnInitializerThatIsAlsoAnInputFoldsOnlyBeforeIr4) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  Var w = g.argument("w", DataType::kFloat, {2});
  onnx::ModelProto model = Export(g, {{"y", op::Add(x, op::Neg(w))}});
  onnx::TensorProto* initializer = model.mutable_graph()->add_initializer();
  initializer->set_name("w");
  initializer->set_data_type(onnx::TensorProto::FLOAT);
  initializer->add_dims(2);
  initializer->add_float_data(1);
  initializer->add_float_data(2);

  const gg::FoldResult overridable = Fold(model);
  EXPECT_THAT(OpTypes(overridable.model), ::testing::ElementsAre("Neg", "Add"));
  ASSERT_EQ(overridable.model.graph().initializer_size(), 1);
  EXPECT_EQ(overridable.model.graph().initializer(0).name(), "w");
  EXPECT_EQ(overridable.model.graph().input_size(), 2);

  model.set_ir_version(3);
  model.mutable_opset_import(0)->set_version(8);
  const gg::FoldResult constant = Fold(model);
  EXPECT_THAT(OpTypes(constant.model), ::testing::ElementsAre("Add"));
  ASSERT_EQ(constant.model.graph().input_size(), 1);
  EXPECT_EQ(constant.model.graph().input(0).name(), "x");
}

// Shape computations fold as far as the known dims allow: the batch dim is unknown, the others
// are not, so everything but the Reshape (and the MatMul on the input) folds.
TEST(FoldTest, ShapeComputationsOnPartlyKnownShapesFold) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {-1, 16, 64});
  Var shape = op::Shape(x);
  auto dim = [&](int64_t d) {
    return op::Unsqueeze(op::Gather(shape, g.constant(Tensor::scalar<int64_t>(d))),
                         g.constant(Tensor::from_vector<int64_t>({0})));
  };
  Var flat = op::Concat({g.constant(Tensor::from_vector<int64_t>({-1})), op::Mul(dim(1), dim(2))},
                        {.axis = 0});
  Var weight = g.constant(Tensor::zeros(DataType::kFloat, {1024, 8}));
  Var y = op::MatMul(op::Reshape(x, flat), weight);
  const onnx::ModelProto model = Export(g, {{"y", y}});

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Reshape", "MatMul"));
}

// Around a symbolic batch dim (the README's promise): a target made of the data's own named dims
// at their own places and known entries folds to one Reshape with a constant target, 0 where the
// data's dim is copied; a target that moves a named dim elsewhere cannot, and stays.
TEST(FoldTest, AReshapeOfTheDatasOwnSymbolicDimsFoldsToAConstantTarget) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {"batch", "seq", 32});
  auto dim = [&](const Var& of, int64_t d) {
    return op::Unsqueeze(op::Gather(op::Shape(of), g.constant(Tensor::scalar<int64_t>(d))),
                         g.constant(Tensor::from_vector<int64_t>({0})));
  };
  auto ints = [&](std::vector<int64_t> values) {
    const int64_t n = static_cast<int64_t>(values.size());
    return g.constant(Tensor::from_vector<int64_t>(values, {n}));
  };
  Var heads = op::Reshape(x, op::Concat({dim(x, 0), dim(x, 1), ints({4, 8})}, {.axis = 0}));
  Var moved = op::Reshape(x, op::Concat({dim(x, 1), dim(x, 0), ints({32})}, {.axis = 0}));
  const onnx::ModelProto model = Export(g, {{"heads", heads}, {"moved", moved}});

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model),
              ::testing::UnorderedElementsAre("Reshape", "Shape", "Gather", "Gather", "Unsqueeze",
                                              "Unsqueeze", "Concat", "Reshape"));
  const onnx::NodeProto* heads_node = nullptr;
  for (const auto& node : folded.model.graph().node()) {
    if (node.output(0) == "heads") heads_node = &node;
  }
  ASSERT_NE(heads_node, nullptr);
  const onnx::TensorProto* target = nullptr;
  for (const auto& initializer : folded.model.graph().initializer()) {
    if (initializer.name() == heads_node->input(1)) target = &initializer;
  }
  ASSERT_NE(target, nullptr) << "the target of 'heads' is not an initializer";
  EXPECT_THAT(gg::from_tensor_proto(*target)->data<int64_t>(), ::testing::ElementsAre(0, 0, 4, 8));
}

// If with a known condition folds to the branch it takes; with an unknown one it stays whole.
TEST(FoldTest, IfWithAKnownConditionFolds) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  Var c = g.constant(Floats({1, 2}, {2}));
  auto branch = [&](float k) {
    return gg::Subgraph([&, k]() -> std::vector<Var> {
      return {op::Mul(c, g.constant(Floats({k, k}, {2})))};
    });
  };
  Var known = g.constant(Tensor::scalar<bool>(true));
  Var chosen = op::If(known, {.else_branch = branch(3), .then_branch = branch(2)})[0];
  Var unknown =
      op::Greater(op::ReduceSum(x, Var(), {.keepdims = 0}), g.constant(Tensor::scalar<float>(0)));
  Var kept = op::If(unknown, {.else_branch = branch(5), .then_branch = branch(7)})[0];
  const onnx::ModelProto model = Export(g, {{"y", op::Add(op::Add(x, chosen), kept)}});

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model),
              ::testing::ElementsAre("ReduceSum", "Greater", "If", "Add", "Add"));
  for (const Tensor& feed : {Floats({1, 2}, {2}), Floats({-5, 1}, {2})}) {
    EXPECT_EQ(Evaluate(folded.model, {{"x", feed}}, "y"), Evaluate(model, {{"x", feed}}, "y"));
  }
}

// A weight no written value needs is never computed: the plan decides before the import computes,
// so a megabyte of ConstantOfShape zeros read by a MatMul of the input never exists, while the
// shape computation beside it still folds.
TEST(FoldTest, AWeightNoWrittenValueNeedsIsNeverComputed) {
  const onnx::ModelProto model = ModelWithAGeneratedWeight(2, 4096);
  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model),
              ::testing::ElementsAre("ConstantOfShape", "MatMul", "Reshape"));
  EXPECT_LT(folded.stats.peak_live_value_bytes, 64 << 10);  // the weight is 1 MiB

  gg::FoldOptions anyway;  // writes every value: computes the weight
  anyway.fold_anyway = true;
  EXPECT_GE(Fold(model, anyway).stats.peak_live_value_bytes, 1 << 20);
}

onnx::TensorProto FloatTensor(const std::string& name, const Dims& dims, float value) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  int64_t count = 1;
  for (int64_t dim : dims) {
    tensor.add_dims(dim);
    count *= dim;
  }
  for (int64_t i = 0; i < count; ++i) tensor.add_float_data(value);
  return tensor;
}

void AddFloatValue(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* values,
                   const std::string& name, const Dims& dims) {
  onnx::ValueInfoProto* value = values->Add();
  value->set_name(name);
  onnx::TypeProto_Tensor* type = value->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t dim : dims) type->mutable_shape()->add_dim()->set_dim_value(dim);
}

onnx::ModelProto EmptyModel() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  model.mutable_graph()->set_name("g");
  return model;
}

// An If whose branches return Constant nodes: the export writes such bodies anew (an Identity
// for each result made outside the body, value_info for what they make), which is larger, so the
// model comes back unchanged — and larger only with fold_anyway.
TEST(FoldTest, AResultThatWouldGrowIsTheInputUnchanged) {
  onnx::ModelProto model = EmptyModel();
  onnx::GraphProto& graph = *model.mutable_graph();
  onnx::ValueInfoProto* cond = graph.add_input();
  cond->set_name("cond");
  cond->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  cond->mutable_type()->mutable_tensor_type()->mutable_shape();
  AddFloatValue(graph.mutable_output(), "res", {5});
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type("If");
  node.add_input("cond");
  node.add_output("res");
  for (const auto& [attribute, value] : {std::pair{"then_branch", 1.0f}, {"else_branch", 2.0f}}) {
    onnx::AttributeProto& branch = *node.add_attribute();
    branch.set_name(attribute);
    branch.set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto& body = *branch.mutable_g();
    body.set_name(std::string(attribute) + "_body");
    onnx::NodeProto& constant = *body.add_node();
    constant.set_op_type("Constant");
    const std::string out = std::string(attribute) + "_out";
    constant.add_output(out);
    onnx::AttributeProto& tensor = *constant.add_attribute();
    tensor.set_name("value");
    tensor.set_type(onnx::AttributeProto::TENSOR);
    *tensor.mutable_t() = FloatTensor("", {5}, value);
    AddFloatValue(body.mutable_output(), out, {5});
  }
  onnx::checker::check_model(model);

  const gg::FoldResult folded = Fold(model);
  EXPECT_TRUE(folded.stats.kept_unchanged);
  EXPECT_EQ(folded.model.SerializeAsString(), model.SerializeAsString());
  EXPECT_EQ(folded.stats.model_bytes_after, folded.stats.model_bytes_before);

  gg::FoldOptions anyway;
  anyway.fold_anyway = true;
  const gg::FoldResult grown = Fold(model, anyway);
  EXPECT_FALSE(grown.stats.kept_unchanged);
  EXPECT_GT(grown.stats.model_bytes_after, grown.stats.model_bytes_before);
  EXPECT_EQ(grown.stats.model_bytes_after, static_cast<int64_t>(grown.model.ByteSizeLong()));
}

// An optional output the model leaves unnamed stays unnamed, with no value_info: naming it would
// grow the model for nothing.
TEST(FoldTest, UnusedOptionalOutputsStayUnnamed) {
  onnx::ModelProto model = EmptyModel();
  onnx::GraphProto& graph = *model.mutable_graph();
  AddFloatValue(graph.mutable_input(), "x", {1, 3, 2});
  AddFloatValue(graph.mutable_output(), "y_h", {1, 3, 4});
  *graph.add_initializer() = FloatTensor("w", {1, 12, 2}, 0.25f);
  *graph.add_initializer() = FloatTensor("r", {1, 12, 4}, -0.5f);
  onnx::NodeProto& gru = *graph.add_node();
  gru.set_op_type("GRU");
  for (const char* input : {"x", "w", "r"}) gru.add_input(input);
  gru.add_output("");
  gru.add_output("y_h");
  onnx::AttributeProto& hidden = *gru.add_attribute();
  hidden.set_name("hidden_size");
  hidden.set_type(onnx::AttributeProto::INT);
  hidden.set_i(4);
  onnx::checker::check_model(model);

  const gg::FoldResult folded = Fold(model);
  ASSERT_THAT(OpTypes(folded.model), ::testing::ElementsAre("GRU"));
  EXPECT_EQ(folded.model.graph().node(0).output(0), "");
  EXPECT_EQ(folded.model.graph().node(0).output(1), "y_h");
  EXPECT_EQ(folded.model.graph().value_info_size(), 0);
  EXPECT_LE(folded.stats.model_bytes_after, folded.stats.model_bytes_before);
}

// An initializer that comes through keeps its encoding: three small int64s take 3 bytes in
// int64_data and 24 in raw_data.
TEST(FoldTest, AnInitializerKeepsItsCompactEncoding) {
  onnx::ModelProto model = EmptyModel();
  onnx::GraphProto& graph = *model.mutable_graph();
  for (const char* name : {"x", "y"}) {
    onnx::ValueInfoProto* value = name[0] == 'x' ? graph.add_input() : graph.add_output();
    value->set_name(name);
    onnx::TypeProto_Tensor* type = value->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::INT64);
    type->mutable_shape()->add_dim()->set_dim_value(3);
  }
  onnx::TensorProto& k = *graph.add_initializer();
  k.set_name("k");
  k.set_data_type(onnx::TensorProto::INT64);
  k.add_dims(3);
  for (int64_t v : {1, 2, 3}) k.add_int64_data(v);
  onnx::NodeProto& add = *graph.add_node();
  add.set_op_type("Add");
  add.add_input("x");
  add.add_input("k");
  add.add_output("y");

  const gg::FoldResult folded = Fold(model);
  ASSERT_EQ(folded.model.graph().initializer_size(), 1);
  EXPECT_EQ(folded.model.graph().initializer(0).SerializeAsString(), k.SerializeAsString());
  EXPECT_LE(folded.model.ByteSizeLong(), model.ByteSizeLong());
}

// y = Cast(x, float) * a + x * b with a == b: the cleanups merge b into a, remove the Cast, and
// the two Muls are then one node.
onnx::ModelProto ModelNeedingCleanups() {
  onnx::ModelProto model = EmptyModel();
  onnx::GraphProto& graph = *model.mutable_graph();
  AddFloatValue(graph.mutable_input(), "x", {4});
  AddFloatValue(graph.mutable_output(), "y", {4});
  *graph.add_initializer() = FloatTensor("a", {4}, 1.5f);
  *graph.add_initializer() = FloatTensor("b", {4}, 1.5f);
  auto add_node = [&](const char* op, std::vector<std::string> inputs, const char* output) {
    onnx::NodeProto& node = *graph.add_node();
    node.set_op_type(op);
    for (const std::string& input : inputs) node.add_input(input);
    node.add_output(output);
    return &node;
  };
  onnx::AttributeProto& to = *add_node("Cast", {"x"}, "c")->add_attribute();
  to.set_name("to");
  to.set_type(onnx::AttributeProto::INT);
  to.set_i(onnx::TensorProto::FLOAT);
  add_node("Mul", {"c", "a"}, "m1");
  add_node("Mul", {"x", "b"}, "m2");
  add_node("Add", {"m1", "m2"}, "y");
  return model;
}

TEST(FoldTest, CleanupsRemoveNoopCastsDuplicatesAndEqualInitializers) {
  const onnx::ModelProto model = ModelNeedingCleanups();
  onnx::checker::check_model(model);
  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Mul", "Add"));
  EXPECT_EQ(folded.model.graph().initializer_size(), 1);
  EXPECT_EQ(folded.stats.noop_casts_removed, 1);
  EXPECT_EQ(folded.stats.common_subexpressions_removed, 1);
  EXPECT_EQ(folded.stats.initializers_merged, 1);
  const Tensor feed = Floats({1, -2, 3, 0.5f}, {4});
  EXPECT_EQ(Evaluate(folded.model, {{"x", feed}}, "y"), Evaluate(model, {{"x", feed}}, "y"));

  gg::FoldOptions no_casts;
  no_casts.remove_noop_casts = false;
  const gg::FoldResult with_cast = Fold(model, no_casts);
  EXPECT_EQ(with_cast.stats.noop_casts_removed, 0);
  EXPECT_THAT(OpTypes(with_cast.model), ::testing::ElementsAre("Cast", "Mul", "Mul", "Add"));

  gg::FoldOptions no_cse;
  no_cse.eliminate_common_subexpressions = false;
  const gg::FoldResult both_muls = Fold(model, no_cse);
  EXPECT_EQ(both_muls.stats.common_subexpressions_removed, 0);
  EXPECT_THAT(OpTypes(both_muls.model), ::testing::ElementsAre("Mul", "Mul", "Add"));

  gg::FoldOptions no_merging;
  no_merging.merge_initializers = false;
  const gg::FoldResult apart = Fold(model, no_merging);
  EXPECT_EQ(apart.stats.initializers_merged, 0);
  EXPECT_EQ(apart.model.graph().initializer_size(), 2);
  EXPECT_THAT(OpTypes(apart.model), ::testing::ElementsAre("Mul", "Mul", "Add"));
}

// A call of a model-local function is kept, with the function, as the model had them.
TEST(FoldTest, ModelLocalFunctionsAreKept) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  onnx::ModelProto model = Export(g, {{"y", op::Neg(x)}});
  onnx::FunctionProto* function = model.add_functions();
  function->set_name("Twice");
  function->set_domain("local");
  function->add_input("a");
  function->add_output("b");
  onnx::NodeProto* body = function->add_node();
  body->set_op_type("Add");
  body->add_input("a");
  body->add_input("a");
  body->add_output("b");
  *function->add_opset_import() = model.opset_import(0);
  auto* local = model.add_opset_import();
  local->set_domain("local");
  local->set_version(1);
  onnx::NodeProto* call = model.mutable_graph()->add_node();
  call->set_op_type("Twice");
  call->set_domain("local");
  call->add_input("y");
  call->add_output("z");
  *model.mutable_graph()->add_output() = model.graph().output(0);
  model.mutable_graph()->mutable_output(1)->set_name("z");

  const gg::FoldResult folded = Fold(model);
  EXPECT_THAT(OpTypes(folded.model), ::testing::ElementsAre("Neg", "Twice"));
  ASSERT_EQ(folded.model.functions_size(), 1);
  EXPECT_EQ(folded.model.functions(0).name(), "Twice");
  EXPECT_EQ(folded.stats.opaque_nodes, 1);
}

TEST(FoldTest, BadModelsGiveErrors) {
  onnx::ModelProto empty;
  EXPECT_FALSE(gg::fold(empty).ok());
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  onnx::ModelProto model = Export(g, {{"y", op::Neg(x)}});
  model.mutable_opset_import(0)->set_version(99);
  const absl::StatusOr<gg::FoldResult> too_new = gg::fold(model);
  EXPECT_FALSE(too_new.ok());
  EXPECT_THAT(std::string(too_new.status().message()), ::testing::HasSubstr("opset 99"));
}

}  // namespace
