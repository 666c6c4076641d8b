// BuildNode: the path every op constructor of the opset module takes — generated, hand-written
// (native_ops.h), make_node, custom ops.
//
//   resolve operands -> infer types and shapes -> run the op's kernel (kernel_registry.h)
//   -> check its values against the inferred types -> append the node -> store values -> root
//
// Operand problems (an empty Var, a failed Var, a Var of another or of a destroyed graph),
// inference errors and known inputs that make the op fail (a kernel's error) become failed Vars
// whose status starts with the op name; a failed op leaves the graph exactly as it was. A kernel
// may leave outputs without values (no kernel, a declined case, past the value budget). Internal
// to the opset module.
//
// Graph::constant (ir/graph.cc) is the one node made without it: ir sits below the opset and
// cannot call up, and a Constant needs neither inference nor a kernel — its type and its value
// are its tensor, which the arena keeps (the arena marks a Constant's output a constant var).
#ifndef GRAPHGC_OP_BUILDER_H_
#define GRAPHGC_OP_BUILDER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/opset/build/output_vars.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::internal {

class Arena;
struct ResolvedOp;

class GraphCore;

struct OpSignature {
  absl::string_view op_type;
  int since_version;  // the ai.onnx schema version this constructor implements (<= 24)
  absl::Span<const absl::string_view> input_names;
  absl::string_view domain = "";
  // The opset version the node is recorded at (what export declares); 0: the newest supported.
  int opset_version = 0;
  // The kernel needs only the inputs' static shapes, not their values (Shape, Size).
  bool kernel_reads_shapes_only = false;
  // BuildOp only: the op takes sequences, optionals and maps too (Identity); other hand-written
  // ops report such an input before their inference runs.
  bool takes_non_tensors = false;
};

// What inference and kernels see of one input.
// A tensor is described by dtype and shape; a sequence, optional or map by `non_tensor` (its dtype
// then kUndefined, shape nullopt) and its value, if known, by `non_tensor_value`.
struct OperandInfo {
  // User-provided so that `OperandInfos(n)` does not zero the whole struct (some 400 bytes) before
  // constructing it: that was a third of describing the operands of an Add.
  OperandInfo() {}
  bool present = true;  // false for an omitted optional input
  DataType dtype = DataType::kUndefined;
  std::optional<Shape> shape;
  std::optional<Tensor> value;
  std::optional<VarType> non_tensor;
  std::optional<Value> non_tensor_value;
  // Without a value: the partly known elements of a shape computation (Arena::kUnknownElement).
  std::optional<Shape> shape_data;
};

struct OutputType {
  OutputType() {}  // as OperandInfo's: no zeroing before construction
  DataType dtype = DataType::kUndefined;
  std::optional<Shape> shape;
  std::optional<VarType> non_tensor;
  // What ONNX's data propagation knows of the output's elements; a fully known one becomes the
  // output's value.
  std::optional<Shape> shape_data;
};

// A tensor output of `dtype` and `shape`.
inline OutputType TensorOutput(DataType dtype, std::optional<Shape> shape) {
  OutputType type;
  type.dtype = dtype;
  type.shape = std::move(shape);
  return type;
}

// Any output: a tensor's dtype and shape, or a sequence, optional or map `non_tensor`.
inline OutputType AnyOutput(DataType dtype, std::optional<Shape> shape,
                            std::optional<VarType> non_tensor) {
  OutputType type = TensorOutput(dtype, std::move(shape));
  type.non_tensor = std::move(non_tensor);
  return type;
}

// The OutputType of a VarType: a tensor's dtype and shape, or the type itself for the others.
OutputType OutputTypeOf(const VarType& type);

using InferFn = absl::FunctionRef<absl::StatusOr<OutputType>(absl::Span<const OperandInfo>)>;

// A single-output op whose values come from the registry's kernel.
Var BuildOp(const OpSignature& signature, absl::Span<const Var* const> inputs,
            std::vector<Attribute> attributes, InferFn infer);

// The general form: any number of outputs; a nullptr input is an omitted optional input.
using OutputTypes = absl::InlinedVector<OutputType, 1>;
using OutputValues = absl::InlinedVector<std::optional<Value>, 1>;
using MultiInferFn = absl::FunctionRef<absl::StatusOr<OutputTypes>(absl::Span<const OperandInfo>)>;
// Values that do not come from a kernel (If's chosen branch, Loop's trips): called only when every
// present input has a value; may leave any output without one, and may fail the op (a Loop whose
// known inputs make a body op fail).

using BodyValuesFn = std::function<absl::StatusOr<OutputValues>(absl::Span<const OperandInfo>,
                                                                absl::Span<const OutputType>)>;

// Whether every present operand has a value.
bool AllValuesKnown(absl::Span<const OperandInfo> infos);
// Whether every output's value may be computed: within max_bytes where its shape is known.
// BuildNode computes no output of a node for which this is false.
bool OutputsFitBudget(absl::Span<const OutputType> types, int64_t max_bytes);

// Whether the arena can hold output `index` of this type (rank, dims, element count); the error
// names the output. BuildNode checks every output of every inference with it.
absl::Status CheckOutputType(size_t index, const OutputType& type);

// The bytes the outputs of fully known shape take together (saturating).
int64_t KnownOutputBytes(absl::Span<const OutputType> types);
// The value of an operand of any kind, if known.
std::optional<Value> OperandValue(const OperandInfo& info);
// Checks a value computed for output `index` against its inferred type; a tensor's unknown dims
// take the value's. A mismatch is an internal error (a library bug), never a silently wrong value.
absl::Status CheckOutputValue(size_t index, const Value& value, OutputType& type);

using OperandInfos = absl::InlinedVector<OperandInfo, 3>;

// The graph a call builds in (`graph` for an op without inputs), or the operands' problem (an
// empty, failed, foreign or out-of-scope Var) as a status naming the op and the input.
absl::StatusOr<GraphCore*> ResolveGraph(const OpSignature& signature,
                                        absl::Span<const Var* const> inputs, GraphCore* graph);
// What inference and kernels see of the operands of a call resolved to `core`.
OperandInfos DescribeOperands(const GraphCore& core, absl::Span<const Var* const> inputs);

// On failure every one of the `num_outputs` Vars is failed with the same status.
// `graph` is the graph of an op without inputs (nullptr: the operands' graph). `body_values`,
// when given, replaces the registry's kernel.
OutputVars BuildNode(const OpSignature& signature, absl::Span<const Var* const> inputs,
                     std::vector<Attribute> attributes, int num_outputs, MultiInferFn infer,
                     GraphCore* graph = nullptr, const BodyValuesFn& body_values = {});

// The kernels of the op `op` stands for (kernel_registry.h), resolved once per arena and kept.
const ResolvedOp& ResolveFor(Arena& arena, OpKindId op, const OpSignature& signature);

// Runs the kernel of every op on this thread while alive, also where inference already knows the
// value (ResolvedOp::value_is_shape_data): for tests that hold the two equal.
class ScopedKernelValuesOnly {
 public:
  ScopedKernelValuesOnly();
  ~ScopedKernelValuesOnly();
  ScopedKernelValuesOnly(const ScopedKernelValuesOnly&) = delete;
  ScopedKernelValuesOnly& operator=(const ScopedKernelValuesOnly&) = delete;

 private:
  bool was_;
};

// "input 1 (B)" — for error messages.
std::string InputLabel(const OpSignature& signature, size_t index);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OP_BUILDER_H_
