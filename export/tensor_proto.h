// Conversions between graphgc::Tensor and onnx::TensorProto, and graphgc types to ONNX TypeProtos.
#ifndef GRAPHGC_TENSOR_PROTO_H_
#define GRAPHGC_TENSOR_PROTO_H_

#include <optional>

#include "graphgc/data_type.h"
#include "graphgc/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

onnx::TensorProto ToTensorProto(const Tensor& tensor);

// A tensor type; no shape field when the rank is unknown, dims without a value when unknown.
onnx::TypeProto ToTypeProto(DataType dtype, const std::optional<Shape>& shape);

}  // namespace graphgc::internal

#endif  // GRAPHGC_TENSOR_PROTO_H_
