#include "graphgc/export/onnx/local_functions.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

absl::Status FunctionError(const onnx::FunctionProto& function, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("inline_model: function ", LocalFunctions::NameOf(function), ": ", why));
}

std::string DomainKey(const std::string& domain) { return domain == "ai.onnx" ? "" : domain; }

std::string DomainLabel(const std::string& domain) { return domain.empty() ? "ai.onnx" : domain; }

// The attributes a function declares, with their defaults where it gives one (IR 9).
struct DeclaredAttributes {
  absl::flat_hash_set<std::string> names;
  std::map<std::string, const onnx::AttributeProto*> defaults;
};

DeclaredAttributes DeclaredOf(const onnx::FunctionProto& function) {
  DeclaredAttributes declared;
  for (const std::string& name : function.attribute()) declared.names.insert(name);
  for (const onnx::AttributeProto& proto : function.attribute_proto()) {
    declared.names.insert(proto.name());
    declared.defaults[proto.name()] = &proto;
  }
  return declared;
}

const onnx::AttributeProto* CallAttribute(const onnx::NodeProto& call, const std::string& name) {
  for (const onnx::AttributeProto& attribute : call.attribute()) {
    if (attribute.name() == name) return &attribute;
  }
  return nullptr;
}

absl::Status ResolveGraph(const onnx::FunctionProto& function, const DeclaredAttributes& declared,
                          const onnx::NodeProto& call, onnx::GraphProto& graph);

// Replaces each attribute reference of `node` by what it refers to (or drops it), and resolves
// the references inside its graph attributes.
absl::Status ResolveNode(const onnx::FunctionProto& function, const DeclaredAttributes& declared,
                         const onnx::NodeProto& call, onnx::NodeProto& node) {
  google::protobuf::RepeatedPtrField<onnx::AttributeProto> resolved;
  for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
    if (attribute.ref_attr_name().empty()) {
      if (attribute.has_g()) {
        GRAPHGC_RETURN_IF_ERROR(ResolveGraph(function, declared, call, *attribute.mutable_g()));
      }
      for (onnx::GraphProto& graph : *attribute.mutable_graphs()) {
        GRAPHGC_RETURN_IF_ERROR(ResolveGraph(function, declared, call, graph));
      }
      *resolved.Add() = std::move(attribute);
      continue;
    }
    const std::string& reference = attribute.ref_attr_name();
    if (!declared.names.contains(reference)) {
      return FunctionError(function, absl::StrCat("node '", node.name(), "' (", node.op_type(),
                                                  ") refers to attribute '", reference,
                                                  "', which the function does not declare"));
    }
    const onnx::AttributeProto* given = CallAttribute(call, reference);
    if (given == nullptr) {
      auto default_value = declared.defaults.find(reference);
      if (default_value != declared.defaults.end()) given = default_value->second;
    }
    if (given == nullptr) continue;  // neither set nor defaulted: the attribute is left out
    if (attribute.type() != onnx::AttributeProto::UNDEFINED &&
        given->type() != onnx::AttributeProto::UNDEFINED && attribute.type() != given->type()) {
      return FunctionError(
          function,
          absl::StrCat("attribute '", reference, "' is given as ",
                       onnx::AttributeProto::AttributeType_Name(given->type()), ", but node '",
                       node.name(), "' (", node.op_type(), ") reads it as ",
                       onnx::AttributeProto::AttributeType_Name(attribute.type())));
    }
    onnx::AttributeProto* value = resolved.Add();
    *value = *given;
    value->set_name(attribute.name());
    value->clear_ref_attr_name();
    value->clear_doc_string();
  }
  node.mutable_attribute()->Swap(&resolved);
  return absl::OkStatus();
}

absl::Status ResolveGraph(const onnx::FunctionProto& function, const DeclaredAttributes& declared,
                          const onnx::NodeProto& call, onnx::GraphProto& graph) {
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    GRAPHGC_RETURN_IF_ERROR(ResolveNode(function, declared, call, node));
  }
  return absl::OkStatus();
}

}  // namespace

std::string LocalFunctions::NameOf(const onnx::FunctionProto& function) {
  std::string name = function.domain().empty()
                         ? function.name()
                         : absl::StrCat(function.domain(), ".", function.name());
  if (!function.overload().empty()) absl::StrAppend(&name, ":", function.overload());
  return name;
}

absl::StatusOr<LocalFunctions> LocalFunctions::Index(const onnx::ModelProto& model,
                                                     const Opsets& model_opsets) {
  LocalFunctions functions;
  functions.model_opsets_ = model_opsets;
  for (const onnx::FunctionProto& function : model.functions()) {
    const Key key{DomainKey(function.domain()), function.name(), function.overload()};
    if (!functions.functions_.emplace(key, &function).second) {
      return FunctionError(function, "the model defines it twice");
    }
    for (const onnx::OperatorSetIdProto& opset : function.opset_import()) {
      const std::string domain = DomainKey(opset.domain());
      auto model_opset = model_opsets.find(domain);
      if (model_opset != model_opsets.end() && model_opset->second != opset.version()) {
        return FunctionError(
            function, absl::StrCat("it imports ", DomainLabel(domain), " opset ", opset.version(),
                                   " but the model imports opset ", model_opset->second,
                                   "; a function's ops must mean what the model's mean"));
      }
      if (model_opset == model_opsets.end() && IsOnnxDefinedDomain(domain) &&
          (opset.version() < 1 || opset.version() > SupportedOpsetVersion(domain))) {
        return FunctionError(
            function, absl::StrCat("it imports ", DomainLabel(domain), " opset ", opset.version(),
                                   "; graphgc reads opsets 1 to ", SupportedOpsetVersion(domain)));
      }
      if (opset.version() < 1 || opset.version() > std::numeric_limits<int>::max()) {
        return FunctionError(function, absl::StrCat("it imports ", DomainLabel(domain),
                                                    " at opset ", opset.version()));
      }
    }
  }
  GRAPHGC_RETURN_IF_ERROR(functions.CheckCallsBetweenFunctions());
  return functions;
}

namespace {

// Every node of `nodes` and of the graphs in their attributes.
template <class Visit>
void ForEachNode(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, Visit& visit) {
  for (const onnx::NodeProto& node : nodes) {
    visit(node);
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) ForEachNode(attribute.g().node(), visit);
      for (const onnx::GraphProto& graph : attribute.graphs()) ForEachNode(graph.node(), visit);
    }
  }
}

}  // namespace

absl::Status LocalFunctions::CheckCallsBetweenFunctions() const {
  // The calls each function's body makes, each checked as BodyFor checks a call.
  std::map<const onnx::FunctionProto*, std::vector<const onnx::FunctionProto*>> callees;
  absl::Status status;
  for (const auto& [key, function] : functions_) {
    std::vector<const onnx::FunctionProto*>& called = callees[function];
    auto visit = [&](const onnx::NodeProto& node) {
      const onnx::FunctionProto* callee = Find(node);
      if (callee == nullptr || !status.ok()) return;
      status = CheckCall(*callee, node);
      called.push_back(callee);
    };
    ForEachNode(function->node(), visit);
    GRAPHGC_RETURN_IF_ERROR(status);
  }
  // A cycle among the calls is a recursion, which no body could be built for. Depth-first with
  // a stack of its own: a model may chain any number of functions.
  enum class Mark { kNone, kOnPath, kDone };
  std::map<const onnx::FunctionProto*, Mark> marks;
  for (const auto& [key, root] : functions_) {
    if (marks[root] != Mark::kNone) continue;
    // (function, index of its next callee to visit)
    std::vector<std::pair<const onnx::FunctionProto*, size_t>> path = {{root, 0}};
    marks[root] = Mark::kOnPath;
    while (!path.empty()) {
      auto& [function, next] = path.back();
      const std::vector<const onnx::FunctionProto*>& called = callees[function];
      if (next == called.size()) {
        marks[function] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const onnx::FunctionProto* callee = called[next++];
      Mark& mark = marks[callee];
      if (mark == Mark::kDone) continue;
      if (mark == Mark::kOnPath) {
        std::vector<std::string> names;
        bool on_cycle = false;
        for (const auto& [on_path, unused] : path) {
          on_cycle = on_cycle || on_path == callee;
          if (on_cycle) names.push_back(NameOf(*on_path));
        }
        names.push_back(NameOf(*callee));
        return FunctionError(*callee,
                             absl::StrCat("it calls itself (", absl::StrJoin(names, " -> "),
                                          "); ONNX functions may not recurse"));
      }
      mark = Mark::kOnPath;
      path.emplace_back(callee, 0);
    }
  }
  return absl::OkStatus();
}

const onnx::FunctionProto* LocalFunctions::Find(const onnx::NodeProto& call) const {
  if (functions_.empty()) return nullptr;
  auto it = functions_.find(Key{DomainKey(call.domain()), call.op_type(), call.overload()});
  return it == functions_.end() ? nullptr : it->second;
}

LocalFunctions::Opsets LocalFunctions::OpsetsOf(const onnx::FunctionProto& function) const {
  Opsets opsets = model_opsets_;
  for (const onnx::OperatorSetIdProto& opset : function.opset_import()) {
    opsets.emplace(DomainKey(opset.domain()), static_cast<int>(opset.version()));
  }
  return opsets;
}

namespace {

// CheckCall, with the function's declared attributes at hand.
absl::Status CheckCallOf(const onnx::FunctionProto& function, const DeclaredAttributes& declared,
                         const onnx::NodeProto& call) {
  if (call.input_size() > function.input_size() || call.output_size() > function.output_size()) {
    return FunctionError(
        function,
        absl::StrCat("node '", call.name(), "' calls it with ", call.input_size(), " inputs and ",
                     call.output_size(), " outputs; it takes at most ", function.input_size(),
                     " inputs and gives ", function.output_size(), " outputs"));
  }
  for (const onnx::AttributeProto& attribute : call.attribute()) {
    if (!declared.names.contains(attribute.name())) {
      return FunctionError(
          function, absl::StrCat("node '", call.name(), "' sets attribute '", attribute.name(),
                                 "', which the function does not declare",
                                 declared.names.empty() ? " (it declares none)" : ""));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status LocalFunctions::CheckCall(const onnx::FunctionProto& function,
                                       const onnx::NodeProto& call) {
  return CheckCallOf(function, DeclaredOf(function), call);
}

absl::StatusOr<onnx::GraphProto> LocalFunctions::BodyFor(const onnx::FunctionProto& function,
                                                         const onnx::NodeProto& call) {
  const DeclaredAttributes declared = DeclaredOf(function);
  GRAPHGC_RETURN_IF_ERROR(CheckCallOf(function, declared, call));
  onnx::GraphProto body;
  body.set_name(NameOf(function));
  for (const std::string& input : function.input()) body.add_input()->set_name(input);
  for (const std::string& output : function.output()) body.add_output()->set_name(output);
  *body.mutable_node() = function.node();
  *body.mutable_value_info() = function.value_info();
  GRAPHGC_RETURN_IF_ERROR(ResolveGraph(function, declared, call, body));
  return body;
}

bool CallChain::Contains(const onnx::FunctionProto* function) const {
  return std::find(active_.begin(), active_.end(), function) != active_.end();
}

std::string CallChain::Describe(const onnx::FunctionProto* function) const {
  std::vector<std::string> names;
  for (const onnx::FunctionProto* active : active_)
    names.push_back(LocalFunctions::NameOf(*active));
  names.push_back(LocalFunctions::NameOf(*function));
  return absl::StrJoin(names, " -> ");
}

CallChain::Scope::Scope(CallChain& chain, const onnx::FunctionProto* function) : chain_(chain) {
  chain_.active_.push_back(function);
}

CallChain::Scope::~Scope() { chain_.active_.pop_back(); }

}  // namespace graphgc::internal
