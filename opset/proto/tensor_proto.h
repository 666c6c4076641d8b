// Conversions between graphgc values and ONNX protos: tensors both ways, types and attributes out.
#ifndef GRAPHGC_TENSOR_PROTO_H_
#define GRAPHGC_TENSOR_PROTO_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// Writes raw_data (string_data for strings).
onnx::TensorProto ToTensorProto(const Tensor& tensor);

// raw_data's form of a non-string tensor, which external data files share: the elements' bytes,
// little-endian, except that int4, uint4 and float4e2m1 pack two elements per byte (the first in
// the low nibble; an odd count leaves the last high nibble zero) where memory holds one per byte.
bool IsPackedInRawData(DataType dtype);               // int4, uint4, float4e2m1
int64_t RawDataBytes(DataType dtype, int64_t count);  // count <= ElementCount's bound
std::string ToRawData(const Tensor& tensor);
// The tensor raw bytes describe; an error when their size is not RawDataBytes of the shape's count.
// Any non-zero bool byte is true.
absl::StatusOr<Tensor> FromRawData(DataType dtype, const Shape& shape, absl::string_view bytes);

// The tensor a TensorProto describes, from raw_data or the typed data fields (int32_data holds
// one float8 or float8e8m0 bit pattern per entry, and one packed byte of two 4-bit elements).
// Errors (never a crash): an unsupported element type, negative or absurd dims, data whose size
// does not match the dims, external data.
absl::StatusOr<Tensor> FromTensorProto(const onnx::TensorProto& proto);

// A tensor type; no shape field when the rank is unknown, dims without a value when unknown.
onnx::TypeProto ToTypeProto(DataType dtype, const std::optional<Shape>& shape);
// Any VarType: sequences, optionals and maps nest their element types.
onnx::TypeProto ToTypeProto(const VarType& type);
// The VarType of a TypeProto. Errors: no type at all, sparse tensors, element types graphgc does
// not support; `what` names the value in the message.
absl::StatusOr<VarType> FromTypeProto(const onnx::TypeProto& type, absl::string_view what);

// A graph attribute gets its type only: inference reads a body through its GraphInferencer, and
// to_onnx writes the body's GraphProto itself.
void ToAttributeProto(const Attribute& attribute, onnx::AttributeProto* proto);

}  // namespace graphgc::internal

#endif  // GRAPHGC_TENSOR_PROTO_H_
