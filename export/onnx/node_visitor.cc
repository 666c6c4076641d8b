#include "graphgc/export/onnx/node_visitor.h"

namespace graphgc::internal {

void ForEachNode(const onnx::NodeProto& node,
                 const std::function<void(const onnx::NodeProto&)>& visit) {
  visit(node);
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.has_g()) ForEachNode(attribute.g().node(), visit);
    for (const onnx::GraphProto& body : attribute.graphs()) ForEachNode(body.node(), visit);
  }
}

void ForEachNode(const Nodes& nodes, const std::function<void(const onnx::NodeProto&)>& visit) {
  for (const onnx::NodeProto& node : nodes) ForEachNode(node, visit);
}

void ForEachMutableNode(Nodes& nodes, const std::function<void(onnx::NodeProto&)>& visit) {
  for (onnx::NodeProto& node : nodes) {
    visit(node);
    for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) ForEachMutableNode(*attribute.mutable_g()->mutable_node(), visit);
      for (onnx::GraphProto& body : *attribute.mutable_graphs()) {
        ForEachMutableNode(*body.mutable_node(), visit);
      }
    }
  }
}

}  // namespace graphgc::internal
