#include "graphgc/export/onnx/function_export.h"

#include <deque>
#include <exception>
#include <map>
#include <set>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/node_visitor.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "onnx/inliner/inliner.h"

namespace graphgc::internal {
namespace {

using FunctionName = std::pair<std::string, std::string>;  // domain, name

// Queues each call in `nodes` (and in the graphs of their attributes) of a library function not
// yet queued.
void QueueCalls(const FunctionLibrary& library,
                const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                std::set<FunctionName>& queued, std::deque<FunctionName>& queue) {
  for (const onnx::NodeProto& node : nodes) {
    FunctionName name{node.domain(), node.op_type()};
    if (library.Find(name.first, name.second) != nullptr && queued.insert(name).second) {
      queue.push_back(std::move(name));
    }
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) QueueCalls(library, attribute.g().node(), queued, queue);
      for (const onnx::GraphProto& graph : attribute.graphs()) {
        QueueCalls(library, graph.node(), queued, queue);
      }
    }
  }
}

}  // namespace

absl::StatusOr<std::vector<onnx::FunctionProto>> CalledFunctions(
    const GraphCore& core, const std::vector<bool>& needed_nodes,
    std::map<std::string, int>& imports) {
  const FunctionLibrary& library = core.functions();
  std::vector<onnx::FunctionProto> written;
  if (library.empty()) return written;
  const Arena& arena = core.arena();
  std::set<FunctionName> queued;
  std::deque<FunctionName> queue;
  // Whether a node of the graph decided the ai.onnx opset; if none did (a Constant fits any),
  // the functions' import decides it, as ONNX wants one version in a model and its functions.
  bool onnx_opset_pinned = false;
  for (size_t i = 0; i < needed_nodes.size(); ++i) {
    if (!needed_nodes[i]) continue;
    const OpKind& kind = arena.op_kind(arena.node_op(NodeId(static_cast<uint32_t>(i))));
    onnx_opset_pinned = onnx_opset_pinned || (kind.domain.empty() && !kind.is_constant);
    if (IsOnnxDefinedDomain(kind.domain)) continue;
    FunctionName name{kind.domain, kind.op_type};
    if (library.Find(name.first, name.second) != nullptr && queued.insert(name).second) {
      queue.push_back(std::move(name));
    }
  }
  while (!queue.empty()) {
    const FunctionName name = std::move(queue.front());
    queue.pop_front();
    onnx::FunctionProto& function = written.emplace_back();
    if (!function.ParseFromString(*library.Find(name.first, name.second))) {
      return absl::InternalError(absl::StrCat("to_onnx: the definition of function ", name.first,
                                              ".", name.second, " does not parse"));
    }
    for (const onnx::OperatorSetIdProto& opset : function.opset_import()) {
      const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
      const int version = static_cast<int>(opset.version());
      if (domain.empty() && !onnx_opset_pinned) {
        imports[domain] = version;
        onnx_opset_pinned = true;
      }
      imports.emplace(domain, version);
    }
    QueueCalls(library, function.node(), queued, queue);
  }
  return written;
}

int64_t IrVersionFor(const onnx::FunctionProto& function) {
  if (function.value_info_size() > 0 || !function.overload().empty()) return 10;
  if (function.attribute_proto_size() > 0) return 9;
  return 8;
}

namespace {

void CollectDomains(const onnx::GraphProto& graph, std::set<std::string>& domains) {
  ForEachNode(graph.node(), [&domains](const onnx::NodeProto& node) {
    domains.insert(node.domain() == "ai.onnx" ? "" : node.domain());
  });
}

using FunctionsByKey = std::map<std::pair<std::string, std::string>, const onnx::FunctionProto*>;

// Gives each call in `graph` (and its bodies) the defaults (attribute_proto) of the attributes it
// leaves out: ONNX's inliner leaves an attribute whose call does not set it out of the inlined
// nodes, default or not, and the op's own default then stands in for the function's.
void SetDefaultsOfCalls(const FunctionsByKey& functions, Nodes& nodes) {
  ForEachMutableNode(nodes, [&functions](onnx::NodeProto& node) {
    auto found = functions.find({node.domain(), node.op_type()});
    if (found == functions.end()) return;
    for (const onnx::AttributeProto& fallback : found->second->attribute_proto()) {
      const bool set = absl::c_any_of(node.attribute(), [&](const onnx::AttributeProto& given) {
        return given.name() == fallback.name();
      });
      if (!set) *node.add_attribute() = fallback;
    }
  });
}

}  // namespace

absl::Status InlineModelFunctions(onnx::ModelProto& model) {
  if (model.functions_size() == 0) return absl::OkStatus();
  FunctionsByKey functions;
  for (const onnx::FunctionProto& function : model.functions()) {
    functions.emplace(std::make_pair(function.domain(), function.name()), &function);
  }
  SetDefaultsOfCalls(functions, *model.mutable_graph()->mutable_node());
  for (onnx::FunctionProto& function : *model.mutable_functions()) {
    SetDefaultsOfCalls(functions, *function.mutable_node());
  }
  try {
    onnx::inliner::InlineLocalFunctions(model, /*convert_version=*/false);
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("inlining the model's functions failed: ", e.what()));
  }
  model.clear_functions();
  std::set<std::string> used = {""};  // the model keeps its ai.onnx opset, used or not
  CollectDomains(model.graph(), used);
  auto* imports = model.mutable_opset_import();
  for (int i = imports->size() - 1; i >= 0; --i) {
    const std::string& domain = imports->Get(i).domain();
    if (!used.contains(domain == "ai.onnx" ? "" : domain)) imports->DeleteSubrange(i, 1);
  }
  return absl::OkStatus();
}

}  // namespace graphgc::internal
