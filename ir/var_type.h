// VarType: the ONNX type of a var — a tensor (element type and shape), or a sequence, an optional
// or a map built from other types, as ONNX's TypeProto has them: seq(tensor(float)),
// optional(seq(tensor(int64))), map(string, tensor(float)), seq(map(int64, tensor(float))).
//
// A tensor's dims may carry names (symbolic dims, ONNX's dim_param: "N"); a named dim is -1 in
// shape(), and the names take no part in equality or Key(): they say which unknown dims are the
// same one, not what a var may hold. operator<< prints them: tensor(float)[N,4].
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

#include "graphgc/ir/dim.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"

namespace graphgc {

class VarType {
 public:
  enum class Kind : uint8_t { kTensor, kSequence, kOptional, kMap };

  // A tensor; nullopt shape: unknown rank, -1: unknown dim.
  static VarType Tensor(DataType dtype, std::optional<std::vector<int64_t>> shape = std::nullopt);
  // A tensor of known rank whose dims are sizes, -1 or names: TensorOfDims(kFloat, {"N", 4}).
  static VarType TensorOfDims(DataType dtype, const std::vector<Dim>& dims);
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
  // One name per dim ("" for a dim without one); empty when no dim is named.
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  // The shape with the names (nullopt for an unknown rank).
  std::optional<std::vector<Dim>> dims() const;
  // This type with `names` (one per dim, or empty for none) on a tensor of known rank; other
  // types, and names of another count, are returned unchanged.
  VarType WithDimNames(std::vector<std::string> names) const;
  // Sequence and optional: the element; map: the value type. For a tensor: an undefined tensor.
  const VarType& element() const;
  DataType key() const { return key_; }  // map: the key type; kUndefined otherwise

  // ONNX's type string: "tensor(float)", "seq(tensor(int64))", "map(string,tensor(float))".
  std::string ToString() const;
  // ToString plus the tensor shapes: "seq(tensor(float)[2,-1])"; a key for interning.
  std::string Key() const;
  // Prints Key(), with the names of named dims in place of their -1.
  friend std::ostream& operator<<(std::ostream& out, const VarType& type);

  // Equal kinds, element and key types, shapes and elements (what Key() prints, without building
  // it: If compares its branches' types on every call).
  friend bool operator==(const VarType& a, const VarType& b);
  friend bool operator!=(const VarType& a, const VarType& b) { return !(a == b); }

 private:
  std::string Describe(bool with_shapes, bool with_names = false) const;

  Kind kind_ = Kind::kTensor;
  DataType dtype_ = DataType::kUndefined;
  std::optional<std::vector<int64_t>> shape_;
  std::vector<std::string> dim_names_;
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
