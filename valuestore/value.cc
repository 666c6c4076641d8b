#include "graphgc/valuestore/value.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace graphgc {
namespace {

const std::vector<Value>& NoElements() {
  static const auto* none = new std::vector<Value>();
  return *none;
}

const Tensor& NoTensor() {
  static const auto* none = new Tensor();
  return *none;
}

}  // namespace

Value::Value(Tensor tensor) : kind_(Kind::kTensor), tensor_(std::move(tensor)) {}

Value Value::Sequence(std::vector<Value> elements) {
  Value value;
  value.kind_ = Kind::kSequence;
  value.elements_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return value;
}

Value Value::EmptyOptional() {
  Value value;
  value.kind_ = Kind::kOptional;
  return value;
}

Value Value::Optional(Value element) {
  Value value;
  value.kind_ = Kind::kOptional;
  value.elements_ = std::make_shared<const std::vector<Value>>(1, std::move(element));
  return value;
}

absl::StatusOr<Value> Value::Map(Tensor keys, Tensor values) {
  if (keys.rank() != 1 || values.rank() != 1 || keys.size() != values.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a map needs 1-D keys and values of one length, not ",
                     ShapeToString(keys.shape()), " and ", ShapeToString(values.shape())));
  }
  if (keys.dtype() != DataType::kInt64 && keys.dtype() != DataType::kString) {
    return absl::InvalidArgumentError(
        absl::StrCat("map keys are int64 or string, not ", DataTypeName(keys.dtype())));
  }
  Value value;
  value.kind_ = Kind::kMap;
  value.tensor_ = std::move(keys);
  value.map_values_ = std::move(values);
  return value;
}

const Tensor& Value::tensor() const { return kind_ == Kind::kTensor ? tensor_ : NoTensor(); }

Tensor Value::take_tensor() && { return kind_ == Kind::kTensor ? std::move(tensor_) : NoTensor(); }

const std::vector<Value>& Value::elements() const {
  return elements_ == nullptr ? NoElements() : *elements_;
}

const Tensor& Value::keys() const { return kind_ == Kind::kMap ? tensor_ : NoTensor(); }

const Tensor& Value::map_values() const { return kind_ == Kind::kMap ? map_values_ : NoTensor(); }

std::vector<Tensor> Value::tensors() const {
  switch (kind_) {
    case Kind::kTensor:
      return {tensor_};
    case Kind::kMap:
      return {tensor_, map_values_};
    case Kind::kSequence:
    case Kind::kOptional:
      break;
  }
  std::vector<Tensor> all;
  for (const Value& element : elements()) {
    std::vector<Tensor> inner = element.tensors();
    all.insert(all.end(), std::make_move_iterator(inner.begin()),
               std::make_move_iterator(inner.end()));
  }
  return all;
}

size_t Value::nbytes() const {
  size_t bytes = 0;
  for (const Tensor& tensor : tensors()) bytes += tensor.nbytes();
  return bytes;
}

std::string Value::KindName() const {
  switch (kind_) {
    case Kind::kTensor:
      return "tensor";
    case Kind::kSequence:
      return "seq";
    case Kind::kOptional:
      return "optional";
    case Kind::kMap:
      return "map";
  }
  return "value";
}

}  // namespace graphgc
