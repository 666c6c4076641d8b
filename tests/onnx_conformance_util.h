// Helpers shared by the ONNX conformance tests (onnx_node_data_test, ops_without_node_data_test):
// where ONNX's backend node test data lives, reading it, and checking an exported model against
// ONNX's own strict shape inference.
#ifndef GRAPHGC_TESTS_ONNX_CONFORMANCE_UTIL_H_
#define GRAPHGC_TESTS_ONNX_CONFORMANCE_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

namespace onnx_conformance {

using Dims = std::vector<int64_t>;

inline constexpr char kDefaultDataDir[] = "/usr/share/libonnx-testdata/data/node";
// ONNX 1.12 ships 932 node tests; far fewer means the data is not what the tests expect.
inline constexpr size_t kMinimumTestCount = 900;

// ONNX's backend node test data: GRAPHGC_ONNX_NODE_DATA, or where libonnx-testdata installs it.
inline std::filesystem::path DataDir() {
  const char* env = std::getenv("GRAPHGC_ONNX_NODE_DATA");
  return std::filesystem::path(env != nullptr && *env != '\0' ? env : kDefaultDataDir);
}

// The node suite of the ONNX release graphgc builds against (1.19.1: 1,615 cases, opsets up to
// 24), installed by tools/build-onnx; ONNX 1.12's stays the default DataDir.
inline std::filesystem::path NewestSuiteDir() {
#ifdef GRAPHGC_ONNX_NODE_SUITE
  return std::filesystem::path(GRAPHGC_ONNX_NODE_SUITE);
#else
  return {};
#endif
}

// The test directories (those holding a model.onnx) under `root`, sorted; empty if the data is
// missing.
inline std::vector<std::string> ListTestDirs(const std::filesystem::path& root = DataDir()) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  std::error_code error;
  if (!fs::is_directory(root, error)) return dirs;
  for (const fs::directory_entry& entry : fs::directory_iterator(root, error)) {
    if (entry.is_directory(error) && fs::exists(entry.path() / "model.onnx", error)) {
      dirs.push_back(entry.path().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

template <class Proto>
bool ParseFile(const std::filesystem::path& path, Proto* proto) {
  std::ifstream in(path, std::ios::binary);
  return in && proto->ParseFromIstream(&in);
}

inline std::string ElemTypeName(int32_t code) {
  const std::string& name = onnx::TensorProto::DataType_Name(code);
  return name.empty() ? absl::StrCat(code) : name;
}

// The model's inputs that are not initializers, bound in order to test_data_set_0's input_<i>.pb
// under `dir` (as far as those files go), as constants of `graph`.
inline std::map<std::string, graphgc::Var> BindTestInputs(const onnx::ModelProto& model,
                                                          const std::filesystem::path& dir,
                                                          graphgc::Graph& graph) {
  std::set<std::string> initializers;
  for (const onnx::TensorProto& initializer : model.graph().initializer()) {
    initializers.insert(initializer.name());
  }
  std::map<std::string, graphgc::Var> inputs;
  int next = 0;
  for (const onnx::ValueInfoProto& input : model.graph().input()) {
    if (initializers.count(input.name()) > 0) continue;
    absl::StatusOr<graphgc::Tensor> value = graphgc::load_tensor(
        (dir / "test_data_set_0" / absl::StrCat("input_", next++, ".pb")).string());
    if (!value.ok()) break;
    inputs[input.name()] = graph.constant(*value);
  }
  return inputs;
}

// "ai.onnx" and "" name the same domain; "" is the canonical spelling.
inline std::string NormalizedDomain(const std::string& domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

inline std::string DimsToString(const Dims& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// The dims of a tensor type (-1 where unknown); nullopt without a shape (unknown rank).
inline std::optional<Dims> TypeDims(const onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return std::nullopt;
  Dims dims;
  for (const onnx::TensorShapeProto::Dimension& dim : type.tensor_type().shape().dim()) {
    dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
  }
  return dims;
}

inline std::string TypeToString(const onnx::TypeProto& type) {
  if (!type.has_tensor_type()) return "no tensor type";
  const std::optional<Dims> dims = TypeDims(type);
  return absl::StrCat(ElemTypeName(type.tensor_type().elem_type()), " ",
                      dims.has_value() ? DimsToString(*dims) : std::string("(unknown rank)"));
}

// ONNX's inferred type for an output agrees with the var ("" if so).
inline std::string CompareWithOnnx(const onnx::TypeProto& type, const graphgc::Var& var) {
  if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) return "";  // ONNX infers nothing
  if (!type.has_tensor_type() || !var.type().is_tensor()) {            // sequences, optionals, maps
    absl::StatusOr<graphgc::VarType> onnx_type = graphgc::internal::FromTypeProto(type, "output");
    if (!onnx_type.ok()) return std::string(onnx_type.status().message());
    if (onnx_type->ToString() != var.type().ToString()) {
      return absl::StrCat("ONNX infers ", onnx_type->ToString(), ", graphgc has ",
                          var.type().ToString());
    }
    return "";
  }
  const onnx::TypeProto::Tensor& tensor = type.tensor_type();
  if (tensor.elem_type() != 0 && tensor.elem_type() != static_cast<int32_t>(var.dtype())) {
    return absl::StrCat("ONNX infers element type ", ElemTypeName(tensor.elem_type()),
                        ", graphgc has ", graphgc::DataTypeName(var.dtype()));
  }
  const std::optional<Dims> shape = var.shape();
  if (!shape.has_value() || !tensor.has_shape()) return "";
  if (tensor.shape().dim_size() != static_cast<int>(shape->size())) {
    return absl::StrCat("ONNX infers rank ", tensor.shape().dim_size(), ", graphgc has shape ",
                        DimsToString(*shape));
  }
  for (size_t i = 0; i < shape->size(); ++i) {
    const onnx::TensorShapeProto::Dimension& dim = tensor.shape().dim(static_cast<int>(i));
    if ((*shape)[i] >= 0 && dim.has_dim_value() && dim.dim_value() != (*shape)[i]) {
      return absl::StrCat("ONNX infers ", dim.dim_value(), " for dimension ", i,
                          ", graphgc has shape ", DimsToString(*shape));
    }
  }
  return "";
}

// The options of ONNX's strict shape inference: type errors and inference errors throw.
inline onnx::ShapeInferenceOptions StrictInference() {
  onnx::ShapeInferenceOptions strict;
  strict.check_type = true;
  strict.error_mode = 1;
  return strict;
}

// `model` without the types inference gives: no value_info, graph outputs untyped, except for the
// values named in `keep` (those ONNX cannot infer: outputs of schemas without an inference
// function). ONNX's inference on it infers every other type itself.
inline onnx::ModelProto WithoutInferredTypes(const onnx::ModelProto& model,
                                             const std::set<std::string>& keep = {}) {
  onnx::ModelProto bare = model;
  onnx::GraphProto* graph = bare.mutable_graph();
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const onnx::ValueInfoProto& info : graph->value_info()) {
    if (keep.count(info.name()) > 0) *kept.Add() = info;
  }
  graph->mutable_value_info()->Swap(&kept);
  for (onnx::ValueInfoProto& output : *graph->mutable_output()) {
    if (keep.count(output.name()) == 0) output.clear_type();
  }
  return bare;
}

// Strict ONNX shape inference on the exported model: as exported (graphgc's types must not
// contradict ONNX's), then with every inferred type removed, comparing ONNX's output types with
// the vars'. Returns the errors. The types of values named in `keep` stay as exported (see
// WithoutInferredTypes); `inferred`, if given, receives the model as ONNX inferred it without
// graphgc's other types (its value_info holds ONNX's type of every intermediate value).
inline std::vector<std::string> CheckOnnxInference(const onnx::ModelProto& model,
                                                   const graphgc::NamedVars& outputs,
                                                   const std::set<std::string>& keep = {},
                                                   onnx::ModelProto* inferred = nullptr) {
  std::vector<std::string> errors;
  const onnx::ShapeInferenceOptions strict = StrictInference();
  {
    onnx::ModelProto as_exported = model;
    try {
      onnx::shape_inference::InferShapes(as_exported, onnx::OpSchemaRegistry::Instance(), strict);
    } catch (const std::exception& e) {
      errors.push_back(absl::StrCat("ONNX shape inference rejects the exported types: ", e.what()));
    }
  }
  onnx::ModelProto bare = WithoutInferredTypes(model, keep);
  try {
    onnx::shape_inference::InferShapes(bare, onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception& e) {
    errors.push_back(absl::StrCat("ONNX shape inference fails on the exported model: ", e.what()));
    return errors;
  }
  if (inferred != nullptr) *inferred = bare;
  if (bare.graph().output_size() != static_cast<int>(outputs.size())) {
    errors.push_back(absl::StrCat("the export has ", bare.graph().output_size(), " outputs, not ",
                                  outputs.size()));
    return errors;
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const onnx::ValueInfoProto& output = bare.graph().output(static_cast<int>(i));
    const std::string error = CompareWithOnnx(output.type(), outputs[i].second);
    if (!error.empty()) errors.push_back(absl::StrCat("output '", output.name(), "': ", error));
  }
  return errors;
}

}  // namespace onnx_conformance

#endif  // GRAPHGC_TESTS_ONNX_CONFORMANCE_UTIL_H_
