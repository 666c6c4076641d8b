// Running an op's kernel on operands whose values are known: the kernel call is made from the
// operands, the node's attributes and the op's resolution (kernel_registry.h), and what the
// kernel gives is checked against the inferred types before anything keeps it.
//
// BuildNode runs a kernel here when it makes a node; anything that computes a node's value again
// later (from the arena's record of its op, attributes and inputs) must run it here too, so that
// both give the same bits for the same inputs. Internal to the opset module. Threading: kernels
// are stateless; a call runs on the calling thread, with up to KernelOp::threads of its own.
#ifndef GRAPHGC_OPSET_BUILD_KERNEL_RUN_H_
#define GRAPHGC_OPSET_BUILD_KERNEL_RUN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// The op a kernel runs for, as a node records it.
struct KernelOp {
  const ResolvedOp* resolution = nullptr;  // never null
  absl::string_view op_type;
  // The formal inputs' names, for the kernel's messages; empty: the schema's. (The schema's
  // version, KernelContext::version, is the resolution's: ResolvedOp::since_version.)
  absl::Span<const absl::string_view> input_names;
  bool reads_shapes_only = false;  // the kernel reads the inputs' shapes, not values (Shape, Size)
  int threads = 1;                 // GraphOptions::kernel_threads
};

// Runs the op's kernel on `infos` (each present operand known: a value, or for a shapes-only op
// a shape), allocating at most `max_value_bytes` per value. Fills `values` (sized as `types`)
// with what the kernel computed, and completes unknown dims of `types` from them. Outputs the
// kernel leaves out, declines, or that have no kernel for their types stay nullopt. An error
// status means the op fails: the inputs break ONNX's semantics, or a kernel broke its contract.
absl::Status RunKernel(const KernelOp& op, absl::Span<const OperandInfo> infos,
                       const std::vector<Attribute>& attributes, int64_t max_value_bytes,
                       OutputTypes& types, OutputValues& values);

// Checks values computed another way (a body's, an opaque node's) against `types` and moves them
// into `values`, as RunKernel does with a kernel's.
absl::Status TakeOutputValues(OutputValues& results, OutputTypes& types, OutputValues& values);

// Checks a tensor computed for output `index` against its inferred type; unknown dims of `type`
// take the value's. A mismatch is an internal error (a library bug), never a wrong value kept.
absl::Status CheckTensorValue(size_t index, const Tensor& value, OutputType& type);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_KERNEL_RUN_H_
