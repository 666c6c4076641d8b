// VarType: the ONNX type of a var — a tensor (element type and shape), or a sequence, an optional
// or a map built from other types, as ONNX's TypeProto has them: seq(tensor(float)),
// optional(seq(tensor(int64))), map(string, tensor(float)), seq(map(int64, tensor(float))).
//
// A plain value type; copies share the nested element (immutable). Vars of tensor type keep their
// element type and shape in the arena's compact record (Var::dtype, Var::shape); the other kinds
// are interned by the arena. Values are propagated for tensors only. Threading: immutable.
#ifndef GRAPHGC_VAR_TYPE_H_
#define GRAPHGC_VAR_TYPE_H_

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"

namespace graphgc {

class VarType {
 public:
  enum class Kind : uint8_t { kTensor, kSequence, kOptional, kMap };

  // A tensor; nullopt shape: unknown rank, -1: unknown dim.
  static VarType Tensor(DataType dtype, std::optional<std::vector<int64_t>> shape = std::nullopt);
  static VarType Sequence(VarType element);
  static VarType Optional(VarType element);
  // ONNX maps have integer or string keys and a tensor or sequence value (ai.onnx.ml).
  static VarType Map(DataType key, VarType value);

  VarType() = default;  // a tensor of undefined element type and unknown rank

  Kind kind() const { return kind_; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  // Tensor: the element type and shape. Other kinds: kUndefined and nullopt.
  DataType dtype() const { return dtype_; }
  const std::optional<std::vector<int64_t>>& shape() const { return shape_; }
  // Sequence and optional: the element; map: the value type. For a tensor: an undefined tensor.
  const VarType& element() const;
  DataType key() const { return key_; }  // map: the key type; kUndefined otherwise

  // ONNX's type string: "tensor(float)", "seq(tensor(int64))", "map(string,tensor(float))".
  std::string ToString() const;
  // ToString plus the tensor shapes: "seq(tensor(float)[2,-1])"; a key for interning.
  std::string Key() const;
  // Prints Key().
  friend std::ostream& operator<<(std::ostream& out, const VarType& type);

  friend bool operator==(const VarType& a, const VarType& b) { return a.Key() == b.Key(); }
  friend bool operator!=(const VarType& a, const VarType& b) { return !(a == b); }

 private:
  std::string Describe(bool with_shapes) const;

  Kind kind_ = Kind::kTensor;
  DataType dtype_ = DataType::kUndefined;
  std::optional<std::vector<int64_t>> shape_;
  DataType key_ = DataType::kUndefined;
  std::shared_ptr<const VarType> element_;
};

// The most precise type that both `a` and `b` are: dims that differ become -1, ranks that differ
// an unknown rank, element types likewise inside sequences and optionals. `a` where the two are
// of different kinds or element types.
VarType CommonType(const VarType& a, const VarType& b);

// Whether `value` is a value of `type`: the same kind, element types equal, and every tensor's
// shape allowed by the type's (an unknown rank allows any, a -1 dim any size).
bool ValueHasType(const Value& value, const VarType& type);

}  // namespace graphgc

#endif  // GRAPHGC_VAR_TYPE_H_
