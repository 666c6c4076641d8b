#include "graphgc/export/onnx/graph_names.h"

namespace graphgc::internal {

std::vector<const onnx::GraphProto*> BodiesOf(const onnx::NodeProto& node) {
  std::vector<const onnx::GraphProto*> bodies;
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.has_g()) bodies.push_back(&attribute.g());
    for (const onnx::GraphProto& body : attribute.graphs()) bodies.push_back(&body);
  }
  return bodies;
}

NameSet FreeNames(const onnx::GraphProto& graph) {
  NameSet defined;
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& initializer : graph.initializer()) defined.insert(initializer.name());
  for (const auto& sparse : graph.sparse_initializer()) defined.insert(sparse.values().name());
  for (const auto& node : graph.node()) defined.insert(node.output().begin(), node.output().end());
  NameSet free;
  for (const auto& node : graph.node()) {
    for (const std::string& name : ReadNames(node)) {
      if (!name.empty() && !defined.contains(name)) free.insert(name);
    }
  }
  for (const auto& output : graph.output()) {
    if (!defined.contains(output.name())) free.insert(output.name());
  }
  return free;
}

std::vector<std::string> ReadNames(const onnx::NodeProto& node) {
  std::vector<std::string> names(node.input().begin(), node.input().end());
  for (const onnx::GraphProto* body : BodiesOf(node)) {
    for (const std::string& name : FreeNames(*body)) names.push_back(name);
  }
  return names;
}

}  // namespace graphgc::internal
