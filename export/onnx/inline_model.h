// inline_model: adds an existing ONNX model to a Graph (the equivalent of spox's `inline`).
//
// The model's graph inputs are bound by name to the given Vars; an input not given becomes an
// argument of `graph` with the model's name and type. Initializers become constants, and every node
// is built with make_node at the opset the model imports, so types are inferred and values
// propagate as for any other op. Returns the model's outputs by name.
//
// The bodies of If, Loop and Scan nodes are built the same way, as Subgraphs
// (graphgc/ir/attribute.h) whose names not defined in the body resolve in the enclosing graphs.
//
// A model of an older ai.onnx opset is first converted to options.opset (17) with ONNX's version
// converter; one it cannot convert is imported at its own opset (import_model says why).
//
// A call of one of the model's own functions (ModelProto.functions) is built through the
// function's body, bound to the call's inputs and attributes: by default it stays one call node,
// typed by the body and holding the values the body computed (the body's intermediate values are
// collected like any others); with InlineOptions::inline_functions the body's nodes take its place.
// Recursion, a call with more inputs or outputs than its function, an attribute the function does
// not declare, and a function importing an opset other than the model's are errors.
//
// Ops of a domain graphgc does not know (e.g. com.microsoft), and calls whose function body does
// not build, become opaque nodes (graphgc/opset/build/opaque_node.h): typed from the model's
// value_info, without values, exported as they came — as spox's inline never needs to know the ops
// it inlines. An op of an ai.onnx or ai.onnx.ml opset graphgc supports that it does not know stays
// an error (a typo, not an extension); options.opaque_unknown_ops = false makes unknown domains
// errors too.
//
// A malformed model — cycles, dangling names, tensors whose data does not match their shape,
// absurd dimensions, an opset newer than this library supports, unsupported types — gives a non-OK
// status; every existing Var of `graph` and every export of them stay as they were.
// Threading: as `graph` (thread-compatible).
#ifndef GRAPHGC_INLINE_MODEL_H_
#define GRAPHGC_INLINE_MODEL_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

struct InlineOptions {
  bool opaque_unknown_ops = true;
  // The folder the model was read from: initializers in ONNX external data are mapped from files
  // inside it (never outside: no absolute paths, no "..", no symlink out). Empty: a model with
  // external data is refused.
  std::string model_dir;
  // Put before the name of every argument made for an input not bound, so that one model can be
  // inlined twice ("a/x" and "b/x"); without it, the second copy's argument "x" clashes with the
  // first's, which is an error.
  std::string prefix;
  // The ai.onnx opset a model of another opset is converted to first, with ONNX's own version
  // converter, so that its nodes mix with ops made today (an exported model declares one opset
  // per domain, and Conv at opset 6 cannot join a Relu made at 17). 0: import the model at its
  // own opset. A model the converter cannot convert (some adapters need input shapes the model
  // does not give; other domains' nodes and function calls stop it) is imported at its own
  // opset, with a warning in ImportedModel::warnings.
  int opset = kNewestOnnxOpset;
  // Calls of the model's own functions become the functions' bodies (as onnx-ir's InlinePass
  // does); false keeps each call one node, typed and valued through its body.
  bool inline_functions = false;
};

absl::StatusOr<std::map<std::string, Var>> inline_model(
    Graph& graph, const onnx::ModelProto& model, const std::map<std::string, Var>& inputs = {},
    const InlineOptions& options = {});

// inline_model, with what happened on the way.
struct ImportedModel {
  std::map<std::string, Var> outputs;  // by the model's output names
  int onnx_opset = 0;                  // the ai.onnx opset its nodes were made at
  std::vector<std::string> warnings;   // e.g. why the model kept its own opset
};
absl::StatusOr<ImportedModel> import_model(Graph& graph, const onnx::ModelProto& model,
                                           const std::map<std::string, Var>& inputs = {},
                                           const InlineOptions& options = {});

}  // namespace graphgc

#endif  // GRAPHGC_INLINE_MODEL_H_
