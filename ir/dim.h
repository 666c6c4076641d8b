// Dim: one dim of a graph argument's declared shape — a size, -1 for unknown, or a name for a
// symbolic dim ("batch"), which the export writes as ONNX's dim_param:
//
//   gg::Var x = g.argument("x", gg::DataType::kFloat, {"batch", 16});
//
// A named dim is unknown to inference (Var::shape() gives -1 for it); the export carries the
// name into the model's input, and onward to every dim ONNX's own shape inference derives from
// it. A plain value type. Threading: immutable.
#ifndef GRAPHGC_DIM_H_
#define GRAPHGC_DIM_H_

#include <concepts>
#include <cstdint>
#include <string>
#include <utility>

namespace graphgc {

class Dim {
 public:
  // Any integer (an exact match, so that a literal 0 is a size, not a null name).
  template <std::integral Size>
  Dim(Size size) : size_(static_cast<int64_t>(size)) {}  // NOLINT: implicit by design
  Dim(const char* name) : size_(-1), name_(name == nullptr ? "" : name) {}  // NOLINT
  Dim(std::string name) : size_(-1), name_(std::move(name)) {}              // NOLINT

  // The size; -1 for an unknown or named dim.
  int64_t size() const { return size_; }
  // The symbolic name; empty for a sized or unknown dim.
  const std::string& name() const { return name_; }

 private:
  int64_t size_;
  std::string name_;
};

}  // namespace graphgc

#endif  // GRAPHGC_DIM_H_
