#include "graphgc/export/onnx/node_protos.h"

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

}  // namespace graphgc::internal
