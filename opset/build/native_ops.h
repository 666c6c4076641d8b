// The ops with native inference (ops.h: Add, Sub, Mul, Div, Neg, Relu, MatMul, Identity, Reshape,
// Cast): checks and shape rules written in C++ instead of ONNX's inference functions, for speed.
//
// op::Add and the other constructors of ops.h call their Native* function here directly.
// opset17::Add and make_node("Add", ...) reach the same function through MakeNativeNode, whose
// entries are keyed by (op_type, schema since_version), at any opset whose Add schema is the one
// implemented here; so all of them run the same inference and the same kernel (the registry's).
// An opset whose schema differs, or attributes the entry does not take, go through the schema.
// Internal to the opset module.
#ifndef GRAPHGC_OPSET_NATIVE_OPS_H_
#define GRAPHGC_OPSET_NATIVE_OPS_H_

#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/var.h"

namespace graphgc::internal {

// The node made natively, or nullopt when no native entry covers this call. `opset_version` is
// what the node records (0: the newest).
std::optional<Var> MakeNativeNode(absl::string_view op_type, int since_version,
                                  absl::Span<const Var> inputs,
                                  const std::vector<Attribute>& attributes, int opset_version);

// The hand-written constructors, recording `opset_version` (0: the newest).
Var NativeBinary(absl::string_view op_type, const Var& a, const Var& b, int opset_version);
Var NativeUnary(absl::string_view op_type, const Var& x, int opset_version);
Var NativeIdentity(const Var& input, int opset_version);
Var NativeMatMul(const Var& a, const Var& b, int opset_version);
Var NativeReshape(const Var& data, const Var& shape, int64_t allowzero, int opset_version);
Var NativeCast(const Var& input, DataType to, int opset_version);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_NATIVE_OPS_H_
