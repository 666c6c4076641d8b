// The process-wide kernel registry: what value an op computes, resolved once per op kind.
//
// Holds one KernelTable with every builtin kernel (kernels/builtin_kernels.h) and the kernels of
// custom ops (register_op), and, per (domain, op_type, since_version), what a kernel call needs
// besides the values: the schema's attribute defaults and input names. Resolution is cached
// process-wide and, per graph, by op kind (Arena::op_resolution), so a node pays one vector index
// to find its kernel. Internal to the opset module.
// Threading: thread-safe (a lock guards the table and the cache; entries are never removed).
#ifndef GRAPHGC_OPSET_KERNEL_REGISTRY_H_
#define GRAPHGC_OPSET_KERNEL_REGISTRY_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::internal {

// What BuildNode needs to run an op's kernel.
struct ResolvedOp {
  const kernels::Kernel* kernel = nullptr;  // nullptr: no kernel, outputs get no values
  // For sequences, optionals and maps (kernel.h); nullptr: such operands get no values.
  const kernels::ValueKernel* value_kernel = nullptr;
  // For a function op without a kernel of its own: the expansion of its body (function_kernel.h),
  // which `kernel` then points to.
  kernels::Kernel function_body;
  std::vector<kernels::KernelAttribute> defaults;  // the schema's attribute defaults
  std::vector<std::string> input_names;            // the schema's formal inputs
};

// The resolution of an op at a schema version (custom ops: their registered version); never null.
const ResolvedOp* ResolveOp(absl::string_view domain, absl::string_view op_type, int since_version);

// register_op's kernels join the same table, at exactly the op's version.
void RegisterCustomKernel(absl::string_view domain, absl::string_view op_type, int version,
                          kernels::Kernel kernel);

// A kernel attribute as a graph Attribute (for custom kernels and function bodies).
Attribute ToAttribute(const kernels::KernelAttribute& attribute);

// "domain:op_type" of every op with a builtin or custom kernel ("" domain for ai.onnx).
std::vector<std::string> OpsWithKernels();

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_KERNEL_REGISTRY_H_
