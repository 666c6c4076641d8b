// Value: a propagated value of any ONNX type — a tensor, a sequence of values, an optional (empty
// or holding one value), or a map (ai.onnx.ml: integer or string keys, one scalar value each).
//
//   Value t = Tensor::scalar<float>(1.0f);                       // a tensor is a value
//   Value s = Value::Sequence({Tensor::scalar<float>(1.0f), t.tensor()});
//   Value none = Value::EmptyOptional();
//
// A Value does not record its element type: an empty sequence or an empty optional takes it from
// the var it belongs to (Var::type()). Ownership: an immutable handle; copies share the elements
// and the tensors' buffers. Threading: may be copied and read from any thread.
#ifndef GRAPHGC_VALUE_H_
#define GRAPHGC_VALUE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {

class Value {
 public:
  enum class Kind : uint8_t { kTensor, kSequence, kOptional, kMap };

  Value(Tensor tensor);  // NOLINT(google-explicit-constructor): every tensor is a value
  static Value Sequence(std::vector<Value> elements);
  static Value EmptyOptional();
  static Value Optional(Value element);
  // A map of keys[i] -> values[i]; both 1-D of one length, keys int64 or string (checked).
  static absl::StatusOr<Value> Map(Tensor keys, Tensor values);

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  // The tensor of a kTensor value; for the other kinds the empty tensor (dtype kUndefined).
  const Tensor& tensor() const;
  // The same, moved out of a value about to go (no copy of the shape).
  Tensor take_tensor() &&;
  // A sequence's elements; an optional's element, if it has one (zero or one entries); none for
  // a tensor or a map.
  const std::vector<Value>& elements() const;
  bool has_element() const { return kind_ == Kind::kOptional && !elements().empty(); }
  // A map's keys and values (the empty tensor for the other kinds).
  const Tensor& keys() const;
  const Tensor& map_values() const;

  // Every tensor inside, in order (a map gives its keys, then its values).
  std::vector<Tensor> tensors() const;
  // Bytes of the tensors inside (each counted where it appears).
  size_t nbytes() const;
  // "tensor", "seq", "optional", "map": for messages.
  std::string KindName() const;

 private:
  Value() = default;

  Kind kind_ = Kind::kTensor;
  Tensor tensor_;  // kTensor: the tensor; kMap: the keys
  Tensor map_values_;
  std::shared_ptr<const std::vector<Value>> elements_;  // kSequence, kOptional
};

}  // namespace graphgc

#endif  // GRAPHGC_VALUE_H_
