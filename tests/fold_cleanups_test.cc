// Cleanups: each one removes exactly what it should (the readers then read the survivor), leaves
// every node, initializer and name it may not touch as it was, and gives a model that passes ONNX's
// full check (the checker, then strict shape inference); one model is also evaluated before and
// after by graphgc's own propagation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/export/fold/cleanups.h"
#include "graphgc/graphgc.h"
#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc {
namespace {

using internal::ApplyCleanups;
using internal::CleanupCounts;
using internal::CleanupOptions;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

onnx::ModelProto Parse(const char* text) {
  onnx::ModelProto model;
  const onnx::Status status = onnx::OnnxParser::Parse(model, text);
  EXPECT_TRUE(status.IsOK()) << status.ErrorMessage();
  return model;
}

void Declare(onnx::ModelProto& model, const std::string& name, int32_t type) {
  onnx::ValueInfoProto* info = model.mutable_graph()->add_value_info();
  info->set_name(name);
  info->mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

// ONNX's full check — the checker, then shape inference that throws on any type error — as the
// error it gives, empty if none.
std::string FullCheckError(const onnx::ModelProto& model) {
  try {
    onnx::checker::check_model(model);
    onnx::ModelProto inferred = model;
    onnx::ShapeInferenceOptions strict;
    strict.check_type = true;
    strict.error_mode = 1;
    onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

void ExpectFullCheckPasses(const onnx::ModelProto& model) {
  const std::string error = FullCheckError(model);
  EXPECT_TRUE(error.empty()) << "full check: " << error;
}

CleanupCounts Clean(onnx::ModelProto& model, const CleanupOptions& options = {}) {
  absl::StatusOr<CleanupCounts> counts = ApplyCleanups(model, options);
  EXPECT_TRUE(counts.ok()) << counts.status();
  return counts.ok() ? *counts : CleanupCounts{};
}

CleanupOptions Only(bool CleanupOptions::*cleanup) {
  CleanupOptions options{false, false, false};
  options.*cleanup = true;
  return options;
}

std::vector<std::string> OpTypes(const onnx::GraphProto& graph) {
  std::vector<std::string> ops;
  for (const auto& node : graph.node()) ops.push_back(node.op_type());
  return ops;
}

// The inputs of the node that writes `output`; empty if no node does.
std::vector<std::string> InputsOf(const onnx::GraphProto& graph, const std::string& output) {
  for (const auto& node : graph.node()) {
    for (const std::string& name : node.output()) {
      if (name == output) return {node.input().begin(), node.input().end()};
    }
  }
  return {};
}

std::vector<std::string> InitializerNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const auto& initializer : model.graph().initializer()) names.push_back(initializer.name());
  return names;
}

std::vector<std::string> ValueInfoNames(const onnx::ModelProto& model) {
  std::vector<std::string> names;
  for (const auto& info : model.graph().value_info()) names.push_back(info.name());
  return names;
}

const onnx::GraphProto& Body(const onnx::NodeProto& node, const std::string& attribute) {
  for (const auto& candidate : node.attribute()) {
    if (candidate.name() == attribute) return candidate.g();
  }
  ADD_FAILURE() << node.op_type() << " has no attribute " << attribute;
  return onnx::GraphProto::default_instance();
}

std::string Serialized(const onnx::ModelProto& model) { return model.SerializeAsString(); }

// ---- No-op casts.

TEST(NoopCasts, CastToTheInputsTypeIsRemovedAndItsReaderReadsTheInput) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      a = Relu(x)
      b = Cast<to = 1>(a)
      z = Neg(b)
    })");
  Declare(model, "a", onnx::TensorProto::FLOAT);
  Declare(model, "b", onnx::TensorProto::FLOAT);
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.noop_casts_removed, 1);
  EXPECT_EQ(counts.common_subexpressions_removed, 0);
  EXPECT_EQ(counts.initializers_merged, 0);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "Neg"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("a"));
  EXPECT_THAT(ValueInfoNames(model), ElementsAre("a"));  // b is gone
  ExpectFullCheckPasses(model);
}

TEST(NoopCasts, CastToAnotherTypeStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (double[2] z) {
      b = Cast<to = 11>(x)
      z = Neg(b)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).noop_casts_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(NoopCasts, CastOfAnInputOfUnknownTypeStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      a = Relu(x)
      b = Cast<to = 1>(a)
      z = Neg(b)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).noop_casts_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(NoopCasts, TypesTheModelStatesTwiceAndDifferentlyAreUnknown) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      a = Relu(x)
      b = Cast<to = 1>(a)
      z = Neg(b)
    })");
  Declare(model, "a", onnx::TensorProto::FLOAT);
  Declare(model, "a", onnx::TensorProto::DOUBLE);
  EXPECT_EQ(Clean(model).noop_casts_removed, 0);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "Cast", "Neg"));
}

TEST(NoopCasts, CastWhoseOutputIsAGraphOutputStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      z = Cast<to = 1>(x)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).noop_casts_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(NoopCasts, ChainOfCastsCollapsesOntoTheFirstInput) {
  // b's type is the first Cast's `to`; c's cast is a no-op too once b is x.
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      b = Cast<to = 1>(x)
      c = Cast<to = 1>(b)
      z = Neg(c)
    })");
  EXPECT_EQ(Clean(model).noop_casts_removed, 2);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Neg"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("x"));
  ExpectFullCheckPasses(model);
}

TEST(NoopCasts, TypesComeFromInitializersAndConstantNodes) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (int64[2] x) => (int64[2] z, float[2] y) <int64[2] k = {1, 2}> {
      kc = Cast<to = 7>(k)
      z = Add(x, kc)
      f = Constant<value_floats = [1.0, 2.0]>()
      fc = Cast<to = 1>(f)
      y = Neg(fc)
    })");
  EXPECT_EQ(Clean(model).noop_casts_removed, 2);
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("x", "k"));
  EXPECT_THAT(InputsOf(model.graph(), "y"), ElementsAre("f"));
  ExpectFullCheckPasses(model);
}

TEST(NoopCasts, CastLikeOfOneTypeIsRemovedOfTwoTypesStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[1] like_float, double[1] like_double) => (float[2] z, double[2] w) {
      a = CastLike(x, like_float)
      z = Neg(a)
      b = CastLike(x, like_double)
      w = Neg(b)
    })");
  EXPECT_EQ(Clean(model).noop_casts_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Neg", "CastLike", "Neg"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("x"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("b"));
  ExpectFullCheckPasses(model);
}

TEST(NoopCasts, SaturateDoesNotMatterBetweenEqualTypes) {
  // saturate is an opset-19 attribute, which ONNX 1.12's checker does not know: structure only.
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      b = Cast<to = 1, saturate = 0>(x)
      z = Neg(b)
    })");
  EXPECT_EQ(Clean(model).noop_casts_removed, 1);
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("x"));
}

TEST(NoopCasts, CastOfAnotherDomainStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[2] x) => (float[2] z) {
      b = Cast<to = 1>(x)
      z = Neg(b)
    })");
  model.mutable_graph()->mutable_node(0)->set_domain("com.example");
  EXPECT_EQ(Clean(model).noop_casts_removed, 0);
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("b"));
}

TEST(NoopCasts, BodiesReadingTheCastsOutputReadItsInput) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] z) {
      b = Cast<to = 1>(x)
      z = If(c) <then_branch = then_body () => (float[2] t) { t = Neg(b) },
                 else_branch = else_body () => (float[2] e) { e = Abs(b) }>
    })");
  EXPECT_EQ(Clean(model).noop_casts_removed, 1);
  ASSERT_THAT(OpTypes(model.graph()), ElementsAre("If"));
  const onnx::NodeProto& if_node = model.graph().node(0);
  EXPECT_THAT(InputsOf(Body(if_node, "then_branch"), "t"), ElementsAre("x"));
  EXPECT_THAT(InputsOf(Body(if_node, "else_branch"), "e"), ElementsAre("x"));
  ExpectFullCheckPasses(model);
}

// ---- Common subexpressions.

TEST(CommonSubexpressions, TwoEqualAddsBecomeOneAndTheirReaderReadsIt) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] y) => (float[2] z) {
      a1 = Add(x, y)
      a2 = Add(x, y)
      z = Mul(a1, a2)
    })");
  Declare(model, "a2", onnx::TensorProto::FLOAT);
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.common_subexpressions_removed, 1);
  EXPECT_EQ(counts.noop_casts_removed, 0);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Add", "Mul"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("a1", "a1"));
  EXPECT_THAT(ValueInfoNames(model), IsEmpty());
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, AttributeOrderDoesNotMatterTheirValuesDo) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,2] x, float[2,2] y) => (float[2,2] z, float[2,2] w) {
      a1 = Gemm<alpha = 2.0, transB = 1>(x, y)
      a2 = Gemm<transB = 1, alpha = 2.0>(x, y)
      z = Add(a1, a2)
      l1 = LeakyRelu<alpha = 0.1>(x)
      l2 = LeakyRelu<alpha = 0.2>(x)
      w = Add(l1, l2)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Gemm", "Add", "LeakyRelu", "LeakyRelu", "Add"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("a1", "a1"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("l1", "l2"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, InputsMustBeTheSameInTheSameOrder) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] y) => (float[2] z) {
      a1 = Sub(x, y)
      a2 = Sub(y, x)
      z = Add(a1, a2)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(CommonSubexpressions, EmptyOptionalInputsCountByPosition) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float m) => (float[2] z, float[2] w) {
      c1 = Clip(x, m, m)
      c2 = Clip(x, m, m)
      c3 = Clip(x, m, m)
      z = Add(c1, c2)
      w = Add(c1, c3)
    })");
  // c1 and c2: Clip(x, "", m); c3: Clip(x, m, "") (its max omitted).
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.mutable_node(0)->set_input(1, "");
  graph.mutable_node(1)->set_input(1, "");
  graph.mutable_node(2)->set_input(2, "");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Clip", "Clip", "Add", "Add"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("c1", "c1"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("c1", "c3"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, RandomOpsAndOpsWithASeedStay) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z, float[2] w, float[2] v) {
      r1 = RandomNormal<shape = [2]>()
      r2 = RandomNormal<shape = [2]>()
      z = Add(r1, r2)
      u1 = RandomUniformLike<seed = 1.0>(x)
      u2 = RandomUniformLike<seed = 1.0>(x)
      w = Add(u1, u2)
      d1 = Dropout(x)
      d2 = Dropout(x)
      v = Add(d1, d2)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(CommonSubexpressions, AnOpWithASeedStaysWhateverItsName) {
  // A random op the list of random ops does not name (a newer one, say) is known by its seed.
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      a1 = RandomSomething<seed = 1.0>(x)
      a2 = RandomSomething<seed = 1.0>(x)
      z = Add(a1, a2)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(CommonSubexpressions, OpsOfOtherDomainsStay) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17, "com.example" : 1]>
    g (float[2] x) => (float[2] z) {
      a1 = Relu(x)
      a2 = Relu(x)
      z = Add(a1, a2)
    })");
  model.mutable_graph()->mutable_node(0)->set_domain("com.example");
  model.mutable_graph()->mutable_node(1)->set_domain("com.example");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 0);
  EXPECT_EQ(Serialized(model), before);
}

TEST(CommonSubexpressions, ChainsOfDuplicatesCollapseInOneCall) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] y) => (float[2] z) {
      a1 = Add(x, y)
      a2 = Add(x, y)
      b1 = Neg(a1)
      b2 = Neg(a2)
      c1 = Mul(b1, a1)
      c2 = Mul(b2, a2)
      z = Sub(c1, c2)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 3);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Add", "Neg", "Mul", "Sub"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("c1", "c1"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, AnIfBodyReadingTheDuplicateReadsTheSurvivor) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] z) {
      a1 = Relu(x)
      a2 = Relu(x)
      z = If(c) <then_branch = then_body () => (float[2] t) { t = Neg(a2) },
                 else_branch = else_body () => (float[2] e) { e = Abs(a1) }>
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  ASSERT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "If"));
  const onnx::NodeProto& if_node = model.graph().node(1);
  EXPECT_THAT(InputsOf(Body(if_node, "then_branch"), "t"), ElementsAre("a1"));
  EXPECT_THAT(InputsOf(Body(if_node, "else_branch"), "e"), ElementsAre("a1"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, ABodyOutputNamingTheDuplicateIsRenamed) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] z) {
      a1 = Relu(x)
      a2 = Relu(x)
      z = If(c) <then_branch = then_body () => (float[2] a2) { },
                 else_branch = else_body () => (float[2] e) { e = Abs(a1) }>
    })");
  // ONNX 1.12's checker took a body output made outside the body; 1.19's refuses it. Either way
  // the cleanup keeps the model as valid as it was.
  const std::string error_before = FullCheckError(model);
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  ASSERT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "If"));
  EXPECT_EQ(Body(model.graph().node(1), "then_branch").output(0).name(), "a1");
  EXPECT_EQ(FullCheckError(model).empty(), error_before.empty()) << FullCheckError(model);
}

TEST(CommonSubexpressions, NodesWithEqualBodiesAreOneNodesWithRandomBodiesAreNot) {
  // Sibling bodies may define the same names: each is its own scope.
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] z, float[2] w) {
      i1 = If(c) <then_branch = t1 () => (float[2] t) { t = Neg(x) },
                  else_branch = e1 () => (float[2] e) { e = Abs(x) }>
      i2 = If(c) <then_branch = t1 () => (float[2] t) { t = Neg(x) },
                  else_branch = e1 () => (float[2] e) { e = Abs(x) }>
      z = Add(i1, i2)
      r1 = If(c) <then_branch = t2 () => (float[2] rt) { rt = RandomNormalLike(x) },
                  else_branch = e2 () => (float[2] re) { re = Abs(x) }>
      r2 = If(c) <then_branch = t2 () => (float[2] rt) { rt = RandomNormalLike(x) },
                  else_branch = e2 () => (float[2] re) { re = Abs(x) }>
      w = Add(r1, r2)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("If", "Add", "If", "If", "Add"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("i1", "i1"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("r1", "r2"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, ADuplicateNamingAGraphOutputStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z, float[2] w, float[2] u) {
      a = Relu(x)
      z = Relu(x)
      w = Relu(x)
      b = Relu(x)
      v = Neg(b)
      y = Neg(a)
      u = Add(v, y)
    })");
  // z and w keep their names; b goes to a, after which y is v.
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 2);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "Relu", "Relu", "Neg", "Add"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("x"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("x"));
  EXPECT_THAT(InputsOf(model.graph(), "v"), ElementsAre("a"));
  EXPECT_THAT(InputsOf(model.graph(), "u"), ElementsAre("v", "v"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, AnEarlierNodeThatIsAGraphOutputKeepsItsNameAndGainsReaders) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z, float[2] w) {
      z = Relu(x)
      b = Relu(x)
      w = Neg(b)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Relu", "Neg"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("z"));
  ExpectFullCheckPasses(model);
}

TEST(CommonSubexpressions, AGraphOutOfOrderIsStillRenamedEverywhere) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      z = Neg(a2)
      a1 = Relu(x)
      a2 = Relu(x)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Neg", "Relu"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("a1"));
}

TEST(CommonSubexpressions, OptionalOutputsInUseMustMatch) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[1,1,4] x) => (float[1,1,3] z, int64[1,1,3] w) {
      m1 = MaxPool<kernel_shape = [2]>(x)
      m2, i2 = MaxPool<kernel_shape = [2]>(x)
      m3, i3 = MaxPool<kernel_shape = [2]>(x)
      z = Add(m1, m2)
      w = Add(i2, i3)
    })");
  EXPECT_EQ(Clean(model).common_subexpressions_removed, 1);
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("MaxPool", "MaxPool", "Add", "Add"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("m1", "m2"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("i2", "i2"));
  ExpectFullCheckPasses(model);
}

// ---- Initializers.

TEST(Initializers, TwoEqualInitializersBecomeOne) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z, float[2] w)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}> {
      z = Add(x, w1)
      w = Mul(x, w2)
    })");
  Declare(model, "w2", onnx::TensorProto::FLOAT);
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.initializers_merged, 1);
  EXPECT_THAT(InitializerNames(model), ElementsAre("w1"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("x", "w1"));
  EXPECT_THAT(ValueInfoNames(model), IsEmpty());
  ExpectFullCheckPasses(model);
}

TEST(Initializers, MergedInitializersMakeEqualNodes) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}> {
      a = Add(x, w1)
      b = Add(x, w2)
      z = Mul(a, b)
    })");
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.initializers_merged, 1);
  EXPECT_EQ(counts.common_subexpressions_removed, 1);
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("a", "a"));
  ExpectFullCheckPasses(model);
}

TEST(Initializers, OneThatIsAGraphInputOrAGraphOutputStays) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, float[2] w2) => (float[2] z, float[2] w, float[2] w3)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}, float[2] w3 = {1.0, 2.0}> {
      z = Add(x, w1)
      w = Mul(x, w2)
    })");
  const std::string before = Serialized(model);
  EXPECT_EQ(Clean(model).initializers_merged, 0);
  EXPECT_EQ(Serialized(model), before);
  ExpectFullCheckPasses(model);
}

TEST(Initializers, DifferentDimsTypesOrBytesStay) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[1,2] z)
      <float[2] w1 = {0.0, 2.0}, float[1,2] w2 = {0.0, 2.0}, float[2] w3 = {-0.0, 2.0},
       double[2] w4 = {0.0, 2.0}> {
      a = Add(x, w1)
      b = Add(a, w2)
      c = Add(b, w3)
      d = Cast<to = 1>(w4)
      z = Add(c, d)
    })");
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.initializers_merged, 0);
  EXPECT_THAT(InitializerNames(model), ElementsAre("w1", "w2", "w3", "w4"));
  ExpectFullCheckPasses(model);
}

TEST(Initializers, RawAndTypedStorageOfOneValueAreMergedOnlyWithTheirKind) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}, float[2] w3 = {1.0, 2.0}> {
      a = Add(x, w1)
      b = Mul(a, w2)
      z = Sub(b, w3)
    })");
  // w2 and w3 hold the same values as raw bytes.
  const float values[] = {1.0f, 2.0f};
  for (int i : {1, 2}) {
    onnx::TensorProto& initializer = *model.mutable_graph()->mutable_initializer(i);
    initializer.clear_float_data();
    initializer.set_raw_data(std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  }
  EXPECT_EQ(Clean(model).initializers_merged, 1);
  EXPECT_THAT(InitializerNames(model), ElementsAre("w1", "w2"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("b", "w2"));
  ExpectFullCheckPasses(model);
}

TEST(Initializers, StringInitializersMerge) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (string[2] x) => (string[6] z, string[4] w)
      <string[2] s1 = {"a", "b"}, string[2] s2 = {"a", "b"}, string[2] s3 = {"a", "c"}> {
      z = Concat<axis = 0>(x, s1, s3)
      w = Concat<axis = 0>(x, s2)
    })");
  EXPECT_EQ(Clean(model).initializers_merged, 1);
  EXPECT_THAT(InitializerNames(model), ElementsAre("s1", "s3"));
  EXPECT_THAT(InputsOf(model.graph(), "w"), ElementsAre("x", "s1"));
  ExpectFullCheckPasses(model);
}

TEST(Initializers, ExternalDataInitializersStay) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}> {
      a = Add(x, w1)
      z = Mul(a, w2)
    })");
  for (int i : {0, 1}) {
    onnx::TensorProto& initializer = *model.mutable_graph()->mutable_initializer(i);
    initializer.clear_float_data();
    initializer.set_data_location(onnx::TensorProto::EXTERNAL);
    onnx::StringStringEntryProto* location = initializer.add_external_data();
    location->set_key("location");
    location->set_value("weights.bin");
  }
  EXPECT_EQ(Clean(model).initializers_merged, 0);
  EXPECT_THAT(InitializerNames(model), ElementsAre("w1", "w2"));
}

TEST(Initializers, BodiesReadingAMergedInitializerReadTheSurvivor) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x, bool c) => (float[2] z)
      <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}> {
      a = Add(x, w1)
      z = If(c) <then_branch = then_body () => (float[2] t) { t = Mul(a, w2) },
                 else_branch = else_body () => (float[2] e) { e = Abs(a) }>
    })");
  EXPECT_EQ(Clean(model).initializers_merged, 1);
  const onnx::NodeProto& if_node = model.graph().node(1);
  EXPECT_THAT(InputsOf(Body(if_node, "then_branch"), "t"), ElementsAre("a", "w1"));
  ExpectFullCheckPasses(model);
}

// ---- Options, and models left alone.

constexpr char kAllThree[] = R"(
  <ir_version: 8, opset_import: ["" : 17]>
  g (float[2] x) => (float[2] z)
    <float[2] w1 = {1.0, 2.0}, float[2] w2 = {1.0, 2.0}> {
    c = Cast<to = 1>(x)
    a = Add(c, w1)
    b = Add(x, w2)
    r1 = Relu(a)
    r2 = Relu(a)
    m = Mul(r1, r2)
    z = Mul(m, b)
  })";

TEST(CleanupOptions, AllOnDoesAllThree) {
  onnx::ModelProto model = Parse(kAllThree);
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.initializers_merged, 1);
  EXPECT_EQ(counts.noop_casts_removed, 1);
  EXPECT_EQ(counts.common_subexpressions_removed, 2);  // b (= a once merged and uncast), r2
  EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Add", "Relu", "Mul", "Mul"));
  EXPECT_THAT(InputsOf(model.graph(), "z"), ElementsAre("m", "a"));
  ExpectFullCheckPasses(model);
}

TEST(CleanupOptions, EachOptionAloneDoesOnlyItsCleanup) {
  {
    onnx::ModelProto model = Parse(kAllThree);
    const CleanupCounts counts = Clean(model, Only(&CleanupOptions::merge_initializers));
    EXPECT_EQ(counts.initializers_merged, 1);
    EXPECT_EQ(counts.noop_casts_removed + counts.common_subexpressions_removed, 0);
    EXPECT_THAT(OpTypes(model.graph()),
                ElementsAre("Cast", "Add", "Add", "Relu", "Relu", "Mul", "Mul"));
    EXPECT_THAT(InitializerNames(model), ElementsAre("w1"));
    ExpectFullCheckPasses(model);
  }
  {
    onnx::ModelProto model = Parse(kAllThree);
    const CleanupCounts counts = Clean(model, Only(&CleanupOptions::remove_noop_casts));
    EXPECT_EQ(counts.noop_casts_removed, 1);
    EXPECT_EQ(counts.initializers_merged + counts.common_subexpressions_removed, 0);
    EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Add", "Add", "Relu", "Relu", "Mul", "Mul"));
    EXPECT_THAT(InitializerNames(model), ElementsAre("w1", "w2"));
    ExpectFullCheckPasses(model);
  }
  {
    onnx::ModelProto model = Parse(kAllThree);
    const CleanupCounts counts =
        Clean(model, Only(&CleanupOptions::eliminate_common_subexpressions));
    EXPECT_EQ(counts.common_subexpressions_removed, 1);  // r2 only: a and b differ without the rest
    EXPECT_EQ(counts.initializers_merged + counts.noop_casts_removed, 0);
    EXPECT_THAT(OpTypes(model.graph()), ElementsAre("Cast", "Add", "Add", "Relu", "Mul", "Mul"));
    ExpectFullCheckPasses(model);
  }
  {
    onnx::ModelProto model = Parse(kAllThree);
    const std::string before = Serialized(model);
    const CleanupCounts counts = Clean(model, CleanupOptions{false, false, false});
    EXPECT_EQ(counts.initializers_merged + counts.noop_casts_removed +
                  counts.common_subexpressions_removed,
              0);
    EXPECT_EQ(Serialized(model), before);
  }
}

TEST(CleanupOptions, TheCleanedModelComputesWhatTheOriginalComputed) {
  const onnx::ModelProto original = Parse(kAllThree);
  onnx::ModelProto cleaned = original;
  Clean(cleaned);
  Graph graph;
  const std::map<std::string, Var> inputs = {
      {"x", graph.constant(Tensor::from_vector<float>({3.0f, -4.0f}, {2}))}};
  absl::StatusOr<std::map<std::string, Var>> want = inline_model(graph, original, inputs);
  absl::StatusOr<std::map<std::string, Var>> got = inline_model(graph, cleaned, inputs);
  ASSERT_TRUE(want.ok()) << want.status();
  ASSERT_TRUE(got.ok()) << got.status();
  std::optional<Tensor> want_z = want->at("z").value();
  std::optional<Tensor> got_z = got->at("z").value();
  ASSERT_TRUE(want_z.has_value() && got_z.has_value());
  // (3 + 1)^2 * (3 + 1) = 64; relu(-4 + 2)^2 * (-4 + 2) = -0.
  EXPECT_THAT(want_z->data<float>(), ElementsAre(64.0f, -0.0f));
  EXPECT_THAT(got_z->data<float>(), ElementsAre(64.0f, -0.0f));
}

TEST(CleanupOptions, AGraphDefiningANameTwiceIsLeftAsItIs) {
  onnx::ModelProto model = Parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2] x) => (float[2] z) {
      a = Relu(x)
      a = Relu(x)
      z = Cast<to = 1>(a)
    })");
  const std::string before = Serialized(model);
  Clean(model);
  EXPECT_EQ(Serialized(model), before);
}

TEST(CleanupOptions, AModelWithoutAGraphStaysWithout) {
  onnx::ModelProto model;
  const CleanupCounts counts = Clean(model);
  EXPECT_EQ(counts.common_subexpressions_removed, 0);
  EXPECT_FALSE(model.has_graph());
}

}  // namespace
}  // namespace graphgc
