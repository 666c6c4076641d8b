// graphgc::op — the ONNX operators, one free function each, named by ONNX's op_type.
//
// The graph comes from the operands. Each call checks its inputs, infers the output element type
// and shape (ONNX broadcasting included), appends one node to the arena and, when every input has a
// value and GraphOptions::propagate_values is on, computes the output value. A call never throws
// and never aborts on bad input: it returns a failed Var whose status names the op, the input and
// the types or shapes; the graph and every other Var are unaffected.
//
// Attributes come in a per-op struct whose fields carry ONNX's attribute names, so calls read like
// the spec: Cast(x, {.to = DataType::kFloat}).
// Threading: as the operands' Graph.
#ifndef GRAPHGC_OPS_H_
#define GRAPHGC_OPS_H_

#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::op {

// A Constant node in `graph` (the same as graph.constant(value)).
Var Constant(Graph& graph, const Tensor& value);

Var Identity(const Var& input);

// Elementwise with multidirectional (numpy) broadcasting; both inputs of one numeric type.
Var Add(const Var& a, const Var& b);
Var Sub(const Var& a, const Var& b);
Var Mul(const Var& a, const Var& b);
// Integer division truncates toward zero; a propagated integer division by zero leaves the
// output without a value (its type and shape are still known).
Var Div(const Var& a, const Var& b);

Var Neg(const Var& x);
Var Relu(const Var& x);

// numpy.matmul semantics: 1-D operands are promoted, leading dims broadcast.
Var MatMul(const Var& a, const Var& b);

struct ReshapeAttributes {
  int64_t allowzero = 0;  // 1: a 0 in `shape` means a zero dim, not "copy the input dim"
};
// `shape` is an int64 1-D tensor; its value, when known, gives the output shape. The output value
// shares the input's buffer.
Var Reshape(const Var& data, const Var& shape, const ReshapeAttributes& attributes = {});

struct CastAttributes {
  DataType to = DataType::kUndefined;
};
// Float to integer conversion truncates toward zero; a value outside the target's range (NaN and
// infinities included), which ONNX leaves undefined, gives the output no value. Numbers print to
// strings in the shortest form that reads back as the same number ("0.6048455", as ONNX's
// reference; ONNX Runtime prints 8 significant digits); strings parse as numbers.
Var Cast(const Var& input, const CastAttributes& attributes);
inline Var Cast(const Var& input, DataType to) { return Cast(input, CastAttributes{.to = to}); }

}  // namespace graphgc::op

#endif  // GRAPHGC_OPS_H_
