// Custom operators: a user's own op in their own domain, with an inference function and optionally
// a propagation kernel. Once registered, make_node(op_type, inputs, attributes, {.domain = ...})
// creates it like any ONNX operator, and to_onnx declares its domain in opset_import.
//
//   graphgc::CustomOp op;
//   op.domain = "com.example"; op.op_type = "Twice"; op.min_inputs = op.max_inputs = 1;
//   op.infer = [](const graphgc::CustomOpContext& c) ->
//   absl::StatusOr<std::vector<graphgc::TensorType>> {
//     return std::vector<graphgc::TensorType>{c.inputs[0]};
//   };
//   graphgc::register_op(op);
//
// Threading: the registry is process-wide and guarded by a lock; registering while other threads
// build graphs is safe. Registrations cannot be removed (nodes may refer to them).
#ifndef GRAPHGC_CUSTOM_OP_H_
#define GRAPHGC_CUSTOM_OP_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {

struct TensorType {
  DataType dtype = DataType::kUndefined;
  std::optional<std::vector<int64_t>> shape;  // nullopt: unknown rank; -1: unknown dim
};

// What a custom op's functions see of one call. `values[i]` is set when input i has a value.
struct CustomOpContext {
  std::vector<TensorType> inputs;
  std::vector<std::optional<Tensor>> values;
  std::vector<Attribute> attributes;
  int num_outputs = 1;

  const Attribute* attribute(const std::string& name) const;
};

struct CustomOp {
  std::string domain;  // not "" / "ai.onnx" / "ai.onnx.ml" / "ai.onnx.preview.training"
  std::string op_type;
  int version = 1;  // the domain's opset version this op belongs to
  int min_inputs = 0;
  int max_inputs = 0;
  int min_outputs = 1;
  int max_outputs = 1;
  // Required: one TensorType per output (num_outputs of them), or an error naming the problem.
  std::function<absl::StatusOr<std::vector<TensorType>>(const CustomOpContext&)> infer;
  // Optional: the output values, given every input's value; nullopt declines.
  std::function<std::optional<std::vector<Tensor>>(const CustomOpContext&)> kernel;
  // The kernel gives the same values for the same inputs and attributes every time (it reads no
  // clock, no random source, no state of its own). Only then may a graph drop a value it computed
  // and compute it again when it is read; otherwise the value is kept or never computed.
  bool deterministic = false;
};

// Errors: a reserved or empty domain, an empty op type, a version below 1, bad arity bounds, no
// inference function, or (domain, op_type, version) already registered.
absl::Status register_op(CustomOp op);

}  // namespace graphgc

#endif  // GRAPHGC_CUSTOM_OP_H_
