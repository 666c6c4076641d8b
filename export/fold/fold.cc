#include "graphgc/export/fold/fold.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/fold/cleanups.h"
#include "graphgc/export/fold/fold_plan.h"
#include "graphgc/export/fold/function_bodies.h"
#include "graphgc/export/fold/fusions.h"
#include "graphgc/export/fold/specialised_calls.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/export/onnx/opset_conversion.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/proto/tensor_proto.h"
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

// value_info only for the names the original typed: what the export infers for the others is
// correct, but the original's size is the bound.
// The nodes of the model's graph; with inline_functions, a call of one of the model's functions
// counts as the nodes its body runs (transitively), since those are the nodes the fold sees. A
// cycle among the functions (refused by the import) counts as one node.
int64_t NodesThatRun(const onnx::ModelProto& model, bool inline_functions) {
  if (!inline_functions || model.functions_size() == 0) return model.graph().node_size();
  absl::flat_hash_map<std::pair<std::string, std::string>, const onnx::FunctionProto*> functions;
  for (const onnx::FunctionProto& function : model.functions()) {
    functions.try_emplace(std::make_pair(function.domain(), function.name()), &function);
  }
  absl::flat_hash_map<const onnx::FunctionProto*, int64_t> counted;
  absl::flat_hash_set<const onnx::FunctionProto*> counting;
  std::function<int64_t(const onnx::NodeProto&)> count = [&](const onnx::NodeProto& node) {
    auto found = functions.find(std::make_pair(node.domain(), node.op_type()));
    if (found == functions.end()) return int64_t{1};
    const onnx::FunctionProto* function = found->second;
    if (auto done = counted.find(function); done != counted.end()) return done->second;
    if (!counting.insert(function).second) return int64_t{1};
    int64_t nodes = 0;
    for (const onnx::NodeProto& inner : function->node()) nodes += count(inner);
    counting.erase(function);
    counted[function] = nodes;
    return nodes;
  };
  int64_t nodes = 0;
  for (const onnx::NodeProto& node : model.graph().node()) nodes += count(node);
  return nodes;
}

void KeepDeclaredValueInfo(const onnx::GraphProto& original, onnx::GraphProto& folded) {
  absl::flat_hash_set<std::string> declared;
  for (const auto& info : original.value_info()) declared.insert(info.name());
  auto* infos = folded.mutable_value_info();
  int kept = 0;
  for (int i = 0; i < infos->size(); ++i) {
    if (declared.contains(infos->Get(i).name())) infos->SwapElements(kept++, i);
  }
  infos->DeleteSubrange(kept, infos->size() - kept);
}

// The model-level facts the fold keeps: everything but the graph's nodes, initializers and
// value_info, which the export writes anew.
void KeepModelFacts(const onnx::ModelProto& original, onnx::ModelProto& folded) {
  // A newer IR version than graphgc's ONNX knows was read as the newest it knows (fold.h).
  folded.set_ir_version(std::max<int64_t>(
      std::min(original.ir_version(), internal::kNewestKnownIrVersion), folded.ir_version()));
  // Fields the original leaves unset stay unset: a fold never adds bytes of its own.
  folded.clear_producer_name();
  if (original.has_producer_name()) folded.set_producer_name(original.producer_name());
  if (original.has_producer_version()) folded.set_producer_version(original.producer_version());
  if (original.has_domain()) folded.set_domain(original.domain());
  if (original.has_model_version()) folded.set_model_version(original.model_version());
  if (original.has_doc_string()) folded.set_doc_string(original.doc_string());
  *folded.mutable_metadata_props() = original.metadata_props();
  // The functions are those the export wrote: the ones the folded graph still calls.
  *folded.mutable_opset_import() = original.opset_import();
  onnx::GraphProto* graph = folded.mutable_graph();
  graph->clear_name();
  if (original.graph().has_name()) graph->set_name(original.graph().name());
  if (original.graph().has_doc_string()) graph->set_doc_string(original.graph().doc_string());
  // Every input stays, used or not, so that a caller's feeds still fit; outputs keep their
  // declared types.
  *graph->mutable_input() = original.graph().input();
  *graph->mutable_output() = original.graph().output();
  KeepDeclaredValueInfo(original.graph(), *graph);
}

void DropInputsOfRemovedInitializers(const onnx::ModelProto& original, onnx::ModelProto& folded);

// An initializer that comes through unchanged keeps the encoding it had when that is smaller:
// small int64s in int64_data take a byte or two each, in raw_data eight.
void KeepOriginalEncodings(const onnx::GraphProto& original, onnx::GraphProto& folded) {
  absl::flat_hash_map<absl::string_view, const onnx::TensorProto*> originals;
  for (const onnx::TensorProto& tensor : original.initializer()) {
    if (tensor.data_location() != onnx::TensorProto::EXTERNAL) {
      originals.emplace(tensor.name(), &tensor);
    }
  }
  for (onnx::TensorProto& tensor : *folded.mutable_initializer()) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) continue;
    auto it = originals.find(tensor.name());
    if (it == originals.end()) continue;
    const onnx::TensorProto& before = *it->second;
    const bool same =
        before.data_type() == tensor.data_type() && absl::c_equal(before.dims(), tensor.dims());
    if (same && before.ByteSizeLong() < tensor.ByteSizeLong()) tensor = before;
  }
}

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
      : model_(model), options_(options), reader_(options.model_dir) {
    load_ = [this](const onnx::TensorProto& tensor) { return reader_.Load(tensor); };
  }

  // Folds the model given to the constructor as it is (no fusions).
  absl::StatusOr<FoldResult> Run();
  // Fuses `model` in place (FoldOptions::fuse), then folds it.
  absl::StatusOr<FoldResult> RunConsuming(onnx::ModelProto& model);

 private:
  absl::StatusOr<FoldResult> RunOn(const onnx::ModelProto& model);
  // The plan before computing (fold_plan.h): which values are wanted, which refused.
  absl::StatusOr<internal::SurveyResult> Survey();
  // `value_limit`: the most bytes a node's values may take (empty: no limit).
  absl::Status Import(Graph& graph, internal::FoldPlan& plan, const char* phase,
                      std::function<int64_t(const onnx::NodeProto&)> value_limit);
  // Keeps FoldStats::peak_node up to date after `node` was imported.
  void NotePeak(const Graph& graph, const onnx::NodeProto& node, absl::Span<const Var> inputs);
  // `writer`: the output's external data (FoldOptions::external_data_file), or nullptr.
  absl::StatusOr<onnx::ModelProto> Export(Graph& graph, const internal::FoldPlan& plan,
                                          internal::ExternalDataWriter* writer);
  // Writes `value`'s elements to `writer` into `proto` if it is over the external data threshold
  // (false: not written): copied file to file when they are a weight of the model's own external
  // data, so that they never pass through memory.
  absl::StatusOr<bool> StoreExternally(const Tensor& value, internal::ExternalDataWriter& writer,
                                       onnx::TensorProto* proto);
  // The cleanups (cleanups.h) the options ask for, counted in stats_.
  absl::Status CleanUp(onnx::ModelProto& folded);
  // The model the fold was given, as the result: a fold whose result would be larger than its
  // input gives its input instead (external data written as options_ ask).
  absl::StatusOr<onnx::ModelProto> Unchanged();

  const onnx::ModelProto& model_;
  const onnx::ModelProto* current_ = nullptr;  // the model being folded: model_ or a fused one
  const FoldOptions& options_;
  internal::ExternalDataReader reader_;
  internal::InitializerLoader load_;
  FoldStats stats_;
  std::map<std::string, Var> outputs_;
};

absl::StatusOr<FoldResult> Folder::Run() {
  stats_.model_bytes_before = internal::SavedModelBytes(model_);
  stats_.nodes_before = NodesThatRun(model_, options_.inline_functions);
  stats_.initializer_bytes_before = internal::InitializerBytes(model_.graph());
  return RunOn(model_);
}

absl::StatusOr<FoldResult> Folder::RunConsuming(onnx::ModelProto& model) {
  stats_.model_bytes_before = internal::SavedModelBytes(model);
  stats_.nodes_before = NodesThatRun(model, options_.inline_functions);
  stats_.initializer_bytes_before = internal::InitializerBytes(model.graph());
  if (options_.fuse) {
    const Clock::time_point fuse_start = Clock::now();
    absl::StatusOr<internal::FusionCounts> fused = internal::ApplyFusions(model, load_);
    if (!fused.ok()) return FoldError(fused.status());
    stats_.nodes_fused = fused->nodes_removed();
    stats_.fuse_seconds = SecondsSince(fuse_start);
  }
  return RunOn(model);
}

absl::StatusOr<FoldResult> Folder::RunOn(const onnx::ModelProto& model) {
  current_ = &model;

  // fold_anyway writes every value, so there is nothing to plan: everything is computed.
  std::optional<internal::SurveyResult> survey;
  std::function<int64_t(const onnx::NodeProto&)> value_limit;
  absl::flat_hash_set<const onnx::NodeProto*> to_compute;
  if (!options_.fold_anyway) {
    const Clock::time_point plan_start = Clock::now();
    GRAPHGC_ASSIGN_OR_RETURN(survey, Survey());
    to_compute = internal::NodesToCompute(current_->graph(), survey->wanted);
    value_limit = [&to_compute](const onnx::NodeProto& node) {
      return to_compute.contains(&node) ? std::numeric_limits<int64_t>::max()
                                        : internal::kSurveyValueBytes;
    };
    stats_.plan_seconds = SecondsSince(plan_start);
  }

  GraphOptions graph_options;
  graph_options.max_live_value_bytes = options_.memory_budget_bytes;
  // Under a budget, values the plan holds are evicted to make room and computed again as they are
  // written, rather than left uncomputed.
  graph_options.on_budget = OnBudget::kEvictAndRecompute;
  graph_options.budget_counts_constants = false;  // the budget is for computed values, as ever
  // Collect as soon as anything beyond what survived the last collection is live: the fold
  // promises to hold nothing downstream nodes no longer need, and a collection costs ~100 ns.
  graph_options.growth_factor = 1.0;
  Graph graph(graph_options);
  internal::FoldPlan plan(graph, *current_, options_, internal::FoldPlan::Mode::kFinal,
                          survey.has_value() ? &*survey : nullptr);
  // With external data, each value written goes to the file as it is decided and is let go then:
  // the values written are never all in memory (fold_plan.h).
  std::optional<internal::ExternalDataWriter> writer;
  if (!options_.external_data_file.empty()) {
    writer.emplace(options_.output_dir, options_.external_data_file);
    plan.StoreAsDecided(
        [this, &writer](const Tensor& value) -> absl::StatusOr<std::optional<onnx::TensorProto>> {
          onnx::TensorProto proto;
          GRAPHGC_ASSIGN_OR_RETURN(const bool stored, StoreExternally(value, *writer, &proto));
          if (!stored) return std::nullopt;
          return proto;
        });
  }

  const Clock::time_point import_start = Clock::now();
  GRAPHGC_RETURN_IF_ERROR(Import(graph, plan, "import", std::move(value_limit)));
  if (!plan.status().ok()) return FoldError(plan.status());
  stats_.import_seconds = SecondsSince(import_start);

  const Clock::time_point fold_start = Clock::now();
  for (const auto& [name, var] : outputs_) plan.DecideOutput(var);
  if (!plan.status().ok()) return FoldError(plan.status());
  graph.collect();  // only what the plan holds, the outputs and the constants stay
  stats_.fold_seconds = SecondsSince(fold_start);

  const Clock::time_point export_start = Clock::now();
  GRAPHGC_ASSIGN_OR_RETURN(onnx::ModelProto folded,
                           Export(graph, plan, writer.has_value() ? &*writer : nullptr));
  const internal::SpecialisedCalls specialised =
      internal::SpecialiseCalls(folded, options_.max_fold_bytes);
  stats_.calls_specialised = specialised.calls;
  stats_.functions_specialised = specialised.functions;
  stats_.function_nodes_folded = internal::FoldFunctionBodies(folded, options_.max_fold_bytes);
  stats_.model_bytes_after = internal::SavedModelBytes(folded);
  if (!options_.fold_anyway && stats_.model_bytes_after > stats_.model_bytes_before) {
    // What the plan writes never grows the model, but the rest of the export may (bodies of If
    // and Loop are written anew): the promise holds for the whole model.
    GRAPHGC_ASSIGN_OR_RETURN(folded, Unchanged());
    stats_.model_bytes_after = internal::SavedModelBytes(folded);
    stats_.kept_unchanged = true;
  }
  stats_.export_seconds = SecondsSince(export_start);

  const GraphStats graph_stats = graph.stats();
  stats_.peak_live_value_bytes = graph_stats.peak_value_bytes;
  stats_.nodes_kept_for_budget = graph_stats.values_skipped_for_budget;
  stats_.values_evicted = graph_stats.values_evicted;
  stats_.values_recomputed = graph_stats.values_recomputed;
  stats_.recomputed_bytes = graph_stats.recomputed_bytes;
  stats_.recompute_seconds = static_cast<double>(graph_stats.recompute_ns) * 1e-9;
  stats_.nodes_kept_for_size = plan.NodesKeptForSize();
  stats_.opaque_nodes = plan.opaque_nodes();
  stats_.nodes_after = folded.graph().node_size();
  stats_.nodes_folded = std::max<int64_t>(stats_.nodes_before - stats_.nodes_after, 0);
  stats_.initializer_bytes_after = internal::InitializerBytes(folded.graph());
  FoldResult result{std::move(folded), stats_, {}};
  if (options_.memory_budget_bytes > 0 && options_.external_data_file.empty() &&
      stats_.initializer_bytes_after > options_.memory_budget_bytes) {
    result.warnings.push_back(absl::StrCat(
        "the memory budget bounds the values computed, not the model: written without external "
        "data, the result holds its ",
        stats_.initializer_bytes_after, " bytes of initializers in memory"));
  }
  return result;
}

absl::StatusOr<internal::SurveyResult> Folder::Survey() {
  GraphOptions graph_options;
  graph_options.growth_factor = 1.0;
  Graph graph(graph_options);
  internal::FoldPlan survey(graph, *current_, options_, internal::FoldPlan::Mode::kSurvey);
  GRAPHGC_RETURN_IF_ERROR(Import(
      graph, survey, "plan", [](const onnx::NodeProto&) { return internal::kSurveyValueBytes; }));
  for (const auto& [name, var] : outputs_) survey.DecideOutput(var);
  outputs_.clear();
  return survey.TakeSurveyResult();
}

absl::Status Folder::Import(Graph& graph, internal::FoldPlan& plan, const char* phase,
                            std::function<int64_t(const onnx::NodeProto&)> value_limit) {
  auto hooks = std::make_shared<internal::InlineHooks>();
  hooks->opaque_unknown_ops = !options_.unknown_ops_are_errors;
  hooks->inline_functions = options_.inline_functions;
  hooks->release_after_last_use = true;
  hooks->load_initializer = load_;
  hooks->inputs_override_initializers = current_->ir_version() >= 4;
  // The inputs' dim_params name their dims, so that a Reshape of the data's own dims folds.
  hooks->keep_dim_names = true;
  hooks->value_bytes_limit = std::move(value_limit);
  // A value the fold writes is then written (and let go) as soon as it is made, however early
  // the model computes it.
  hooks->constants_just_in_time = true;
  hooks->on_initializer = [&plan](const std::string& name, const Var& var) {
    plan.NoteInitializer(name, var);
  };
  hooks->after_node = [this, &graph, &plan](const onnx::NodeProto& node,
                                            absl::Span<const Var> inputs,
                                            absl::Span<const Var> outputs, bool opaque) {
    plan.AfterNode(node, inputs, outputs, opaque);
    NotePeak(graph, node, inputs);
    // The weights this node read stay in the page cache, not in the fold's memory.
    reader_.ReleaseResidentPages();
  };
  if (options_.progress) {
    hooks->progress = [this, phase](int64_t done, int64_t total) {
      options_.progress(phase, done, total);
    };
  }
  absl::StatusOr<std::map<std::string, Var>> outputs =
      internal::InlineModel(graph, *current_, {}, std::move(hooks));
  if (!outputs.ok()) return FoldError(outputs.status());
  outputs_ = *std::move(outputs);
  return absl::OkStatus();
}

absl::StatusOr<bool> Folder::StoreExternally(const Tensor& value,
                                             internal::ExternalDataWriter& writer,
                                             onnx::TensorProto* proto) {
  if (!internal::ExternalDataWriter::ShouldWrite(value, options_.external_data_threshold)) {
    return false;
  }
  if (const std::optional<internal::FileRange> source = reader_.SourceOf(value)) {
    GRAPHGC_RETURN_IF_ERROR(writer.Copy(value, *source, proto));
  } else {
    GRAPHGC_RETURN_IF_ERROR(writer.Write(value, proto));
  }
  return true;
}

void Folder::NotePeak(const Graph& graph, const onnx::NodeProto& node,
                      absl::Span<const Var> inputs) {
  int64_t bytes = graph.stats().live_value_bytes;
  for (const Var& input : inputs) {
    if (input.empty() || !input.ok()) continue;
    // A constant's tensor: in the arena, so not among the live values; a view of the model's
    // external data was read from the mapping (the pages given back after the node).
    const std::optional<Tensor> value = graph.core()->value(input.id());
    if (value.has_value() && value->is_external_view()) {
      bytes += static_cast<int64_t>(value->nbytes());
    }
  }
  if (bytes <= stats_.peak_node_bytes) return;
  stats_.peak_node_bytes = bytes;
  stats_.peak_node = !node.name().empty()     ? node.name()
                     : node.output_size() > 0 ? absl::StrCat(node.op_type(), " -> ", node.output(0))
                                              : node.op_type();
}

absl::StatusOr<onnx::ModelProto> Folder::Export(Graph& graph, const internal::FoldPlan& plan,
                                                internal::ExternalDataWriter* writer) {
  NamedVars outputs;
  for (const auto& output : current_->graph().output()) {
    auto it = outputs_.find(output.name());
    if (it == outputs_.end()) {
      return FoldError(absl::InvalidArgumentError(
          absl::StrCat("the model's output '", output.name(), "' was not made")));
    }
    outputs.emplace_back(output.name(), it->second);
  }
  ExportOptions export_options;
  export_options.values_as_initializers = true;
  export_options.write_var = [&plan](VarId var) { return plan.Writes(var); };
  export_options.stored_initializer = [&plan](VarId var) { return plan.Stored(var); };
  export_options.name_of = [&plan](VarId var) { return plan.NameOf(var); };
  export_options.node_name_of = [&plan](NodeId node) { return plan.NodeNameOf(node); };
  export_options.omit_output = [&plan](VarId var) { return plan.Unnamed(var); };
  export_options.check = false;                // checked below, once the model's own facts are back
  export_options.carry_symbolic_dims = false;  // the model's own declarations come back below
  if (writer != nullptr) {
    export_options.store_elements = [this, writer](const Tensor& value, onnx::TensorProto* proto) {
      return StoreExternally(value, *writer, proto);
    };
  }
  absl::StatusOr<onnx::ModelProto> folded = to_onnx(graph, outputs, export_options);
  if (!folded.ok()) return FoldError(folded.status());
  // Before the value_info the export inferred is trimmed: it types the casts.
  GRAPHGC_RETURN_IF_ERROR(CleanUp(*folded));
  KeepModelFacts(*current_, *folded);
  KeepInitializerInputs(*current_, *folded);
  KeepOriginalEncodings(current_->graph(), *folded->mutable_graph());
  if (writer != nullptr) {
    // The defaults of overridable inputs came over as they were; they move out like the rest.
    GRAPHGC_RETURN_IF_ERROR(
        internal::MoveToExternalData(*folded, *writer, options_.external_data_threshold));
    if (absl::Status finished = writer->Finish(); !finished.ok()) return FoldError(finished);
    return folded;  // checked from its file once saved (check_model(path)); see fold.h
  }
  GRAPHGC_RETURN_IF_ERROR(internal::CheckWithOnnxChecker(*folded, "fold"));
  return folded;
}

absl::Status Folder::CleanUp(onnx::ModelProto& folded) {
  internal::CleanupOptions cleanups;
  cleanups.remove_noop_casts = options_.remove_noop_casts;
  cleanups.eliminate_common_subexpressions = options_.eliminate_common_subexpressions;
  cleanups.merge_initializers = options_.merge_initializers;
  absl::StatusOr<internal::CleanupCounts> counts = internal::ApplyCleanups(folded, cleanups);
  if (!counts.ok()) return FoldError(counts.status());
  stats_.noop_casts_removed = counts->noop_casts_removed;
  stats_.common_subexpressions_removed = counts->common_subexpressions_removed;
  stats_.initializers_merged = counts->initializers_merged;
  return absl::OkStatus();
}

absl::StatusOr<onnx::ModelProto> Folder::Unchanged() {
  onnx::ModelProto model = *current_;
  std::optional<internal::ExternalDataWriter> writer;
  if (!options_.external_data_file.empty()) {
    writer.emplace(options_.output_dir, options_.external_data_file);
  }
  for (onnx::TensorProto& initializer : *model.mutable_graph()->mutable_initializer()) {
    if (initializer.data_location() != onnx::TensorProto::EXTERNAL) continue;
    absl::StatusOr<Tensor> tensor = reader_.Load(initializer);
    if (!tensor.ok()) return FoldError(tensor.status());
    onnx::TensorProto rewritten;
    bool stored = false;
    if (writer.has_value()) {
      absl::StatusOr<bool> written = StoreExternally(*tensor, *writer, &rewritten);
      if (!written.ok()) return FoldError(written.status());
      stored = *written;
    }
    if (!stored) rewritten = internal::ToTensorProto(*tensor);
    rewritten.set_name(initializer.name());
    initializer = std::move(rewritten);
  }
  if (writer.has_value()) {
    GRAPHGC_RETURN_IF_ERROR(
        internal::MoveToExternalData(model, *writer, options_.external_data_threshold));
    if (absl::Status finished = writer->Finish(); !finished.ok()) return FoldError(finished);
  }
  return model;
}

// `model` converted to options.opset; nullopt when it is not to be converted.
absl::StatusOr<std::optional<onnx::ModelProto>> ConvertFirst(const onnx::ModelProto& model,
                                                             const FoldOptions& options) {
  if (options.opset == 0) return std::nullopt;
  if (options.opset < 0 || options.opset > kNewestOnnxOpset) {
    return absl::InvalidArgumentError(absl::StrCat("fold: FoldOptions::opset is ", options.opset,
                                                   "; it must be 0 (keep the model's) or 1 to ",
                                                   kNewestOnnxOpset));
  }
  auto reader = std::make_shared<internal::ExternalDataReader>(options.model_dir);
  internal::OpsetConversion conversion = internal::ConvertOnnxOpset(
      model, options.opset,
      [reader](const onnx::TensorProto& tensor) { return reader->Load(tensor); });
  if (!conversion.warning.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("fold: ", conversion.warning));
  }
  return std::move(conversion.model);
}

absl::StatusOr<FoldResult> FoldConsuming(onnx::ModelProto& model, const FoldOptions& options) {
  GRAPHGC_ASSIGN_OR_RETURN(std::optional<onnx::ModelProto> converted, ConvertFirst(model, options));
  if (converted.has_value()) model = *std::move(converted);
  try {
    return Folder(model, options).RunConsuming(model);
  } catch (const std::exception& e) {  // the public API never throws
    return absl::InternalError(absl::StrCat("fold: ", e.what()));
  }
}

absl::StatusOr<FoldResult> FoldCopying(const onnx::ModelProto& model, const FoldOptions& options) {
  GRAPHGC_ASSIGN_OR_RETURN(std::optional<onnx::ModelProto> converted, ConvertFirst(model, options));
  if (converted.has_value()) return FoldConsuming(*converted, options);
  if (!options.fuse) {
    try {
      return Folder(model, options).Run();
    } catch (const std::exception& e) {  // the public API never throws
      return absl::InternalError(absl::StrCat("fold: ", e.what()));
    }
  }
  onnx::ModelProto copy = model;  // the fusions rewrite their model
  return FoldConsuming(copy, options);
}

absl::StatusOr<FoldResult> WithWarning(absl::StatusOr<FoldResult> result, std::string warning) {
  if (result.ok() && !warning.empty()) result->warnings.push_back(std::move(warning));
  return result;
}

}  // namespace

absl::StatusOr<FoldResult> fold(const onnx::ModelProto& model, const FoldOptions& options) {
  return WithWarning(FoldCopying(model, options), internal::NewerIrVersionWarning(model));
}

absl::StatusOr<FoldResult> fold(onnx::ModelProto&& model, const FoldOptions& options) {
  std::string warning = internal::NewerIrVersionWarning(model);
  return WithWarning(FoldConsuming(model, options), std::move(warning));
}

}  // namespace graphgc
