// Input binding: whether a Var may be bound to a model's graph input, as ONNX Runtime would accept
// a tensor for it. The kinds and element types must be the same (sequences, optionals and maps
// all the way down); a declared rank must be the Var's, and a declared fixed dim its size. A
// symbolic dim (dim_param) binds to any size, but every use of one name across the inputs of one
// model must bind to the same size. What the Var's type leaves unknown (rank, a dim) is not held
// against it: it is checked when it is known, at run time.
// Internal to the export module; one InputBinder per model import; thread-compatible.
#ifndef GRAPHGC_INPUT_BINDING_H_
#define GRAPHGC_INPUT_BINDING_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "graphgc/ir/var_type.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

class InputBinder {
 public:
  // OK if `given` fits the type `declared` (read as `declared_type`) for the input named
  // `input`; otherwise an error naming the input, the declared type (with its symbolic dims for
  // a shape mismatch) and the given one.
  absl::Status Bind(const std::string& input, const onnx::TypeProto& declared,
                    const VarType& declared_type, const VarType& given);

 private:
  // Where the first shape difference is, or "" if `given`'s shapes fit (its kinds and element
  // types are `declared`'s).
  std::string Mismatch(const std::string& input, const onnx::TypeProto& declared,
                       const VarType& given);
  std::string ShapeMismatch(const std::string& input, const onnx::TensorShapeProto& declared,
                            const std::vector<int64_t>& given);

  struct Binding {
    int64_t size;
    std::string input;  // the input that bound it first
  };
  absl::flat_hash_map<std::string, Binding> symbols_;
};

// The declared type as text, symbolic dims by name: "tensor(float)[N,3]", "seq(tensor(int64))".
std::string DescribeDeclaredType(const onnx::TypeProto& type);

}  // namespace graphgc::internal

#endif  // GRAPHGC_INPUT_BINDING_H_
