#include "graphgc/export/fold.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/fold_plan.h"
#include "graphgc/export/graph_inliner.h"
#include "graphgc/export/to_onnx.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

absl::Status FoldError(const absl::Status& cause) {
  return absl::Status(cause.code(), absl::StrCat("fold: ", cause.message()));
}

// The model-level facts the fold keeps: everything but the graph's nodes, initializers and
// value_info, which the export writes anew.
void KeepModelFacts(const onnx::ModelProto& original, onnx::ModelProto& folded) {
  folded.set_ir_version(std::max<int64_t>(original.ir_version(), folded.ir_version()));
  folded.set_producer_name(original.producer_name());
  folded.set_producer_version(original.producer_version());
  folded.set_domain(original.domain());
  folded.set_model_version(original.model_version());
  folded.set_doc_string(original.doc_string());
  *folded.mutable_metadata_props() = original.metadata_props();
  *folded.mutable_functions() = original.functions();
  *folded.mutable_opset_import() = original.opset_import();
  onnx::GraphProto* graph = folded.mutable_graph();
  graph->set_name(original.graph().name());
  graph->set_doc_string(original.graph().doc_string());
  // Every input stays, used or not, so that a caller's feeds still fit; outputs keep their
  // declared types.
  *graph->mutable_input() = original.graph().input();
  *graph->mutable_output() = original.graph().output();
}

void DropInputsOfRemovedInitializers(const onnx::ModelProto& original, onnx::ModelProto& folded);

// An input that is also an initializer: under IR >= 4 the initializer is the input's default,
// which the folded model keeps beside the input; under IR < 4 (every initializer is listed as an
// input) it is a constant, and its input entry goes when the constant was folded away — the entry
// alone would make it a required feed.
void KeepInitializerInputs(const onnx::ModelProto& original, onnx::ModelProto& folded) {
  absl::flat_hash_set<std::string> inputs;
  for (const auto& input : original.graph().input()) inputs.insert(input.name());
  absl::flat_hash_set<std::string> written;
  for (const auto& initializer : folded.graph().initializer()) written.insert(initializer.name());
  if (original.ir_version() >= 4) {
    for (const auto& initializer : original.graph().initializer()) {
      if (inputs.contains(initializer.name()) && !written.contains(initializer.name())) {
        *folded.mutable_graph()->add_initializer() = initializer;
      }
    }
    return;
  }
  DropInputsOfRemovedInitializers(original, folded);
}

void DropInputsOfRemovedInitializers(const onnx::ModelProto& original, onnx::ModelProto& folded) {
  absl::flat_hash_set<std::string> original_initializers;
  for (const auto& initializer : original.graph().initializer()) {
    original_initializers.insert(initializer.name());
  }
  absl::flat_hash_set<std::string> kept_initializers;
  for (const auto& initializer : folded.graph().initializer()) {
    kept_initializers.insert(initializer.name());
  }
  auto* inputs = folded.mutable_graph()->mutable_input();
  for (int i = inputs->size() - 1; i >= 0; --i) {
    const std::string& name = inputs->Get(i).name();
    if (original_initializers.contains(name) && !kept_initializers.contains(name)) {
      inputs->DeleteSubrange(i, 1);
    }
  }
}

class Folder {
 public:
  Folder(const onnx::ModelProto& model, const FoldOptions& options)
      : model_(model), options_(options) {}

  absl::StatusOr<FoldResult> Run();

 private:
  absl::Status Import(Graph& graph, internal::FoldPlan& plan);
  absl::StatusOr<onnx::ModelProto> Export(Graph& graph, const internal::FoldPlan& plan);

  const onnx::ModelProto& model_;
  const FoldOptions& options_;
  FoldStats stats_;
  std::map<std::string, Var> outputs_;
};

absl::StatusOr<FoldResult> Folder::Run() {
  stats_.nodes_before = model_.graph().node_size();
  stats_.initializer_bytes_before = internal::InitializerBytes(model_.graph());

  GraphOptions graph_options;
  graph_options.max_live_value_bytes = options_.memory_budget_bytes;
  // Collect as soon as anything beyond what survived the last collection is live: the fold
  // promises to hold nothing downstream nodes no longer need, and a collection costs ~100 ns.
  graph_options.growth_factor = 1.0;
  Graph graph(graph_options);
  internal::FoldPlan plan(graph, model_, options_);

  const Clock::time_point import_start = Clock::now();
  GRAPHGC_RETURN_IF_ERROR(Import(graph, plan));
  stats_.import_seconds = SecondsSince(import_start);

  const Clock::time_point fold_start = Clock::now();
  for (const auto& [name, var] : outputs_) plan.DecideOutput(var);
  graph.collect();  // only what the plan holds, the outputs and the constants stay
  stats_.fold_seconds = SecondsSince(fold_start);

  const Clock::time_point export_start = Clock::now();
  GRAPHGC_ASSIGN_OR_RETURN(onnx::ModelProto folded, Export(graph, plan));
  stats_.export_seconds = SecondsSince(export_start);

  const GraphStats graph_stats = graph.stats();
  stats_.peak_live_value_bytes = graph_stats.peak_value_bytes;
  stats_.nodes_kept_for_budget = graph_stats.values_skipped_for_budget;
  stats_.nodes_kept_for_size = plan.NodesKeptForSize();
  stats_.opaque_nodes = plan.opaque_nodes();
  stats_.nodes_after = folded.graph().node_size();
  stats_.nodes_folded = std::max<int64_t>(stats_.nodes_before - stats_.nodes_after, 0);
  stats_.initializer_bytes_after = internal::InitializerBytes(folded.graph());
  return FoldResult{std::move(folded), stats_};
}

absl::Status Folder::Import(Graph& graph, internal::FoldPlan& plan) {
  auto hooks = std::make_shared<internal::InlineHooks>();
  hooks->opaque_unknown_ops = !options_.unknown_ops_are_errors;
  hooks->release_after_last_use = true;
  hooks->inputs_override_initializers = model_.ir_version() >= 4;
  hooks->on_initializer = [&plan](const std::string& name, const Var& var) {
    plan.NoteInitializer(name, var);
  };
  hooks->after_node = [&plan](const onnx::NodeProto& node, absl::Span<const Var> inputs,
                              absl::Span<const Var> outputs,
                              bool opaque) { plan.AfterNode(node, inputs, outputs, opaque); };
  if (options_.progress) {
    hooks->progress = [this](int64_t done, int64_t total) {
      options_.progress("import", done, total);
    };
  }
  absl::StatusOr<std::map<std::string, Var>> outputs =
      internal::InlineModel(graph, model_, {}, std::move(hooks));
  if (!outputs.ok()) return FoldError(outputs.status());
  outputs_ = *std::move(outputs);
  return absl::OkStatus();
}

absl::StatusOr<onnx::ModelProto> Folder::Export(Graph& graph, const internal::FoldPlan& plan) {
  NamedVars outputs;
  for (const auto& output : model_.graph().output()) {
    outputs.emplace_back(output.name(), outputs_.at(output.name()));
  }
  ExportOptions export_options;
  export_options.values_as_initializers = true;
  export_options.write_value = [&plan](VarId var, const Tensor& value) {
    return plan.Writes(var, value);
  };
  export_options.name_of = [&plan](VarId var) { return plan.NameOf(var); };
  export_options.check = false;  // checked below, once the model's own facts are back
  absl::StatusOr<onnx::ModelProto> folded = to_onnx(graph, outputs, export_options);
  if (!folded.ok()) return FoldError(folded.status());
  KeepModelFacts(model_, *folded);
  KeepInitializerInputs(model_, *folded);
  GRAPHGC_RETURN_IF_ERROR(internal::CheckFoldedModel(*folded));
  return folded;
}

}  // namespace

absl::StatusOr<FoldResult> fold(const onnx::ModelProto& model, const FoldOptions& options) {
  try {
    return Folder(model, options).Run();
  } catch (const std::exception& e) {  // the public API never throws
    return absl::InternalError(absl::StrCat("fold: ", e.what()));
  }
}

}  // namespace graphgc
