// Native inference: the type, shape and data propagation rules of a few schemas written in C++,
// run in place of the schema's own ONNX functions. InferWithSchema makes its checks (input count
// and types, attributes, guards) for every op alike, then asks FindNativeInference: a native rule
// gives what ONNX's functions give through graphgc's OperandInferenceContext — the same output
// types, the same shape data, an error where they throw — at a fraction of the cost (no
// TypeProtos built and destroyed per node: that and ONNX's own function were half of building a
// Conv). tests/native_inference_test.cc holds each rule to ONNX's on every node case of ONNX's
// suite, and on the same cases with dims and values taken away. Internal to the opset module;
// the rules are stateless and safe to call from any thread.
#ifndef GRAPHGC_OPSET_INFERENCE_NATIVE_INFERENCE_H_
#define GRAPHGC_OPSET_INFERENCE_NATIVE_INFERENCE_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {

// Inference of one schema, its checks already made, for `num_outputs` outputs (within the
// schema's range). An error is the message ONNX's function throws (InferWithSchema adds the call);
// kUnimplemented (DeclineNativeRule) hands the call to ONNX's function instead.
using NativeRule = absl::StatusOr<OutputTypes>(absl::Span<const OperandInfo> inputs,
                                               absl::Span<const Attribute> attributes,
                                               int num_outputs);
using NativeInferenceFn = NativeRule*;

// The native rule of `schema` (its name, domain and since_version), or nullptr.
NativeInferenceFn FindNativeInference(const onnx::OpSchema& schema);

// Inference of a schema whose outputs are its bodies' results (If), from the types the bodies
// were built with (`bodies`, one per graph attribute); the same contract as a NativeRule.
using NativeBodyRule = absl::StatusOr<OutputTypes>(absl::Span<const BodyTypes> bodies,
                                                   int num_outputs);

// The native body rule of `schema`, or nullptr.
NativeBodyRule* FindNativeBodyInference(const onnx::OpSchema& schema);

// The ai.onnx schemas (op type, since_version) that have a native rule (a body rule too).
std::vector<std::pair<absl::string_view, int>> NativeRuleSchemas();

// Turns native inference off (ONNX's functions run for every schema) on this thread while alive:
// for tests that compare the two.
class ScopedSchemaInferenceOnly {
 public:
  ScopedSchemaInferenceOnly();
  ~ScopedSchemaInferenceOnly();
  ScopedSchemaInferenceOnly(const ScopedSchemaInferenceOnly&) = delete;
  ScopedSchemaInferenceOnly& operator=(const ScopedSchemaInferenceOnly&) = delete;

 private:
  bool was_disabled_;
};

// The rules (each a NativeRule), by the file that holds them. native_shape_ops.cc:
NativeRule InferShape15;
NativeRule InferGather13;
NativeRule InferConcat13;
NativeRule InferCast13;
NativeRule InferExpand13;
// native_slice_op.cc:
NativeRule InferSlice13;
// native_split_op.cc:
NativeRule InferSplit13;
NativeRule InferSplit18;
// native_conv_ops.cc:
NativeRule InferConv11;
NativeRule InferPool19;
NativeRule InferPool22;
// native_axes_ops.cc:
NativeRule InferUnsqueeze13;
NativeRule InferSqueeze13;
// native_nn_ops.cc:
NativeRule InferBatchNormalization15;
NativeRule InferLayerNormalization17;
NativeRule InferGemm13;
NativeRule InferGlobalPool;
// native_reduce_ops.cc:
NativeRule InferReduce13;
// native_layout_ops.cc:
NativeRule InferFlatten11;
NativeRule InferTranspose13;
// native_elementwise_ops.cc:
NativeRule InferBroadcastLikeFirstInput;
NativeRule InferBroadcastToBool;
NativeRule InferLikeFirstInput;
NativeRule InferSoftmax13;
NativeRule InferLogSoftmax13;
NativeRule InferHardmax13;
NativeRule InferWhere16;
// native_if_op.cc:
NativeBodyRule InferIf16;

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_NATIVE_INFERENCE_H_
