#include "graphgc/export/fold/fold_plan.h"

#include <limits>
#include <vector>

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

int64_t ValueBytes(const Tensor& value) {
  if (value.dtype() != DataType::kString) return static_cast<int64_t>(value.nbytes());
  int64_t bytes = 0;
  for (const std::string& text : value.data<std::string>()) {
    bytes = SaturatingAdd(bytes, static_cast<int64_t>(text.size()));
  }
  return bytes;
}

}  // namespace

int64_t InitializerBytes(const onnx::GraphProto& graph) {
  int64_t bytes = 0;
  for (const onnx::TensorProto& tensor : graph.initializer()) {
    bytes = SaturatingAdd(bytes, TensorProtoBytes(tensor));
  }
  return bytes;
}

FoldPlan::FoldPlan(Graph& graph, const onnx::ModelProto& model, const FoldOptions& options)
    : graph_(graph), options_(options) {
  for (const onnx::NodeProto& node : model.graph().node()) {
    absl::flat_hash_set<std::string> counted;
    for (const std::string& name : ReadNames(node)) {
      if (!name.empty() && counted.insert(name).second) ++model_reads_[name];
    }
  }
  for (const auto& output : model.graph().output()) ++model_reads_[output.name()];
}

void FoldPlan::NoteInitializer(const std::string& name, const Var& var) { names_[var.id()] = name; }

void FoldPlan::AfterNode(const onnx::NodeProto& node, absl::Span<const Var> inputs,
                         absl::Span<const Var> outputs, bool opaque) {
  if (opaque) ++opaque_nodes_;
  const GraphCore& core = *graph_.core();
  if (!outputs.empty() && outputs[0].ok() && !node.name().empty()) {
    const NodeId made_by = core.arena().var_producer(outputs[0].id());
    if (made_by.valid()) node_names_[made_by] = node.name();
  }
  bool keeps_running = false;
  for (int i = 0; i < node.output_size() && i < static_cast<int>(outputs.size()); ++i) {
    if (node.output(i).empty()) continue;
    names_[outputs[i].id()] = node.output(i);
    keeps_running = keeps_running || !core.has_value(outputs[i].id());
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

void FoldPlan::Decide(const Var& var) {
  const VarId id = var.id();
  if (IsConstant(id) || held_.contains(id) || refused_.contains(id)) return;
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return;
  const int64_t bytes = ValueBytes(*value);
  if (options_.fold_anyway || bytes <= options_.max_fold_bytes || bytes <= ReplacedBytes(id)) {
    held_.emplace(id, var);
  } else {
    refused_.insert(id);
  }
}

int64_t FoldPlan::ReplacedBytes(VarId var) const {
  const Arena& arena = graph_.core()->arena();
  absl::flat_hash_set<NodeId> cone;
  absl::flat_hash_map<VarId, int64_t> cone_reads;  // constant -> cone nodes reading it
  std::vector<NodeId> work;
  if (arena.var_producer(var).valid()) work.push_back(arena.var_producer(var));
  while (!work.empty()) {
    const NodeId node = work.back();
    work.pop_back();
    if (!cone.insert(node).second) continue;
    if (static_cast<int64_t>(cone.size()) > kMaxConeNodes) return 0;
    absl::flat_hash_set<VarId> read;
    for (VarId input : arena.node_inputs(node)) {
      if (!input.valid() || !read.insert(input).second) continue;
      if (IsConstant(input)) {
        ++cone_reads[input];  // an initializer or a Constant node: model bytes
      } else if (arena.var_producer(input).valid() && !held_.contains(input)) {
        work.push_back(arena.var_producer(input));
      }
    }
  }
  int64_t replaced = 0;
  for (const auto& [constant, reads] : cone_reads) {
    auto name = names_.find(constant);
    if (name == names_.end()) continue;
    auto in_model = model_reads_.find(name->second);
    const int64_t all_reads = in_model == model_reads_.end() ? 0 : in_model->second;
    const std::optional<Tensor> value = graph_.core()->value(constant);
    if (reads >= all_reads && value.has_value()) {
      replaced = SaturatingAdd(replaced, ValueBytes(*value));
    }
  }
  return replaced;
}

bool FoldPlan::Writes(VarId var, const Tensor& value) const {
  return IsConstant(var) || held_.contains(var);
}

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
      if (!input.valid() || IsConstant(input) || held_.contains(input)) continue;
      if (arena.var_producer(input).valid()) work.push_back(arena.var_producer(input));
    }
  }
  return static_cast<int64_t>(kept.size());
}

}  // namespace graphgc::internal
