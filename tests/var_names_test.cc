// Var names: Var::set_name and Graph::name name a var in every export of it; names stay unique in
// the graph (a clash is a status), and outputs and arguments keep theirs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;
using ::testing::Optional;

bool ProducesName(const onnx::ModelProto& model, const std::string& name) {
  for (const auto& node : model.graph().node()) {
    for (const auto& output : node.output()) {
      if (output == name) return true;
    }
  }
  return false;
}

TEST(VarNamesTest, ANamedVarKeepsItsNameInTheExport) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {-1, 4});
  Var w = g.constant(Tensor::zeros(DataType::kFloat, {4, 3}));
  Var logits = op::MatMul(x, w);
  ASSERT_TRUE(logits.set_name("logits").ok());
  Var hidden = op::Relu(logits);
  ASSERT_TRUE(g.name(hidden, "hidden").ok());
  EXPECT_THAT(logits.name(), Optional(std::string("logits")));
  EXPECT_THAT(x.name(), Optional(std::string("x")));
  EXPECT_EQ(op::Neg(x).name(), std::nullopt);

  auto model = to_onnx(g, {{"probabilities", op::Softmax(hidden)}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(ProducesName(*model, "logits"));
  EXPECT_TRUE(ProducesName(*model, "hidden"));
  EXPECT_TRUE(ProducesName(*model, "probabilities"));
  auto bytes = to_onnx_bytes(g, {{"probabilities", op::Softmax(hidden)}});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_NE(bytes->find("logits"), std::string::npos);

  // An output's name wins over the var's own.
  auto as_output = to_onnx(g, {{"scores", logits}});
  ASSERT_TRUE(as_output.ok()) << as_output.status();
  EXPECT_EQ(as_output->graph().output(0).name(), "scores");
  EXPECT_FALSE(ProducesName(*as_output, "logits"));
  // Renaming gives the old name back.
  ASSERT_TRUE(logits.set_name("scores_before_relu").ok());
  EXPECT_TRUE(op::Neg(x).set_name("logits").ok());
}

TEST(VarNamesTest, ClashesAreStatuses) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  Var a = op::Neg(x);
  Var b = op::Abs(x);
  ASSERT_TRUE(a.set_name("a").ok());
  const absl::Status taken = b.set_name("a");
  EXPECT_THAT(taken.message(),
              HasSubstr("naming a var 'a': another var of the graph has that name"));
  EXPECT_THAT(b.set_name("x").message(), HasSubstr("an argument of the graph has that name"));
  EXPECT_THAT(x.set_name("y").message(), HasSubstr("it is an argument, named 'x'"));
  EXPECT_THAT(b.set_name("").message(), HasSubstr("the name is empty"));
  EXPECT_TRUE(a.set_name("a").ok());  // its own name again
  Var argument = g.argument("a", DataType::kFloat, {2});
  EXPECT_FALSE(argument.ok());
  EXPECT_THAT(argument.status().message(), HasSubstr("a var of the graph has this name"));

  Graph other;
  EXPECT_THAT(other.name(a, "z").message(), HasSubstr("belongs to another Graph"));
  Var failed = op::Add(x, other.constant(Tensor::scalar<float>(1)));
  EXPECT_FALSE(failed.set_name("f").ok());
  EXPECT_FALSE(g.name(failed, "f").ok());

  // An output named like another var the model uses is an error; like one it does not use, not.
  auto clash = to_onnx(g, {{"a", op::Relu(b)}, {"uses_a", a}});
  EXPECT_TRUE(clash.ok()) << clash.status();  // a is the output "uses_a": its own name is unused
  auto real_clash = to_onnx(g, {{"a", op::Relu(a)}});
  ASSERT_FALSE(real_clash.ok());
  EXPECT_THAT(real_clash.status().message(),
              HasSubstr("output name 'a' is the name given to another var the model uses"));
  EXPECT_TRUE(to_onnx(g, {{"a", op::Relu(b)}}).ok());
}

}  // namespace
}  // namespace graphgc
