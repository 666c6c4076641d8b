// FoldPlan: which computed values a fold writes as initializers, decided while the model is
// imported (graphgc::fold, fold.h).
//
// A known var is decided when a node that keeps running reads it (a node with an output without
// value), and for each graph output. It is written, unless fold_anyway writes everything, only if
// writing it does not grow the model: its tensor's bytes must be at most the bytes its folding
// removes — the nodes of its cone that nothing else reads (walked from its producer back, each
// node removed once every reader of its outputs is) and the initializers and Constant nodes only
// those nodes read — and a value over max_fold_bytes must be paid for by initializers alone. The
// removed sets of two written values never overlap (a removed node feeds one value only), so the
// folded model is never larger than the input by what it writes. The plan then holds the Var so
// that its value survives the import's collections. A refused var is made by its nodes in the
// folded model (a ConstantOfShape stays a node rather than become megabytes of zeros). Everything
// else is let go as the import walks on, so values die once no later node needs them.
//
// Plan before computing: a fold imports the model twice. The survey (Mode::kSurvey) imports it
// computing only small values (kSurveyValueBytes: what shape inference needs); a var that could
// have a value but was left uncomputed is "deferred", and is decided by the bytes its inferred
// shape gives (a deferred var of unknown size is wanted: decided once computed). The survey's
// result names the vars wanted and refused; the fold's import then computes only the nodes the
// wanted vars need (NodesToCompute), and the final plan keeps the survey's refusals. So a value
// nothing written depends on — a ConstantOfShape weight of a Conv whose data is an input — is
// never materialised, and peak memory follows what is written.
// Internal to the export module; thread-compatible, used on the fold's thread only.
#ifndef GRAPHGC_FOLD_PLAN_H_
#define GRAPHGC_FOLD_PLAN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graphgc/export/fold/fold.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/var.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The most bytes a value the survey computes may take: shapes and the small tensors shape
// inference reads are far below it, a network's weights and activations mostly above.
inline constexpr int64_t kSurveyValueBytes = int64_t{64} << 10;

// What the survey decided, by the model's names.
struct SurveyResult {
  absl::flat_hash_set<std::string> wanted;   // to compute: written, or of unknown size
  absl::flat_hash_set<std::string> refused;  // too large to write: never computed for itself
};

class FoldPlan {
 public:
  enum class Mode { kSurvey, kFinal };
  // kFinal with `survey`: the survey's refusals stand (see above).
  FoldPlan(Graph& graph, const onnx::ModelProto& model, const FoldOptions& options, Mode mode,
           const SurveyResult* survey = nullptr);

  // Import hooks (graph_inliner.h).
  void NoteInitializer(const std::string& name, const Var& var);
  void AfterNode(const onnx::NodeProto& node, absl::Span<const Var> inputs,
                 absl::Span<const Var> outputs, bool opaque);
  // A graph output is read by whoever runs the folded model.
  void DecideOutput(const Var& var);

  // kFinal: stores each value decided written at once, as the import goes, rather than hold it to
  // the export: `store` returns the proto that refers to where it put the elements (external
  // data), or nullopt to leave the value held. So the values written are never all in memory at
  // once. A value evicted (a fold under a memory budget) is computed again to be stored: what is
  // written, and in which order, does not depend on the budget. An error from `store` stops the
  // storing; status() reports it.
  using StoreValue =
      std::function<absl::StatusOr<std::optional<onnx::TensorProto>>(const Tensor& value)>;
  void StoreAsDecided(StoreValue store) { store_ = std::move(store); }
  const absl::Status& status() const { return status_; }

  // Export hooks (to_onnx.h): whether a held value is written (decided without the value, which a
  // fold under a memory budget may have evicted), the proto of one stored as it was decided, and
  // the name a var had.
  bool Writes(VarId var) const;
  const onnx::TensorProto* Stored(VarId var) const;
  std::string NameOf(VarId var) const;
  std::string NodeNameOf(NodeId node) const;
  // A node output the model left unnamed (an optional output it does not use).
  bool Unnamed(VarId var) const { return unnamed_.contains(var); }

  // kSurvey: what was decided.
  SurveyResult TakeSurveyResult();

  // Nodes the folded model runs only because a value they make was refused for its size.
  int64_t NodesKeptForSize() const;
  int64_t opaque_nodes() const { return opaque_nodes_; }

 private:
  void Decide(const Var& var);
  // Written: held, or stored as it was decided.
  bool Holds(VarId var) const { return held_.contains(var) || stored_.contains(var); }
  // Stores the value of `var` (StoreAsDecided); false if it is to be held instead.
  bool StoreNow(VarId var);
  // The bytes of the var's value, or of the value its inferred type promises when it is deferred
  // or evicted (the same bytes: strings are never evicted); nullopt when neither tells.
  std::optional<int64_t> BytesOf(const Var& var) const;
  bool WouldWrite(VarId var, int64_t bytes, int rank) const;
  // Whether the var has a value (held or evicted), or (kSurvey) could have one.
  bool Known(VarId var) const;
  // kSurvey: whether the node could compute its outputs — every name it reads (its bodies' outer
  // reads included) is a constant, or known.
  bool Computable(const onnx::NodeProto& node, bool opaque) const;
  bool IsConstant(VarId var) const;
  struct Removed {
    int64_t node_bytes = 0;         // serialized nodes that go
    int64_t initializer_bytes = 0;  // initializers and Constant nodes' tensors that go
  };
  // What writing `var` removes from the model (see above).
  Removed RemovedBy(VarId var) const;
  int64_t ModelReads(VarId var) const;

  Graph& graph_;
  const FoldOptions& options_;
  const Mode mode_;
  const SurveyResult* survey_;
  absl::flat_hash_set<VarId> deferred_;           // kSurvey: could have a value, left uncomputed
  absl::flat_hash_set<std::string> known_names_;  // kSurvey: constants, and known outputs
  // Name -> how many main-graph nodes read it (a body's outer read and a graph output count too).
  absl::flat_hash_map<std::string, int64_t> model_reads_;
  absl::flat_hash_map<VarId, std::string> names_;
  absl::flat_hash_set<VarId> unnamed_;
  absl::flat_hash_map<NodeId, std::string> node_names_;
  absl::flat_hash_map<NodeId, int64_t> node_bytes_;  // the model node each graph node came from
  absl::flat_hash_map<VarId, Var> held_;
  absl::flat_hash_map<VarId, onnx::TensorProto> stored_;
  StoreValue store_;
  absl::Status status_;
  absl::flat_hash_set<VarId> refused_;
  int64_t opaque_nodes_ = 0;
};

// Bytes of the elements of a graph's initializers (external ones by their declared length).
int64_t InitializerBytes(const onnx::GraphProto& graph);
// Bytes a model takes saved: its proto, and the external data its initializers name.
int64_t SavedModelBytes(const onnx::ModelProto& model);

// The main-graph nodes that make the `wanted` names, walked back through what they read (the
// names their bodies read from outside included).
absl::flat_hash_set<const onnx::NodeProto*> NodesToCompute(
    const onnx::GraphProto& graph, const absl::flat_hash_set<std::string>& wanted);

}  // namespace graphgc::internal

#endif  // GRAPHGC_FOLD_PLAN_H_
