#include "graphgc/export/fold/fold_plan.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/graph_names.h"
#include "graphgc/ir/graph_core.h"

namespace graphgc::internal {
namespace {

// A cone walk past this many nodes gives up: nothing counts as replaced (the value stays
// unwritten unless small), so a pathological model cannot make the fold quadratic.
constexpr int64_t kMaxConeNodes = 100'000;

int64_t SaturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b ? std::numeric_limits<int64_t>::max() : a + b;
}

// Bytes of one tensor's elements as the proto stores them, never trusting a size to fit.
int64_t TensorProtoBytes(const onnx::TensorProto& tensor) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    for (const auto& entry : tensor.external_data()) {
      int64_t length = 0;
      if (entry.key() == "length" && absl::SimpleAtoi(entry.value(), &length) && length > 0) {
        return length;
      }
    }
  }
  if (tensor.has_raw_data()) return static_cast<int64_t>(tensor.raw_data().size());
  int64_t bytes = 0;
  bytes = SaturatingAdd(bytes, int64_t{4} * tensor.float_data_size());
  bytes = SaturatingAdd(bytes, int64_t{4} * tensor.int32_data_size());
  bytes = SaturatingAdd(bytes, int64_t{8} * tensor.int64_data_size());
  bytes = SaturatingAdd(bytes, int64_t{8} * tensor.double_data_size());
  bytes = SaturatingAdd(bytes, int64_t{8} * tensor.uint64_data_size());
  for (const std::string& text : tensor.string_data()) {
    bytes = SaturatingAdd(bytes, static_cast<int64_t>(text.size()));
  }
  return bytes;
}

// A field's tag and length in its parent message (a node in the graph, a tensor's data).
constexpr int64_t kFieldFraming = 2;

// What a TensorProto spends besides its elements: its name, dims, element type and field tags.
int64_t TensorFraming(const std::string& name, int rank) {
  return static_cast<int64_t>(name.size()) + 2 * rank + 4 * kFieldFraming;
}

int64_t ValueBytes(const Tensor& value) {
  if (value.dtype() != DataType::kString) return static_cast<int64_t>(value.nbytes());
  int64_t bytes = 0;
  for (const std::string& text : value.data<std::string>()) {
    bytes = SaturatingAdd(bytes, static_cast<int64_t>(text.size()));
  }
  return bytes;
}

// The bytes a tensor of this type takes, if its shape is fully known (strings have no fixed size).
std::optional<int64_t> TypeBytes(const VarType& type) {
  if (!type.is_tensor() || !type.shape().has_value() || type.dtype() == DataType::kString) {
    return std::nullopt;
  }
  const int64_t element_size = static_cast<int64_t>(ElementSize(type.dtype()));
  const std::vector<int64_t>& shape = *type.shape();
  if (element_size <= 0 || absl::c_any_of(shape, [](int64_t dim) { return dim < 0; })) {
    return std::nullopt;
  }
  // Past int64, too large to write whatever it removes.
  const absl::StatusOr<int64_t> count = ElementCount(shape);
  if (!count.ok() || *count > std::numeric_limits<int64_t>::max() / element_size) {
    return std::numeric_limits<int64_t>::max();
  }
  return *count * element_size;
}

}  // namespace

int64_t SavedModelBytes(const onnx::ModelProto& model) {
  int64_t bytes = static_cast<int64_t>(model.ByteSizeLong());
  for (const onnx::TensorProto& tensor : model.graph().initializer()) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
      bytes = SaturatingAdd(bytes, TensorProtoBytes(tensor));
    }
  }
  return bytes;
}

absl::flat_hash_set<const onnx::NodeProto*> NodesToCompute(
    const onnx::GraphProto& graph, const absl::flat_hash_set<std::string>& wanted) {
  absl::flat_hash_map<absl::string_view, const onnx::NodeProto*> producer;
  for (const onnx::NodeProto& node : graph.node()) {
    for (const std::string& output : node.output()) {
      if (!output.empty()) producer.emplace(output, &node);
    }
  }
  absl::flat_hash_set<const onnx::NodeProto*> nodes;
  std::vector<std::string> work(wanted.begin(), wanted.end());
  while (!work.empty()) {
    const std::string name = std::move(work.back());
    work.pop_back();
    auto made_by = producer.find(name);
    if (made_by == producer.end() || !nodes.insert(made_by->second).second) continue;
    for (std::string& read : ReadNames(*made_by->second)) {
      if (!read.empty()) work.push_back(std::move(read));
    }
  }
  return nodes;
}

int64_t InitializerBytes(const onnx::GraphProto& graph) {
  int64_t bytes = 0;
  for (const onnx::TensorProto& tensor : graph.initializer()) {
    bytes = SaturatingAdd(bytes, TensorProtoBytes(tensor));
  }
  return bytes;
}

FoldPlan::FoldPlan(Graph& graph, const onnx::ModelProto& model, const FoldOptions& options,
                   Mode mode, const SurveyResult* survey)
    : graph_(graph), options_(options), mode_(mode), survey_(survey) {
  for (const onnx::NodeProto& node : model.graph().node()) {
    absl::flat_hash_set<std::string> counted;
    for (const std::string& name : ReadNames(node)) {
      if (!name.empty() && counted.insert(name).second) ++model_reads_[name];
    }
  }
  for (const auto& output : model.graph().output()) ++model_reads_[output.name()];
}

void FoldPlan::NoteInitializer(const std::string& name, const Var& var) {
  names_[var.id()] = name;
  if (IsConstant(var.id())) known_names_.insert(name);
}

bool FoldPlan::Computable(const onnx::NodeProto& node, bool opaque) const {
  if (mode_ != Mode::kSurvey || opaque) return false;
  for (const std::string& name : ReadNames(node)) {
    if (!name.empty() && !known_names_.contains(name)) return false;
  }
  return true;
}

void FoldPlan::AfterNode(const onnx::NodeProto& node, absl::Span<const Var> inputs,
                         absl::Span<const Var> outputs, bool opaque) {
  if (opaque) ++opaque_nodes_;
  const GraphCore& core = *graph_.core();
  if (!outputs.empty() && outputs[0].ok()) {
    const NodeId made_by = core.arena().var_producer(outputs[0].id());
    if (made_by.valid()) {
      if (!node.name().empty()) node_names_[made_by] = node.name();
      node_bytes_[made_by] = static_cast<int64_t>(node.ByteSizeLong());
    }
  }
  const bool computable = Computable(node, opaque);
  bool keeps_running = false;
  for (int i = 0; i < node.output_size() && i < static_cast<int>(outputs.size()); ++i) {
    const VarId output = outputs[i].id();
    if (node.output(i).empty()) {
      unnamed_.insert(output);
      continue;
    }
    names_[output] = node.output(i);
    if (!core.has_value(output) && computable) deferred_.insert(output);
    if (Known(output)) {
      if (mode_ == Mode::kSurvey) known_names_.insert(node.output(i));
    } else {
      keeps_running = true;
    }
  }
  if (!keeps_running) return;
  for (const Var& input : inputs) {
    if (!input.empty() && input.ok()) Decide(input);
  }
}

void FoldPlan::DecideOutput(const Var& var) {
  if (var.ok()) Decide(var);
}

bool FoldPlan::IsConstant(VarId var) const {
  return graph_.core()->arena().var_kind(var) == VarKind::kConstant;
}

bool FoldPlan::Known(VarId var) const {
  // An evicted value (a fold under a memory budget) is computed again when it is written.
  return graph_.core()->has_value(var) || graph_.core()->evicted(var) || deferred_.contains(var);
}

std::optional<int64_t> FoldPlan::BytesOf(const Var& var) const {
  if (const std::optional<Tensor> value = graph_.core()->value(var.id())) {
    return ValueBytes(*value);
  }
  return TypeBytes(graph_.core()->arena().var_type(var.id()));
}

bool FoldPlan::WouldWrite(VarId var, int64_t bytes, int rank) const {
  const Removed removed = RemovedBy(var);
  const int64_t written = SaturatingAdd(bytes, TensorFraming(NameOf(var), rank));
  return written <= SaturatingAdd(removed.node_bytes, removed.initializer_bytes) &&
         (bytes <= options_.max_fold_bytes || bytes <= removed.initializer_bytes);
}

void FoldPlan::Decide(const Var& var) {
  const VarId id = var.id();
  if (IsConstant(id) || Holds(id) || refused_.contains(id)) return;
  // Refused by the survey: left uncomputed, made by its nodes.
  if (survey_ != nullptr && survey_->refused.contains(NameOf(id))) {
    refused_.insert(id);
    return;
  }
  if (!Known(id)) return;
  bool write = options_.fold_anyway;
  if (!write) {
    // A deferred var of unknown size is wanted: the final plan decides it once computed.
    const std::optional<int64_t> bytes = BytesOf(var);
    const VarType type = graph_.core()->arena().var_type(id);
    const int rank = type.shape().has_value() ? static_cast<int>(type.shape()->size()) : 0;
    write = !bytes.has_value() || WouldWrite(id, *bytes, rank);
  }
  if (!write) {
    refused_.insert(id);
  } else if (!StoreNow(id)) {
    held_.emplace(id, var);
  }
}

bool FoldPlan::StoreNow(VarId var) {
  if (mode_ != Mode::kFinal || !store_ || !status_.ok()) return false;
  // An evicted value is computed again now (a fold under a memory budget), so that what is
  // written, and in which order, does not depend on the budget.
  const std::optional<Value> value = graph_.core()->read_value(var);
  if (!value.has_value() || !value->is_tensor()) return false;
  absl::StatusOr<std::optional<onnx::TensorProto>> stored = store_(value->tensor());
  if (!stored.ok()) {
    status_ = stored.status();
    return false;
  }
  if (!stored->has_value()) return false;
  stored_.emplace(var, **std::move(stored));
  return true;
}

const onnx::TensorProto* FoldPlan::Stored(VarId var) const {
  auto it = stored_.find(var);
  return it == stored_.end() ? nullptr : &it->second;
}

SurveyResult FoldPlan::TakeSurveyResult() {
  SurveyResult result;
  for (const auto& [var, handle] : held_) result.wanted.insert(NameOf(var));
  for (VarId var : refused_) {
    if (!NameOf(var).empty()) result.refused.insert(NameOf(var));
  }
  held_.clear();
  return result;
}

int64_t FoldPlan::ModelReads(VarId var) const {
  auto name = names_.find(var);
  if (name == names_.end()) return 0;  // an output the model leaves unnamed: nothing reads it
  auto reads = model_reads_.find(name->second);
  return reads == model_reads_.end() ? 0 : reads->second;
}

FoldPlan::Removed FoldPlan::RemovedBy(VarId var) const {
  const Arena& arena = graph_.core()->arena();
  // The cone: the nodes that make `var` from what is not held, walked back from its producer.
  std::vector<NodeId> cone;
  absl::flat_hash_set<NodeId> in_cone;
  std::vector<NodeId> work;
  const NodeId sink = arena.var_producer(var);
  if (sink.valid()) work.push_back(sink);
  while (!work.empty()) {
    const NodeId node = work.back();
    work.pop_back();
    if (!in_cone.insert(node).second) continue;
    if (static_cast<int64_t>(in_cone.size()) > kMaxConeNodes) return {};
    cone.push_back(node);
    for (VarId input : arena.node_inputs(node)) {
      if (input.valid() && !IsConstant(input) && !Holds(input) &&
          arena.var_producer(input).valid()) {
        work.push_back(arena.var_producer(input));
      }
    }
  }
  // Readers before what they read (IDs grow as nodes are appended): a node goes once every model
  // read of its outputs is by a node that goes, and `var` itself becomes the initializer.
  std::sort(cone.begin(), cone.end(), [](NodeId a, NodeId b) { return a.value() > b.value(); });
  absl::flat_hash_map<VarId, int64_t> reads_by_removed;
  Removed removed;
  for (NodeId node : cone) {
    bool goes = true;
    for (int i = 0; i < arena.node_num_outputs(node) && goes; ++i) {
      const VarId output = arena.node_output(node, i);
      if (output == var) continue;
      auto reads = reads_by_removed.find(output);
      goes = ModelReads(output) <= (reads == reads_by_removed.end() ? 0 : reads->second);
    }
    if (!goes) continue;
    auto bytes = node_bytes_.find(node);
    if (bytes != node_bytes_.end()) {
      removed.node_bytes = SaturatingAdd(removed.node_bytes, bytes->second + kFieldFraming);
    }
    absl::flat_hash_set<VarId> read;
    for (VarId input : arena.node_inputs(node)) {
      if (input.valid() && read.insert(input).second) ++reads_by_removed[input];
    }
  }
  // Initializers and Constant nodes' tensors that only removed nodes read.
  for (const auto& [input, reads] : reads_by_removed) {
    if (!IsConstant(input) || reads < ModelReads(input)) continue;
    const std::optional<Tensor> value = graph_.core()->value(input);
    if (value.has_value()) {
      const int rank = static_cast<int>(value->shape().size());
      removed.initializer_bytes =
          SaturatingAdd(removed.initializer_bytes,
                        SaturatingAdd(ValueBytes(*value), TensorFraming(NameOf(input), rank)));
    }
  }
  return removed;
}

bool FoldPlan::Writes(VarId var) const { return IsConstant(var) || Holds(var); }

std::string FoldPlan::NodeNameOf(NodeId node) const {
  auto it = node_names_.find(node);
  return it == node_names_.end() ? std::string() : it->second;
}

std::string FoldPlan::NameOf(VarId var) const {
  auto it = names_.find(var);
  return it == names_.end() ? std::string() : it->second;
}

int64_t FoldPlan::NodesKeptForSize() const {
  const Arena& arena = graph_.core()->arena();
  absl::flat_hash_set<NodeId> kept;
  std::vector<NodeId> work;
  for (VarId var : refused_) {
    if (arena.var_producer(var).valid()) work.push_back(arena.var_producer(var));
  }
  while (!work.empty() && static_cast<int64_t>(kept.size()) <= kMaxConeNodes) {
    const NodeId node = work.back();
    work.pop_back();
    if (!kept.insert(node).second) continue;
    for (VarId input : arena.node_inputs(node)) {
      if (!input.valid() || IsConstant(input) || Holds(input)) continue;
      if (arena.var_producer(input).valid()) work.push_back(arena.var_producer(input));
    }
  }
  return static_cast<int64_t>(kept.size());
}

}  // namespace graphgc::internal
