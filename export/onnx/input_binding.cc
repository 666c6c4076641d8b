#include "graphgc/export/onnx/input_binding.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {
namespace {

std::string DescribeDim(const onnx::TensorShapeProto::Dimension& dim) {
  if (dim.has_dim_value()) return absl::StrCat(dim.dim_value());
  if (dim.has_dim_param() && !dim.dim_param().empty()) return dim.dim_param();
  return "-1";
}

std::string ElementTypeName(int32_t elem_type) {
  return std::string(DataTypeName(static_cast<DataType>(elem_type)));
}

}  // namespace

std::string DescribeDeclaredType(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: {
      std::string text =
          absl::StrCat("tensor(", ElementTypeName(type.tensor_type().elem_type()), ")");
      if (type.tensor_type().has_shape()) {
        absl::StrAppend(&text, "[",
                        absl::StrJoin(type.tensor_type().shape().dim(), ",",
                                      [](std::string* out, const auto& dim) {
                                        absl::StrAppend(out, DescribeDim(dim));
                                      }),
                        "]");
      }
      return text;
    }
    case onnx::TypeProto::kSequenceType:
      return absl::StrCat("seq(", DescribeDeclaredType(type.sequence_type().elem_type()), ")");
    case onnx::TypeProto::kOptionalType:
      return absl::StrCat("optional(", DescribeDeclaredType(type.optional_type().elem_type()), ")");
    case onnx::TypeProto::kMapType:
      return absl::StrCat("map(", ElementTypeName(type.map_type().key_type()), ",",
                          DescribeDeclaredType(type.map_type().value_type()), ")");
    default:
      return "an unsupported type";
  }
}

absl::Status InputBinder::Bind(const std::string& input, const onnx::TypeProto& declared,
                               const VarType& declared_type, const VarType& given) {
  if (given.ToString() != declared_type.ToString()) {
    return absl::InvalidArgumentError(
        absl::StrCat("inline_model: input '", input, "' is ", declared_type.ToString(),
                     " in the model but the Var given is ", given.ToString()));
  }
  const std::string why = Mismatch(input, declared, given);
  if (why.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("inline_model: input '", input, "' is ", DescribeDeclaredType(declared),
                   " in the model but the Var given is ", given.Key(), ": ", why));
}

std::string InputBinder::Mismatch(const std::string& input, const onnx::TypeProto& declared,
                                  const VarType& given) {
  switch (declared.value_case()) {
    case onnx::TypeProto::kTensorType:
      if (!declared.tensor_type().has_shape() || !given.shape().has_value()) return "";
      return ShapeMismatch(input, declared.tensor_type().shape(), *given.shape());
    case onnx::TypeProto::kSequenceType:
      return Mismatch(input, declared.sequence_type().elem_type(), given.element());
    case onnx::TypeProto::kOptionalType:
      return Mismatch(input, declared.optional_type().elem_type(), given.element());
    case onnx::TypeProto::kMapType:
      return Mismatch(input, declared.map_type().value_type(), given.element());
    default:
      return "";  // an input without a type takes anything
  }
}

std::string InputBinder::ShapeMismatch(const std::string& input,
                                       const onnx::TensorShapeProto& declared,
                                       const std::vector<int64_t>& given) {
  if (static_cast<size_t>(declared.dim_size()) != given.size()) {
    return absl::StrCat("rank ", declared.dim_size(), " declared, ", given.size(), " given");
  }
  for (int d = 0; d < declared.dim_size(); ++d) {
    const onnx::TensorShapeProto::Dimension& dim = declared.dim(d);
    const int64_t size = given[d];
    if (size < 0) continue;  // unknown until run time
    if (dim.has_dim_value()) {
      if (dim.dim_value() != size) {
        return absl::StrCat("dim ", d, " is ", dim.dim_value(), " declared, ", size, " given");
      }
      continue;
    }
    if (!dim.has_dim_param() || dim.dim_param().empty()) continue;
    auto [bound, first] = symbols_.try_emplace(dim.dim_param(), Binding{size, input});
    if (!first && bound->second.size != size) {
      return absl::StrCat("dim ", d, " is '", dim.dim_param(), "', which input '",
                          bound->second.input, "' bound to ", bound->second.size, ", but here is ",
                          size);
    }
  }
  return "";
}

}  // namespace graphgc::internal
