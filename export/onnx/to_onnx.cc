#include "graphgc/export/onnx/to_onnx.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/constant_node_types.h"
#include "graphgc/export/onnx/function_export.h"
#include "graphgc/export/onnx/graph_sink.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/export/onnx/symbolic_dims.h"
#include "graphgc/export/onnx/var_namer.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"

namespace graphgc {
namespace {

using internal::Arena;
using internal::GraphCore;
using internal::GraphSink;
using internal::ProtoSink;
using internal::VarKind;
using internal::VarNamer;

// Whether the model's graph inputs and outputs must have a rank (ONNX 1.12's checker wants a shape
// for each); a function body's (functions.h) carry no types at all.
enum class GraphRanks { kRequired, kFree };

absl::Status CheckOutputs(const Graph& graph, const NamedVars& outputs,
                          GraphRanks ranks = GraphRanks::kRequired) {
  if (graph.core() == nullptr)
    return absl::FailedPreconditionError("to_onnx: the Graph was moved from");
  if (outputs.empty()) return absl::InvalidArgumentError("to_onnx: no outputs given");
  absl::flat_hash_set<std::string> names;
  for (const auto& [name, var] : outputs) {
    if (name.empty()) return absl::InvalidArgumentError("to_onnx: an output name is empty");
    if (!names.insert(name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: output name '", name, "' is used twice"));
    }
    if (!var.ok()) {
      const absl::Status cause = var.status();
      return absl::Status(cause.code(),
                          absl::StrCat("to_onnx: output '", name, "': ", cause.message()));
    }
    if (var.core() != graph.core()) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: output '", name, "' belongs to another Graph"));
    }
    if (graph.core()->arena().var_subgraph(var.id()).valid()) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: output '", name,
                       "' was made inside the body of an If, Loop or Scan; only "
                       "that body can use it"));
    }
    if (ranks == GraphRanks::kRequired && graph.core()->arena().var_is_tensor(var.id()) &&
        !var.rank().has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: output '", name,
                       "' has unknown rank; ONNX 1.12's checker requires a shape "
                       "for every graph output"));
    }
  }
  return absl::OkStatus();
}

// Graph inputs need a shape too (see CheckOutputs), and so do a body's arguments and results.
absl::Status CheckArgumentRanks(const Arena& arena, const std::vector<bool>& needed_vars) {
  for (size_t i = 0; i < needed_vars.size(); ++i) {
    const VarId var(static_cast<uint32_t>(i));
    if (!needed_vars[i] || arena.var_kind(var) != VarKind::kArgument) continue;
    if (arena.var_rank(var).has_value() || !arena.var_is_tensor(var)) continue;
    if (arena.var_subgraph(var).valid()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "to_onnx: an argument of the body of an If, Loop or Scan has unknown rank (a "
          "loop-carried "
          "value of unknown rank?); ONNX 1.12's checker requires a shape for every graph input"));
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "to_onnx: argument '", arena.string(arena.var_name(var)),
        "' has unknown rank; ONNX 1.12's checker requires a shape for every graph input"));
  }
  return absl::OkStatus();
}

absl::Status CheckBodyResultRanks(const Arena& arena, const std::vector<SubgraphId>& bodies) {
  for (SubgraphId body : bodies) {
    const auto results = arena.subgraphs().results(body);
    for (size_t i = 0; i < results.size(); ++i) {
      if (arena.var_rank(results[i]).has_value() || !arena.var_is_tensor(results[i])) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: result ", i,
                       " of the body of an If, Loop or Scan has unknown rank; ONNX "
                       "1.12's checker requires a shape for every graph output"));
    }
  }
  return absl::OkStatus();
}

// The nodes and vars the outputs depend on, found with an explicit worklist; a node with bodies
// also depends on what their results depend on.
struct Needed {
  std::vector<bool> nodes;
  std::vector<bool> vars;
  std::vector<SubgraphId> bodies;
  // Vars written as initializers (ExportOptions::values_as_initializers and
  // constants_as_initializers). Their values are read one at a time as they are written, so that
  // a graph that evicts computes each again then, not all of them at once.
  absl::flat_hash_set<VarId> initializers;
  // When the graph evicts: the initializers' vars rooted until the export is done, so that no
  // collection a recomputation starts takes a value the export is about to write.
  std::vector<Var> rooted;
};

const onnx::TensorProto* StoredInitializer(VarId var, const ExportOptions& options) {
  return options.stored_initializer ? options.stored_initializer(var) : nullptr;
}

// Whether the options write `var` as an initializer. An evicted value counts as held: it is
// computed again to be written (and here already when write_value must see it).
bool WrittenAsInitializer(GraphCore& core, VarId var, const ExportOptions& options) {
  const Arena& arena = core.arena();
  const bool written =
      options.values_as_initializers ||
      (options.constants_as_initializers && arena.var_kind(var) == VarKind::kConstant);
  if (!written || arena.var_kind(var) == VarKind::kArgument || arena.var_subgraph(var).valid() ||
      !arena.var_is_tensor(var)) {
    return false;
  }
  if (StoredInitializer(var, options) != nullptr) return true;
  // Not has_value: a Constant node's value_* value lives in the store and may have been collected.
  if (!core.evicted(var) && !core.value(var).has_value()) return false;
  if (options.write_var) return options.write_var(var);
  if (!options.write_value) return true;
  const std::optional<Value> value = core.read_value(var);
  return value.has_value() && value->is_tensor() && options.write_value(var, value->tensor());
}

std::vector<SubgraphId> BodiesOf(const Arena& arena, NodeId node) {
  std::vector<SubgraphId> bodies;
  if (arena.subgraphs().empty()) return bodies;
  for (const Attribute& attribute : arena.node_attributes(node)) {
    if (const SubgraphId* body = std::get_if<SubgraphId>(&attribute.value)) bodies.push_back(*body);
  }
  return bodies;
}

Needed FindNeeded(GraphCore& core, const NamedVars& outputs, const ExportOptions& options) {
  const Arena& arena = core.arena();
  Needed needed{
      std::vector<bool>(arena.num_nodes()), std::vector<bool>(arena.num_vars()), {}, {}, {}};
  std::vector<VarId> work;
  for (const auto& output : outputs) work.push_back(output.second.id());
  while (!work.empty()) {
    const VarId var = work.back();
    work.pop_back();
    if (!var.valid() || needed.vars[var.value()]) continue;
    needed.vars[var.value()] = true;
    if (WrittenAsInitializer(core, var, options)) {
      needed.initializers.insert(var);
      if (core.evicts() && StoredInitializer(var, options) == nullptr) {
        needed.rooted.emplace_back(&core, var);
      }
      continue;
    }
    const NodeId producer = arena.var_producer(var);
    if (!producer.valid() || needed.nodes[producer.value()]) continue;
    needed.nodes[producer.value()] = true;
    for (VarId input : arena.node_inputs(producer)) work.push_back(input);
    for (SubgraphId body : BodiesOf(arena, producer)) {
      needed.bodies.push_back(body);
      for (VarId argument : arena.subgraphs().arguments(body)) work.push_back(argument);
      for (VarId result : arena.subgraphs().results(body)) work.push_back(result);
    }
  }
  return needed;
}

// Each distinct type of a model, converted once: a chain of a million vars has a few types.
class TypeProtos {
 public:
  explicit TypeProtos(const Arena& arena) : arena_(arena) {}

  const onnx::TypeProto& Of(VarId var) {
    const internal::TypeKey key = arena_.var_type_key(var);
    if (last_ != nullptr && key == last_key_) return *last_;  // a chain repeats one type
    auto [it, inserted] = protos_.try_emplace(key);
    if (inserted) it->second = internal::ToTypeProto(arena_.var_type(var));
    last_key_ = key;
    last_ = &it->second;
    return *last_;
  }

 private:
  const Arena& arena_;
  // Node-based: the sinks may keep a type's bytes by its address.
  absl::node_hash_map<internal::TypeKey, onnx::TypeProto> protos_;
  internal::TypeKey last_key_{};
  const onnx::TypeProto* last_ = nullptr;
};

using internal::ValueField;

// A ValueInfoProto typing `var`, named as the namer names it.
void AddTypedValue(GraphSink& graph, ValueField field, TypeProtos& types, VarNamer& namer,
                   VarId var) {
  graph.AddValue(field, types.Of(var), [&](std::string* name) { namer.Write(var, name); });
}

// A ValueInfoProto typing `var` under `name`.
void AddNamedValue(GraphSink& graph, ValueField field, TypeProtos& types, VarId var,
                   const std::string& name) {
  graph.AddValue(field, types.Of(var), [&](std::string* out) { *out = name; });
}

// Domain -> opset version, "" first. ai.onnx is always declared.
using OpsetImports = std::map<std::string, int>;

// The schema version a node of `kind` resolves to at opset `version` of its domain (0 if none).
int SchemaSince(const internal::OpKind& kind, int version) {
  const onnx::OpSchema* schema = internal::FindSchema(kind.op_type, version, kind.domain);
  return schema == nullptr ? 0 : schema->since_version();
}

// A Constant holding a tensor means the same at every opset, so it follows the other nodes.
bool FitsAnyOpset(const internal::OpKind& kind) { return kind.is_constant; }

// A model declares one opset per domain: the newest any needed node was made at. A node pinned to
// an older opset may only join it if its operator did not change in between.
absl::StatusOr<OpsetImports> ChooseOpsets(const Arena& arena,
                                          const std::vector<bool>& needed_nodes) {
  OpsetImports imports = {{"", 0}};
  for (size_t i = 0; i < needed_nodes.size(); ++i) {
    if (!needed_nodes[i]) continue;
    const internal::OpKind& kind = arena.op_kind(arena.node_op(NodeId(static_cast<uint32_t>(i))));
    if (FitsAnyOpset(kind)) continue;
    int& version = imports[kind.domain];
    version = std::max(version, kind.version);
  }
  if (imports[""] == 0) imports[""] = kNewestOnnxOpset;
  for (size_t i = 0; i < needed_nodes.size(); ++i) {
    if (!needed_nodes[i]) continue;
    const internal::OpKind& kind = arena.op_kind(arena.node_op(NodeId(static_cast<uint32_t>(i))));
    const int declared = imports[kind.domain];
    if (kind.version == declared || FitsAnyOpset(kind)) continue;
    if (SchemaSince(kind, kind.version) != SchemaSince(kind, declared)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "to_onnx: ", kind.op_type, " was made at opset ", kind.version, " of domain '",
          kind.domain, "', but the model needs opset ", declared,
          " (another node was made there), where ", kind.op_type,
          " is defined differently. "
          "Two ways out: make the newer nodes at opset ",
          kind.version,
          " too (graphgc::opsetN::<Op>, or make_node with NodeOptions::version), or, if the "
          "older nodes come from an imported model, import it converted to opset ",
          declared, " (InlineOptions::opset, which is 17 by default)"));
    }
  }
  return imports;
}

using VarSet = absl::flat_hash_set<VarId>;

// Writes the needed nodes graph by graph: the main graph, and for each node with bodies, one
// GraphProto per body holding the needed nodes made inside it. Within a graph, arena order is a
// topological order (a node's inputs, and everything its bodies use, were made before it).
class GraphWriter {
 public:
  // Sorts the needed nodes, and the typed vars they make, by the graph they belong to, once.
  GraphWriter(const Arena& arena, const Needed& needed, int onnx_opset, VarNamer& namer,
              TypeProtos& types, std::function<std::string(NodeId)> node_name_of,
              std::function<bool(VarId)> omit_output)
      : arena_(arena),
        needed_(needed),
        onnx_opset_(onnx_opset),
        namer_(namer),
        types_(types),
        node_name_of_(std::move(node_name_of)),
        omit_output_(std::move(omit_output)) {
    for (size_t i = 0; i < needed.nodes.size(); ++i) {
      const NodeId node(static_cast<uint32_t>(i));
      if (needed.nodes[i]) ScopeFor(node).nodes.push_back(node);
    }
    for (size_t i = 0; i < needed.vars.size(); ++i) {
      const VarId var(static_cast<uint32_t>(i));
      if (!needed.vars[i] || arena.var_kind(var) == VarKind::kArgument) continue;
      if (!needed.initializers.empty() && needed.initializers.contains(var)) continue;
      if (arena.var_is_tensor(var) && arena.var_dtype(var) == DataType::kUndefined) continue;
      ScopeFor(arena.var_producer(var)).typed_vars.push_back(var);
    }
  }

  // The nodes of `scope` (SubgraphId(): the main graph) and the value_info of its vars, but for
  // `outputs`, which the graph's outputs type.
  void WriteNodes(SubgraphId scope, const VarSet& outputs, GraphSink& graph) {
    // Never inserts: a body written from inside this loop looks up its own scope, and an
    // insertion could move `members`.
    auto found = scopes_.find(scope);
    if (found == scopes_.end()) return;  // nothing of this graph is needed
    const Scope& members = found->second;
    graph.Reserve(static_cast<int>(members.nodes.size()),
                  static_cast<int>(members.typed_vars.size()));
    for (NodeId node : members.nodes) AddNode(node, graph);
    for (VarId var : members.typed_vars) {
      if (outputs.contains(var) || Omitted(var)) continue;
      AddTypedValue(graph, ValueField::kValueInfo, types_, namer_, var);
    }
  }

 private:
  struct Scope {
    std::vector<NodeId> nodes;  // in arena order, a topological order
    std::vector<VarId> typed_vars;
  };

  // Without bodies everything is in the main graph: no lookup per node.
  Scope& ScopeFor(NodeId node) {
    if (arena_.subgraphs().empty()) {
      if (main_scope_ == nullptr) main_scope_ = &scopes_[SubgraphId()];
      return *main_scope_;
    }
    return scopes_[ScopeOf(node)];
  }

  bool ConstantNodeFits(DataType dtype) {
    auto [it, inserted] = constant_node_fits_.try_emplace(dtype);
    if (inserted) it->second = internal::ConstantNodeHolds(dtype, onnx_opset_);
    return it->second;
  }

  SubgraphId ScopeOf(NodeId node) const {
    return arena_.subgraphs().empty() ? SubgraphId() : arena_.subgraphs().of_node(node);
  }

  void AddNode(NodeId node, GraphSink& graph) {
    const internal::OpKind& kind = arena_.op_kind(arena_.node_op(node));
    const std::optional<AttributeValue> value =
        kind.is_constant ? arena_.node_attribute(node, "value") : std::nullopt;
    if (value.has_value() && std::holds_alternative<Tensor>(*value) &&
        !ConstantNodeFits(std::get<Tensor>(*value).dtype())) {
      // The model's opset has no Constant for this type; an initializer means the same.
      onnx::TensorProto* initializer = graph.AddInitializer();
      *initializer = internal::ToTensorProto(std::get<Tensor>(*value));
      namer_.Write(arena_.node_output(node, 0), initializer->mutable_name());
      return;
    }
    if (arena_.node_num_attributes(node) == 0) {
      AddPlainNode(node, kind, graph);
      return;
    }
    onnx::NodeProto* proto = graph.AddNode();
    proto->set_op_type(kind.op_type);
    if (!kind.domain.empty()) proto->set_domain(kind.domain);
    if (WriteNodeName(node, kind, &node_name_)) proto->set_name(node_name_);
    for (VarId input : arena_.node_inputs(node)) {
      std::string* name = proto->add_input();
      if (input.valid()) namer_.Write(input, name);
    }
    for (int i = 0; i < arena_.node_num_outputs(node); ++i) {
      WriteOutputName(arena_.node_output(node, i), proto->add_output());
    }
    const std::vector<std::pair<StringId, StringId>>* refs = arena_.attribute_refs(node);
    for (const Attribute& attribute : arena_.node_attributes(node)) {
      onnx::AttributeProto* attribute_proto = proto->add_attribute();
      internal::ToAttributeProto(attribute, attribute_proto);
      if (refs != nullptr) WriteReference(*refs, attribute_proto);
      if (const SubgraphId* body = std::get_if<SubgraphId>(&attribute.value)) {
        WriteBody(*body, absl::StrCat(proto->name(), "_", attribute.name),
                  attribute_proto->mutable_g());
      }
    }
  }

  // An attribute that takes the function's (a function body's node): its name, type and the
  // reference, no value.
  void WriteReference(const std::vector<std::pair<StringId, StringId>>& refs,
                      onnx::AttributeProto* attribute) const {
    for (const auto& [name, function_attribute] : refs) {
      if (arena_.string(name) != attribute->name()) continue;
      const onnx::AttributeProto::AttributeType type = attribute->type();
      attribute->Clear();
      attribute->set_name(std::string(arena_.string(name)));
      attribute->set_type(type);
      attribute->set_ref_attr_name(std::string(arena_.string(function_attribute)));
      return;
    }
  }

  // A node without attributes, its names written into strings kept from node to node.
  void AddPlainNode(NodeId node, const internal::OpKind& kind, GraphSink& graph) {
    const size_t num_inputs = static_cast<size_t>(arena_.node_num_inputs(node));
    const size_t num_outputs = static_cast<size_t>(arena_.node_num_outputs(node));
    if (input_names_.size() < num_inputs) input_names_.resize(num_inputs);
    if (output_names_.size() < num_outputs) output_names_.resize(num_outputs);
    for (size_t i = 0; i < num_inputs; ++i) {
      const VarId input = arena_.node_input(node, static_cast<int>(i));
      if (input.valid()) {
        namer_.Write(input, &input_names_[i]);
      } else {
        input_names_[i].clear();  // an omitted optional input
      }
    }
    for (size_t i = 0; i < num_outputs; ++i) {
      WriteOutputName(arena_.node_output(node, static_cast<int>(i)), &output_names_[i]);
    }
    internal::PlainNode plain;
    plain.op_type = kind.op_type;
    plain.domain = kind.domain;
    plain.name = WriteNodeName(node, kind, &node_name_) ? &node_name_ : nullptr;
    plain.inputs = absl::MakeConstSpan(input_names_.data(), num_inputs);
    plain.outputs = absl::MakeConstSpan(output_names_.data(), num_outputs);
    graph.AddPlainNode(plain);
  }

  // Writes the node's name into `name`: "<op_type>_<id>", or what ExportOptions::node_name_of
  // gives; false when that is empty (the node has no name).
  bool WriteNodeName(NodeId node, const internal::OpKind& kind, std::string* name) {
    if (node_name_of_) {
      *name = node_name_of_(node);
      return !name->empty();
    }
    name->assign(kind.op_type);
    name->push_back('_');
    internal::AppendNumber(node.value(), name);
    return true;
  }

  bool Omitted(VarId var) const { return omit_output_ && omit_output_(var); }

  void WriteOutputName(VarId output, std::string* name) {
    if (Omitted(output)) {
      name->clear();
      return;
    }
    // An output written as an initializer is defined there; the node's copy goes unread.
    if (!needed_.initializers.empty() && needed_.initializers.contains(output)) {
      *name = namer_.Fresh(absl::StrCat(namer_.NameOf(output), "_unread"));
    } else {
      namer_.Write(output, name);
    }
  }

  // A body: its arguments are its inputs, its results its outputs. A result not made by a node
  // of the body (an argument, an outer var, one returned twice) is passed through an Identity,
  // so that every output is made in its own graph under a name of its own.
  void WriteBody(SubgraphId body, const std::string& name, onnx::GraphProto* proto) {
    ProtoSink graph(proto);
    graph.SetName(name);
    for (VarId argument : arena_.subgraphs().arguments(body)) {
      AddTypedValue(graph, ValueField::kInput, types_, namer_, argument);
    }
    const auto results = arena_.subgraphs().results(body);
    VarSet own_outputs;
    std::vector<std::string> outputs;
    std::vector<bool> passed_through;
    for (VarId result : results) {
      const NodeId producer = arena_.var_producer(result);
      const bool own = producer.valid() && ScopeOf(producer) == body &&
                       !arena_.op_kind(arena_.node_op(producer)).is_constant;
      std::string own_name = namer_.NameOf(result);
      passed_through.push_back(!(own && own_outputs.insert(result).second));
      outputs.push_back(passed_through.back() ? namer_.Fresh(absl::StrCat(own_name, "_result"))
                                              : std::move(own_name));
    }
    WriteNodes(body, own_outputs, graph);
    for (size_t i = 0; i < results.size(); ++i) {
      if (passed_through[i]) {
        onnx::NodeProto* pass = graph.AddNode();
        pass->set_op_type("Identity");
        pass->set_name(absl::StrCat("Identity_", outputs[i]));
        namer_.Write(results[i], pass->add_input());
        pass->add_output(outputs[i]);
      }
      AddNamedValue(graph, ValueField::kOutput, types_, results[i], outputs[i]);
    }
  }

  const Arena& arena_;
  const Needed& needed_;
  int onnx_opset_;
  VarNamer& namer_;
  TypeProtos& types_;
  std::function<std::string(NodeId)> node_name_of_;
  std::function<bool(VarId)> omit_output_;
  absl::flat_hash_map<SubgraphId, Scope> scopes_;
  Scope* main_scope_ = nullptr;  // set only when the arena has no bodies (scopes_ never grows)
  absl::flat_hash_map<DataType, bool> constant_node_fits_;  // at onnx_opset_
  // Kept from node to node so that their storage is reused.
  std::vector<std::string> input_names_;
  std::vector<std::string> output_names_;
  std::string node_name_;
};

// The initializers of the main graph, in var order (a stable order for a given graph), each value
// read (or computed again) as it is written and let go before the next.
absl::Status WriteInitializers(GraphCore& core, const Needed& needed, VarNamer& namer,
                               const ExportOptions& options, GraphSink& graph) {
  std::vector<VarId> vars(needed.initializers.begin(), needed.initializers.end());
  std::sort(vars.begin(), vars.end());
  for (VarId var : vars) {
    if (const onnx::TensorProto* stored = StoredInitializer(var, options)) {
      onnx::TensorProto* proto = graph.AddInitializer();
      *proto = *stored;
      namer.Write(var, proto->mutable_name());
      continue;
    }
    const std::optional<Value> read = core.read_value(var);
    if (!read.has_value() || !read->is_tensor()) {
      const absl::Status why = core.explain_missing_value(var);
      if (why.ok()) {
        return absl::InternalError(absl::StrCat("graphgc bug: to_onnx: the value of '",
                                                namer.NameOf(var), "' went during the export"));
      }
      return absl::Status(why.code(), absl::StrCat("to_onnx: the value of '", namer.NameOf(var),
                                                   "' could not be had: ", why.message()));
    }
    const Tensor& value = read->tensor();
    onnx::TensorProto* proto = graph.AddInitializer();
    proto->set_data_type(static_cast<int32_t>(value.dtype()));
    for (int64_t dim : value.shape()) proto->add_dims(dim);
    bool stored_elsewhere = false;
    if (options.store_elements) {
      GRAPHGC_ASSIGN_OR_RETURN(stored_elsewhere, options.store_elements(value, proto));
    }
    if (!stored_elsewhere) *proto = internal::ToTensorProto(value);
    namer.Write(var, proto->mutable_name());
  }
  return absl::OkStatus();
}

// Writes the main graph of the model of `outputs` into `graph`; returns the opsets it imports.
// What the model's header declares: its opsets and the lowest IR version they and the element
// types of the written vars need (export/onnx/ir_version.h).
struct ModelHeader {
  OpsetImports imports;
  int64_t ir_version = kOnnxIrVersion;
  std::vector<onnx::FunctionProto> functions;  // the definitions the call nodes need
};

int64_t LowestIrVersion(const Arena& arena, const std::vector<bool>& vars,
                        const OpsetImports& imports) {
  int64_t lowest = kOnnxIrVersion;
  for (const auto& [domain, version] : imports) {
    lowest = std::max(lowest, internal::IrVersionOfOpset(domain, version));
  }
  for (size_t i = 0; i < vars.size(); ++i) {
    if (!vars[i]) continue;
    const DataType dtype = arena.var_dtype(VarId(static_cast<uint32_t>(i)));
    lowest = std::max(lowest, internal::IrVersionOfElementType(static_cast<int32_t>(dtype)));
  }
  return lowest;
}

// The main graph's arguments in the order the model lists them: ExportOptions::inputs (each
// marked needed), or the needed ones in the order they were made.
absl::StatusOr<std::vector<VarId>> ModelInputs(const GraphCore& core, const ExportOptions& options,
                                               Needed& needed) {
  const Arena& arena = core.arena();
  const auto main_argument = [&](VarId var) {
    return arena.var_kind(var) == VarKind::kArgument && !arena.var_subgraph(var).valid();
  };
  std::vector<VarId> inputs;
  if (options.inputs.empty()) {
    for (size_t i = 0; i < needed.vars.size(); ++i) {
      const VarId var(static_cast<uint32_t>(i));
      if (needed.vars[i] && main_argument(var)) inputs.push_back(var);
    }
    return inputs;
  }
  absl::flat_hash_set<VarId> listed;
  for (size_t k = 0; k < options.inputs.size(); ++k) {
    const Var& input = options.inputs[k];
    if (!input.ok() || input.core() != &core || !main_argument(input.id())) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: ExportOptions::inputs[", k, "] is not an argument of this graph",
                       input.ok() ? "" : absl::StrCat(" (", input.status().message(), ")")));
    }
    if (!listed.insert(input.id()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "to_onnx: argument '", arena.string(arena.var_name(input.id())), "' is listed twice"));
    }
    inputs.push_back(input.id());
  }
  for (size_t i = 0; i < needed.vars.size(); ++i) {
    const VarId var(static_cast<uint32_t>(i));
    if (needed.vars[i] && main_argument(var) && !listed.contains(var)) {
      return absl::InvalidArgumentError(
          absl::StrCat("to_onnx: the outputs need argument '", arena.string(arena.var_name(var)),
                       "', which ExportOptions::inputs does not list"));
    }
  }
  for (const VarId var : inputs) needed.vars[var.value()] = true;
  return inputs;
}

// Only a function's body may refer to the function's attributes (NodeOptions::attribute_refs).
absl::Status CheckNoAttributeRefs(const Arena& arena, const std::vector<bool>& needed_nodes) {
  if (!arena.has_attribute_refs()) return absl::OkStatus();
  for (size_t i = 0; i < needed_nodes.size(); ++i) {
    const NodeId node(static_cast<uint32_t>(i));
    if (!needed_nodes[i] || arena.attribute_refs(node) == nullptr) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", arena.op_kind(arena.node_op(node)).op_type,
        " node refers to a function's attribute: only the body of define_function may"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ModelHeader> WriteGraph(GraphCore& core, const NamedVars& outputs,
                                       const ExportOptions& options, GraphSink& graph,
                                       GraphRanks ranks = GraphRanks::kRequired) {
  const Arena& arena = core.arena();
  Needed needed = FindNeeded(core, outputs, options);
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<VarId> inputs, ModelInputs(core, options, needed));
  if (ranks == GraphRanks::kRequired) {
    GRAPHGC_RETURN_IF_ERROR(CheckArgumentRanks(arena, needed.vars));
    GRAPHGC_RETURN_IF_ERROR(CheckNoAttributeRefs(arena, needed.nodes));
  }
  GRAPHGC_RETURN_IF_ERROR(CheckBodyResultRanks(arena, needed.bodies));
  VarNamer namer(arena, outputs, options.name_of);
  GRAPHGC_RETURN_IF_ERROR(namer.NameArgumentsAndOutputs(needed.vars, outputs));
  TypeProtos types(arena);
  GRAPHGC_ASSIGN_OR_RETURN(OpsetImports imports, ChooseOpsets(arena, needed.nodes));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<onnx::FunctionProto> functions,
                           internal::CalledFunctions(core, needed.nodes, imports));

  graph.SetName("graphgc");
  std::deque<onnx::TypeProto> named_input_types;  // node-based: the sinks may keep their address
  for (const VarId var : inputs) {
    if (const std::vector<StringId>* dim_names = arena.dim_names(var)) {
      onnx::TypeProto& type = named_input_types.emplace_back(types.Of(var));
      internal::NameDims(arena, *dim_names, type);
      graph.AddValue(ValueField::kInput, type, [&](std::string* name) { namer.Write(var, name); });
      continue;
    }
    AddTypedValue(graph, ValueField::kInput, types, namer, var);
  }
  VarSet named_as_outputs;  // typed by the graph's outputs, not by value_info
  for (const auto& [name, var] : outputs) {
    if (namer.NameOf(var.id()) == name) named_as_outputs.insert(var.id());
  }
  GRAPHGC_RETURN_IF_ERROR(WriteInitializers(core, needed, namer, options, graph));
  // ChooseOpsets always declares ai.onnx ("").
  GraphWriter(arena, needed, imports.at(""), namer, types, options.node_name_of,
              options.omit_output)
      .WriteNodes(SubgraphId(), named_as_outputs, graph);
  for (const auto& [name, var] : outputs) {
    if (namer.NameOf(var.id()) != name) {  // the var is already named otherwise: alias it
      onnx::NodeProto* alias = graph.AddNode();
      alias->set_op_type("Identity");
      alias->set_name(absl::StrCat("Identity_output_", name));
      namer.Write(var.id(), alias->add_input());
      alias->add_output(name);
    }
    AddNamedValue(graph, ValueField::kOutput, types, var.id(), name);
  }
  int64_t ir_version = LowestIrVersion(arena, needed.vars, imports);
  for (const onnx::FunctionProto& function : functions) {
    ir_version = std::max(ir_version, internal::IrVersionFor(function));
  }
  return ModelHeader{imports, ir_version, std::move(functions)};
}

void SetHeader(const ModelHeader& header, onnx::ModelProto& model) {
  model.set_ir_version(header.ir_version);
  model.set_producer_name("graphgc");
  for (const auto& [domain, version] : header.imports) {
    onnx::OperatorSetIdProto* opset = model.add_opset_import();
    opset->set_domain(domain);
    opset->set_version(version);
  }
  for (const onnx::FunctionProto& function : header.functions) *model.add_functions() = function;
}

absl::Status BuildModel(GraphCore& core, const NamedVars& outputs, const ExportOptions& options,
                        onnx::ModelProto& model, GraphRanks ranks = GraphRanks::kRequired) {
  ProtoSink graph(model.mutable_graph());
  GRAPHGC_ASSIGN_OR_RETURN(const ModelHeader header,
                           WriteGraph(core, outputs, options, graph, ranks));
  SetHeader(header, model);
  return absl::OkStatus();
}

// The bytes SerializeToString would give for BuildModel's model, without building it: the
// header's fields (ModelProto's 1 and 2), the graph (7), then the opset imports (8).
absl::StatusOr<std::string> BuildModelBytes(GraphCore& core, const NamedVars& outputs,
                                            const ExportOptions& options) {
  internal::StreamSink graph;
  GRAPHGC_ASSIGN_OR_RETURN(const ModelHeader written, WriteGraph(core, outputs, options, graph));
  onnx::ModelProto header;
  SetHeader(written, header);
  std::string opsets;
  for (const onnx::OperatorSetIdProto& opset : header.opset_import()) {
    internal::AppendMessageField(onnx::ModelProto::kOpsetImportFieldNumber, opset, opsets);
  }
  header.clear_opset_import();
  header.clear_functions();
  std::string bytes = header.SerializeAsString();
  graph.AppendGraphField(onnx::ModelProto::kGraphFieldNumber, bytes);
  bytes.append(opsets);
  for (const onnx::FunctionProto& function : written.functions) {
    internal::AppendMessageField(onnx::ModelProto::kFunctionsFieldNumber, function, bytes);
  }
  return bytes;
}

}  // namespace

namespace {
std::atomic<bool> check_every_export{false};

// Whether an export runs ONNX's checker on its model. A model whose initializers may live in
// external files is checked from its saved file instead.
bool ChecksExport(const ExportOptions& options) {
  const bool checked_in_memory = !options.store_elements;
  return options.check || (checked_in_memory && check_every_export.load(std::memory_order_relaxed));
}
}  // namespace

void internal::CheckEveryExport(bool on) { check_every_export.store(on); }

namespace {
// The ModelProto of an export, symbolic dims carried and checked as the options say; `who` names
// the export in a checker error.
absl::Status BuildCheckedModel(const Graph& graph, const NamedVars& outputs,
                               const ExportOptions& options, absl::string_view who,
                               onnx::ModelProto& model) {
  GRAPHGC_RETURN_IF_ERROR(BuildModel(*graph.core(), outputs, options, model));
  if (options.inline_functions) {
    absl::Status inlined = internal::InlineModelFunctions(model);
    if (!inlined.ok())
      return absl::Status(inlined.code(), absl::StrCat(who, ": ", inlined.message()));
  }
  if (options.carry_symbolic_dims && graph.core()->arena().has_dim_names()) {
    internal::CarrySymbolicDims(model);
  }
  if (ChecksExport(options)) GRAPHGC_RETURN_IF_ERROR(internal::CheckWithOnnxChecker(model, who));
  return absl::OkStatus();
}
}  // namespace

absl::Status internal::CheckWithOnnxChecker(const onnx::ModelProto& model, absl::string_view who) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    return absl::InternalError(
        absl::StrCat(who, ": the ONNX checker rejected the model: ", e.what()));
  }
  return absl::OkStatus();
}

absl::StatusOr<onnx::ModelProto> to_onnx(const Graph& graph, const NamedVars& outputs) {
  return to_onnx(graph, outputs, ExportOptions());
}

absl::StatusOr<onnx::ModelProto> to_onnx(const Graph& graph, const NamedVars& outputs,
                                         const ExportOptions& options) {
  GRAPHGC_RETURN_IF_ERROR(CheckOutputs(graph, outputs));
  absl::StatusOr<onnx::ModelProto> model(absl::in_place);  // built where it is returned
  GRAPHGC_RETURN_IF_ERROR(BuildCheckedModel(graph, outputs, options, "to_onnx", *model));
  return model;
}

absl::StatusOr<onnx::ModelProto> internal::ExportFunctionBody(const Graph& graph,
                                                              const NamedVars& outputs,
                                                              const ExportOptions& options) {
  GRAPHGC_RETURN_IF_ERROR(CheckOutputs(graph, outputs, GraphRanks::kFree));
  absl::StatusOr<onnx::ModelProto> model(absl::in_place);
  GRAPHGC_RETURN_IF_ERROR(BuildModel(*graph.core(), outputs, options, *model, GraphRanks::kFree));
  return model;
}

absl::StatusOr<std::string> to_onnx_bytes(const Graph& graph, const NamedVars& outputs,
                                          const ExportOptions& options) {
  GRAPHGC_RETURN_IF_ERROR(CheckOutputs(graph, outputs));
  if (options.inline_functions ||
      (options.carry_symbolic_dims && graph.core()->arena().has_dim_names())) {
    // Inlining and carrying symbolic dims work on the model: build it first.
    onnx::ModelProto model;
    GRAPHGC_RETURN_IF_ERROR(BuildCheckedModel(graph, outputs, options, "to_onnx_bytes", model));
    return model.SerializeAsString();
  }
  GRAPHGC_ASSIGN_OR_RETURN(std::string bytes, BuildModelBytes(*graph.core(), outputs, options));
  if (ChecksExport(options)) {
    onnx::ModelProto model;
    if (!model.ParseFromString(bytes)) {
      return absl::InternalError("to_onnx_bytes: the model written does not parse back");
    }
    GRAPHGC_RETURN_IF_ERROR(internal::CheckWithOnnxChecker(model, "to_onnx_bytes"));
  }
  return bytes;
}

absl::Status save_onnx(const Graph& graph, const NamedVars& outputs, const std::string& path) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::string bytes, to_onnx_bytes(graph, outputs));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::UnavailableError(absl::StrCat("save_onnx: cannot open '", path, "'"));
  if (!out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())).flush()) {
    return absl::DataLossError(absl::StrCat("save_onnx: cannot write '", path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace graphgc
