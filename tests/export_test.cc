// to_onnx, save_model and save_onnx: the exported model is valid ONNX (checker and strict shape
// inference, whose inferred output types agree with the Vars'), holds only the needed nodes in
// arena order, lists the used arguments in creation order, keeps argument and output names, and
// reports every naming or operand error instead of exporting.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset17.h"
#include "onnx/checker.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx_inference_check.h"

namespace {

namespace gg = graphgc;
namespace op = graphgc::op;
using gg::DataType;
using gg::Graph;
using gg::NamedVars;
using gg::Tensor;
using gg::Var;
using ::testing::ElementsAre;
using Dims = std::vector<int64_t>;
using gg::testing_support::ExpectOnnxInferenceAgrees;

Var Int64s(Graph& g, const Dims& values) {
  return g.constant(Tensor::from_vector<int64_t>(values));
}

// to_onnx, expected to succeed; an empty model (and a test failure) otherwise.
onnx::ModelProto Export(const Graph& g, const NamedVars& outputs) {
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, outputs);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : onnx::ModelProto();
}

std::vector<std::string> InputNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const onnx::ValueInfoProto& info : model.graph().input()) names.push_back(info.name());
  return names;
}

std::vector<std::string> OutputNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const onnx::ValueInfoProto& info : model.graph().output()) names.push_back(info.name());
  return names;
}

std::vector<std::string> OpTypes(const onnx::ModelProto& model) {
  std::vector<std::string> types;
  for (const onnx::NodeProto& node : model.graph().node()) types.push_back(node.op_type());
  return types;
}

// The ONNX type of a var as graphgc knows it: dims without a value for unknown dims, no shape for
// an unknown rank.
::testing::AssertionResult TypeMatches(const onnx::TypeProto& type, const Var& var) {
  if (!type.has_tensor_type()) return ::testing::AssertionFailure() << "not a tensor type";
  const onnx::TypeProto::Tensor& tensor = type.tensor_type();
  if (tensor.elem_type() != static_cast<int32_t>(var.dtype())) {
    return ::testing::AssertionFailure() << "elem_type " << tensor.elem_type() << ", the var has "
                                         << static_cast<int32_t>(var.dtype());
  }
  const std::optional<Dims> shape = var.shape();
  if (!shape.has_value()) {
    if (tensor.has_shape()) return ::testing::AssertionFailure() << "a shape for unknown rank";
    return ::testing::AssertionSuccess();
  }
  if (!tensor.has_shape() || tensor.shape().dim_size() != static_cast<int>(shape->size())) {
    return ::testing::AssertionFailure() << "the rank differs";
  }
  for (size_t i = 0; i < shape->size(); ++i) {
    const onnx::TensorShapeProto::Dimension& dim = tensor.shape().dim(static_cast<int>(i));
    const int64_t expected = (*shape)[i];
    const bool agrees =
        expected < 0 ? !dim.has_dim_value() : dim.has_dim_value() && dim.dim_value() == expected;
    if (!agrees) {
      return ::testing::AssertionFailure() << "dimension " << i << " differs";
    }
    if (dim.has_dim_param()) return ::testing::AssertionFailure() << "a symbolic dimension";
  }
  return ::testing::AssertionSuccess();
}

// Every name a node or the graph defines is defined once (SSA), and no name is empty.
::testing::AssertionResult NamesAreUnique(const onnx::ModelProto& model) {
  std::set<std::string> defined;
  for (const onnx::ValueInfoProto& input : model.graph().input()) {
    if (!defined.insert(input.name()).second) {
      return ::testing::AssertionFailure() << "input '" << input.name() << "' is defined twice";
    }
  }
  for (const onnx::NodeProto& node : model.graph().node()) {
    for (const std::string& name : node.output()) {
      if (name.empty() || !defined.insert(name).second) {
        return ::testing::AssertionFailure() << "'" << name << "' is defined twice or empty";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// The status is an error whose message contains `piece`.
::testing::AssertionResult IsErrorMentioning(const absl::Status& status, const std::string& piece) {
  if (status.ok()) return ::testing::AssertionFailure() << "the status is OK";
  if (!absl::StrContains(status.message(), piece)) {
    return ::testing::AssertionFailure()
           << "\"" << status.message() << "\" does not mention \"" << piece << "\"";
  }
  return ::testing::AssertionSuccess();
}

// --- Validity ---------------------------------------------------------------------------------

TEST(ExportTest, ModelPassesTheCheckerAndOnnxInferenceAgrees) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, -1});
  const Var w = g.argument("w", DataType::kFloat, {3, 4});
  const Var s = g.argument("s", DataType::kInt64, {2});
  const Var bias = g.constant(Tensor::from_vector<float>({1, 2, 3}));
  const Var y = op::Relu(op::Add(x, bias));           // [2,3]
  const Var m = op::MatMul(y, w);                     // [2,4]
  const Var flat = op::Reshape(m, Int64s(g, {-1}));   // [8]
  const Var ints = op::Cast(flat, DataType::kInt64);  // [8]
  const Var q = op::Div(ints, g.constant(Tensor::scalar<int64_t>(3)));
  const Var r = op::Reshape(y, s);                                                 // [?,?]
  const Var v = op::MatMul(g.constant(Tensor::from_vector<float>({1, 1, 1})), w);  // [4]
  const NamedVars outputs = {{"y", y}, {"m", m}, {"flat", flat}, {"q", q}, {"r", r}, {"v", v}};
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_NO_THROW(onnx::checker::check_model(model));
  ASSERT_EQ(model.graph().output_size(), 6);
  for (int i = 0; i < 6; ++i) {
    SCOPED_TRACE(outputs[i].first);
    EXPECT_TRUE(TypeMatches(model.graph().output(i).type(), outputs[i].second));
  }
  ExpectOnnxInferenceAgrees(model, outputs);
}

// Exports are valid by construction, so the checker is an option, off unless asked; this
// suite's main (tests/test_main.cc) turns it on for every export, and it is the same model.
TEST(ExportTest, TheCheckerIsAnOptionOffByDefault) {
  EXPECT_FALSE(graphgc::ExportOptions().check);
  Graph g;
  const Var y = op::Relu(g.argument("x", DataType::kFloat, {2}));
  absl::StatusOr<onnx::ModelProto> unchecked = to_onnx(g, {{"y", y}});
  absl::StatusOr<onnx::ModelProto> checked =
      to_onnx(g, {{"y", y}}, graphgc::ExportOptions{.check = true});
  ASSERT_TRUE(unchecked.ok() && checked.ok());
  EXPECT_EQ(unchecked->SerializeAsString(), checked->SerializeAsString());
}

// ExportOptions::inputs names the model's inputs and their order, unused arguments included;
// both writers (the message and the bytes) follow it.
TEST(ExportTest, TheInputsAreTheListedArgumentsInTheirOrder) {
  Graph g;
  const Var a = g.argument("a", DataType::kFloat, {2});
  const Var b = g.argument("b", DataType::kFloat, {2});
  const Var unused = g.argument("unused", DataType::kInt64, {3});
  const Var y = op::Add(a, b);
  graphgc::ExportOptions options;
  options.inputs = {b, unused, a};
  absl::StatusOr<onnx::ModelProto> model = to_onnx(g, {{"y", y}}, options);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->graph().input_size(), 3);
  EXPECT_EQ(model->graph().input(0).name(), "b");
  EXPECT_EQ(model->graph().input(1).name(), "unused");
  EXPECT_EQ(model->graph().input(2).name(), "a");
  absl::StatusOr<std::string> bytes = graphgc::to_onnx_bytes(g, {{"y", y}}, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, model->SerializeAsString());
  options.inputs = {b};
  EXPECT_THAT(std::string(to_onnx(g, {{"y", y}}, options).status().message()),
              testing::HasSubstr("need argument 'a'"));
  options.inputs = {y, a, b};
  EXPECT_THAT(std::string(to_onnx(g, {{"y", y}}, options).status().message()),
              testing::HasSubstr("inputs[0] is not an argument"));
}

TEST(ExportTest, StaticGraphInfersExactlyTheVarTypes) {
  Graph g;
  const Var a = g.argument("a", DataType::kDouble, {5, 2, 3});
  const Var b = g.argument("b", DataType::kDouble, {3});
  const Var c = op::MatMul(a, b);  // [5,2]
  const Var d = op::Mul(c, g.constant(Tensor::from_vector<double>({2, 3}, {1, 2})));
  const Var e = op::Reshape(d, Int64s(g, {0, -1, 1}));  // [5,2,1]
  const Var f = op::Cast(e, DataType::kFloat16);
  const NamedVars outputs = {{"e", e}, {"f", f}};
  onnx::ModelProto model = Export(g, outputs);
  ExpectOnnxInferenceAgrees(model, outputs);
  // Fully static: ONNX infers exactly the vars' shapes.
  model.mutable_graph()->clear_value_info();
  for (onnx::ValueInfoProto& output : *model.mutable_graph()->mutable_output()) {
    output.clear_type();
  }
  onnx::shape_inference::InferShapes(model);
  EXPECT_TRUE(TypeMatches(model.graph().output(0).type(), e));
  EXPECT_TRUE(TypeMatches(model.graph().output(1).type(), f));
}

TEST(ExportTest, IrVersionAndOpset) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {1});
  const onnx::ModelProto model = Export(g, {{"y", op::Neg(x)}});
  EXPECT_EQ(model.ir_version(), 12);  // opset 24 came with IR 12
  ASSERT_EQ(model.opset_import_size(), 1);
  EXPECT_TRUE(model.opset_import(0).domain().empty() ||
              model.opset_import(0).domain() == "ai.onnx");
  EXPECT_EQ(model.opset_import(0).version(), 24);
  EXPECT_EQ(gg::kOnnxIrVersion, 8);
  EXPECT_EQ(gg::kOnnxOpsetVersion, 24);
}

// The IR version is the lowest the opsets need, never below 8, the same through to_onnx_bytes,
// so an older runtime loads an export of an older opset.
TEST(ExportTest, IrVersionIsTheLowestTheOpsetNeeds) {
  struct Case {
    int opset;
    int64_t ir_version;
  };
  for (const Case c : {Case{7, 8}, Case{13, 8}, Case{17, 8}, Case{18, 8}, Case{19, 9}, Case{20, 9},
                       Case{21, 10}, Case{22, 10}, Case{23, 11}, Case{24, 12}}) {
    Graph g;
    const Var x = g.argument("x", DataType::kFloat, {1});
    const Var y = gg::make_node("Neg", {x}, {}, {.version = c.opset})[0];
    ASSERT_TRUE(y.ok()) << y.status();
    const onnx::ModelProto model = Export(g, {{"y", y}});
    EXPECT_EQ(model.ir_version(), c.ir_version) << "opset " << c.opset;
    absl::StatusOr<std::string> bytes = gg::to_onnx_bytes(g, {{"y", y}});
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    onnx::ModelProto parsed;
    ASSERT_TRUE(parsed.ParseFromString(*bytes));
    EXPECT_EQ(parsed.ir_version(), c.ir_version) << "opset " << c.opset;
    EXPECT_NO_THROW(onnx::checker::check_model(model));
  }
  // An element type newer than the opset raises the IR version too (a model of opset 17
  // holding float8 needs IR 9, int4 10, float4e2m1 11, float8e8m0 12).
  for (const auto& [type, ir_version] :
       std::vector<std::pair<int32_t, int64_t>>{{onnx::TensorProto::FLOAT, 8},
                                                {onnx::TensorProto::FLOAT8E4M3FN, 9},
                                                {onnx::TensorProto::INT4, 10},
                                                {onnx::TensorProto::FLOAT4E2M1, 11},
                                                {onnx::TensorProto::FLOAT8E8M0, 12}}) {
    onnx::ModelProto proto;
    onnx::OperatorSetIdProto* opset = proto.add_opset_import();
    opset->set_version(17);
    onnx::NodeProto* node = proto.mutable_graph()->add_node();
    node->set_op_type("Constant");
    onnx::AttributeProto* value = node->add_attribute();
    value->set_name("value");
    value->mutable_t()->set_data_type(type);
    EXPECT_EQ(gg::internal::LowestIrVersion(proto), ir_version) << type;
  }
  // ai.onnx.ml 5 came with IR 10.
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var y = gg::make_node("Binarizer", {x}, {}, {.domain = "ai.onnx.ml", .version = 5})[0];
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Export(g, {{"y", gg::opset17::Neg(y)}}).ir_version(), 10);
}

TEST(ExportTest, AttributesAreExported) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Var cast = op::Cast(x, DataType::kInt32);
  const Var zero_dims = op::Reshape(x, Int64s(g, {3, 2}), {.allowzero = 1});
  const Var plain = op::Reshape(x, Int64s(g, {6}));
  const onnx::ModelProto model = Export(g, {{"cast", cast}, {"z", zero_dims}, {"p", plain}});
  ASSERT_THAT(OpTypes(model), ElementsAre("Cast", "Constant", "Reshape", "Constant", "Reshape"));
  const onnx::NodeProto& cast_node = model.graph().node(0);
  ASSERT_EQ(cast_node.attribute_size(), 1);
  EXPECT_EQ(cast_node.attribute(0).name(), "to");
  EXPECT_EQ(cast_node.attribute(0).type(), onnx::AttributeProto::INT);
  EXPECT_EQ(cast_node.attribute(0).i(), 6);  // int32
  const onnx::NodeProto& allowzero_node = model.graph().node(2);
  ASSERT_EQ(allowzero_node.attribute_size(), 1);
  EXPECT_EQ(allowzero_node.attribute(0).name(), "allowzero");
  EXPECT_EQ(allowzero_node.attribute(0).i(), 1);
  // allowzero=0 is ONNX's default.
  for (const onnx::AttributeProto& attribute : model.graph().node(4).attribute()) {
    EXPECT_FALSE(attribute.name() == "allowzero" && attribute.i() != 0);
  }
}

// --- Which nodes and inputs -------------------------------------------------------------------

TEST(ExportTest, OnlyNeededNodesAreExported) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {4});
  const Var a = op::Add(x, x);
  const Var unrelated = op::Neg(op::Mul(x, x));
  const Var unused_constant = g.constant(Tensor::from_vector<float>({1, 2, 3, 4}));
  const Var out = op::Relu(a);
  const Var after = op::Sub(out, unused_constant);
  EXPECT_EQ(g.stats().nodes, 6);
  const onnx::ModelProto model = Export(g, {{"out", out}});
  EXPECT_THAT(OpTypes(model), ElementsAre("Add", "Relu"));
  EXPECT_THAT(InputNames(model), ElementsAre("x"));
  EXPECT_EQ(model.graph().initializer_size(), 0);
}

TEST(ExportTest, NodesAreInArenaOrder) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {3});
  const Var y = g.argument("y", DataType::kFloat, {3});
  const Var c = g.constant(Tensor::from_vector<float>({1, 2, 3}));
  const Var p = op::Neg(y);  // created first, but the second input of `out`
  const Var q = op::Relu(x);
  const Var out = op::Mul(op::Add(q, p), c);
  const onnx::ModelProto model = Export(g, {{"out", out}});
  EXPECT_THAT(OpTypes(model), ElementsAre("Constant", "Neg", "Relu", "Add", "Mul"));
}

TEST(ExportTest, InputsAreTheUsedArgumentsInCreationOrder) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var y = g.argument("y", DataType::kFloat, {2});
  const Var z = g.argument("z", DataType::kFloat, {2});
  const Var out = op::Add(z, x);
  const onnx::ModelProto model = Export(g, {{"out", out}});
  EXPECT_THAT(InputNames(model), ElementsAre("x", "z"));
  // Used twice, listed once.
  const onnx::ModelProto twice = Export(g, {{"a", op::Mul(x, x)}, {"b", op::Sub(y, x)}});
  EXPECT_THAT(InputNames(twice), ElementsAre("x", "y"));
}

TEST(ExportTest, IntermediateOfUnknownRankExports) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Var s = g.argument("s", DataType::kInt64, {-1});
  const Var unranked = op::Neg(op::Reshape(x, s));  // unknown rank
  ASSERT_EQ(unranked.shape(), std::nullopt);
  const Var out = op::Reshape(unranked, Int64s(g, {6}));  // [6] again
  const NamedVars outputs = {{"out", out}};
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_THAT(OpTypes(model), ElementsAre("Reshape", "Neg", "Constant", "Reshape"));
  EXPECT_TRUE(TypeMatches(model.graph().output(0).type(), out));
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(ExportTest, UnknownDimsExportAsDimsWithoutValue) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, -1});
  const Var a = op::Neg(x);
  const onnx::ModelProto model = Export(g, {{"a", a}});
  ASSERT_EQ(model.graph().input_size(), 1);
  for (const onnx::ValueInfoProto* info : {&model.graph().input(0), &model.graph().output(0)}) {
    SCOPED_TRACE(info->name());
    const onnx::TypeProto::Tensor& type = info->type().tensor_type();
    EXPECT_EQ(type.elem_type(), onnx::TensorProto::FLOAT);
    ASSERT_EQ(type.shape().dim_size(), 2);
    EXPECT_EQ(type.shape().dim(0).dim_value(), 2);
    EXPECT_FALSE(type.shape().dim(1).has_dim_value());
    EXPECT_FALSE(type.shape().dim(1).has_dim_param());
  }
}

// ONNX (IR.md, "Static tensor shapes"): a tensor type without a shape field has unknown rank.
// ONNX 1.12's checker requires a shape on every main-graph input and output, so a model with an
// unranked one cannot be checker-valid: export says so, naming the var, instead of emitting it.
TEST(ExportTest, UnrankedArgumentOrOutputIsAClearError) {
  Graph g;
  const Var u = g.argument_unranked("u", DataType::kInt32);
  const Var flat = op::Reshape(u, g.constant(Tensor::from_vector<int64_t>({-1})));
  ASSERT_EQ(flat.rank(), 1);  // the output is ranked: the input is what cannot be exported
  const absl::StatusOr<onnx::ModelProto> model = to_onnx(g, {{"b", flat}});
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(model.status().message()), ::testing::HasSubstr("unknown rank"));
  EXPECT_THAT(std::string(model.status().message()), ::testing::HasSubstr("'u'"));

  const Var x = g.argument("x", DataType::kFloat, {6});
  const Var dynamic_shape = g.argument("s", DataType::kInt64, {-1});
  const absl::StatusOr<onnx::ModelProto> reshaped =
      to_onnx(g, {{"r", op::Reshape(x, dynamic_shape)}});
  ASSERT_FALSE(reshaped.ok());
  EXPECT_THAT(std::string(reshaped.status().message()), ::testing::HasSubstr("output 'r'"));
}

TEST(ExportTest, ExportsAfterValuesWereCollected) {
  Graph g;
  Var folded = op::Neg(g.constant(Tensor::from_vector<float>({1, 2})));
  Var sum = op::Add(folded, folded);
  folded = Var();
  g.collect();
  const onnx::ModelProto model = Export(g, {{"sum", sum}});
  EXPECT_THAT(OpTypes(model), ElementsAre("Constant", "Neg", "Add"));
}

// --- Names ------------------------------------------------------------------------------------

TEST(ExportNamesTest, ArgumentAndOutputNamesAreKept) {
  Graph g;
  const Var x = g.argument("features", DataType::kFloat, {3});
  const Var out = op::Relu(op::Neg(x));
  const onnx::ModelProto model = Export(g, {{"result", out}});
  EXPECT_THAT(InputNames(model), ElementsAre("features"));
  EXPECT_THAT(OutputNames(model), ElementsAre("result"));
  ASSERT_EQ(model.graph().node_size(), 2);  // no alias node
  EXPECT_THAT(model.graph().node(0).input(), ElementsAre("features"));
  EXPECT_THAT(model.graph().node(1).output(), ElementsAre("result"));
  EXPECT_EQ(model.graph().node(1).input(0), model.graph().node(0).output(0));
}

TEST(ExportNamesTest, SameVarUnderTwoNamesAddsAnIdentity) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var v = op::Neg(x);
  const NamedVars outputs = {{"a", v}, {"b", v}};
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_THAT(OutputNames(model), ElementsAre("a", "b"));
  ASSERT_THAT(OpTypes(model), ElementsAre("Neg", "Identity"));
  EXPECT_THAT(model.graph().node(0).output(), ElementsAre("a"));
  EXPECT_THAT(model.graph().node(1).input(), ElementsAre("a"));
  EXPECT_THAT(model.graph().node(1).output(), ElementsAre("b"));
  EXPECT_TRUE(TypeMatches(model.graph().output(1).type(), v));
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(ExportNamesTest, ArgumentExportedUnderAnotherName) {
  Graph g;
  const Var x = g.argument("x", DataType::kInt64, {3});
  const NamedVars outputs = {{"y", x}};
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_THAT(InputNames(model), ElementsAre("x"));
  EXPECT_THAT(OutputNames(model), ElementsAre("y"));
  ASSERT_THAT(OpTypes(model), ElementsAre("Identity"));
  EXPECT_THAT(model.graph().node(0).input(), ElementsAre("x"));
  EXPECT_THAT(model.graph().node(0).output(), ElementsAre("y"));
  ExpectOnnxInferenceAgrees(model, outputs);
}

TEST(ExportNamesTest, ArgumentExportedUnderItsOwnName) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const onnx::ModelProto model = Export(g, {{"x", x}});
  EXPECT_THAT(InputNames(model), ElementsAre("x"));
  EXPECT_THAT(OutputNames(model), ElementsAre("x"));
  EXPECT_EQ(model.graph().node_size(), 0);
}

TEST(ExportNamesTest, OutputNamedLikeAnUnusedArgumentIsFine) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var y = g.argument("y", DataType::kFloat, {2});
  const onnx::ModelProto model = Export(g, {{"y", op::Neg(x)}});
  EXPECT_THAT(InputNames(model), ElementsAre("x"));
  EXPECT_THAT(OutputNames(model), ElementsAre("y"));
  EXPECT_TRUE(y.ok());
}

TEST(ExportNamesTest, OutputNamedLikeAUsedArgumentIsAnError) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var y = g.argument("y", DataType::kFloat, {2});
  EXPECT_TRUE(IsErrorMentioning(gg::to_onnx(g, {{"x", op::Neg(x)}}).status(), "'x'"));
  const absl::Status status = gg::to_onnx(g, {{"out", op::Neg(x)}, {"y", op::Add(x, y)}}).status();
  EXPECT_TRUE(IsErrorMentioning(status, "'y'"));
}

TEST(ExportNamesTest, DuplicateOutputNamesAreAnError) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const absl::Status status = gg::to_onnx(g, {{"out", op::Neg(x)}, {"out", op::Relu(x)}}).status();
  EXPECT_TRUE(IsErrorMentioning(status, "'out'"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  // Even for the same var.
  const Var v = op::Neg(x);
  EXPECT_FALSE(gg::to_onnx(g, {{"out", v}, {"out", v}}).ok());
}

TEST(ExportNamesTest, EmptyOutputNameIsAnError) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const absl::Status status = gg::to_onnx(g, {{"", op::Neg(x)}}).status();
  EXPECT_TRUE(IsErrorMentioning(status, "empty"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

TEST(ExportNamesTest, GeneratedNamesDoNotClashWithUserNames) {
  Graph g;
  Var v = g.argument("_v1", DataType::kFloat, {2});
  NamedVars outputs;
  for (int i = 0; i < 6; ++i) {
    v = op::Neg(v);
    if (i % 2 == 1) outputs.push_back({"_v" + std::to_string(i + 2), v});
  }
  outputs.push_back({"_v0", op::Relu(v)});
  const onnx::ModelProto model = Export(g, outputs);
  EXPECT_TRUE(NamesAreUnique(model));
  EXPECT_THAT(InputNames(model), ElementsAre("_v1"));
}

// ExportOptions::name_of may prefer a name of the generated form "_v<id>", the generated name of
// a var named earlier or later; names stay unique either way.
TEST(ExportNamesTest, PreferredNamesOfTheGeneratedFormStayUnique) {
  Graph g;
  Var v = g.argument("x", DataType::kFloat, {2});
  for (int i = 0; i < 10; ++i) v = op::Neg(v);
  gg::ExportOptions options;
  options.name_of = [](gg::VarId var) -> std::string {
    if (var.value() % 4 == 2) return absl::StrCat("_v", var.value() - 1);  // an earlier var's
    if (var.value() % 4 == 3) return absl::StrCat("_v", var.value() + 2);  // a later var's
    return "";                                                             // generated
  };
  const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, {{"y", v}}, options);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(NamesAreUnique(*model));
  EXPECT_TRUE(gg::internal::CheckWithOnnxChecker(*model, "test").ok());
}

// --- Bytes ------------------------------------------------------------------------------------

// to_onnx_bytes writes, without a ModelProto, exactly the bytes of serializing to_onnx's model:
// arguments, constants, nested bodies reading outer vars, an output aliased under two names, an
// argument as an output, and values written as initializers.
TEST(ExportBytesTest, SameBytesAsSerializingTheModel) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Var n = g.argument("n", DataType::kInt64, {});
  const Var bias = g.constant(Tensor::from_vector<float>({1, 2, 3}));
  const Var y = op::Relu(op::Add(x, bias));
  const Var folded = op::Neg(g.constant(Tensor::from_vector<float>({4, 5, 6})));
  const std::vector<Var> looped = op::Loop(
      n, Var(), {y}, {.body = [&](absl::Span<const Var> args) {
        const Var positive = op::Cast(op::Mod(args[0], n), DataType::kBool);
        const std::vector<Var> chosen = op::If(
            positive, {.else_branch = [&] { return std::vector<Var>{args[2]}; },
                       .then_branch = [&] { return std::vector<Var>{op::Add(args[2], y)}; }});
        return std::vector<Var>{args[1], op::Mul(chosen[0], folded)};
      }});
  ASSERT_TRUE(looped[0].ok()) << looped[0].status();
  const NamedVars outputs = {{"out", looped[0]}, {"again", looped[0]}, {"x", x}, {"f", folded}};
  for (const bool as_initializers : {false, true}) {
    gg::ExportOptions options;
    options.values_as_initializers = as_initializers;
    const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, outputs, options);
    ASSERT_TRUE(model.ok()) << model.status();
    const absl::StatusOr<std::string> bytes = gg::to_onnx_bytes(g, outputs, options);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    EXPECT_EQ(*bytes, model->SerializeAsString()) << "values_as_initializers " << as_initializers;
  }
  EXPECT_EQ(gg::to_onnx_bytes(g, {{"y", op::Add(x, n)}}).status().code(),
            absl::StatusCode::kInvalidArgument);  // failed output: the same error as to_onnx
}

// Nodes without attributes are written as bytes by to_onnx_bytes, not through a NodeProto: an
// omitted optional input, a domain, two outputs, names given, refused ("") or generated, and an
// output written as an initializer must each come out as protobuf writes them.
TEST(ExportBytesTest, NodesWithoutAttributesAreTheBytesOfTheirNodeProto) {
  gg::CustomOp pair;
  pair.domain = "com.graphgc.bytes";
  pair.op_type = "Pair";
  pair.min_inputs = pair.max_inputs = 1;
  pair.min_outputs = pair.max_outputs = 2;
  pair.infer = [](const gg::CustomOpContext& c) -> absl::StatusOr<std::vector<gg::TensorType>> {
    return std::vector<gg::TensorType>{c.inputs[0], c.inputs[0]};
  };
  ASSERT_TRUE(gg::register_op(pair).ok());
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {3});
  const Var high = g.argument("high", DataType::kFloat, {});
  const Var clipped = gg::op::Clip(x, Var(), high);  // min omitted
  const std::vector<Var> halves =
      gg::make_node("Pair", {clipped}, {}, {.domain = "com.graphgc.bytes", .num_outputs = 2});
  ASSERT_TRUE(halves[1].ok()) << halves[1].status();
  const Var folded = op::Neg(g.constant(Tensor::from_vector<float>({4, 5, 6})));
  const NamedVars outputs = {{"a", op::Add(halves[0], folded)}, {"b", halves[1]}};
  for (int naming = 0; naming < 3; ++naming) {
    for (const bool as_initializers : {false, true}) {
      gg::ExportOptions options;
      options.values_as_initializers = as_initializers;
      if (naming == 1) options.node_name_of = [](gg::NodeId) { return std::string(); };
      if (naming == 2) {
        options.node_name_of = [](gg::NodeId node) {
          return node.value() % 2 == 0 ? absl::StrCat("node", node.value()) : std::string();
        };
      }
      const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, outputs, options);
      ASSERT_TRUE(model.ok()) << model.status();
      const absl::StatusOr<std::string> bytes = gg::to_onnx_bytes(g, outputs, options);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      EXPECT_EQ(*bytes, model->SerializeAsString())
          << "naming " << naming << ", values_as_initializers " << as_initializers;
      const onnx::NodeProto& clip = model->graph().node(0);
      ASSERT_EQ(clip.op_type(), "Clip");
      ASSERT_EQ(clip.input_size(), 3);
      EXPECT_EQ(clip.input(1), "");
      EXPECT_EQ(clip.has_name(), naming != 1);  // node 0: named in naming 2 too
      const onnx::NodeProto& pair_node = model->graph().node(1);
      EXPECT_EQ(pair_node.domain(), "com.graphgc.bytes");
      EXPECT_EQ(pair_node.output_size(), 2);
    }
  }
}

// --- Operand errors ---------------------------------------------------------------------------

TEST(ExportErrorsTest, FailedOutputGivesItsError) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var d = g.argument("d", DataType::kDouble, {2});
  const Var failed = op::Add(x, d);
  ASSERT_FALSE(failed.ok());
  const absl::Status status = gg::to_onnx(g, {{"ok", op::Neg(x)}, {"bad", failed}}).status();
  EXPECT_TRUE(IsErrorMentioning(status, "Add"));
  EXPECT_TRUE(IsErrorMentioning(status, "double"));
  EXPECT_EQ(status.code(), failed.status().code());
  // An output that depends on the failed var.
  EXPECT_TRUE(IsErrorMentioning(gg::to_onnx(g, {{"r", op::Relu(failed)}}).status(), "Add"));
  // The healthy part still exports.
  EXPECT_TRUE(gg::to_onnx(g, {{"ok", op::Neg(x)}}).ok());
}

TEST(ExportErrorsTest, VarOfAnotherGraphIsAnError) {
  Graph g;
  Graph other;
  const Var x = g.argument("x", DataType::kFloat, {2});
  const Var y = other.argument("y", DataType::kFloat, {2});
  EXPECT_TRUE(
      IsErrorMentioning(gg::to_onnx(g, {{"a", op::Neg(x)}, {"b", op::Neg(y)}}).status(), "'b'"));
  EXPECT_TRUE(gg::to_onnx(other, {{"b", op::Neg(y)}}).ok());
}

TEST(ExportErrorsTest, EmptyVarAndNoOutputsAreErrors) {
  Graph g;
  EXPECT_FALSE(gg::to_onnx(g, {{"e", Var()}}).ok());
  EXPECT_FALSE(gg::to_onnx(g, {}).ok());
}

TEST(ExportErrorsTest, MovedFromGraphIsAnError) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {1});
  Graph taker = std::move(g);
  EXPECT_FALSE(gg::to_onnx(g, {{"y", op::Neg(x)}}).ok());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(gg::to_onnx(taker, {{"y", op::Neg(x)}}).ok());
}

TEST(ExportErrorsTest, VarOfADestroyedGraphIsAnError) {
  Var orphan;
  {
    Graph doomed;
    orphan = doomed.argument("a", DataType::kFloat, {1});
  }
  Graph g;
  EXPECT_FALSE(gg::to_onnx(g, {{"a", orphan}}).ok());
}

// --- Files ------------------------------------------------------------------------------------

onnx::ModelProto ReadModel(const std::string& path) {
  onnx::ModelProto model;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  EXPECT_TRUE(model.ParseFromIstream(&in)) << "cannot parse " << path;
  return model;
}

TEST(ExportFilesTest, SaveOnnxWritesAModelThatParsesBack) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {2, 3});
  const Var y = op::Relu(op::Add(x, g.constant(Tensor::from_vector<float>({1, 2, 3}))));
  const NamedVars outputs = {{"y", y}};
  const std::string path = ::testing::TempDir() + "export_test_save_onnx.onnx";
  ASSERT_TRUE(gg::save_onnx(g, outputs, path).ok());
  const onnx::ModelProto read = ReadModel(path);
  const onnx::ModelProto expected = Export(g, outputs);
  EXPECT_EQ(read.SerializeAsString(), expected.SerializeAsString());
  EXPECT_NO_THROW(onnx::checker::check_model(read));
  EXPECT_THAT(OpTypes(read), ElementsAre("Constant", "Add", "Relu"));
  std::remove(path.c_str());
}

TEST(ExportFilesTest, SaveModelWritesAModelThatParsesBack) {
  Graph g;
  const Var x = g.argument("x", DataType::kInt32, {-1});
  const onnx::ModelProto model = Export(g, {{"n", op::Neg(x)}});
  const std::string path = ::testing::TempDir() + "export_test_save_model.onnx";
  ASSERT_TRUE(gg::save_model(model, path).ok());
  const onnx::ModelProto read = ReadModel(path);
  EXPECT_EQ(read.SerializeAsString(), model.SerializeAsString());
  std::remove(path.c_str());
}

TEST(ExportFilesTest, SaveErrors) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {1});
  const std::string missing_dir = ::testing::TempDir() + "no_such_dir_for_export_test/m.onnx";
  EXPECT_FALSE(gg::save_model(Export(g, {{"y", op::Neg(x)}}), missing_dir).ok());
  // save_onnx reports to_onnx's error and writes nothing.
  const std::string path = ::testing::TempDir() + "export_test_not_written.onnx";
  std::remove(path.c_str());
  EXPECT_TRUE(IsErrorMentioning(gg::save_onnx(g, {{"", op::Neg(x)}}, path), "empty"));
  EXPECT_FALSE(std::ifstream(path).good());
}

// --- Constants --------------------------------------------------------------------------------

// Exports a constant as an output and checks the Constant node's tensor against `tensor`.
void ExpectConstantExported(const Tensor& tensor) {
  Graph g;
  const Var c = g.constant(tensor);
  const onnx::ModelProto model = Export(g, {{"c", c}});
  EXPECT_EQ(model.graph().input_size(), 0);
  ASSERT_EQ(model.graph().node_size(), 1);
  const onnx::NodeProto& node = model.graph().node(0);
  EXPECT_EQ(node.op_type(), "Constant");
  EXPECT_THAT(node.output(), ElementsAre("c"));
  ASSERT_EQ(node.attribute_size(), 1);
  const onnx::AttributeProto& value = node.attribute(0);
  EXPECT_EQ(value.name(), "value");
  EXPECT_EQ(value.type(), onnx::AttributeProto::TENSOR);
  const onnx::TensorProto& proto = value.t();
  EXPECT_EQ(proto.data_type(), static_cast<int32_t>(tensor.dtype()));
  EXPECT_THAT(proto.dims(), ::testing::ElementsAreArray(tensor.shape()));
  ASSERT_EQ(proto.raw_data().size(), tensor.nbytes());
  EXPECT_EQ(std::memcmp(proto.raw_data().data(), tensor.raw_data(), tensor.nbytes()), 0);
  EXPECT_TRUE(TypeMatches(model.graph().output(0).type(), c));
  ExpectOnnxInferenceAgrees(model, {{"c", c}});
}

TEST(ExportConstantTest, FloatMatrix) {
  ExpectConstantExported(Tensor::from_vector<float>({1.5f, -2, 3, 0.25f, 5, 6}, {2, 3}));
}

TEST(ExportConstantTest, Int64Scalar) {
  ExpectConstantExported(Tensor::scalar<int64_t>(-1234567890123));
}

TEST(ExportConstantTest, BoolAndHalf) {
  ExpectConstantExported(Tensor::from_vector<bool>({true, false, true}));
  ExpectConstantExported(
      Tensor::from_vector<gg::Float16>({gg::Float16{0x3C00}, gg::Float16{0xC000}}, {2, 1}));
}

TEST(ExportConstantTest, RawDataIsLittleEndian) {
  Graph g;
  const Var c = g.constant(Tensor::scalar<int32_t>(0x01020304));
  const onnx::ModelProto model = Export(g, {{"c", c}});
  ASSERT_EQ(model.graph().node_size(), 1);
  EXPECT_EQ(model.graph().node(0).attribute(0).t().raw_data(), std::string("\x04\x03\x02\x01", 4));
}

}  // namespace

namespace {

// Weights as initializers: the constants are, computed values (even known ones) stay nodes.
TEST(ExportTest, ConstantsAsInitializers) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2, 3});
  Var w = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2}));
  Var b = g.constant(Tensor::from_vector<float>({0.5f, -0.5f}, {2}));
  Var scale = op::Mul(b, b);  // known, but computed: stays a node
  const NamedVars outputs = {{"y", op::Add(op::MatMul(x, w), scale)}};
  gg::ExportOptions options;
  options.constants_as_initializers = true;
  auto model = gg::to_onnx(g, outputs, options);
  ASSERT_TRUE(model.ok()) << model.status();
  std::multiset<std::string> ops;
  for (const auto& node : model->graph().node()) ops.insert(node.op_type());
  EXPECT_EQ(ops, (std::multiset<std::string>{"Add", "MatMul", "Mul"}));
  ASSERT_EQ(model->graph().initializer_size(), 2);
  EXPECT_THAT(model->graph().initializer(0).dims(), ElementsAre(3, 2));
  EXPECT_THAT(model->graph().initializer(1).dims(), ElementsAre(2));
  auto bytes = gg::to_onnx_bytes(g, outputs, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, model->SerializeAsString());
  // Imported back, the weights are constants again and y's value follows from x's.
  Graph again;
  Var given = again.constant(Tensor::from_vector<float>({1, 0, 0, 0, 1, 0}, {2, 3}));
  auto outs = gg::inline_model(again, *model, {{"x", given}});
  ASSERT_TRUE(outs.ok()) << outs.status();
  ASSERT_TRUE(outs->at("y").value().has_value());
  EXPECT_THAT(outs->at("y").value()->data<float>(), ElementsAre(1.25f, 2.25f, 3.25f, 4.25f));
}

}  // namespace
