#include "graphgc/export/onnx/symbolic_dims.h"

#include <exception>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "graphgc/opset/inference/guarded_schema_registry.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc::internal {
namespace {

using InferredTypes = absl::flat_hash_map<std::string, const onnx::TypeProto*>;

void Gather(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos,
            InferredTypes& types) {
  for (const onnx::ValueInfoProto& info : infos) types.try_emplace(info.name(), &info.type());
}

bool IsUnknown(const onnx::TensorShapeProto::Dimension& dim) {
  return !dim.has_dim_value() && (!dim.has_dim_param() || dim.dim_param().empty());
}

void Merge(const onnx::TypeProto& inferred, onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !inferred.has_tensor_type() || !type.tensor_type().has_shape() ||
      !inferred.tensor_type().has_shape()) {
    return;
  }
  onnx::TensorShapeProto& shape = *type.mutable_tensor_type()->mutable_shape();
  const onnx::TensorShapeProto& found = inferred.tensor_type().shape();
  if (shape.dim_size() != found.dim_size()) return;
  for (int d = 0; d < shape.dim_size(); ++d) {
    const onnx::TensorShapeProto::Dimension& from = found.dim(d);
    if (IsUnknown(shape.dim(d)) && from.has_dim_param() && !from.dim_param().empty()) {
      shape.mutable_dim(d)->set_dim_param(from.dim_param());
    }
  }
}

void MergeAll(const InferredTypes& inferred,
              google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos) {
  for (onnx::ValueInfoProto& info : infos) {
    auto it = inferred.find(info.name());
    if (it != inferred.end()) Merge(*it->second, *info.mutable_type());
  }
}

}  // namespace

void NameDims(const Arena& arena, const std::vector<StringId>& names, onnx::TypeProto& type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape()) return;
  onnx::TensorShapeProto& shape = *type.mutable_tensor_type()->mutable_shape();
  for (int d = 0; d < shape.dim_size() && static_cast<size_t>(d) < names.size(); ++d) {
    if (!names[d].valid()) continue;
    shape.mutable_dim(d)->set_dim_param(std::string(arena.string(names[d])));
  }
}

void CarrySymbolicDims(onnx::ModelProto& model) {
  onnx::ModelProto inferred = model;
  // Inference sees the inputs' dim_params only where the value_info leaves the dims unknown.
  inferred.mutable_graph()->clear_value_info();
  try {
    onnx::shape_inference::InferShapes(inferred, GuardedSchemaRegistry());
  } catch (const std::exception&) {
    return;  // the names are a courtesy: the model is valid without them
  }
  InferredTypes types;
  Gather(inferred.graph().value_info(), types);
  Gather(inferred.graph().output(), types);
  MergeAll(types, *model.mutable_graph()->mutable_value_info());
  MergeAll(types, *model.mutable_graph()->mutable_output());
}

}  // namespace graphgc::internal
