#include "graphgc/var_type.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/check.h"

namespace graphgc {

VarType VarType::Tensor(DataType dtype, std::optional<std::vector<int64_t>> shape) {
  VarType type;
  type.kind_ = Kind::kTensor;
  type.dtype_ = dtype;
  type.shape_ = std::move(shape);
  return type;
}

VarType VarType::Sequence(VarType element) {
  VarType type;
  type.kind_ = Kind::kSequence;
  type.shape_.reset();
  type.element_ = std::make_shared<const VarType>(std::move(element));
  return type;
}

VarType VarType::Optional(VarType element) {
  VarType type = Sequence(std::move(element));
  type.kind_ = Kind::kOptional;
  return type;
}

VarType VarType::Map(DataType key, VarType value) {
  VarType type = Sequence(std::move(value));
  type.kind_ = Kind::kMap;
  type.key_ = key;
  return type;
}

const VarType& VarType::element() const {
  GRAPHGC_CHECK(element_ != nullptr, "a tensor type has no element type");
  return *element_;
}

std::string VarType::ToString() const {
  switch (kind_) {
    case Kind::kTensor:
      return absl::StrCat("tensor(", DataTypeName(dtype_), ")");
    case Kind::kSequence:
      return absl::StrCat("seq(", element_->ToString(), ")");
    case Kind::kOptional:
      return absl::StrCat("optional(", element_->ToString(), ")");
    case Kind::kMap:
      return absl::StrCat("map(", DataTypeName(key_), ",", element_->ToString(), ")");
  }
  return "";
}

std::string VarType::Key() const {
  switch (kind_) {
    case Kind::kTensor:
      return shape_.has_value() ? absl::StrCat(ToString(), "[", absl::StrJoin(*shape_, ","), "]")
                                : ToString();
    case Kind::kSequence:
      return absl::StrCat("seq(", element_->Key(), ")");
    case Kind::kOptional:
      return absl::StrCat("optional(", element_->Key(), ")");
    case Kind::kMap:
      return absl::StrCat("map(", DataTypeName(key_), ",", element_->Key(), ")");
  }
  return "";
}

}  // namespace graphgc
