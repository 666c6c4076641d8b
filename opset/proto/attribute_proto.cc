#include "graphgc/opset/proto/attribute_proto.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/proto/tensor_proto.h"

namespace graphgc::internal {
namespace {

std::string TypeName(const onnx::AttributeProto& proto) {
  const std::string& name = onnx::AttributeProto::AttributeType_Name(proto.type());
  return name.empty() ? absl::StrCat("type ", static_cast<int>(proto.type())) : name;
}

}  // namespace

absl::StatusOr<Attribute> FromAttributeProto(const onnx::AttributeProto& proto) {
  if (!proto.ref_attr_name().empty()) {
    return absl::UnimplementedError(absl::StrCat("attribute '", proto.name(),
                                                 "': a reference to the function attribute '",
                                                 proto.ref_attr_name(), "' is not supported"));
  }
  Attribute attribute;
  attribute.name = proto.name();
  switch (proto.type()) {
    case onnx::AttributeProto::INT:
      attribute.value = static_cast<int64_t>(proto.i());
      return attribute;
    case onnx::AttributeProto::FLOAT:
      attribute.value = proto.f();
      return attribute;
    case onnx::AttributeProto::STRING:
      attribute.value = proto.s();
      return attribute;
    case onnx::AttributeProto::TENSOR: {
      absl::StatusOr<Tensor> tensor = FromTensorProto(proto.t());
      if (!tensor.ok()) {
        return absl::Status(tensor.status().code(), absl::StrCat("attribute '", proto.name(),
                                                                 "': ", tensor.status().message()));
      }
      attribute.value = *std::move(tensor);
      return attribute;
    }
    case onnx::AttributeProto::INTS:
      attribute.value = std::vector<int64_t>(proto.ints().begin(), proto.ints().end());
      return attribute;
    case onnx::AttributeProto::FLOATS:
      attribute.value = std::vector<float>(proto.floats().begin(), proto.floats().end());
      return attribute;
    case onnx::AttributeProto::STRINGS:
      attribute.value = std::vector<std::string>(proto.strings().begin(), proto.strings().end());
      return attribute;
    case onnx::AttributeProto::TYPE_PROTO: {
      absl::StatusOr<VarType> type =
          FromTypeProto(proto.tp(), absl::StrCat("attribute '", proto.name(), "'"));
      if (!type.ok()) return type.status();
      attribute.value = *std::move(type);
      return attribute;
    }
    case onnx::AttributeProto::UNDEFINED:
      return absl::InvalidArgumentError(
          absl::StrCat("attribute '", proto.name(), "' has no type (UNDEFINED)"));
    default:
      break;
  }
  return absl::UnimplementedError(absl::StrCat("attribute '", proto.name(), "' has type ",
                                               TypeName(proto),
                                               ", which graphgc does not support"));
}

}  // namespace graphgc::internal
