// The process-wide kernel registry: what value an op computes, resolved once per op kind.
//
// Holds one KernelTable with every builtin kernel (kernels/builtin_kernels.h) and the kernels of
// custom ops (register_op), and, per (domain, op_type, since_version), what a kernel call needs
// besides the values: the schema's attribute defaults and input names, and the checks of the
// kernel's declared element types (a kernel is never called for a type it did not declare).
// Resolution is cached process-wide and, per graph, by op kind (Arena::op_resolution), so a node
// pays one vector index to find its kernel. Internal to the opset module. Threading: thread-safe (a
// lock guards the table and the cache; entries are never removed).
#ifndef GRAPHGC_OPSET_KERNEL_REGISTRY_H_
#define GRAPHGC_OPSET_KERNEL_REGISTRY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/data_type_set.h"

namespace graphgc::internal {

// One check a kernel's declared types (kernels/kernel_types.h) make before each call: the
// operands the schema binds to `type_param` — input or output `first`, and every later one when
// that formal is variadic — must have an element type in `types`.
struct OperandTypeCheck {
  std::string type_param;
  bool output = false;
  int first = 0;
  bool variadic = false;
  DataTypeSet types;
};

// What BuildNode needs to run an op's kernel.
struct ResolvedOp {
  const kernels::Kernel* kernel = nullptr;  // nullptr: no kernel, outputs get no values
  // For sequences, optionals and maps (kernel.h); nullptr: such operands get no values.
  const kernels::ValueKernel* value_kernel = nullptr;
  // For a function op without a kernel of its own: the expansion of its body (function_kernel.h),
  // which `kernel` then points to.
  kernels::Kernel function_body;
  // The checks of each kernel's declaration, resolved against the schema (empty: unconstrained).
  std::vector<OperandTypeCheck> kernel_checks;
  // The element types every one of kernel_checks admits: operands all of one such type pass them
  // without a look at each (the binary short path's test).
  DataTypeSet types_every_kernel_check_admits;
  std::vector<OperandTypeCheck> value_kernel_checks;
  // The element types the op computes values for, of its primary type parameter (the kernel's
  // first declared one, else the first input's): the declaration intersected with what the
  // schema admits at this version. What has_kernel(op, options, dtype) answers.
  DataTypeSet computed_types;
  DataTypeSet admitted_types;      // what the schema admits for it
  std::string primary_type_param;  // its name, "" where the schema has none
  // The schema's attribute defaults and formal inputs; the names are views of the schema's, which
  // ONNX's registry keeps for the life of the process.
  std::vector<kernels::KernelAttribute> defaults;
  std::vector<absl::string_view> input_names;
  // The op only moves elements (Shape, Gather, Concat, Slice, Squeeze, Unsqueeze, Identity,
  // Reshape, Flatten): where inference knows every element of its int64 output (shape data), that
  // is the value the kernel would compute, and BuildNode takes it without running the kernel.
  // tests/shape_data_oracle_test.cc holds the two equal.
  bool value_is_shape_data = false;
  // The schema version resolved (a custom op's registered version): what kernels read as
  // KernelContext::version.
  int since_version = 0;
  // The kernels give the same values for the same operands and attributes every time: every
  // builtin kernel (random ops have none), and a custom op's when it says so
  // (CustomOp::deterministic). Only such values may be dropped and computed again.
  bool deterministic = true;
};

// The resolution of an op at a schema version (custom ops: their registered version); never null.
const ResolvedOp* ResolveOp(absl::string_view domain, absl::string_view op_type, int since_version);

// The first operand of a call outside its kernel's declaration (nullopt: every checked operand
// is declared). `inputs` and `outputs` are the operands' element types, kUndefined for an
// omitted input and for sequences, optionals and maps (whose element types the value kernel
// checks itself).
struct UndeclaredOperand {
  const OperandTypeCheck* check;
  int index;  // of the input, or of the output when check->output
  DataType dtype;
};
std::optional<UndeclaredOperand> FindUndeclaredOperand(absl::Span<const OperandTypeCheck> checks,
                                                       absl::Span<const DataType> inputs,
                                                       absl::Span<const DataType> outputs);

// register_op's kernels join the same table, at exactly the op's version. `deterministic`:
// ResolvedOp::deterministic of the op.
void RegisterCustomKernel(absl::string_view domain, absl::string_view op_type, int version,
                          kernels::Kernel kernel, bool deterministic);

// A kernel attribute as a graph Attribute (for custom kernels and function bodies).
Attribute ToAttribute(const kernels::KernelAttribute& attribute);

// "domain:op_type" of every op with a builtin or custom kernel ("" domain for ai.onnx).
std::vector<std::string> OpsWithKernels();

// Every kernel registration with its declared types, for checking them against the schemas.
void VisitKernelDeclarations(const kernels::KernelTable::EntryVisitor& visit);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_KERNEL_REGISTRY_H_
