// Visiting every node of a list of nodes (a graph's, a function's) and of the bodies their graph
// attributes hold (If, Loop, Scan, at any depth): each node is visited before its bodies' nodes.
// Internal to the export module; thread-compatible.
#ifndef GRAPHGC_EXPORT_ONNX_NODE_VISITOR_H_
#define GRAPHGC_EXPORT_ONNX_NODE_VISITOR_H_

#include <functional>

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

using Nodes = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

void ForEachNode(const Nodes& nodes, const std::function<void(const onnx::NodeProto&)>& visit);
// One node, then its bodies' nodes.
void ForEachNode(const onnx::NodeProto& node,
                 const std::function<void(const onnx::NodeProto&)>& visit);

// The same, each node given to change (its bodies are visited as the visit leaves them).
void ForEachMutableNode(Nodes& nodes, const std::function<void(onnx::NodeProto&)>& visit);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_NODE_VISITOR_H_
