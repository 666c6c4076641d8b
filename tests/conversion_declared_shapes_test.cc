// Declared shapes are claims nothing checks, and ONNX's version converter reads the shapes it is
// given unchecked (its Gemm 6 to 7 adapter reads A's dim 0 whatever A's rank). So the import
// hands it only the types graphgc inferred or checked (export/onnx/opset_conversion.h). This
// holds that to every model of ONNX's test data: each is imported (and so converted to the newest
// opset) with its test inputs bound, then again with every declared shape graphgc does not take
// as given — graph outputs, value_info, bodies' inputs and outputs, the inputs of initializers —
// replaced by a wrong one: none, a scalar's, [1] and a rank-5 one. Such an import must not crash
// (a crash ends this test), and where both imports give an output a value, the values must be
// the same: a declared shape must never change what a model computes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "onnx_conformance_util.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;

// A wrong shape: nullopt takes the shape away.
using WrongShape = std::optional<std::vector<int64_t>>;

void SetShape(onnx::TypeProto& type, const WrongShape& shape) {
  onnx::TypeProto::Tensor* tensor = nullptr;
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      tensor = type.mutable_tensor_type();
      break;
    case onnx::TypeProto::kSequenceType:
      if (type.sequence_type().has_elem_type()) {
        SetShape(*type.mutable_sequence_type()->mutable_elem_type(), shape);
      }
      return;
    case onnx::TypeProto::kOptionalType:
      if (type.optional_type().has_elem_type()) {
        SetShape(*type.mutable_optional_type()->mutable_elem_type(), shape);
      }
      return;
    default:
      return;
  }
  tensor->clear_shape();
  if (!shape.has_value()) return;
  onnx::TensorShapeProto& dims = *tensor->mutable_shape();
  for (int64_t dim : *shape) dims.add_dim()->set_dim_value(dim);
}

void SetShapes(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos,
               const WrongShape& shape) {
  for (onnx::ValueInfoProto& info : infos) {
    if (info.has_type()) SetShape(*info.mutable_type(), shape);
  }
}

void SetBodyShapes(onnx::GraphProto& graph, const WrongShape& shape) {
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
      std::vector<onnx::GraphProto*> bodies;
      if (attribute.has_g()) bodies.push_back(attribute.mutable_g());
      for (onnx::GraphProto& body : *attribute.mutable_graphs()) bodies.push_back(&body);
      for (onnx::GraphProto* body : bodies) {
        SetShapes(*body->mutable_input(), shape);
        SetShapes(*body->mutable_output(), shape);
        SetShapes(*body->mutable_value_info(), shape);
        SetBodyShapes(*body, shape);
      }
    }
  }
}

// `model` with every declared shape the import does not take as given replaced by `shape`; the
// main graph's inputs that are not initializers keep theirs (they type the arguments).
onnx::ModelProto WithWrongShapes(onnx::ModelProto model, const WrongShape& shape) {
  onnx::GraphProto& graph = *model.mutable_graph();
  SetShapes(*graph.mutable_output(), shape);
  SetShapes(*graph.mutable_value_info(), shape);
  SetBodyShapes(graph, shape);
  std::vector<std::string> initializers;
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    initializers.push_back(initializer.name());
  }
  for (onnx::ValueInfoProto& input : *graph.mutable_input()) {
    const bool is_initializer =
        std::find(initializers.begin(), initializers.end(), input.name()) != initializers.end();
    if (is_initializer && input.has_type()) SetShape(*input.mutable_type(), shape);
  }
  return model;
}

// The outputs' values of `model` imported with test_data_set_0's inputs; nullopt when the import
// fails (a refusal is allowed; only a crash or another value is not).
std::optional<std::map<std::string, std::optional<Tensor>>> Import(const onnx::ModelProto& model,
                                                                   const fs::path& dir) {
  Graph g;
  const std::map<std::string, Var> inputs = onnx_conformance::BindTestInputs(model, dir, g);
  auto imported = import_model(g, model, inputs);
  if (!imported.ok()) return std::nullopt;
  std::map<std::string, std::optional<Tensor>> values;
  for (const auto& [name, var] : imported->outputs) values[name] = var.value();
  return values;
}

struct Tally {
  int models = 0;
  int imports = 0;
  int compared = 0;
};

void CheckModel(const fs::path& dir, Tally& tally) {
  absl::StatusOr<onnx::ModelProto> model = load_model((dir / "model.onnx").string());
  if (!model.ok()) return;  // the conformance tests account for the suites' unreadable models
  ++tally.models;
  const auto expected = Import(*model, dir);
  ++tally.imports;
  const std::vector<WrongShape> wrong = {std::nullopt, std::vector<int64_t>{},
                                         std::vector<int64_t>{1},
                                         std::vector<int64_t>{2, 2, 2, 2, 2}};
  for (size_t w = 0; w < wrong.size(); ++w) {
    const auto actual = Import(WithWrongShapes(*model, wrong[w]), dir);
    ++tally.imports;
    if (!expected.has_value() || !actual.has_value()) continue;
    for (const auto& [name, value] : *expected) {
      auto it = actual->find(name);
      if (!value.has_value() || it == actual->end() || !it->second.has_value()) continue;
      ++tally.compared;
      EXPECT_TRUE(*value == *it->second) << dir.filename().string() << ": output '" << name
                                         << "' changes with wrong shape " << w << " declared";
    }
  }
}

Tally CheckSuite(const fs::path& suite) {
  Tally tally;
  for (const std::string& dir : onnx_conformance::ListTestDirs(suite)) CheckModel(dir, tally);
  return tally;
}

const fs::path kDebianData = "/usr/share/libonnx-testdata/data";

TEST(ConversionDeclaredShapesTest, OlderPyTorchModels) {
  for (const char* suite : {"pytorch-converted", "pytorch-operator", "simple"}) {
    const Tally tally = CheckSuite(kDebianData / suite);
    EXPECT_GT(tally.models, 20) << suite << " (tools/bootstrap installs libonnx-testdata)";
    EXPECT_GT(tally.compared, tally.models) << suite;
  }
}

TEST(ConversionDeclaredShapesTest, NodeCasesOfOnnx112) {
  const Tally tally = CheckSuite(kDebianData / "node");
  EXPECT_GT(tally.models, 900);
  EXPECT_GT(tally.compared, 3 * tally.models);
}

TEST(ConversionDeclaredShapesTest, NodeCasesOfOnnx119) {
  const Tally tally = CheckSuite(GRAPHGC_ONNX_NODE_SUITE);
  EXPECT_GT(tally.models, 1500);
  EXPECT_GT(tally.compared, 3 * tally.models);
}

}  // namespace
}  // namespace graphgc
