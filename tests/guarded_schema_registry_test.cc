// The guarded schema registry: ONNX's whole-model inference over it refuses, with an error, the
// nodes whose inference functions would crash, and infers every other node as ONNX's own
// registry does. Also the import of an older model, whose conversion runs whole-model inference
// before graphgc has looked at the model (import_fuzzer found the crash: Conv-1's inference reads
// dims past the input's for a weight of higher rank).
#include "graphgc/opset/inference/guarded_schema_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "graphgc/graphgc.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx_conformance_util.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;

void AddTensorInfo(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos,
                   const std::string& name, const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto& info = *infos.Add();
  info.set_name(name);
  onnx::TypeProto::Tensor& tensor = *info.mutable_type()->mutable_tensor_type();
  tensor.set_elem_type(onnx::TensorProto::FLOAT);
  for (const int64_t dim : dims) tensor.mutable_shape()->add_dim()->set_dim_value(dim);
}

// Y = Conv(X, W) at ai.onnx opset 6 (Conv-1), X of rank 3, W of `weight_rank`.
onnx::ModelProto Opset6Conv(int weight_rank) {
  onnx::ModelProto model;
  model.set_ir_version(3);
  model.add_opset_import()->set_version(6);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("g");
  onnx::NodeProto& conv = *graph.add_node();
  conv.set_op_type("Conv");
  conv.add_input("X");
  conv.add_input("W");
  conv.add_output("Y");
  AddTensorInfo(*graph.mutable_input(), "X", {1, 1, 5});
  AddTensorInfo(*graph.mutable_input(), "W", std::vector<int64_t>(weight_rank, 3));
  graph.add_output()->set_name("Y");
  graph.mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::FLOAT);
  return model;
}

std::string StrictInferenceError(onnx::ModelProto model, const onnx::ISchemaRegistry* registry) {
  onnx::ShapeInferenceOptions strict;
  strict.error_mode = 1;
  try {
    onnx::shape_inference::InferShapes(model, registry, strict);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(GuardedSchemaRegistryTest, RefusesANodeWhoseInferenceWouldReadPastItsShapes) {
  const std::string error = StrictInferenceError(Opset6Conv(5), internal::GuardedSchemaRegistry());
  EXPECT_THAT(error, HasSubstr("Conv (opset 1)"));
  EXPECT_THAT(error, HasSubstr("input 1 has rank 5; it must be 3"));
  // The same node with a weight of the input's rank is inferred, as ONNX infers it.
  onnx::ModelProto valid = Opset6Conv(3);
  onnx::shape_inference::InferShapes(valid, internal::GuardedSchemaRegistry());
  ASSERT_EQ(valid.graph().output(0).type().tensor_type().shape().dim_size(), 3);
  EXPECT_EQ(valid.graph().output(0).type().tensor_type().shape().dim(2).dim_value(), 3);
}

TEST(GuardedSchemaRegistryTest, RefusesAnAttributeOfTheWrongType) {
  onnx::ModelProto model = Opset6Conv(3);
  onnx::AttributeProto& strides = *model.mutable_graph()->mutable_node(0)->add_attribute();
  strides.set_name("strides");
  strides.set_type(onnx::AttributeProto::INT);
  strides.set_i(2);
  EXPECT_THAT(StrictInferenceError(model, internal::GuardedSchemaRegistry()),
              HasSubstr("attribute 'strides' must be INTS, not INT"));
}

TEST(GuardedSchemaRegistryTest, AnOlderModelThatWouldCrashOnnxsInferenceIsRefused) {
  const onnx::ModelProto model = Opset6Conv(5);
  Graph g;
  auto imported = import_model(g, model);  // converted to the newest opset by default
  ASSERT_FALSE(imported.ok());
  EXPECT_THAT(imported.status().message(), HasSubstr("input 1 has rank 5; it must be 3"));
  FoldOptions fold_options;
  fold_options.opset = 18;
  auto folded = fold(model, fold_options);
  ASSERT_FALSE(folded.ok());
  EXPECT_THAT(folded.status().message(), HasSubstr("input 1 has rank 5; it must be 3"));
}

// Inference names each unknown dim it makes "unk__<n>", n counting up in the order of inference:
// which node infers first is not what the registries are compared on.
void ForgetGeneratedNames(onnx::TypeProto& type) {
  if (type.has_sequence_type())
    ForgetGeneratedNames(*type.mutable_sequence_type()->mutable_elem_type());
  if (type.has_optional_type())
    ForgetGeneratedNames(*type.mutable_optional_type()->mutable_elem_type());
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return;
  for (auto& dim : *type.mutable_tensor_type()->mutable_shape()->mutable_dim()) {
    if (dim.has_dim_param() && absl::StartsWith(dim.dim_param(), "unk__")) dim.set_dim_param("unk");
  }
}

// Every output and value_info type of `model` after whole-model inference over `registry`.
std::map<std::string, std::string> InferredTypes(onnx::ModelProto model,
                                                 const onnx::ISchemaRegistry* registry) {
  try {
    onnx::shape_inference::InferShapes(model, registry);
  } catch (const std::exception& e) {
    return {{"<error>", e.what()}};
  }
  std::map<std::string, std::string> types;
  for (auto* infos :
       {model.mutable_graph()->mutable_output(), model.mutable_graph()->mutable_value_info()}) {
    for (onnx::ValueInfoProto& info : *infos) {
      ForgetGeneratedNames(*info.mutable_type());
      types[info.name()] = info.type().SerializeAsString();
    }
  }
  return types;
}

// ONNX's node suite: what the guards leave to ONNX's functions is inferred alike, node for node.
TEST(GuardedSchemaRegistryTest, InfersTheNodeSuiteAsOnnxsRegistryDoes) {
  const std::vector<std::string> dirs =
      onnx_conformance::ListTestDirs(onnx_conformance::NewestSuiteDir());
  ASSERT_GT(dirs.size(), 1500u) << "the ONNX 1.19 node suite (tools/build-onnx installs it)";
  std::vector<std::string> different;
  for (const std::string& dir : dirs) {
    onnx::ModelProto model;
    ASSERT_TRUE(onnx_conformance::ParseFile(std::filesystem::path(dir) / "model.onnx", &model));
    // What the node's declared types say is dropped, so that inference alone types them.
    model.mutable_graph()->clear_value_info();
    for (onnx::ValueInfoProto& output : *model.mutable_graph()->mutable_output()) {
      output.clear_type();
    }
    if (InferredTypes(model, onnx::OpSchemaRegistry::Instance()) !=
        InferredTypes(model, internal::GuardedSchemaRegistry())) {
      different.push_back(std::filesystem::path(dir).filename().string());
    }
  }
  EXPECT_THAT(different, ::testing::IsEmpty());
}

}  // namespace
}  // namespace graphgc
