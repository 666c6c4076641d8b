#include "graphgc/export/fold/cleanups.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/graph_names.h"
#include "graphgc/export/onnx/node_protos.h"

namespace graphgc::internal {
namespace {

// The domains whose ops are functions of their inputs (the random ones aside). A custom op or a
// model-local function may have effects: two calls of one stay two calls.
bool IsStandardDomain(const std::string& domain) {
  return IsOnnxDomain(domain) || domain == "ai.onnx.ml";
}

// An INT attribute's value; nullopt when it is absent or of another type.
std::optional<int64_t> IntAttribute(const onnx::NodeProto& node, absl::string_view name) {
  const onnx::AttributeProto* attribute = FindAttribute(node, name);
  return attribute == nullptr ? std::nullopt : IntValue(*attribute);
}

// Whether every attribute of `node` is one of `names`: an attribute a cast does not know makes it
// something else than it seems.
bool HasOnlyAttributes(const onnx::NodeProto& node,
                       std::initializer_list<absl::string_view> names) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (std::find(names.begin(), names.end(), attribute.name()) == names.end()) return false;
  }
  return true;
}

template <class T, class Predicate>
void EraseIf(google::protobuf::RepeatedPtrField<T>& items, Predicate remove) {
  int kept = 0;
  for (int i = 0; i < items.size(); ++i) {
    if (remove(i)) continue;
    if (kept != i) items.SwapElements(kept, i);
    ++kept;
  }
  items.DeleteSubrange(kept, items.size() - kept);
}

// ---- Names across scopes.

// Old name -> the name its readers read instead. A name is added as a target only once no rename
// removes it (it is resolved first), and a removed name is never a target again, so following a
// chain (a -> b, later b -> c) ends; a name renamed to itself would not, and is refused.
class Renames {
 public:
  void Add(const std::string& from, const std::string& to) {
    if (from != to) to_[from] = to;
  }
  bool empty() const { return to_.empty(); }

  // Replaces `name` by what it was renamed to, if it was.
  void Apply(std::string& name) const {
    const std::string* current = &name;
    for (auto it = to_.find(*current); it != to_.end(); it = to_.find(*current)) {
      current = &it->second;
    }
    if (current != &name) name = *current;
  }

 private:
  absl::flat_hash_map<std::string, std::string> to_;
};

// The names a graph defines: its inputs, initializers and node outputs.
NameSet DefinedNames(const onnx::GraphProto& graph) {
  NameSet defined;
  for (const auto& input : graph.input()) defined.insert(input.name());
  for (const auto& initializer : graph.initializer()) defined.insert(initializer.name());
  for (const auto& sparse : graph.sparse_initializer()) defined.insert(sparse.values().name());
  for (const auto& node : graph.node()) {
    for (const std::string& output : node.output()) {
      if (!output.empty()) defined.insert(output);
    }
  }
  return defined;
}

// Every name the bodies of `graph`'s nodes define, at any depth.
void CollectBodyDefinitions(const onnx::GraphProto& graph, NameSet& names) {
  for (const auto& node : graph.node()) {
    for (const onnx::GraphProto* body : BodiesOf(node)) {
      NameSet defined = DefinedNames(*body);
      names.insert(defined.begin(), defined.end());
      CollectBodyDefinitions(*body, names);
    }
  }
}

void RenameReads(onnx::NodeProto& node, const Renames& renames, const NameSet& shadowed);

// RenameReads for a node of the main graph, where nothing hides its names.
void RenameReads(onnx::NodeProto& node, const Renames& renames) {
  const NameSet nothing_shadowed;
  RenameReads(node, renames, nothing_shadowed);
}

// Renames the names `body` reads from the main graph. A name the body or a body around it
// defines (in `shadowed`) means that definition, not the main graph's: only a model outside SSA
// form has one, but its reads must still keep their meaning. A body output may be such a read;
// its name can change, since bodies' outputs are matched by position.
void RenameFreeReads(onnx::GraphProto& body, const Renames& renames, const NameSet& shadowed) {
  NameSet hidden = DefinedNames(body);
  hidden.insert(shadowed.begin(), shadowed.end());
  for (onnx::NodeProto& node : *body.mutable_node()) RenameReads(node, renames, hidden);
  for (onnx::ValueInfoProto& output : *body.mutable_output()) {
    if (!hidden.contains(output.name())) renames.Apply(*output.mutable_name());
  }
}

// Renames what `node` reads: its inputs and what its bodies read from outside them.
void RenameReads(onnx::NodeProto& node, const Renames& renames, const NameSet& shadowed) {
  if (renames.empty()) return;
  for (std::string& input : *node.mutable_input()) {
    if (!shadowed.contains(input)) renames.Apply(input);
  }
  for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
    if (attribute.has_g()) RenameFreeReads(*attribute.mutable_g(), renames, shadowed);
    for (onnx::GraphProto& body : *attribute.mutable_graphs()) {
      RenameFreeReads(body, renames, shadowed);
    }
  }
}

// ---- Element types.

// The element types of the main graph's names, as far as the model states them. A name the
// sources disagree on (or declare as no tensor) has none: the model is wrong about it somewhere,
// so nothing may rely on either.
class ElementTypes {
 public:
  void Record(const std::string& name, int64_t type) {
    if (name.empty() || type == onnx::TensorProto::UNDEFINED) return;
    auto [it, inserted] = types_.emplace(name, type);
    if (!inserted && it->second != type) it->second = kConflict;
  }

  void Record(const onnx::ValueInfoProto& info) {
    const onnx::TypeProto& type = info.type();
    if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) return;
    Record(info.name(), type.has_tensor_type() ? type.tensor_type().elem_type() : kConflict);
  }

  std::optional<int64_t> Of(const std::string& name) const {
    auto it = types_.find(name);
    if (it == types_.end() || it->second == kConflict) return std::nullopt;
    return it->second;
  }

 private:
  static constexpr int64_t kConflict = -1;
  absl::flat_hash_map<std::string, int64_t> types_;
};

// The element type of a Constant node's value; nullopt unless it is one dense value whose
// attribute has the type its name says.
std::optional<int64_t> ConstantElementType(const onnx::NodeProto& node) {
  if (node.attribute_size() != 1) return std::nullopt;
  const onnx::AttributeProto& value = node.attribute(0);
  const std::string& name = value.name();
  using Attribute = onnx::AttributeProto;
  if (name == "value" && value.type() == Attribute::TENSOR) return value.t().data_type();
  if ((name == "value_float" && value.type() == Attribute::FLOAT) ||
      (name == "value_floats" && value.type() == Attribute::FLOATS)) {
    return onnx::TensorProto::FLOAT;
  }
  if ((name == "value_int" && value.type() == Attribute::INT) ||
      (name == "value_ints" && value.type() == Attribute::INTS)) {
    return onnx::TensorProto::INT64;
  }
  if ((name == "value_string" && value.type() == Attribute::STRING) ||
      (name == "value_strings" && value.type() == Attribute::STRINGS)) {
    return onnx::TensorProto::STRING;
  }
  return std::nullopt;  // sparse_value is no tensor a Cast takes
}

// What the main graph states about element types: declarations, initializers, Constant nodes,
// and every Cast's `to` (a fact about its output wherever the node stands).
ElementTypes StatedElementTypes(const onnx::GraphProto& graph) {
  ElementTypes types;
  for (const auto& info : graph.input()) types.Record(info);
  for (const auto& info : graph.output()) types.Record(info);
  for (const auto& info : graph.value_info()) types.Record(info);
  for (const auto& initializer : graph.initializer()) {
    types.Record(initializer.name(), initializer.data_type());
  }
  for (const auto& node : graph.node()) {
    if (node.output_size() != 1) continue;
    std::optional<int64_t> type;
    if (IsOnnxOp(node, "Constant")) type = ConstantElementType(node);
    if (IsOnnxOp(node, "Cast")) type = IntAttribute(node, "to");
    if (type.has_value()) types.Record(node.output(0), *type);
  }
  return types;
}

// The input a cast passes through unchanged: a Cast to its input's element type, a CastLike whose
// two inputs have one element type (saturate only matters between different types). nullopt for
// any other node, and when a type is unknown.
std::optional<std::string> NoopCastSource(const onnx::NodeProto& node, const ElementTypes& types) {
  if (!IsOnnxDomain(node.domain()) || node.input_size() < 1 || node.input(0).empty() ||
      node.output_size() != 1 || node.output(0).empty()) {
    return std::nullopt;
  }
  const std::optional<int64_t> from = types.Of(node.input(0));
  std::optional<int64_t> to;
  if (node.op_type() == "Cast" && node.input_size() == 1 &&
      HasOnlyAttributes(node, {"to", "saturate"})) {
    to = IntAttribute(node, "to");
  } else if (node.op_type() == "CastLike" && node.input_size() == 2 &&
             HasOnlyAttributes(node, {"saturate"})) {
    to = types.Of(node.input(1));
  }
  if (!from.has_value() || from != to) return std::nullopt;
  return node.input(0);
}

// ---- Equal nodes.

// Ops whose outputs differ from call to call. Dropout is random in training mode, which an input
// may choose, so it is never merged either.
bool IsNondeterministic(const onnx::NodeProto& node) {
  static const auto* const kRandomOps = new absl::flat_hash_set<std::string>{
      "RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
      "Multinomial",  "Bernoulli",     "Dropout"};
  if (IsOnnxDomain(node.domain()) && kRandomOps->contains(node.op_type())) return true;
  return FindAttribute(node, "seed") != nullptr;
}

// Whether two equal nodes compute the same values: a deterministic op of a standard domain, and
// so is every node of its bodies (a Loop around a RandomNormal is random).
bool IsPureStandardOp(const onnx::NodeProto& node) {
  if (!IsStandardDomain(node.domain()) || IsNondeterministic(node)) return false;
  for (const onnx::GraphProto* body : BodiesOf(node)) {
    for (const onnx::NodeProto& inner : body->node()) {
      if (!IsPureStandardOp(inner)) return false;
    }
  }
  return true;
}

void AppendField(std::string& key, absl::string_view field) {
  absl::StrAppend(&key, field.size(), ":", field);
}

// What makes two nodes compute the same: domain, op, inputs in order (empty optional ones too),
// which outputs are in use, and the attributes by name, each serialized (so bodies compare too).
// nullopt for a node that names an attribute twice: which one counts is unclear.
std::optional<std::string> NodeKey(const onnx::NodeProto& node) {
  std::string key;
  AppendField(key, IsOnnxDomain(node.domain()) ? "" : node.domain());
  AppendField(key, node.op_type());
  absl::StrAppend(&key, node.input_size(), "|");
  for (const std::string& input : node.input()) AppendField(key, input);
  for (const std::string& output : node.output()) key.push_back(output.empty() ? '0' : '1');
  key.push_back('|');
  std::vector<std::pair<std::string, std::string>> attributes;
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    attributes.emplace_back(attribute.name(), attribute.SerializeAsString());
  }
  std::sort(attributes.begin(), attributes.end());
  auto same_name = [](const auto& a, const auto& b) { return a.first == b.first; };
  if (std::adjacent_find(attributes.begin(), attributes.end(), same_name) != attributes.end()) {
    return std::nullopt;
  }
  for (const auto& [name, serialized] : attributes) {
    AppendField(key, name);
    AppendField(key, serialized);
  }
  return key;
}

// ---- Equal initializers.

template <class T>
absl::string_view Bytes(const google::protobuf::RepeatedField<T>& field) {
  return absl::string_view(reinterpret_cast<const char*>(field.data()),
                           static_cast<size_t>(field.size()) * sizeof(T));
}

// An initializer whose bytes are all in the proto: external data is not read here.
bool HoldsItsData(const onnx::TensorProto& tensor) {
  return tensor.data_location() != onnx::TensorProto::EXTERNAL &&
         tensor.external_data_size() == 0 && !tensor.has_segment();
}

// Initializers by content: data type, dims and the stored fields, compared as bytes (so -0 is not
// 0, and a NaN equals only the same NaN). Values stored in different fields (raw_data and
// float_data, say) count as different: a merge missed, never a wrong one.
struct ContentHash {
  size_t operator()(const onnx::TensorProto* tensor) const {
    size_t hash = absl::HashOf(tensor->data_type(), Bytes(tensor->dims()), tensor->raw_data(),
                               Bytes(tensor->float_data()), Bytes(tensor->int32_data()),
                               Bytes(tensor->int64_data()), Bytes(tensor->double_data()),
                               Bytes(tensor->uint64_data()));
    for (const std::string& value : tensor->string_data()) hash = absl::HashOf(hash, value);
    return hash;
  }
};

struct ContentEqual {
  bool operator()(const onnx::TensorProto* a, const onnx::TensorProto* b) const {
    return a->data_type() == b->data_type() && Bytes(a->dims()) == Bytes(b->dims()) &&
           a->raw_data() == b->raw_data() && Bytes(a->float_data()) == Bytes(b->float_data()) &&
           Bytes(a->int32_data()) == Bytes(b->int32_data()) &&
           Bytes(a->int64_data()) == Bytes(b->int64_data()) &&
           Bytes(a->double_data()) == Bytes(b->double_data()) &&
           Bytes(a->uint64_data()) == Bytes(b->uint64_data()) &&
           std::equal(a->string_data().begin(), a->string_data().end(), b->string_data().begin(),
                      b->string_data().end());
  }
};

// ---- The passes, each a walk of the main graph that ends with every read renamed.

class Cleaner {
 public:
  explicit Cleaner(onnx::GraphProto& graph) : graph_(graph) {}

  CleanupCounts Run(const CleanupOptions& options) {
    if (!IndexInterface()) return counts_;
    if (options.merge_initializers) MergeInitializers();
    if (options.remove_noop_casts) RemoveNoopCasts();
    if (options.eliminate_common_subexpressions) EliminateCommonSubexpressions();
    EraseIf(*graph_.mutable_value_info(),
            [&](int i) { return vanished_.contains(graph_.value_info(i).name()); });
    return counts_;
  }

 private:
  // Records the graph's interface and what bodies define. False when the graph defines a name
  // twice: which definition a read means is then unclear, and nothing is rewritten.
  bool IndexInterface() {
    NameSet defined;
    for (const auto& input : graph_.input()) {
      if (!defined.insert(input.name()).second) return false;
      graph_inputs_.insert(input.name());
    }
    NameSet initializers;
    for (const auto& initializer : graph_.initializer()) {
      const std::string& name = initializer.name();
      if (!initializers.insert(name).second) return false;
      // An initializer may also be a graph input (its default); that is one definition.
      if (!graph_inputs_.contains(name) && !defined.insert(name).second) return false;
    }
    for (const auto& sparse : graph_.sparse_initializer()) {
      if (!defined.insert(sparse.values().name()).second) return false;
    }
    for (const auto& node : graph_.node()) {
      for (const std::string& output : node.output()) {
        if (!output.empty() && !defined.insert(output).second) return false;
      }
    }
    for (const auto& output : graph_.output()) graph_outputs_.insert(output.name());
    CollectBodyDefinitions(graph_, body_definitions_);
    return true;
  }

  // Whether readers may be sent to `name`: a body that defines it too (only outside SSA form)
  // would read its own value under that name instead.
  bool CanRedirectTo(const std::string& name) const { return !body_definitions_.contains(name); }

  // Whether `name` may disappear: the graph's outputs keep their names.
  bool CanRemoveName(const std::string& name) const { return !graph_outputs_.contains(name); }

  void Replace(Renames& renames, const std::string& from, const std::string& to) {
    renames.Add(from, to);
    vanished_.insert(from);
  }

  // Points every read in the main graph and its bodies at the names that replace removed ones.
  void ApplyRenames(const Renames& renames) {
    if (renames.empty()) return;
    for (onnx::NodeProto& node : *graph_.mutable_node()) RenameReads(node, renames);
  }

  void EraseNodes(const std::vector<bool>& removed) {
    EraseIf(*graph_.mutable_node(), [&](int n) { return removed[n]; });
  }

  // An initializer equal to an earlier one goes; its readers read the earlier one. One that is
  // also a graph input is a default the caller may override, so it equals nothing.
  void MergeInitializers() {
    absl::flat_hash_set<const onnx::TensorProto*, ContentHash, ContentEqual> firsts;
    std::vector<bool> removed(static_cast<size_t>(graph_.initializer_size()), false);
    Renames renames;
    for (int i = 0; i < graph_.initializer_size(); ++i) {
      const onnx::TensorProto& initializer = graph_.initializer(i);
      if (graph_inputs_.contains(initializer.name()) || !HoldsItsData(initializer)) continue;
      auto [first, inserted] = firsts.insert(&initializer);
      if (inserted) continue;
      const std::string& kept = (*first)->name();
      if (!CanRemoveName(initializer.name()) || !CanRedirectTo(kept)) continue;
      Replace(renames, initializer.name(), kept);
      removed[i] = true;
      ++counts_.initializers_merged;
    }
    EraseIf(*graph_.mutable_initializer(), [&](int i) { return removed[i]; });
    ApplyRenames(renames);
  }

  // A cast to the type its input has goes; its readers read its input.
  void RemoveNoopCasts() {
    const ElementTypes types = StatedElementTypes(graph_);
    std::vector<bool> removed(static_cast<size_t>(graph_.node_size()), false);
    Renames renames;
    for (int n = 0; n < graph_.node_size(); ++n) {
      onnx::NodeProto& node = *graph_.mutable_node(n);
      // A cast of a removed cast's output casts what that one cast.
      for (std::string& input : *node.mutable_input()) renames.Apply(input);
      std::optional<std::string> source = NoopCastSource(node, types);
      if (!source.has_value()) continue;
      const std::string& output = node.output(0);
      if (*source == output || !CanRemoveName(output) || !CanRedirectTo(*source)) continue;
      Replace(renames, output, *source);
      removed[n] = true;
      ++counts_.noop_casts_removed;
    }
    EraseNodes(removed);
    ApplyRenames(renames);
  }

  // A node equal to an earlier one goes; readers of its outputs read the earlier one's. Each node's
  // reads are renamed before it is compared, so that a chain of duplicates collapses in one walk.
  void EliminateCommonSubexpressions() {
    absl::flat_hash_map<std::string, int> firsts;  // node key -> the first node with it
    std::vector<bool> removed(static_cast<size_t>(graph_.node_size()), false);
    Renames renames;
    for (int n = 0; n < graph_.node_size(); ++n) {
      onnx::NodeProto& node = *graph_.mutable_node(n);
      RenameReads(node, renames);
      if (!IsPureStandardOp(node)) continue;
      std::optional<std::string> key = NodeKey(node);
      if (!key.has_value()) continue;
      auto [first, inserted] = firsts.emplace(*std::move(key), n);
      if (inserted) continue;
      const onnx::NodeProto& kept = graph_.node(first->second);
      if (!CanMerge(node, kept)) continue;
      for (int i = 0; i < node.output_size(); ++i) {
        if (!node.output(i).empty()) Replace(renames, node.output(i), kept.output(i));
      }
      removed[n] = true;
      ++counts_.common_subexpressions_removed;
    }
    EraseNodes(removed);
    // In a graph out of topological order a node may read a duplicate's output before the walk
    // reached the duplicate.
    ApplyRenames(renames);
  }

  // Whether `node`, equal to the earlier `kept` (their keys say the same outputs are in use), can
  // hand its readers to it.
  bool CanMerge(const onnx::NodeProto& node, const onnx::NodeProto& kept) const {
    bool has_output = false;
    for (int i = 0; i < node.output_size(); ++i) {
      const std::string& output = node.output(i);
      if (output.empty()) continue;
      has_output = true;
      if (!CanRemoveName(output) || !CanRedirectTo(kept.output(i))) return false;
      // A node reading its own output (a cycle) is malformed; leave it as it is.
      if (std::find(node.input().begin(), node.input().end(), output) != node.input().end()) {
        return false;
      }
    }
    return has_output;
  }

  onnx::GraphProto& graph_;
  CleanupCounts counts_;
  NameSet graph_inputs_;
  NameSet graph_outputs_;
  NameSet body_definitions_;  // every name a body defines, at any depth
  NameSet vanished_;          // names the cleanups removed
};

}  // namespace

absl::StatusOr<CleanupCounts> ApplyCleanups(onnx::ModelProto& model,
                                            const CleanupOptions& options) {
  if (!model.has_graph()) return CleanupCounts{};
  return Cleaner(*model.mutable_graph()).Run(options);
}

}  // namespace graphgc::internal
