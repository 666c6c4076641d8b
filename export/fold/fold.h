// fold: constant-folds an existing ONNX model in bounded memory, and never grows it.
//
//   absl::StatusOr<graphgc::FoldResult> folded = graphgc::fold(model, {.model_dir = "models/"});
//   if (folded.ok()) graphgc::save_model(folded->model, "folded.onnx");
//
// The model is imported with its graph inputs left as arguments, twice: the plan's import computes
// only small values and decides which values will be written (fold_plan.h); the fold's import
// computes, of the nodes whose inputs all have values, those the written values need (and the
// small ones shape inference reads). Each var the outputs still need whose value is known is
// written as an initializer, and the nodes that only fed it disappear, as does every node no
// output needs. If, Loop and Scan fold as far as their kernels go. A value nothing written depends
// on is never computed, so memory follows what is written, not what could be computed.

// What is kept: producer, doc strings, metadata_props, opset imports, model-local functions, the
// names and declared types of the graph's inputs and outputs. Nodes of domains graphgc does not
// know (and calls of model-local functions) pass through as opaque nodes whose outputs are typed
// from the model's value_info, and through which no value flows (options.unknown_ops_are_errors
// makes them an error). An unknown op of the ai.onnx domain stays an error: it is a typo.
//
// Size policy (never grow): a value becomes an initializer only if its tensor is no larger than
// what its folding removes — the nodes only its computation needs, and the initializers and
// Constant nodes only those read (fold_plan.h) — and, over max_fold_bytes, no larger than the
// initializers alone; otherwise the nodes that make it stay. fold_anyway turns this off. The
// promise holds for the whole model: should the result still be larger than the input (bodies of
// If and Loop are written anew, say), the input is the result, unchanged
// (FoldStats::kept_unchanged). Memory: the importer lets go of each var once its last consumer is
// built, unless the var is to be written, so values die as the walk goes; memory_budget_bytes caps
// the live value bytes: past it, held values are evicted and computed again when a later node or
// the export reads them (GraphOptions::on_budget = OnBudget::kEvictAndRecompute), so the result is
// the unbounded fold's; only an op whose own inputs and outputs cannot fit keeps its nodes.
//
// Errors (a non-OK status, nothing written): a model graphgc cannot import (see inline_model.h),
// an opset newer than supported, a missing or escaping external data file.
// Threading: each call builds its own Graph; calls on different threads are independent.
#ifndef GRAPHGC_FOLD_H_
#define GRAPHGC_FOLD_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

struct FoldOptions {
  // The folder the model was read from: external data files resolve inside it and nowhere else
  // (no absolute paths, no "..", no symlink out). Empty: the model may not use external data.
  std::string model_dir;
  // A computed value larger than this is written only if it is no larger than the initializers it
  // replaces (1 MiB); a smaller one, if it is no larger than the nodes and initializers it
  // replaces.
  int64_t max_fold_bytes = int64_t{1} << 20;
  // Write every known value the outputs need, whatever its size.
  bool fold_anyway = false;
  // Live value bytes the fold keeps at once (of values it computes: the model's own initializers
  // are its input, held anyway, and do not count): values past it are evicted and computed again as
  // they are needed (FoldStats::values_recomputed), written one at a time; 0: no cap. Without
  // external_data_file the result's ModelProto holds every byte it writes, which the budget cannot
  // bound (a FoldResult warning says so).
  int64_t memory_budget_bytes = 0;
  // Make an op of an unknown domain (or a call of a model-local function whose body graphgc
  // cannot build) an error instead of an opaque node.
  bool unknown_ops_are_errors = false;
  // Calls of the model's own functions are inlined first (their bodies take their place, as
  // onnx-ir's InlinePass does), so that the result calls none. By default a call stays a call,
  // folded to its value when every input is known, and the result keeps the functions its calls
  // still need.
  bool inline_functions = false;
  // The rewrites that turn work on constants into constants: BatchNormalization into the Conv,
  // ConvTranspose or Gemm before it; Mul/Add by a constant into Conv or MatMul weights; Identity
  // and inference Dropout removed.
  bool fuse = true;
  // The cleanups of the folded model: Casts to the element type their input already has removed,
  // nodes equal to an earlier one (same op, attributes and inputs; deterministic ops only) made
  // one, identical initializers (data type, dims, bytes) merged.
  bool remove_noop_casts = true;
  bool eliminate_common_subexpressions = true;
  bool merge_initializers = true;
  // ONNX external data for the result: tensors of more than external_data_threshold bytes are
  // written, while exporting, to `external_data_file` (a bare file name) in `output_dir` (the
  // folder the result will be saved in) instead of into the model. Empty: no external data.
  // Such a result is not checked in memory (ONNX's checker looks for the side file relative to
  // the current folder); check it from its file once saved: onnx::checker::check_model(path).
  std::string external_data_file;
  std::string output_dir;
  int64_t external_data_threshold = 1024;
  // Convert the model to this ai.onnx opset first, with ONNX's version converter (a model that
  // cannot be converted is an error). 0: keep the model's own opset, which the result declares.
  int opset = 0;
  // Called with (phase, done, total) while planning ("plan") and importing ("import"); may be
  // empty.
  std::function<void(const char* phase, int64_t done, int64_t total)> progress;
};

struct FoldStats {
  // The graph's nodes; with inline_functions, a call of a model's function counts as its body's.
  int64_t nodes_before = 0;
  int64_t nodes_after = 0;
  int64_t initializer_bytes_before = 0;
  int64_t initializer_bytes_after = 0;
  int64_t nodes_folded = 0;         // nodes of the input model that no longer run
  int64_t nodes_kept_for_size = 0;  // nodes kept because their value was too large to write
  // Nodes kept because their values could not fit under the memory budget even after evicting
  // everything else (rare: a value larger than the budget, say).
  int64_t nodes_kept_for_budget = 0;
  int64_t nodes_fused = 0;   // nodes removed by the fusions
  int64_t opaque_nodes = 0;  // nodes of unknown domains passed through
  // Nodes inside the functions the result keeps that were computed from constants alone
  // (function_bodies.h): not counted in nodes_before or nodes_after.
  int64_t function_nodes_folded = 0;
  // Calls with some inputs known that now call a copy of their function specialised to them, and
  // the copies (specialised_calls.h: made only when the copy runs fewer nodes and the model does
  // not grow).
  int64_t calls_specialised = 0;
  int64_t functions_specialised = 0;
  int64_t noop_casts_removed = 0;  // the cleanups (FoldOptions::remove_noop_casts...)
  int64_t common_subexpressions_removed = 0;
  int64_t initializers_merged = 0;
  int64_t peak_live_value_bytes = 0;
  // The node of the model after which the fold held the most: the values live then (the node's
  // inputs and outputs among them) and the bytes of mapped external data its kernel read. Named
  // by the node's name, else its op type and first output; empty if no node ran.
  std::string peak_node;
  int64_t peak_node_bytes = 0;
  // Under memory_budget_bytes: values evicted to make room, and those computed again (to be read
  // by a later node, or written), with their bytes and the time it took.
  int64_t values_evicted = 0;
  int64_t values_recomputed = 0;
  int64_t recomputed_bytes = 0;
  double recompute_seconds = 0;
  // The model's bytes saved (the proto and the external data its tensors name), before and after.
  int64_t model_bytes_before = 0;
  int64_t model_bytes_after = 0;
  // The result would have been larger than the input (the export rewrote bodies of If or Loop,
  // say), so the input is the result, unchanged: never with fold_anyway.
  bool kept_unchanged = false;
  // The phases, one after another: the fusions; the plan (a first import that computes only
  // small values and decides what will be written); the import, which computes the values the
  // plan wants as it builds each node (graphgc propagates eagerly), so it holds nearly all of the
  // compute; the decisions on the outputs and a last collection; the export.
  double fuse_seconds = 0;
  double plan_seconds = 0;
  double import_seconds = 0;
  double fold_seconds = 0;
  double export_seconds = 0;
};

struct FoldResult {
  onnx::ModelProto model;
  FoldStats stats;
  // What the fold read differently from what the model says, e.g. a newer IR version read as
  // the newest graphgc's ONNX knows (the folded model declares that one).
  std::vector<std::string> warnings;
};

absl::StatusOr<FoldResult> fold(const onnx::ModelProto& model, const FoldOptions& options = {});
// The same, consuming `model`: the fusions rewrite it in place instead of in a copy, which saves
// a copy of its initializers.
absl::StatusOr<FoldResult> fold(onnx::ModelProto&& model, const FoldOptions& options = {});

}  // namespace graphgc

#endif  // GRAPHGC_FOLD_H_
