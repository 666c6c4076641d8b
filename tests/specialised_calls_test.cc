// graphgc-fold's specialised functions: a call of a model's function with some inputs known may
// call a copy of the function made for them (export/fold/specialised_calls.h), only when the copy
// runs fewer nodes and the model does not grow; the result passes ONNX's checker and computes what
// the original does.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "onnx/checker.h"
#include "onnx/defs/parser.h"

namespace graphgc {
namespace {

onnx::ModelProto Parse(const std::string& text) {
  onnx::ModelProto model;
  const onnx::Status status = onnx::OnnxParser::Parse(model, text.c_str());
  EXPECT_TRUE(status.IsOK()) << status.ErrorMessage();
  return model;
}

// x @ (sqrt|wt| * sqrt|wt| + wt), wt = Transpose(w) with `perm`: with w known, the matrix is a
// constant of a copy, which is then smaller than the function.
std::string ScaledBody(const std::string& perm) {
  return absl::StrCat(R"({
      wt = Transpose <perm)",
                      perm, R"(> (w)
      magnitude = Abs (wt)
      root = Sqrt (magnitude)
      square = Mul (root, root)
      matrix = Add (square, wt)
      y = MatMul (x, matrix)
    }
)");
}

const std::string kAffine = absl::StrCat(R"(
    <domain: "local", opset_import: ["" : 18]>
    Affine (x, w) => (y) )",
                                         ScaledBody(" = [1, 0]"));

const char* const kHeader = R"(<ir_version: 10, opset_import: ["" : 18, "local" : 1]>)";

std::string Weights(const std::string& name, float first) {
  return absl::StrCat("float[2, 2] ", name, " = {", first, ", 2, 3, 4}");
}

const char* const kOneOutput = "(float[2, 2] x) => (float[2, 2] y)";
const char* const kTwoOutputs = "(float[2, 2] x) => (float[2, 2] y, float[2, 2] z)";

// A model whose graph, of `signature`, has `initializers` and `nodes`; then `functions`.
onnx::ModelProto Model(const char* signature, const std::string& initializers,
                       const std::string& nodes, const std::string& functions) {
  return Parse(
      absl::StrCat(kHeader, "g ", signature, " <", initializers, "> {", nodes, "}", functions));
}

std::vector<std::string> OpTypes(const onnx::ModelProto& model) {
  std::vector<std::string> types;
  for (const onnx::NodeProto& node : model.graph().node()) types.push_back(node.op_type());
  return types;
}

std::vector<std::string> FunctionNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const onnx::FunctionProto& function : model.functions()) names.push_back(function.name());
  return names;
}

// Folds `model`, checks the result, and compares its outputs on x = [[1, -2], [0.5, 3]] with the
// original's.
FoldResult FoldAndCompare(const onnx::ModelProto& model) {
  absl::StatusOr<FoldResult> folded = fold(model);
  EXPECT_TRUE(folded.ok()) << folded.status();
  if (!folded.ok()) return {};
  try {
    onnx::checker::check_model(folded->model, /*full_check=*/true);
  } catch (const std::exception& e) {
    ADD_FAILURE() << e.what() << "\n" << folded->model.DebugString();
  }
  const Tensor x = Tensor::from_vector<float>({1, -2, 0.5f, 3}, {2, 2});
  Graph original_graph;
  Graph folded_graph;
  auto before = inline_model(original_graph, model, {{"x", original_graph.constant(x)}});
  auto after = inline_model(folded_graph, folded->model, {{"x", folded_graph.constant(x)}});
  EXPECT_TRUE(before.ok()) << before.status();
  EXPECT_TRUE(after.ok()) << after.status();
  if (!before.ok() || !after.ok()) return *std::move(folded);
  for (const onnx::ValueInfoProto& output : model.graph().output()) {
    std::optional<Tensor> want = before->at(output.name()).value();
    std::optional<Tensor> got = after->at(output.name()).value();
    EXPECT_TRUE(want.has_value() && got.has_value()) << output.name();
    if (!want.has_value() || !got.has_value()) continue;
    EXPECT_EQ(want->size(), got->size());
    for (int64_t i = 0; i < std::min(want->size(), got->size()); ++i) {
      EXPECT_NEAR(got->data<float>()[i], want->data<float>()[i], 1e-5f) << output.name() << i;
    }
  }
  return *std::move(folded);
}

TEST(SpecialisedCallsTest, ACallWithAKnownWeightCallsACopyMadeForIt) {
  const onnx::ModelProto model = Model(kOneOutput, Weights("w", 1), R"(
      y = local.Affine (x, w)
    )",
                                       kAffine);
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 1);
  EXPECT_EQ(folded.stats.functions_specialised, 1);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Affine_s1"));  // Affine is unused
  EXPECT_THAT(OpTypes(folded.model), testing::ElementsAre("Affine_s1"));
  EXPECT_EQ(folded.model.graph().node(0).input_size(), 1);
  EXPECT_EQ(folded.model.graph().initializer_size(), 0);  // w went into the copy, transposed
  const onnx::FunctionProto& copy = folded.model.functions(0);
  ASSERT_EQ(copy.node_size(), 2);
  EXPECT_EQ(copy.node(0).op_type(), "Constant");
  EXPECT_EQ(copy.node(1).op_type(), "MatMul");
  EXPECT_LE(folded.stats.model_bytes_after, folded.stats.model_bytes_before);
}

TEST(SpecialisedCallsTest, CallsWithTheSameKnownInputsShareOneCopy) {
  const onnx::ModelProto model = Model(kTwoOutputs, Weights("w", 1), R"(
      y = local.Affine (x, w)
      x2 = Add (x, x)
      z = local.Affine (x2, w)
    )",
                                       kAffine);
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 2);
  EXPECT_EQ(folded.stats.functions_specialised, 1);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Affine_s1"));
}

TEST(SpecialisedCallsTest, EveryCallSpecialisedTogetherWhenTheFunctionThenGoes) {
  // Alone, each copy would add a function while Affine stays; together, Affine goes.
  const onnx::ModelProto model =
      Model(kTwoOutputs, absl::StrCat(Weights("w1", 1), ", ", Weights("w2", 5)), R"(
      y = local.Affine (x, w1)
      z = local.Affine (x, w2)
    )",
            kAffine);
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 2);
  EXPECT_EQ(folded.stats.functions_specialised, 2);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Affine_s1", "Affine_s2"));
}

TEST(SpecialisedCallsTest, NoCopyWhenItWouldGrowTheModel) {
  // Affine stays (its second call has no known weight) and so does w (the graph's Add reads it
  // too): a copy would add a function holding w's values a second time.
  const onnx::ModelProto model = Model(kTwoOutputs, Weights("w", 1), R"(
      y = local.Affine (x, w)
      x2 = Add (x, w)
      z = local.Affine (x, x2)
    )",
                                       kAffine);
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 0);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Affine"));
}

TEST(SpecialisedCallsTest, NoCopyWhenNothingFolds) {
  // Bias(x, b) = x + b: with b known, nothing in the body is computed from constants alone.
  const onnx::ModelProto model = Model(kOneOutput, Weights("b", 1), R"(
      y = local.Bias (x, b)
    )",
                                       R"(  <domain: "local", opset_import: ["" : 18]>
    Bias (x, b) => (y) {
      y = Add (x, b)
    }
  )");
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 0);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Bias"));
}

TEST(SpecialisedCallsTest, TheCallsAttributesAreBoundIntoTheCopy) {
  // The permutation comes from the call; the copy folds Transpose with the call's perm, and the
  // calls with different perms get copies of their own.
  const onnx::ModelProto model = Model(kTwoOutputs, Weights("w", 1), R"(
      y = local.Permuted <perm = [1, 0]> (x, w)
      z = local.Permuted <perm = [0, 1]> (x, w)
    )",
                                       absl::StrCat(R"(
    <domain: "local", opset_import: ["" : 18]>
    Permuted <perm> (x, w) => (y) )",
                                                    ScaledBody(": ints = @perm")));
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 2);
  EXPECT_THAT(FunctionNames(folded.model), testing::ElementsAre("Permuted_s1", "Permuted_s2"));
  for (const onnx::NodeProto& call : folded.model.graph().node()) {
    EXPECT_EQ(call.attribute_size(), 0);
  }
}

TEST(SpecialisedCallsTest, ACallInsideTheCopyFoldsWhenItsInputsAreKnown) {
  // Outer(x, w) = Affine(x, Square(Neg(w))) calls Affine on a value computed from w alone: in the
  // copy, Neg and the call of Square fold, and the call of Affine stays (it also reads x).
  const onnx::ModelProto model =
      Model(kOneOutput, Weights("w", 1), R"(
      y = local.Outer (x, w)
    )",
            absl::StrCat(R"(  <domain: "local", opset_import: ["" : 18, "local" : 1]>
    Outer (x, w) => (y) {
      negated = Neg (w)
      square = local.Square (negated)
      y = local.Affine (x, square)
    }
    <domain: "local", opset_import: ["" : 18]>
    Square (v) => (s) {
      s = Mul (v, v)
    }
  )",
                         kAffine));
  const FoldResult folded = FoldAndCompare(model);
  EXPECT_EQ(folded.stats.calls_specialised, 1);
  // Nothing calls Square any more: it went with Outer.
  EXPECT_THAT(FunctionNames(folded.model), testing::UnorderedElementsAre("Affine", "Outer_s1"));
}

}  // namespace
}  // namespace graphgc
