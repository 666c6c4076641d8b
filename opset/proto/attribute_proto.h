// Conversion of ONNX AttributeProtos to graphgc::Attribute values (the inverse of the attribute
// export in to_onnx.cc).
//
// Supported attribute types: INT, FLOAT, STRING, TENSOR (through FromTensorProto), INTS, FLOATS,
// STRINGS, TYPE_PROTO (a VarType). GRAPH needs the graph it is built in (graph_inliner.h builds
// bodies); the others (GRAPHS, SPARSE_TENSOR, SPARSE_TENSORS, TENSORS, TYPE_PROTOS) have no
// graphgc::AttributeValue. Those give an Unimplemented status naming the attribute and its type;
// so does a reference to a function's attribute (ref_attr_name). Errors never throw.
// Threading: a pure function.
#ifndef GRAPHGC_OPSET_ATTRIBUTE_PROTO_H_
#define GRAPHGC_OPSET_ATTRIBUTE_PROTO_H_

#include "absl/status/statusor.h"
#include "graphgc/ir/attribute.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The attribute `proto` describes. Errors, each naming the attribute: an unsupported attribute type
// or a ref_attr_name (Unimplemented), an UNDEFINED type (InvalidArgument), a tensor that
// FromTensorProto rejects (its status code and message).
absl::StatusOr<Attribute> FromAttributeProto(const onnx::AttributeProto& proto);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_ATTRIBUTE_PROTO_H_
