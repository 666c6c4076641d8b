#include "graphgc/export/onnx/tensor_files.h"

#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {

absl::StatusOr<onnx::TensorProto> to_tensor_proto(const Tensor& tensor, absl::string_view name) {
  if (tensor.dtype() == DataType::kUndefined) {
    return absl::InvalidArgumentError(
        "to_tensor_proto: the tensor is empty (dtype undefined), a tensor whose creation failed");
  }
  onnx::TensorProto proto = internal::ToTensorProto(tensor);
  if (!name.empty()) proto.set_name(std::string(name));
  return proto;
}

absl::StatusOr<Tensor> from_tensor_proto(const onnx::TensorProto& proto) {
  absl::StatusOr<Tensor> tensor = internal::FromTensorProto(proto);
  if (!tensor.ok()) {
    return absl::Status(tensor.status().code(),
                        absl::StrCat("from_tensor_proto: ", tensor.status().message()));
  }
  return tensor;
}

absl::StatusOr<Tensor> load_tensor(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("load_tensor: cannot open '", path, "'"));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return absl::DataLossError(absl::StrCat("load_tensor: cannot read '", path, "'"));
  onnx::TensorProto proto;
  if (!proto.ParseFromString(bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat("load_tensor: '", path, "' is not a serialized TensorProto"));
  }
  absl::StatusOr<Tensor> tensor = internal::FromTensorProto(proto);
  if (!tensor.ok()) {
    return absl::Status(tensor.status().code(),
                        absl::StrCat("load_tensor: '", path, "': ", tensor.status().message()));
  }
  return tensor;
}

absl::Status save_tensor(const Tensor& tensor, const std::string& path, absl::string_view name) {
  absl::StatusOr<onnx::TensorProto> proto = to_tensor_proto(tensor, name);
  if (!proto.ok()) {
    return absl::Status(proto.status().code(),
                        absl::StrCat("save_tensor: ", proto.status().message()));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::UnavailableError(absl::StrCat("save_tensor: cannot open '", path, "'"));
  if (!proto->SerializeToOstream(&out) || !out.flush()) {
    return absl::DataLossError(absl::StrCat("save_tensor: cannot write '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace graphgc
