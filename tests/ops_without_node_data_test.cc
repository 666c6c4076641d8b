// The operators ONNX's backend node test data does not exercise (onnx_node_data_test covers the
// rest): ONNX 1.12 ships no node test for 32 of its ai.onnx / ai.onnx.ml operators.
//
//   ValidInputs        one case per such operator: make_node on valid inputs (tensors, sequences,
//                      optionals, maps) and attributes gives ok outputs of the expected type and
//                      shape; the export passes ONNX's strict shape inference, and ONNX
//                      infers the same types, both for the exported outputs and for the operator's
//                      own outputs (an output ONNX 1.12 gives no rank is exported through a
//                      Reshape, since to_onnx needs a rank). Several ai.onnx.ml schemas of ONNX
//                      1.12 have no inference function; make_node types their outputs from the
//                      type constraints, and ONNX, which infers nothing for them, checks the rest
//                      of the export from those types.
//   RejectsTensors     the operators that take a sequence or a map, given a tensor instead:
//                      make_node fails cleanly, naming the op and the type at fault, and leaves the
//                      graph unchanged.
//   Coverage           every non-deprecated ai.onnx / ai.onnx.ml operator of the schema registry is
//                      in the node test data or in the ValidInputs table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/build/node.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx_conformance_util.h"

namespace {

namespace fs = std::filesystem;
namespace gg = graphgc;
using gg::Attribute;
using gg::DataType;
using gg::Graph;
using gg::NamedVars;
using gg::Tensor;
using gg::Var;
using onnx_conformance::Dims;
using onnx_conformance::DimsToString;
using onnx_conformance::TypeDims;
using onnx_conformance::TypeToString;

constexpr char kMl[] = "ai.onnx.ml";

// --- Building blocks of the tables -------------------------------------------------------------

// One input: an argument of the given type, or a constant (for inputs whose values matter).
struct Operand {
  DataType dtype = DataType::kUndefined;
  Dims shape;
  std::optional<Tensor> value;
  std::optional<gg::VarType> type;  // a sequence, optional or map argument
};

Operand Arg(DataType dtype, Dims shape) { return Operand{dtype, std::move(shape), std::nullopt}; }
Operand Arg(gg::VarType type) { return Operand{DataType::kUndefined, {}, std::nullopt, type}; }
Operand Const(const Tensor& value) {
  return Operand{value.dtype(), Dims(value.shape().begin(), value.shape().end()), value};
}

// One output: its element type and the shape ONNX 1.12's inference gives it (-1: an unknown
// dim). Without an inferred rank, `shape` is nullopt and `export_shape` is the shape the op
// really produces, which a Reshape gives the output for export.
struct Expected {
  DataType dtype = DataType::kUndefined;
  std::optional<Dims> shape;
  Dims export_shape;
  std::optional<gg::VarType> type;  // a sequence, optional or map output
};

Expected Out(DataType dtype, Dims shape) { return Expected{dtype, std::move(shape), {}}; }
Expected Out(gg::VarType type) { return Expected{DataType::kUndefined, std::nullopt, {}, type}; }
Expected OutWithoutRank(DataType dtype, Dims export_shape) {
  return Expected{dtype, std::nullopt, std::move(export_shape)};
}

Attribute Int(std::string name, int64_t value) { return {std::move(name), value}; }
Attribute Float(std::string name, float value) { return {std::move(name), value}; }
Attribute Str(std::string name, std::string value) { return {std::move(name), std::move(value)}; }
Attribute Ints(std::string name, std::vector<int64_t> value) {
  return {std::move(name), std::move(value)};
}
Attribute Floats(std::string name, std::vector<float> value) {
  return {std::move(name), std::move(value)};
}
Attribute Strs(std::string name, std::vector<std::string> value) {
  return {std::move(name), std::move(value)};
}

std::vector<Var> MakeInputs(Graph& g, const std::vector<Operand>& operands) {
  std::vector<Var> vars;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& operand = operands[i];
    const std::string name = absl::StrCat("input_", i);
    if (operand.type.has_value()) {
      vars.push_back(g.argument(name, *operand.type));
      continue;
    }
    vars.push_back(operand.value.has_value() ? g.constant(*operand.value)
                                             : g.argument(name, operand.dtype, operand.shape));
  }
  return vars;
}

// make_node as a user calls it: an op without inputs goes into `g` explicitly.
std::vector<Var> MakeNode(Graph& g, const std::string& op, const std::string& domain,
                          const std::vector<Var>& inputs, const std::vector<Attribute>& attributes,
                          int num_outputs, int version = 0) {
  gg::NodeOptions options;
  options.domain = domain;
  options.num_outputs = num_outputs;
  options.version = version;
  if (inputs.empty()) return gg::make_node(g, op, inputs, attributes, options);
  return gg::make_node(op, inputs, attributes, options);
}

std::string ShapeToString(const std::optional<Dims>& shape) {
  return shape.has_value() ? DimsToString(*shape) : std::string("(unknown rank)");
}

// --- 1. Valid inputs ---------------------------------------------------------------------------

struct ValidCase {
  std::string op;
  std::string domain;
  std::vector<Operand> inputs;
  std::vector<Attribute> attributes;
  std::vector<Expected> outputs;
  // Non-empty: ONNX 1.12's full-model inference fails on the export with this message (a
  // limitation of ONNX's, checked so that a fixed ONNX is noticed); the op's own inference
  // function, which make_node runs, still types the outputs.
  std::string onnx_fails_with;
  int version = 0;  // the opset to build at; 0: the newest
};

void PrintTo(const ValidCase& c, std::ostream* os) {
  *os << (c.domain.empty() ? "" : c.domain + "::") << c.op;
}

// One tree for the TreeEnsemble ops: the root tests feature 0 <= 0.5; nodes 1 and 2 are leaves.
std::vector<Attribute> TinyTreeNodes() {
  return {Ints("nodes_treeids", {0, 0, 0}),
          Ints("nodes_nodeids", {0, 1, 2}),
          Ints("nodes_featureids", {0, 0, 0}),
          Strs("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"}),
          Floats("nodes_values", {0.5f, 0.0f, 0.0f}),
          Ints("nodes_truenodeids", {1, 0, 0}),
          Ints("nodes_falsenodeids", {2, 0, 0})};
}

std::vector<Attribute> With(std::vector<Attribute> attributes, std::vector<Attribute> more) {
  attributes.insert(attributes.end(), more.begin(), more.end());
  return attributes;
}

std::vector<ValidCase> ValidCases() {
  constexpr DataType kF = DataType::kFloat;
  constexpr DataType kI64 = DataType::kInt64;
  constexpr DataType kStr = DataType::kString;
  using gg::VarType;
  const VarType matrices = VarType::Sequence(VarType::Tensor(kF, Dims{2, 3}));
  const VarType int64_to_float = VarType::Map(kI64, VarType::Tensor(kF));
  return {
      // ai.onnx: sequences and optionals
      {"ConcatFromSequence", "", {Arg(matrices)}, {Int("axis", 0)}, {Out(kF, {-1, 3})}},
      {"Optional",
       "",
       {Arg(kF, {2, 3})},
       {},
       {Out(VarType::Optional(VarType::Tensor(kF, Dims{2, 3})))}},
      {"SequenceAt", "", {Arg(matrices), Const(Tensor::scalar<int64_t>(0))}, {}, {Out(kF, {2, 3})}},
      {"SequenceConstruct", "", {Arg(kF, {2, 3}), Arg(kF, {2, 3})}, {}, {Out(matrices)}},
      {"SequenceErase",
       "",
       {Arg(matrices), Const(Tensor::scalar<int64_t>(0))},
       {},
       {Out(matrices)}},
      {"SplitToSequence",
       "",
       {Arg(kF, {4, 3})},
       {Int("axis", 0)},
       {Out(VarType::Sequence(VarType::Tensor(kF, Dims{1, 3})))}},
      // ai.onnx.ml: maps
      {"CastMap",
       kMl,
       {Arg(int64_to_float)},
       {Str("cast_to", "TO_FLOAT")},
       {OutWithoutRank(kF, {1, 2})}},
      {"DictVectorizer",
       kMl,
       {Arg(int64_to_float)},
       {Ints("int64_vocabulary", {1, 2, 3})},
       {OutWithoutRank(kF, {1, 3})}},
      {"ZipMap",
       kMl,
       {Arg(kF, {2, 2})},
       {Ints("classlabels_int64s", {0, 1})},
       // ONNX 1.19 types a map's values as the scalars they are (1.12 gave them no rank).
       {Out(VarType::Sequence(VarType::Map(kI64, VarType::Tensor(kF, Dims{}))))}},
      // ai.onnx
      {"GlobalLpPool", "", {Arg(kF, {1, 3, 4, 5})}, {Int("p", 3)}, {Out(kF, {1, 3, 1, 1})}},
      {"LpNormalization", "", {Arg(kF, {2, 3})}, {Int("axis", 1), Int("p", 1)}, {Out(kF, {2, 3})}},
      {"LpPool",
       "",
       {Arg(kF, {1, 2, 5, 5})},
       {Ints("kernel_shape", {2, 2}), Int("p", 2), Ints("strides", {1, 1}),
        Ints("pads", {0, 0, 1, 1})},
       {Out(kF, {1, 2, 5, 5})}},
      {"MaxRoiPool",
       "",
       {Arg(kF, {1, 3, 8, 8}), Arg(kF, {2, 5})},
       {Ints("pooled_shape", {2, 2}), Float("spatial_scale", 0.5f)},
       {Out(kF, {2, 3, 2, 2})}},
      {"Multinomial",
       "",
       {Arg(kF, {2, 4})},
       {Int("sample_size", 3), Int("dtype", 7), Float("seed", 1.0f)},
       {Out(kI64, {2, 3})}},
      {"RandomNormal",
       "",
       {},
       {Ints("shape", {2, 3}), Int("dtype", 11), Float("mean", 1.0f), Float("scale", 2.0f)},
       {Out(DataType::kDouble, {2, 3})}},
      {"RandomNormalLike",
       "",
       {Arg(kI64, {2, 3})},
       {Int("dtype", 1), Float("seed", 4.0f)},
       {Out(kF, {2, 3})}},
      {"RandomUniform",
       "",
       {},
       {Ints("shape", {4}), Float("low", -1.0f), Float("high", 1.0f), Float("seed", 2.0f)},
       {Out(kF, {4})}},
      // ai.onnx.ml
      {"ArrayFeatureExtractor",
       kMl,
       {Arg(kF, {2, 4}), Const(Tensor::from_vector<int64_t>({0, 3}))},
       {},
       {Out(kF, {2, 2})}},
      {"Binarizer", kMl, {Arg(kF, {2, 3})}, {Float("threshold", 0.5f)}, {Out(kF, {2, 3})}},
      {"CategoryMapper",
       kMl,
       {Arg(kStr, {3})},
       {Strs("cats_strings", {"a", "b", "c"}), Ints("cats_int64s", {1, 2, 3}),
        Int("default_int64", -1)},
       {Out(kI64, {3})}},
      {"FeatureVectorizer",
       kMl,
       {Arg(kF, {2, 3}), Arg(kF, {2, 2})},
       {Ints("inputdimensions", {3, 2})},
       {OutWithoutRank(kF, {2, 5})}},
      {"Imputer",
       kMl,
       {Arg(kF, {2, 3})},
       {Floats("imputed_value_floats", {0.5f, 1.5f, 2.5f}), Float("replaced_value_float", -1.0f)},
       {OutWithoutRank(kF, {2, 3})}},
      {"LabelEncoder",
       kMl,
       {Arg(kStr, {4})},
       {Strs("keys_strings", {"a", "b"}), Ints("values_int64s", {1, 2}), Int("default_int64", -1)},
       {Out(kI64, {4})}},
      {"LinearClassifier",
       kMl,
       {Arg(kF, {2, 3})},
       {Floats("coefficients", {1, 0, -1, 0.5f, 0.5f, 0.5f}), Floats("intercepts", {0.1f, -0.1f}),
        Ints("classlabels_ints", {10, 20})},
       {Out(kI64, {2}), Out(kF, {2, 2})}},
      {"LinearRegressor",
       kMl,
       {Arg(kF, {2, 3})},
       {Floats("coefficients", {1, 2, 3}), Floats("intercepts", {0.5f}), Int("targets", 1)},
       {OutWithoutRank(kF, {2, 1})}},
      {"Normalizer", kMl, {Arg(kF, {2, 3})}, {Str("norm", "L2")}, {OutWithoutRank(kF, {2, 3})}},
      {"OneHotEncoder",
       kMl,
       {Arg(kI64, {2, 3})},
       {Ints("cats_int64s", {1, 2, 3, 4}), Int("zeros", 1)},
       {Out(kF, {2, 3, 4})}},
      // A linear-kernel SVM, one support vector per class: coefficients (classes - 1) x vectors,
      // one rho per class pair.
      {"SVMClassifier",
       kMl,
       {Arg(kF, {2, 3})},
       {Str("kernel_type", "LINEAR"), Ints("classlabels_ints", {0, 1}),
        Ints("vectors_per_class", {1, 1}), Floats("support_vectors", {1, 0, 0, 0, 1, 0}),
        Floats("coefficients", {1, -1}), Floats("rho", {0.2f})},
       {OutWithoutRank(kI64, {2}), OutWithoutRank(kF, {2, 2})}},
      {"SVMRegressor",
       kMl,
       {Arg(kF, {2, 3})},
       {Str("kernel_type", "LINEAR"), Int("n_supports", 1), Floats("support_vectors", {1, 2, 3}),
        Floats("coefficients", {0.5f}), Floats("rho", {0.1f})},
       {OutWithoutRank(kF, {2, 1})}},
      {"Scaler",
       kMl,
       {Arg(kF, {2, 3})},
       {Floats("offset", {0, 1, 2}), Floats("scale", {1, 2, 3})},
       {OutWithoutRank(kF, {2, 3})}},
      {"TreeEnsembleClassifier",
       kMl,
       {Arg(kF, {2, 3})},
       With(TinyTreeNodes(), {Ints("class_treeids", {0, 0}), Ints("class_nodeids", {1, 2}),
                              Ints("class_ids", {0, 1}), Floats("class_weights", {1, 1}),
                              Ints("classlabels_int64s", {10, 20})}),
       {Out(kI64, {2}), Out(kF, {2, 2})},
       "",
       3},  // deprecated at ai.onnx.ml 5 (TreeEnsemble)
      {"TreeEnsembleRegressor",
       kMl,
       {Arg(kF, {2, 3})},
       With(TinyTreeNodes(),
            {Int("n_targets", 1), Ints("target_treeids", {0, 0}), Ints("target_nodeids", {1, 2}),
             Ints("target_ids", {0, 0}), Floats("target_weights", {1.5f, -1.5f})}),
       {Out(kF, {2, 1})},
       "",
       3},
  };
}

// The exported model's node of `op` (its own outputs, not the Reshapes or Identities around it).
const onnx::NodeProto* FindNode(const onnx::ModelProto& model, const std::string& op) {
  for (const onnx::NodeProto& node : model.graph().node()) {
    if (node.op_type() == op) return &node;
  }
  return nullptr;
}

// The opset `model` imports for `domain`.
int64_t DeclaredOpset(const onnx::ModelProto& model, const std::string& domain) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (onnx_conformance::NormalizedDomain(opset.domain()) == domain) return opset.version();
  }
  return 0;
}

// The types ONNX inferred for every value of `model`, by name.
std::map<std::string, onnx::TypeProto> ValueTypes(const onnx::ModelProto& model) {
  std::map<std::string, onnx::TypeProto> types;
  for (const onnx::ValueInfoProto& info : model.graph().value_info()) {
    types[info.name()] = info.type();
  }
  for (const onnx::ValueInfoProto& info : model.graph().output()) types[info.name()] = info.type();
  return types;
}

class ValidInputsTest : public ::testing::TestWithParam<ValidCase> {};

TEST_P(ValidInputsTest, InfersAndExportsLikeOnnx) {
  const ValidCase& c = GetParam();
  Graph g;
  const std::vector<Var> inputs = MakeInputs(g, c.inputs);
  const std::vector<Var> outputs = MakeNode(g, c.op, c.domain, inputs, c.attributes,
                                            static_cast<int>(c.outputs.size()), c.version);
  ASSERT_EQ(outputs.size(), c.outputs.size());

  NamedVars exported;
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("output ", i));
    const Var& out = outputs[i];
    const Expected& expected = c.outputs[i];
    ASSERT_TRUE(out.ok()) << out.status();
    const std::string name = absl::StrCat("output_", i);
    if (expected.type.has_value()) {
      EXPECT_EQ(out.type().Key(), expected.type->Key());
      exported.emplace_back(name, out);
      continue;
    }
    EXPECT_EQ(out.dtype(), expected.dtype) << gg::DataTypeName(out.dtype());
    EXPECT_EQ(out.shape(), expected.shape) << ShapeToString(out.shape());
    if (out.rank().has_value()) {
      exported.emplace_back(name, out);
      continue;
    }
    const Var reshaped =
        gg::op::Reshape(out, g.constant(Tensor::from_vector<int64_t>(expected.export_shape)));
    ASSERT_TRUE(reshaped.ok()) << reshaped.status();
    EXPECT_EQ(reshaped.shape(), expected.export_shape) << ShapeToString(reshaped.shape());
    exported.emplace_back(name, reshaped);
  }

  const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, exported);
  ASSERT_TRUE(model.ok()) << model.status();
  const onnx::NodeProto* node = FindNode(*model, c.op);
  ASSERT_NE(node, nullptr) << "the export has no " << c.op << " node";
  ASSERT_EQ(node->output_size(), static_cast<int>(outputs.size()));
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      c.op, static_cast<int>(DeclaredOpset(*model, c.domain)), c.domain);
  ASSERT_NE(schema, nullptr) << "ONNX has no schema for the exported " << c.op;
  // ONNX infers nothing for an op whose schema has no inference function (ONNX 1.12's Binarizer,
  // Scaler, ...): its exported output types stay, and ONNX infers the rest from them.
  const bool onnx_infers_op = schema->has_type_and_shape_inference_function();
  const std::set<std::string> keep =
      onnx_infers_op ? std::set<std::string>{}
                     : std::set<std::string>(node->output().begin(), node->output().end());
  onnx::ModelProto inferred;
  const std::vector<std::string> errors =
      onnx_conformance::CheckOnnxInference(*model, exported, keep, &inferred);
  if (!c.onnx_fails_with.empty()) {
    EXPECT_TRUE(absl::StrContains(absl::StrJoin(errors, "\n"), c.onnx_fails_with))
        << "ONNX's inference no longer fails as expected:\n"
        << absl::StrJoin(errors, "\n");
    return;
  }
  ASSERT_TRUE(errors.empty()) << absl::StrJoin(errors, "\n");
  if (!onnx_infers_op) return;

  // ONNX's own types for the op's outputs, exported directly or not.
  const std::map<std::string, onnx::TypeProto> types = ValueTypes(inferred);
  for (size_t i = 0; i < outputs.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("output ", i, " ('", node->output(static_cast<int>(i)), "')"));
    auto it = types.find(node->output(static_cast<int>(i)));
    ASSERT_NE(it, types.end()) << "ONNX infers no type";
    if (!outputs[i].type().is_tensor()) {
      EXPECT_EQ(onnx_conformance::CompareWithOnnx(it->second, outputs[i]), "");
      continue;
    }
    ASSERT_TRUE(it->second.has_tensor_type()) << "ONNX infers no tensor type";
    EXPECT_EQ(it->second.tensor_type().elem_type(), static_cast<int32_t>(outputs[i].dtype()))
        << TypeToString(it->second);
    EXPECT_EQ(TypeDims(it->second), outputs[i].shape()) << TypeToString(it->second);
  }
}

INSTANTIATE_TEST_SUITE_P(OpsWithoutNodeData, ValidInputsTest, ::testing::ValuesIn(ValidCases()),
                         [](const ::testing::TestParamInfo<ValidCase>& info) {
                           return info.param.op;
                         });

// --- 2. A tensor where a sequence or a map belongs ------------------------------------------

struct WrongKindCase {
  std::string op;
  std::string domain;
  std::string takes;            // what the op takes instead
  std::vector<Operand> inputs;  // tensors
  std::vector<Attribute> attributes;
  std::string status_mentions;  // what the status must name besides the op
  int version = 0;              // the opset to build at; 0: the newest
};

void PrintTo(const WrongKindCase& c, std::ostream* os) {
  *os << (c.domain.empty() ? "" : c.domain + "::") << c.op;
}

std::vector<WrongKindCase> WrongKindCases() {
  constexpr DataType kF = DataType::kFloat;
  constexpr DataType kI64 = DataType::kInt64;
  return {
      {"ConcatFromSequence",
       "",
       "a sequence of tensors",
       {Arg(kF, {2, 3})},
       {Int("axis", 0)},
       "seq(tensor(float))"},
      {"SequenceAt",
       "",
       "a sequence of tensors",
       {Arg(kF, {2, 3}), Const(Tensor::scalar<int64_t>(0))},
       {},
       "seq(tensor(float))"},
      {"SequenceErase",
       "",
       "a sequence of tensors",
       {Arg(kF, {2, 3}), Const(Tensor::scalar<int64_t>(0))},
       {},
       "seq(tensor(float))"},
      {"CastMap",
       kMl,
       "a map",
       {Arg(kF, {3})},
       {Str("cast_to", "TO_FLOAT")},
       "map(int64,tensor(float))"},
      {"DictVectorizer",
       kMl,
       "a map",
       {Arg(kI64, {3})},
       {Ints("int64_vocabulary", {1, 2, 3})},
       "map(int64,tensor(float))"},
      // From opset 18 a tensor is its own element.
      {"OptionalGetElement", "", "an optional", {Arg(kF, {3})}, {}, "optional(tensor(float))", 17},
  };
}

class RejectsTensorsTest : public ::testing::TestWithParam<WrongKindCase> {};

TEST_P(RejectsTensorsTest, FailsCleanly) {
  const WrongKindCase& c = GetParam();
  Graph g;
  const std::vector<Var> inputs = MakeInputs(g, c.inputs);
  for (const Var& input : inputs) ASSERT_TRUE(input.ok()) << input.status();
  const int64_t nodes_before = g.stats().nodes;

  const std::vector<Var> outputs = MakeNode(g, c.op, c.domain, inputs, c.attributes, -1, c.version);
  ASSERT_FALSE(outputs.empty());
  for (const Var& out : outputs) {
    EXPECT_FALSE(out.ok());
    const absl::Status status = out.status();
    RecordProperty("make_node_status", status.ToString());
    EXPECT_TRUE(status.code() == absl::StatusCode::kInvalidArgument ||
                status.code() == absl::StatusCode::kUnimplemented)
        << status;
    EXPECT_TRUE(absl::StartsWith(status.message(), absl::StrCat(c.op, ": "))) << status;
    EXPECT_TRUE(absl::StrContains(status.message(), c.status_mentions))
        << status << "\n(expected a mention of '" << c.status_mentions << "': the op takes "
        << c.takes << ")";
  }
  EXPECT_EQ(g.stats().nodes, nodes_before) << "a failed make_node changed the graph";
  // The inputs are untouched and still export.
  NamedVars kept;
  for (size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_TRUE(inputs[i].ok()) << inputs[i].status();
    kept.emplace_back(absl::StrCat("kept_", i), inputs[i]);
  }
  const absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, kept);
  EXPECT_TRUE(model.ok()) << model.status();
}

INSTANTIATE_TEST_SUITE_P(OpsWithoutNodeData, RejectsTensorsTest,
                         ::testing::ValuesIn(WrongKindCases()),
                         [](const ::testing::TestParamInfo<WrongKindCase>& info) {
                           return info.param.op;
                         });

// --- 3. Coverage -------------------------------------------------------------------------------

using OpKey = std::pair<std::string, std::string>;  // normalized domain, op type

std::string KeyToString(const OpKey& key) {
  return key.first.empty() ? key.second : absl::StrCat(key.first, "::", key.second);
}

// The ops of the node test data's models (their top-level nodes).
std::set<OpKey> NodeDataOps(const std::vector<std::string>& dirs) {
  std::set<OpKey> ops;
  for (const std::string& dir : dirs) {
    onnx::ModelProto model;
    if (!onnx_conformance::ParseFile(fs::path(dir) / "model.onnx", &model)) {
      ADD_FAILURE() << dir << "/model.onnx does not parse as a ModelProto";
      continue;
    }
    for (const onnx::NodeProto& node : model.graph().node()) {
      ops.emplace(onnx_conformance::NormalizedDomain(node.domain()), node.op_type());
    }
  }
  return ops;
}

std::set<OpKey> TableOps() {
  std::set<OpKey> ops;
  for (const ValidCase& c : ValidCases()) ops.emplace(c.domain, c.op);
  return ops;
}

// The operators of the opsets graphgc builds (ai.onnx and ai.onnx.ml up to
// SupportedOpsetVersion) that are not deprecated there; the registry may hold newer opsets.
std::set<OpKey> RegistryOps() {
  std::set<OpKey> ops;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    const std::string domain = onnx_conformance::NormalizedDomain(schema.domain());
    if (!domain.empty() && domain != kMl) continue;
    const int newest = gg::SupportedOpsetVersion(domain);
    const onnx::OpSchema* current =
        onnx::OpSchemaRegistry::Schema(schema.Name(), newest, schema.domain());
    if (current != nullptr && !current->Deprecated()) ops.emplace(domain, schema.Name());
  }
  return ops;
}

std::string OpList(const std::vector<OpKey>& ops) {
  std::vector<std::string> names;
  for (const OpKey& key : ops) names.push_back(KeyToString(key));
  return absl::StrJoin(names, " ");
}

TEST(OpsWithoutNodeDataCoverage, EveryOperatorIsExercised) {
  const std::vector<std::string> dirs = onnx_conformance::ListTestDirs();
  ASSERT_GE(dirs.size(), onnx_conformance::kMinimumTestCount)
      << "ONNX's node test data is missing or incomplete in " << onnx_conformance::DataDir();
  std::set<OpKey> data = NodeDataOps(dirs);
  // The operators of opsets 18 to 24 have their cases in the newest release's suite.
  const std::vector<std::string> newest =
      onnx_conformance::ListTestDirs(onnx_conformance::NewestSuiteDir());
  ASSERT_GE(newest.size(), 1500u) << "the node suite of tools/build-onnx is missing in "
                                  << onnx_conformance::NewestSuiteDir();
  data.merge(NodeDataOps(newest));
  const std::set<OpKey> table = TableOps();
  const std::set<OpKey> registry = RegistryOps();
  ASSERT_FALSE(registry.empty());

  std::vector<OpKey> missing;
  for (const OpKey& key : registry) {
    if (data.count(key) == 0 && table.count(key) == 0) {
      missing.push_back(key);
    }
  }
  EXPECT_TRUE(missing.empty()) << missing.size()
                               << " operator(s) neither in ONNX's node test data nor in the "
                                  "ValidInputs table: "
                               << OpList(missing);
}

// The tables name real, current operators; the ValidInputs table each once.
TEST(OpsWithoutNodeDataCoverage, TablesNameRegistryOperators) {
  const std::set<OpKey> registry = RegistryOps();
  std::vector<OpKey> listed;
  for (const ValidCase& c : ValidCases()) listed.emplace_back(c.domain, c.op);
  std::vector<OpKey> unknown;
  for (const ValidCase& c : ValidCases()) {
    // A case pinned to an older opset names an operator current there (TreeEnsembleRegressor is
    // deprecated at ai.onnx.ml 5).
    const onnx::OpSchema* pinned =
        c.version == 0 ? nullptr : onnx::OpSchemaRegistry::Schema(c.op, c.version, c.domain);
    const bool current = c.version == 0 ? registry.count({c.domain, c.op}) > 0
                                        : pinned != nullptr && !pinned->Deprecated();
    if (!current) unknown.emplace_back(c.domain, c.op);
  }
  for (const WrongKindCase& c : WrongKindCases()) {
    if (registry.count({c.domain, c.op}) == 0) unknown.emplace_back(c.domain, c.op);
  }
  EXPECT_TRUE(unknown.empty()) << "not current ai.onnx / ai.onnx.ml operators: " << OpList(unknown);
  std::vector<OpKey> sorted = listed;
  std::sort(sorted.begin(), sorted.end());
  std::vector<OpKey> repeated;
  for (size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i] == sorted[i - 1]) repeated.push_back(sorted[i]);
  }
  EXPECT_TRUE(repeated.empty()) << "listed more than once: " << OpList(repeated);
}

}  // namespace
