// Inference guards: what ONNX's own shape inference functions take on trust.
//
// Some of them divide by an attribute (DepthToSpace's blocksize, Conv's group, a window's
// strides), index a shape with one (GatherND's batch_dims, ReverseSequence's axes) or read a known
// input's first element (OneHot's depth) without checking it first; given a bad value they kill the
// process (SIGFPE, SIGSEGV) instead of throwing. CheckInferenceGuards runs before any of them, so a
// bad attribute is a status naming it. The fuzzers (tests/fuzz) found these; each has a regression
// test in bad_input_test.cc. Internal to the opset module; stateless.
#ifndef GRAPHGC_OPSET_INFERENCE_GUARDS_H_
#define GRAPHGC_OPSET_INFERENCE_GUARDS_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {

absl::Status CheckInferenceGuards(const onnx::OpSchema& schema,
                                  absl::Span<const OperandInfo> inputs,
                                  absl::Span<const Attribute> attributes, int num_outputs);

// Whether ONNX's data propagation for this op may run on these inputs: whether it ends, and gives
// the op's own elements. Slice's reads an unknown start, end or axis as 0 (its data becomes a
// value once complete, so that would be a wrong value), and steps through a shape by an int, so a
// step past int32 never advances it.
bool DataPropagationApplies(const onnx::OpSchema& schema, absl::Span<const OperandInfo> inputs);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_GUARDS_H_
