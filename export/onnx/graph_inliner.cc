#include "graphgc/export/onnx/graph_inliner.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/function_calls.h"
#include "graphgc/export/onnx/graph_names.h"
#include "graphgc/export/onnx/input_binding.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/reshape_target.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/build/opaque_node.h"
#include "graphgc/opset/build/subgraph_builder.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/sparse_tensor_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

absl::Status ModelError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("inline_model: ", why));
}

// The type a graph input declares (dim_param and missing dims are unknown).
absl::StatusOr<VarType> DeclaredType(const onnx::ValueInfoProto& info) {
  absl::StatusOr<VarType> type =
      FromTypeProto(info.type(), absl::StrCat("input '", info.name(), "'"));
  if (!type.ok()) {
    return absl::Status(type.status().code(),
                        absl::StrCat("inline_model: ", type.status().message()));
  }
  return type;
}

// The argument for a graph input, its declared dim_params kept as the argument's dim names.
Var ArgumentWithDimNames(Graph& graph, const std::string& name, const onnx::ValueInfoProto& input,
                         const VarType& type) {
  if (!type.is_tensor() || !type.shape().has_value() || !input.type().has_tensor_type()) {
    return graph.argument(name, type);
  }
  const onnx::TensorShapeProto& declared = input.type().tensor_type().shape();
  const std::vector<int64_t>& sizes = *type.shape();
  if (static_cast<size_t>(declared.dim_size()) != sizes.size()) return graph.argument(name, type);
  std::vector<Dim> dims;
  bool named = false;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const onnx::TensorShapeProto::Dimension& dim = declared.dim(static_cast<int>(d));
    if (sizes[d] < 0 && dim.has_dim_param() && !dim.dim_param().empty()) {
      dims.emplace_back(dim.dim_param());
      named = true;
    } else {
      dims.emplace_back(sizes[d]);
    }
  }
  if (!named) return graph.argument(name, type);
  return graph.argument(name, type.dtype(), absl::Span<const Dim>(dims));
}

// A body output's declared type counts, as in ONNX's own inference: a var the body made gets the
// declared rank or dims where inference left them unknown (and keeps what it knows otherwise).
void SharpenToDeclared(const Var& var, const onnx::TypeProto& declared) {
  Arena& arena = var.core()->arena();
  const VarId id = var.id();
  if (!arena.var_is_tensor(id) || !arena.var_producer(id).valid() ||
      arena.var_subgraph(id) != arena.subgraphs().current()) {
    return;  // an argument, an outer var or a non-tensor: not the body's to refine
  }
  absl::StatusOr<VarType> type = FromTypeProto(declared, "output");
  if (!type.ok() || type->dtype() != arena.var_dtype(id) || !type->shape().has_value()) return;
  const std::vector<int64_t>& want = *type->shape();
  std::optional<Shape> shape = arena.var_shape(id);
  if (!shape.has_value()) shape = Shape(want.size(), -1);
  if (shape->size() != want.size()) return;
  for (size_t d = 0; d < want.size(); ++d) {
    if ((*shape)[d] < 0) (*shape)[d] = want[d];
  }
  arena.set_var_type(id, arena.var_dtype(id), absl::Span<const int64_t>(*shape));
}

absl::Status NodeError(const onnx::NodeProto& node, const absl::Status& cause) {
  return absl::Status(cause.code(), absl::StrCat("inline_model: node '", node.name(), "' (",
                                                 node.op_type(), "): ", cause.message()));
}

}  // namespace

GraphInliner::GraphInliner(Graph& graph, const onnx::GraphProto& proto, ImportedOpsets opsets,
                           OuterLookup outer, std::shared_ptr<const InlineHooks> hooks)
    : graph_(graph),
      proto_(proto),
      opsets_(std::move(opsets)),
      outer_(std::move(outer)),
      hooks_(std::move(hooks)) {}

absl::Status GraphInliner::IndexOutputs() {
  const int num_nodes = proto_.node_size();
  producers_.reserve(static_cast<size_t>(num_nodes));
  first_output_.reserve(static_cast<size_t>(num_nodes) + 1);
  size_t outputs = 0;
  for (int n = 0; n < num_nodes; ++n) {
    first_output_.push_back(outputs);
    const onnx::NodeProto& node = proto_.node(n);
    for (int i = 0; i < node.output_size(); ++i) {
      const std::string& output = node.output(i);
      if (output.empty()) continue;
      if (sources_.contains(output) ||
          !producers_.emplace(output, OutputRef{n, static_cast<int>(i)}).second) {
        return ModelError(absl::StrCat("'", output, "' is defined more than once"));
      }
    }
    outputs += static_cast<size_t>(node.output_size());
  }
  first_output_.push_back(outputs);
  return absl::OkStatus();
}

// Resolves what node `n` reads: its inputs (into input_refs_) and what its bodies take from the
// enclosing graphs; appends the index of each producing node to `producers`. Errors name a
// dangling name.
absl::Status GraphInliner::ResolveReads(int n, std::vector<int>& producers) {
  const onnx::NodeProto& node = proto_.node(n);
  auto resolve = [&](const std::string& name) -> absl::StatusOr<OutputRef> {
    if (name.empty()) return OutputRef();
    // Most reads are of node outputs, so those are looked up first (no name is both).
    auto it = producers_.find(name);
    if (it != producers_.end()) {
      producers.push_back(it->second.node);
      return it->second;
    }
    if (sources_.contains(name)) return OutputRef();
    if (outer_ && outer_(name).has_value()) return OutputRef();
    return ModelError(absl::StrCat("node ", n, " (", node.op_type(), ") reads '", name,
                                   "', which nothing defines"));
  };
  for (const std::string& input : node.input()) {
    GRAPHGC_ASSIGN_OR_RETURN(const OutputRef ref, resolve(input));
    input_refs_.push_back(ref);
  }
  for (const onnx::GraphProto* body : BodiesOf(node)) {
    for (const std::string& name : FreeNames(*body))
      GRAPHGC_RETURN_IF_ERROR(resolve(name).status());
  }
  return absl::OkStatus();
}

// Node indices in an order where every node comes after the producers of what it reads. ONNX
// requires nodes to be sorted, so the model's own order is checked first and usually taken as it
// is; otherwise Kahn's algorithm sorts them, keeping the model's order wherever it allows: an
// intermediate is then consumed where the model's author put its consumers, which keeps few
// values alive at once.
absl::Status GraphInliner::Order() {
  GRAPHGC_RETURN_IF_ERROR(IndexOutputs());
  const int num_nodes = proto_.node_size();
  // The producers each node reads, node by node (a name read twice counts twice on both sides).
  std::vector<int> reads;
  std::vector<size_t> first_read(static_cast<size_t>(num_nodes) + 1, 0);
  first_input_.reserve(static_cast<size_t>(num_nodes));
  bool sorted = true;
  for (int n = 0; n < num_nodes; ++n) {
    first_read[n] = reads.size();
    first_input_.push_back(input_refs_.size());
    GRAPHGC_RETURN_IF_ERROR(ResolveReads(n, reads));
    for (size_t r = first_read[n]; r < reads.size(); ++r) sorted = sorted && reads[r] < n;
  }
  first_read[num_nodes] = reads.size();
  order_.reserve(static_cast<size_t>(num_nodes));
  if (sorted) {
    for (int n = 0; n < num_nodes; ++n) order_.push_back(n);
  } else {
    GRAPHGC_RETURN_IF_ERROR(SortTopologically(reads, first_read));
  }
  if (is_main_ && hooks_->constants_just_in_time) ConstantsJustInTime(reads, first_read);
  return absl::OkStatus();
}

absl::Status GraphInliner::SortTopologically(const std::vector<int>& reads,
                                             const std::vector<size_t>& first_read) {
  const int num_nodes = proto_.node_size();
  std::vector<int> pending(num_nodes, 0);
  std::vector<std::vector<int>> consumers(num_nodes);
  for (int n = 0; n < num_nodes; ++n) {
    for (size_t r = first_read[n]; r < first_read[n + 1]; ++r) {
      ++pending[n];
      consumers[reads[r]].push_back(n);
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int n = 0; n < num_nodes; ++n) {
    if (pending[n] == 0) ready.push(n);
  }
  while (!ready.empty()) {
    const int n = ready.top();
    ready.pop();
    order_.push_back(n);
    for (int consumer : consumers[n]) {
      if (--pending[consumer] == 0) ready.push(consumer);
    }
  }
  if (static_cast<int>(order_.size()) != num_nodes) return ModelError("the graph has a cycle");
  return absl::OkStatus();
}

bool GraphInliner::ReadsArgument(int n, const NameSet& arguments) const {
  const onnx::NodeProto& node = proto_.node(n);
  for (const std::string& name : node.input()) {
    if (arguments.contains(name)) return true;
  }
  for (const onnx::GraphProto* body : BodiesOf(node)) {
    for (const std::string& name : FreeNames(*body)) {
      if (arguments.contains(name)) return true;
    }
  }
  return false;
}

void GraphInliner::ConstantsJustInTime(const std::vector<int>& reads,
                                       const std::vector<size_t>& first_read) {
  const int num_nodes = proto_.node_size();
  // The inputs that become arguments: not an initializer's name, unless inputs override them.
  NameSet arguments;
  for (const auto& input : proto_.input()) arguments.insert(input.name());
  if (!hooks_->inputs_override_initializers) {
    for (const auto& initializer : proto_.initializer()) arguments.erase(initializer.name());
    for (const auto& sparse : proto_.sparse_initializer()) arguments.erase(sparse.values().name());
  }
  // Constant: reads no argument, itself or through a producer (order_ puts producers first).
  std::vector<char> constant(static_cast<size_t>(num_nodes), 0);
  for (int n : order_) {
    bool from_constants = !ReadsArgument(n, arguments);
    for (size_t r = first_read[n]; r < first_read[n + 1] && from_constants; ++r) {
      from_constants = constant[reads[r]] != 0;
    }
    constant[n] = from_constants ? 1 : 0;
  }
  std::vector<int> order;
  order.reserve(order_.size());
  std::vector<char> placed(static_cast<size_t>(num_nodes), 0);
  // Places `root` after the constant producers it needs that are not placed yet, depth first
  // with an explicit stack (a chain of constants may be as long as the model).
  std::vector<std::pair<int, size_t>> stack;
  auto place = [&](int root) {
    stack.emplace_back(root, first_read[root]);
    while (!stack.empty()) {
      const int n = stack.back().first;
      const size_t next = stack.back().second;
      if (next < first_read[n + 1]) {
        ++stack.back().second;
        const int producer = reads[next];
        if (constant[producer] != 0 && placed[producer] == 0) {
          placed[producer] = 1;  // on the stack now: reached again, it is not pushed twice
          stack.emplace_back(producer, first_read[producer]);
        }
        continue;
      }
      stack.pop_back();
      placed[n] = 1;
      order.push_back(n);
    }
  };
  for (int n : order_) {
    if (constant[n] == 0) place(n);
  }
  // The constants nothing that reads an argument needs (a graph output's), where they were.
  for (int n : order_) {
    if (placed[n] == 0) place(n);
  }
  order_ = std::move(order);
}

// Everything that can fail without touching the graph is checked before anything is built.
absl::Status GraphInliner::Prepare() {
  for (const auto& input : proto_.input()) sources_.insert(input.name());
  for (const auto& initializer : proto_.initializer()) sources_.insert(initializer.name());
  for (const auto& sparse : proto_.sparse_initializer()) sources_.insert(sparse.values().name());
  GRAPHGC_RETURN_IF_ERROR(Order());
  node_outputs_.resize(first_output_.back());
  for (const onnx::TensorProto& proto : proto_.initializer()) {
    absl::StatusOr<Tensor> tensor =
        hooks_->load_initializer ? hooks_->load_initializer(proto) : FromTensorProto(proto);
    if (!tensor.ok()) {
      return absl::Status(tensor.status().code(),
                          absl::StrCat("inline_model: ", tensor.status().message()));
    }
    initializers_.push_back(*std::move(tensor));
  }
  // A sparse initializer is the dense tensor it stands for (sparse_tensor_proto.h).
  for (const onnx::SparseTensorProto& sparse : proto_.sparse_initializer()) {
    absl::StatusOr<Tensor> tensor = DenseFromSparseTensorProto(
        sparse, absl::StrCat("inline_model: sparse initializer '", sparse.values().name(), "'"));
    if (!tensor.ok()) return tensor.status();
    initializers_.push_back(*std::move(tensor));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::map<std::string, Var>> GraphInliner::RunMain(
    const std::map<std::string, Var>& given) {
  for (const auto& [name, var] : given) {
    bool known = false;
    for (const auto& input : proto_.input()) known = known || input.name() == name;
    if (!known) return ModelError(absl::StrCat("the model has no input '", name, "'"));
    if (!var.ok()) return ModelError(absl::StrCat("input '", name, "': ", var.status().message()));
    if (var.core() != graph_.core()) {
      return ModelError(absl::StrCat("input '", name, "' belongs to another Graph"));
    }
  }
  is_main_ = true;
  GRAPHGC_RETURN_IF_ERROR(Prepare());
  std::vector<VarType> declared;
  InputBinder binder;
  for (const auto& input : proto_.input()) {
    GRAPHGC_ASSIGN_OR_RETURN(declared.emplace_back(), DeclaredType(input));
    auto it = given.find(input.name());
    if (it == given.end()) continue;
    GRAPHGC_RETURN_IF_ERROR(
        binder.Bind(input.name(), input.type(), declared.back(), it->second.type()));
    vars_[input.name()] = it->second;
  }
  if (!hooks_->inputs_override_initializers) GRAPHGC_RETURN_IF_ERROR(BindInitializers());
  for (int i = 0; i < proto_.input_size(); ++i) {
    const std::string& name = proto_.input(i).name();
    if (vars_.contains(name)) continue;
    GRAPHGC_ASSIGN_OR_RETURN(vars_[name], MakeArgument(proto_.input(i), declared[i]));
  }
  if (hooks_->inputs_override_initializers) GRAPHGC_RETURN_IF_ERROR(BindInitializers());
  GRAPHGC_RETURN_IF_ERROR(BuildNodes());
  std::map<std::string, Var> outputs;
  for (const auto& output : proto_.output()) {
    GRAPHGC_ASSIGN_OR_RETURN(outputs[output.name()], Output(output));
    if (output.type().has_tensor_type()) SharpenToDeclared(outputs[output.name()], output.type());
  }
  return outputs;
}

absl::StatusOr<Var> GraphInliner::MakeArgument(const onnx::ValueInfoProto& input,
                                               const VarType& type) {
  const std::string name = hooks_->argument_prefix + input.name();
  Var argument = hooks_->keep_dim_names ? ArgumentWithDimNames(graph_, name, input, type)
                                        : graph_.argument(name, type);
  if (argument.ok()) return argument;
  const internal::Arena& arena = graph_.core()->arena();
  const std::optional<StringId> existing = arena.find_string(name);
  if (existing.has_value() && arena.is_argument_name(*existing)) {
    return ModelError(absl::StrCat(
        "input '", input.name(), "' is not bound, and the graph already has an argument '", name,
        "': bind it, or give InlineOptions::prefix to name the arguments of this copy apart"));
  }
  return ModelError(argument.status().message());
}

absl::StatusOr<Var> GraphInliner::Output(const onnx::ValueInfoProto& output) const {
  // ONNX's checker requires every output to have a name; nothing could be exported under "".
  if (output.name().empty()) return ModelError("an output has no name");
  std::optional<Var> var = Lookup(output.name());
  if (!var.has_value())
    return ModelError(absl::StrCat("output '", output.name(), "' is not defined"));
  return *std::move(var);
}

absl::StatusOr<std::vector<Var>> GraphInliner::RunBody(absl::Span<const Var> arguments) {
  if (static_cast<size_t>(proto_.input_size()) != arguments.size()) {
    return ModelError(absl::StrCat("the body '", proto_.name(), "' has ", proto_.input_size(),
                                   " inputs but its op gives it ", arguments.size(), " arguments"));
  }
  GRAPHGC_RETURN_IF_ERROR(Prepare());
  for (int i = 0; i < proto_.input_size(); ++i) {
    vars_[proto_.input(i).name()] = arguments[i];
    // A body input may leave its type out: the op defines it.
    if (proto_.input(i).type().value_case() == onnx::TypeProto::VALUE_NOT_SET) continue;
    GRAPHGC_ASSIGN_OR_RETURN(VarType declared, DeclaredType(proto_.input(i)));
    const std::string given = arguments[i].type().ToString();
    if (declared.ToString() != given) {
      return ModelError(absl::StrCat("input '", proto_.input(i).name(), "' of the body '",
                                     proto_.name(), "' is ", declared.ToString(),
                                     " but its op gives it ", given));
    }
  }
  GRAPHGC_RETURN_IF_ERROR(BindInitializers());
  GRAPHGC_RETURN_IF_ERROR(BuildNodes());
  std::vector<Var> results;
  for (const auto& output : proto_.output()) {
    GRAPHGC_ASSIGN_OR_RETURN(results.emplace_back(), Output(output));
    if (output.type().has_tensor_type()) SharpenToDeclared(results.back(), output.type());
  }
  return results;
}

absl::Status GraphInliner::BindInitializers() {
  const int dense = proto_.initializer_size();
  for (int i = 0; i < dense + proto_.sparse_initializer_size(); ++i) {
    const std::string& name = i < dense ? proto_.initializer(i).name()
                                        : proto_.sparse_initializer(i - dense).values().name();
    if (vars_.contains(name)) continue;  // a graph input of that name overrides it
    vars_[name] = graph_.constant(initializers_[i]);
    if (is_main_ && hooks_->on_initializer) hooks_->on_initializer(name, vars_[name]);
  }
  // The constants hold the tensors now; a second handle would outlive a released constant.
  initializers_.clear();
  return absl::OkStatus();
}

absl::Status GraphInliner::BuildNodes() {
  const bool releasing = is_main_ && hooks_->release_after_last_use;
  if (releasing) CountReads();
  const int64_t total = static_cast<int64_t>(order_.size());
  int64_t done = 0;
  for (int n : order_) {
    GRAPHGC_RETURN_IF_ERROR(BuildNode(n));
    if (releasing) ReleaseReads(proto_.node(n));
    ++done;
    if (is_main_ && hooks_->progress && (done % 256 == 0 || done == total)) {
      hooks_->progress(done, total);
    }
  }
  return absl::OkStatus();
}

void GraphInliner::CountReads() {
  NameSet outputs;
  for (const auto& output : proto_.output()) outputs.insert(output.name());
  for (int n : order_) {
    NameSet counted;
    for (const std::string& name : ReadNames(proto_.node(n))) {
      if (name.empty() || outputs.contains(name) || !counted.insert(name).second) continue;
      ++reads_left_[name];
    }
  }
}

void GraphInliner::ReleaseReads(const onnx::NodeProto& node) {
  NameSet counted;
  bool released = false;
  for (const std::string& name : ReadNames(node)) {
    if (name.empty() || !counted.insert(name).second) continue;
    auto it = reads_left_.find(name);
    if (it == reads_left_.end() || --it->second > 0) continue;
    reads_left_.erase(it);
    released = Release(name) || released;
  }
  // The op's own collection ran while its inputs were still held; what they alone kept alive
  // may go now, before the next op allocates beside it.
  if (released) graph_.core()->maybe_collect();
}

const onnx::TypeProto* GraphInliner::DeclaredTypeOf(const std::string& name) {
  if (!declared_types_gathered_) {
    for (const auto* infos : {&proto_.input(), &proto_.output(), &proto_.value_info()}) {
      for (const onnx::ValueInfoProto& info : *infos) declared_types_[info.name()] = &info.type();
    }
    declared_types_gathered_ = true;
  }
  auto it = declared_types_.find(name);
  return it == declared_types_.end() ? nullptr : it->second;
}

bool GraphInliner::Release(const std::string& name) {
  if (vars_.erase(name) > 0) return true;
  const std::optional<size_t> slot = OutputSlot(name);
  if (!slot.has_value() || node_outputs_[*slot].empty()) return false;
  node_outputs_[*slot] = Var();
  return true;
}

std::optional<size_t> GraphInliner::OutputSlot(absl::string_view name) const {
  auto it = producers_.find(name);
  if (it == producers_.end()) return std::nullopt;
  const size_t at = first_output_[it->second.node] + static_cast<size_t>(it->second.output);
  if (at >= node_outputs_.size()) return std::nullopt;
  return at;
}

std::optional<Var> GraphInliner::Lookup(const std::string& name) const {
  auto it = vars_.find(name);
  if (it != vars_.end()) return it->second;
  if (const std::optional<size_t> slot = OutputSlot(name); slot.has_value()) {
    if (!node_outputs_[*slot].empty()) return node_outputs_[*slot];
  }
  return outer_ ? outer_(name) : std::nullopt;
}

absl::StatusOr<std::vector<Attribute>> GraphInliner::Attributes(const onnx::NodeProto& node) {
  std::vector<Attribute> attributes;
  for (const onnx::AttributeProto& proto : node.attribute()) {
    if (proto.type() == onnx::AttributeProto::GRAPH && proto.ref_attr_name().empty()) {
      OuterLookup enclosing = [this](const std::string& name) { return Lookup(name); };
      attributes.push_back(Attribute{
          proto.name(), SubgraphFromGraphProto(graph_, proto.g(), opsets_, enclosing, hooks_)});
      continue;
    }
    if (proto.type() == onnx::AttributeProto::SPARSE_TENSOR && proto.name() == "sparse_value" &&
        IsOnnxOp(node, "Constant")) {
      // Constant(sparse_value = S) is Constant(value = the dense tensor S stands for).
      absl::StatusOr<Tensor> dense =
          DenseFromSparseTensorProto(proto.sparse_tensor(), "attribute 'sparse_value'");
      if (!dense.ok()) return dense.status();
      attributes.push_back(Attribute{"value", *std::move(dense)});
      continue;
    }
    absl::StatusOr<Attribute> attribute = FromAttributeProto(proto);
    if (!attribute.ok()) return attribute.status();
    attributes.push_back(*std::move(attribute));
  }
  return attributes;
}

bool GraphInliner::IsOpaqueOp(const onnx::NodeProto& node, absl::string_view domain) const {
  return !IsOnnxDefinedDomain(domain) && SupportedOpsetVersion(domain) == 0;
}

namespace {

// Whether ONNX's schema for the node accepts its structure (input and output counts, attribute
// names and kinds), as the checker asks of every node at export: a node that could not be typed
// stays opaque only if it passes, or the model would import and then fail to export.
absl::Status CheckStructure(const onnx::NodeProto& node, absl::string_view domain, int version) {
  const onnx::OpSchema* schema = FindSchema(node.op_type(), version, domain);
  if (schema == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("no schema defines ", node.op_type(), " at opset ", version));
  }
  try {
    schema->Verify(node);
  } catch (const std::exception& invalid) {
    return absl::InvalidArgumentError(invalid.what());
  }
  return absl::OkStatus();
}

// What ONNX's checker asks of a node in a domain ONNX defines, which an opaque node must pass too,
// or the model would import and then fail to export: an op ONNX defines there is verified against
// its schema, and in ai.onnx.training (which defines none in ONNX 1.12) every op is rejected.
absl::Status CheckOnnxDomainRules(const onnx::NodeProto& node, int version) {
  if (FindSchema(node.op_type(), version, node.domain()) != nullptr) {
    return CheckStructure(node, node.domain(), version);
  }
  if (node.domain() == onnx::AI_ONNX_TRAINING_DOMAIN) {
    return absl::InvalidArgumentError(absl::StrCat("ONNX defines no operator ", node.op_type(),
                                                   " in domain '", node.domain(), "' at opset ",
                                                   version));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<Var>> GraphInliner::BuildOpaque(const onnx::NodeProto& node,
                                                           const std::vector<Var>& inputs,
                                                           const std::vector<Attribute>& attributes,
                                                           const absl::Status& why) {
  if (!hooks_->opaque_unknown_ops) return NodeError(node, why);
  OpaqueNodeOptions options;
  options.domain = node.domain();
  auto opset = opsets_.find(node.domain());
  options.version = opset == opsets_.end() ? 1 : opset->second;
  if (absl::Status fits = CheckOnnxDomainRules(node, options.version); !fits.ok()) {
    return NodeError(node, fits);
  }
  for (const std::string& output : node.output()) {
    std::optional<VarType> type;
    if (const onnx::TypeProto* declared = DeclaredTypeOf(output)) {
      absl::StatusOr<VarType> parsed = FromTypeProto(*declared, output);
      if (parsed.ok()) type = *std::move(parsed);
    }
    options.output_types.push_back(std::move(type));
  }
  std::vector<Var> outputs =
      internal::MakeOpaqueNode(graph_, node.op_type(), inputs, attributes, options);
  for (const Var& output : outputs) {
    if (!output.ok()) return NodeError(node, output.status());
  }
  return outputs;
}

namespace {

// Whether some input came out of an opaque node untyped: ops after it cannot be typed either.
bool HasUntypedInput(const std::vector<Var>& inputs) {
  for (const Var& input : inputs) {
    if (input.ok() && !input.empty() && input.type().is_tensor() &&
        input.dtype() == DataType::kUndefined) {
      return true;
    }
  }
  return false;
}

// A node's attributes as they are, for a node no schema reads (an opaque node, a call).
absl::StatusOr<std::vector<Attribute>> PlainAttributes(const onnx::NodeProto& node) {
  std::vector<Attribute> plain;
  for (const onnx::AttributeProto& proto : node.attribute()) {
    absl::StatusOr<Attribute> attribute = FromAttributeProto(proto);
    if (!attribute.ok()) return NodeError(node, attribute.status());
    plain.push_back(*std::move(attribute));
  }
  return plain;
}

}  // namespace

absl::Status GraphInliner::BuildCall(int n, const onnx::FunctionProto& function,
                                     const std::vector<Var>& inputs) {
  const onnx::NodeProto& node = proto_.node(n);
  // The call's shape and attributes are checked first: a wrong one is an error, not a call
  // left opaque.
  GRAPHGC_ASSIGN_OR_RETURN(const onnx::GraphProto body, LocalFunctions::BodyFor(function, node));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<Attribute> plain, PlainAttributes(node));
  const bool refused = RecursesOrNestsTooDeep(*hooks_->call_chain, function);
  absl::StatusOr<std::vector<Var>> results = BuildFunctionBody(
      graph_, function, body, node, inputs, hooks_->functions->OpsetsOf(function), hooks_);
  if (!results.ok()) {
    if (refused) return NodeError(node, results.status());
    // A body graphgc cannot build leaves the call as it was before functions were read.
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<Var> outputs,
                             BuildOpaque(node, inputs, plain, results.status()));
    return Bind(n, inputs, outputs, /*opaque=*/true);
  }
  if (hooks_->inline_functions || !function.overload().empty()) {
    return Bind(n, inputs, *results, /*opaque=*/false);
  }
  auto opset = opsets_.find(node.domain());
  const int version = opset == opsets_.end() ? 1 : opset->second;
  std::vector<Var> outputs = MakeCallNode(graph_, node, inputs, plain, version, *results);
  for (const Var& output : outputs) {
    if (!output.ok()) return NodeError(node, output.status());
  }
  return Bind(n, inputs, outputs, /*opaque=*/true);
}

absl::Status GraphInliner::BuildNode(int n) {
  const onnx::NodeProto& node = proto_.node(n);
  std::vector<Var> inputs;
  inputs.reserve(static_cast<size_t>(node.input_size()));
  for (int i = 0; i < node.input_size(); ++i) {
    const OutputRef ref = input_refs_[first_input_[n] + static_cast<size_t>(i)];
    if (ref.node >= 0) {
      inputs.push_back(node_outputs_[first_output_[ref.node] + static_cast<size_t>(ref.output)]);
    } else {
      const std::string& name = node.input(i);
      inputs.push_back(name.empty() ? Var() : Lookup(name).value_or(Var()));
    }
  }
  if (hooks_->functions != nullptr) {
    if (const onnx::FunctionProto* function = hooks_->functions->Find(node)) {
      return BuildCall(n, *function, inputs);
    }
  }
  const absl::string_view domain =
      node.domain() == "ai.onnx" ? absl::string_view() : absl::string_view(node.domain());
  if (IsOpaqueOp(node, domain)) {
    const absl::Status unknown =
        absl::InvalidArgumentError(absl::StrCat("domain '", domain, "' is not known to graphgc"));
    if (!hooks_->opaque_unknown_ops) return NodeError(node, unknown);
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<Attribute> plain, PlainAttributes(node));
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<Var> outputs, BuildOpaque(node, inputs, plain, unknown));
    return Bind(n, inputs, outputs, /*opaque=*/true);
  }
  // An If whose condition is known is the branch it takes (so folding drops the If, as
  // onnx-simplifier does), whether or not the If itself would build.
  if (IsOnnxDomain(domain) && node.op_type() == "If") {
    if (std::optional<std::vector<Var>> taken = TakenBranch(node, inputs)) {
      return Bind(n, inputs, *taken, /*opaque=*/false);
    }
  }
  absl::StatusOr<std::vector<Attribute>> attributes = Attributes(node);
  if (!attributes.ok()) return NodeError(node, attributes.status());
  auto opset = opsets_.find(std::string(domain));
  if (opset == opsets_.end()) {
    return ModelError(absl::StrCat("node '", node.name(), "' (", node.op_type(), ") uses domain '",
                                   domain, "', which the model does not import"));
  }
  // A Reshape of the data's own dims reads a constant target (reshape_target.h): the shape
  // computation that made its target is left for nothing, and folding drops it.
  // (allowzero, opset 14, makes a 0 in the target a 0, not the data's dim.)
  std::vector<Var> rewritten;  // the inputs, when the Reshape reads a constant target
  if (IsOnnxDomain(domain) && node.op_type() == "Reshape" && inputs.size() == 2) {
    const onnx::AttributeProto* allowzero = FindAttribute(node, "allowzero");
    const bool zero_is_zero = allowzero != nullptr && IntValue(*allowzero).value_or(1) != 0;
    if (std::optional<Tensor> target = ReshapeTargetFromDims(inputs[0], inputs[1], zero_is_zero)) {
      rewritten = {inputs[0], graph_.constant(*target)};
    }
  }
  const std::vector<Var>& operands = rewritten.empty() ? inputs : rewritten;
  std::optional<GraphCore::ValueLimitScope> limit;
  if (is_main_ && hooks_->value_bytes_limit) {
    limit.emplace(*graph_.core(), hooks_->value_bytes_limit(node));
  }
  std::vector<Var> outputs = make_node(graph_, node.op_type(), operands, *attributes,
                                       NodeOptions{.domain = std::string(domain),
                                                   .version = opset->second,
                                                   .num_outputs = node.output_size()});
  limit.reset();
  for (int i = 0; i < node.output_size(); ++i) {
    if (outputs[i].ok()) continue;
    if (HasUntypedInput(inputs) && !HasSubgraphAttributes(*attributes)) {
      if (absl::Status fits = CheckStructure(node, domain, opset->second); !fits.ok()) {
        return NodeError(node, fits);
      }
      GRAPHGC_ASSIGN_OR_RETURN(outputs,
                               BuildOpaque(node, inputs, *attributes, outputs[i].status()));
      return Bind(n, inputs, outputs, /*opaque=*/true);
    }
    return NodeError(node, outputs[i].status());
  }
  return Bind(n, operands, outputs, /*opaque=*/false);
}

std::optional<std::vector<Var>> GraphInliner::TakenBranch(const onnx::NodeProto& node,
                                                          const std::vector<Var>& inputs) {
  if (inputs.empty() || !inputs[0].ok() || inputs[0].dtype() != DataType::kBool) {
    return std::nullopt;
  }
  const std::optional<Tensor> condition = inputs[0].value();
  if (!condition.has_value() || condition->size() != 1) return std::nullopt;
  const char* branch = condition->data<bool>()[0] ? "then_branch" : "else_branch";
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.name() != branch || !attribute.has_g()) continue;
    OuterLookup enclosing = [this](const std::string& name) { return Lookup(name); };
    absl::StatusOr<std::vector<Var>> results =
        GraphInliner(graph_, attribute.g(), opsets_, enclosing, hooks_).RunBody({});
    if (!results.ok() || results->size() != static_cast<size_t>(node.output_size())) {
      return std::nullopt;
    }
    for (const Var& result : *results) {
      if (!result.ok()) return std::nullopt;
    }
    return *std::move(results);
  }
  return std::nullopt;
}

absl::Status GraphInliner::Bind(int n, const std::vector<Var>& inputs,
                                const std::vector<Var>& outputs, bool opaque) {
  const onnx::NodeProto& node = proto_.node(n);
  // An unnamed output is never read: holding it would keep its value from the collector.
  const int count = std::min(node.output_size(), static_cast<int>(outputs.size()));
  for (int i = 0; i < count; ++i) {
    if (!node.output(i).empty())
      node_outputs_[first_output_[n] + static_cast<size_t>(i)] = outputs[i];
  }
  if (is_main_ && hooks_->after_node) hooks_->after_node(node, inputs, outputs, opaque);
  return absl::OkStatus();
}

Subgraph SubgraphFromGraphProto(Graph& graph, const onnx::GraphProto& body, ImportedOpsets opsets,
                                OuterLookup outer, std::shared_ptr<const InlineHooks> hooks) {
  return Subgraph([&graph, &body, opsets = std::move(opsets), outer = std::move(outer),
                   hooks = std::move(hooks)](absl::Span<const Var> arguments) -> std::vector<Var> {
    absl::StatusOr<std::vector<Var>> results =
        GraphInliner(graph, body, opsets, outer, hooks).RunBody(arguments);
    if (!results.ok()) return {Var::Detached(results.status())};
    return *std::move(results);
  });
}

}  // namespace graphgc::internal
