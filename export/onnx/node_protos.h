// Reading ONNX NodeProtos as the passes over models do (the fusions, the cleanups, opset
// conversion): whether a domain is ai.onnx, whether a node is a given ai.onnx op, an attribute by
// name and an INT attribute's value, the ai.onnx opset a list of imports names, and a node's
// label for messages.
// Plain functions over protos, no state; internal to the export module.
#ifndef GRAPHGC_NODE_PROTOS_H_
#define GRAPHGC_NODE_PROTOS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// "" and "ai.onnx" both name the default domain.
inline bool IsOnnxDomain(absl::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

inline bool IsOnnxOp(const onnx::NodeProto& node, absl::string_view op_type) {
  return IsOnnxDomain(node.domain()) && node.op_type() == op_type;
}

// The node's attribute named `name`; nullptr if it has none.
const onnx::AttributeProto* FindAttribute(const onnx::NodeProto& node, absl::string_view name);

// An INT attribute's value (an untyped one holding an int counts); nullopt for another type.
std::optional<int64_t> IntValue(const onnx::AttributeProto& attribute);

// The ai.onnx opset among a model's or a function's imports; 0 if none.
int64_t OnnxOpsetIn(
    const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& opset_imports);

// "Softmax node" or "Softmax node 'name'": which node a message is about.
std::string NodeLabel(const onnx::NodeProto& node);

}  // namespace graphgc::internal

#endif  // GRAPHGC_NODE_PROTOS_H_
