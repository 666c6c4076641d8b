#include "graphgc/tensor_proto.h"

#include <string>

namespace graphgc::internal {

onnx::TensorProto ToTensorProto(const Tensor& tensor) {
  onnx::TensorProto proto;
  proto.set_data_type(static_cast<int32_t>(tensor.dtype()));
  for (int64_t dim : tensor.shape()) proto.add_dims(dim);
  if (tensor.dtype() == DataType::kString) {
    for (const std::string& s : tensor.data<std::string>()) proto.add_string_data(s);
  } else {
    // raw_data is little-endian; so is every target this library builds for.
    proto.set_raw_data(static_cast<const char*>(tensor.raw_data()), tensor.nbytes());
  }
  return proto;
}

onnx::TypeProto ToTypeProto(DataType dtype, const std::optional<Shape>& shape) {
  onnx::TypeProto type;
  onnx::TypeProto::Tensor* tensor_type = type.mutable_tensor_type();
  tensor_type->set_elem_type(static_cast<int32_t>(dtype));
  if (shape.has_value()) {
    onnx::TensorShapeProto* shape_proto = tensor_type->mutable_shape();
    for (int64_t dim : *shape) {
      onnx::TensorShapeProto::Dimension* d = shape_proto->add_dim();
      if (dim >= 0) d->set_dim_value(dim);
    }
  }
  return type;
}

}  // namespace graphgc::internal
