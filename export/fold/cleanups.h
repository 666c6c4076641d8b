// Cleanups: exact rewrites of an ONNX model's main graph that remove what a folded model still
// computes twice or for nothing (graphgc-fold runs them on the model it folded).
//
//   No-op casts: a Cast (ai.onnx) to the element type its input already has, a CastLike whose two
//   inputs have the same element type; readers of its output read its input.
//   Common subexpressions: a node equal to an earlier one (same domain, op, attributes, inputs and
//   outputs in use) is removed; readers of its outputs read the earlier node's.
//   Initializers: an initializer equal to an earlier one (data type, dims, stored bytes) is
//   removed; its readers read the earlier one.
//
// Element types come from the graph's declarations (inputs, outputs, value_info), initializers,
// Constant nodes and the `to` of earlier Casts; a cast whose input type none of them gives (or
// they disagree on) stays. Two nodes are equal only if their ops are deterministic and of the
// ai.onnx or ai.onnx.ml domain (a custom op or a model-local function may have effects), bodies
// included. An initializer that is also a graph input (an overridable default) is never merged,
// an external-data one neither. The graph's input and output names never change: a node or
// initializer that would have to give up a graph output's name stays. A rename reaches the names
// bodies of If, Loop and Scan read from the main graph; the bodies are otherwise untouched. The
// node order stays as it was, minus the removed nodes; value_info entries of removed names go. A
// graph that defines a name twice is left as it is.
//
// Ownership: works in place on the caller's model. Threading: none; calls on different models are
// independent.
#ifndef GRAPHGC_CLEANUPS_H_
#define GRAPHGC_CLEANUPS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

struct CleanupOptions {
  bool remove_noop_casts = true;  // Cast (and CastLike) to the element type the input has
  bool eliminate_common_subexpressions = true;
  bool merge_initializers = true;  // identical initializers (dtype, dims, bytes) become one
};

struct CleanupCounts {
  int64_t noop_casts_removed = 0;
  int64_t common_subexpressions_removed = 0;  // nodes removed as duplicates
  int64_t initializers_merged = 0;            // initializers removed as duplicates
};

// Runs each enabled cleanup once, in the order that lets each help the next: initializers first
// (equal initializers make equal nodes), then casts (a removed cast makes its readers read the same
// name as others), then common subexpressions, whose one walk in node order collapses chains of
// duplicates. No error at present: the status is room for a cleanup that reads external data.
absl::StatusOr<CleanupCounts> ApplyCleanups(onnx::ModelProto& model, const CleanupOptions& options);

}  // namespace graphgc::internal

#endif  // GRAPHGC_CLEANUPS_H_
