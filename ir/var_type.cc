#include "graphgc/ir/var_type.h"

#include <ostream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc {

VarType VarType::Tensor(DataType dtype, std::optional<std::vector<int64_t>> shape) {
  VarType type;
  type.kind_ = Kind::kTensor;
  type.dtype_ = dtype;
  type.shape_ = std::move(shape);
  return type;
}

VarType VarType::TensorOfDims(DataType dtype, const std::vector<Dim>& dims) {
  std::vector<int64_t> sizes;
  std::vector<std::string> names;
  for (const Dim& dim : dims) {
    sizes.push_back(dim.size());
    names.push_back(dim.name());
  }
  return Tensor(dtype, std::move(sizes)).WithDimNames(std::move(names));
}

std::optional<std::vector<Dim>> VarType::dims() const {
  if (!shape_.has_value()) return std::nullopt;
  std::vector<Dim> dims;
  for (size_t d = 0; d < shape_->size(); ++d) {
    const bool named = d < dim_names_.size() && !dim_names_[d].empty();
    dims.push_back(named ? Dim(dim_names_[d]) : Dim((*shape_)[d]));
  }
  return dims;
}

VarType VarType::WithDimNames(std::vector<std::string> names) const {
  VarType type = *this;
  if (kind_ != Kind::kTensor || !shape_.has_value() || names.size() != shape_->size()) return type;
  bool any = false;
  for (size_t d = 0; d < names.size(); ++d) {
    if ((*shape_)[d] >= 0) names[d].clear();  // a known size needs no name
    any = any || !names[d].empty();
  }
  type.dim_names_ = any ? std::move(names) : std::vector<std::string>();
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
  if (element_ != nullptr) return *element_;
  static const VarType* const kUndefined = new VarType(Tensor(DataType::kUndefined));
  return *kUndefined;  // a tensor type has no element: asking is a mistake, never a crash
}

std::string VarType::ToString() const { return Describe(/*with_shapes=*/false); }

std::string VarType::Key() const { return Describe(/*with_shapes=*/true); }

bool operator==(const VarType& a, const VarType& b) {
  if (a.kind_ != b.kind_ || a.dtype_ != b.dtype_ || a.key_ != b.key_ || a.shape_ != b.shape_) {
    return false;
  }
  return a.kind_ == VarType::Kind::kTensor || a.element() == b.element();
}

std::ostream& operator<<(std::ostream& out, const VarType& type) {
  return out << type.Describe(/*with_shapes=*/true, /*with_names=*/true);
}

std::string VarType::Describe(bool with_shapes, bool with_names) const {
  switch (kind_) {
    case Kind::kTensor: {
      std::string text = absl::StrCat("tensor(", DataTypeName(dtype_), ")");
      if (!with_shapes || !shape_.has_value()) return text;
      std::vector<std::string> dims;
      for (size_t d = 0; d < shape_->size(); ++d) {
        const bool named = with_names && d < dim_names_.size() && !dim_names_[d].empty();
        dims.push_back(named ? dim_names_[d] : absl::StrCat((*shape_)[d]));
      }
      absl::StrAppend(&text, "[", absl::StrJoin(dims, ","), "]");
      return text;
    }
    case Kind::kSequence:
      return absl::StrCat("seq(", element_->Describe(with_shapes, with_names), ")");
    case Kind::kOptional:
      return absl::StrCat("optional(", element_->Describe(with_shapes, with_names), ")");
    case Kind::kMap:
      return absl::StrCat("map(", DataTypeName(key_), ",",
                          element_->Describe(with_shapes, with_names), ")");
  }
  return "";
}

namespace {

bool TensorHasType(const Tensor& tensor, DataType dtype,
                   const std::optional<std::vector<int64_t>>& shape) {
  if (tensor.dtype() != dtype) return false;
  if (!shape.has_value()) return true;
  if (shape->size() != tensor.shape().size()) return false;
  for (size_t i = 0; i < shape->size(); ++i) {
    if ((*shape)[i] >= 0 && (*shape)[i] != tensor.shape()[i]) return false;
  }
  return true;
}

}  // namespace

VarType CommonType(const VarType& a, const VarType& b) {
  if (a == b || a.kind() != b.kind()) return a;
  switch (a.kind()) {
    case VarType::Kind::kTensor: {
      if (a.dtype() != b.dtype()) return a;
      if (!a.shape().has_value() || !b.shape().has_value() ||
          a.shape()->size() != b.shape()->size()) {
        return VarType::Tensor(a.dtype());
      }
      std::vector<int64_t> dims = *a.shape();
      for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] != (*b.shape())[d]) dims[d] = -1;
      }
      return VarType::Tensor(a.dtype(), dims);
    }
    case VarType::Kind::kSequence:
      return VarType::Sequence(CommonType(a.element(), b.element()));
    case VarType::Kind::kOptional:
      return VarType::Optional(CommonType(a.element(), b.element()));
    case VarType::Kind::kMap:
      break;
  }
  return a;
}

bool ValueHasType(const Value& value, const VarType& type) {
  switch (value.kind()) {
    case Value::Kind::kTensor:
      return type.is_tensor() && TensorHasType(value.tensor(), type.dtype(), type.shape());
    case Value::Kind::kSequence:
    case Value::Kind::kOptional: {
      const VarType::Kind kind = value.kind() == Value::Kind::kSequence ? VarType::Kind::kSequence
                                                                        : VarType::Kind::kOptional;
      if (type.kind() != kind) return false;
      for (const Value& element : value.elements()) {
        if (!ValueHasType(element, type.element())) return false;
      }
      return true;
    }
    case Value::Kind::kMap:
      return type.kind() == VarType::Kind::kMap && value.keys().dtype() == type.key() &&
             type.element().is_tensor() && value.map_values().dtype() == type.element().dtype();
  }
  return false;
}

}  // namespace graphgc
