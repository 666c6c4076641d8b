// The guarded schema registry: ONNX's schemas, with each inference function behind the checks
// graphgc's own node inference makes first.
//
// ONNX's inference functions take some inputs on trust (inference_guards.h): given a Conv whose
// weight has another rank than its input, or an attribute of the wrong type, some of them read
// past a shape's dims and kill the process. graphgc's node inference checks every node before it
// calls them; ONNX's whole-model inference (onnx::shape_inference::InferShapes, and the function
// body inference of InferShapeForFunctionNode) checks nothing. Given this registry instead of
// onnx::OpSchemaRegistry::Instance(), they run each node's inference function only after the same
// checks pass: the input count and types against the schema, the schema's attributes (type, and
// the required ones given), the inference guards and the output count. A node that fails them gets
// an onnx::InferenceError naming the op and the check, which InferShapes records and goes on. As in
// graphgc's own inference, a known input of more than kMaxInferenceDataElements elements, or one
// graphgc cannot read, is hidden from the function (it sees no data), and so is sparse data.
//
// Ownership and threading: a process-wide singleton, safe to use from any thread. Each schema it
// hands out is a copy of ONNX's, made on first use and kept for the life of the process, as ONNX's
// own are. Internal to graphgc (used by the opset and export modules).
#ifndef GRAPHGC_OPSET_INFERENCE_GUARDED_SCHEMA_REGISTRY_H_
#define GRAPHGC_OPSET_INFERENCE_GUARDED_SCHEMA_REGISTRY_H_

#include "onnx/defs/schema.h"

namespace graphgc::internal {

const onnx::ISchemaRegistry* GuardedSchemaRegistry();

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_GUARDED_SCHEMA_REGISTRY_H_
