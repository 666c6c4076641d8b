#include "graphgc/export/onnx/node_protos.h"

#include "absl/strings/str_cat.h"

namespace graphgc::internal {

const onnx::AttributeProto* FindAttribute(const onnx::NodeProto& node, absl::string_view name) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

std::optional<int64_t> IntValue(const onnx::AttributeProto& attribute) {
  const bool untyped = attribute.type() == onnx::AttributeProto::UNDEFINED && attribute.has_i();
  if (attribute.type() != onnx::AttributeProto::INT && !untyped) return std::nullopt;
  return attribute.i();
}

int64_t OnnxOpsetIn(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opset_imports) {
  for (const onnx::OperatorSetIdProto& opset : opset_imports) {
    if (IsOnnxDomain(opset.domain())) return opset.version();
  }
  return 0;
}

std::string NodeLabel(const onnx::NodeProto& node) {
  return node.name().empty() ? absl::StrCat(node.op_type(), " node")
                             : absl::StrCat(node.op_type(), " node '", node.name(), "'");
}

}  // namespace graphgc::internal
