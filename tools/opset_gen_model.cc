#include "opset_gen_model.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "onnx/defs/schema.h"
#include "opset_gen_text.h"

namespace graphgc::opset_gen {
namespace {

// Defaults longer than this are summarised as "has a default" in the field comment.
constexpr size_t kMaxDefaultText = 48;

Arity ArityOf(const onnx::OpSchema::FormalParameter& parameter) {
  switch (parameter.GetOption()) {
    case onnx::OpSchema::Single:
      return Arity::kSingle;
    case onnx::OpSchema::Optional:
      return Arity::kOptional;
    case onnx::OpSchema::Variadic:
      return Arity::kVariadic;
  }
  return Arity::kSingle;
}

std::optional<AttributeKind> KindOf(onnx::AttributeProto::AttributeType type) {
  switch (type) {
    case onnx::AttributeProto::INT:
      return AttributeKind::kInt;
    case onnx::AttributeProto::FLOAT:
      return AttributeKind::kFloat;
    case onnx::AttributeProto::STRING:
      return AttributeKind::kString;
    case onnx::AttributeProto::INTS:
      return AttributeKind::kInts;
    case onnx::AttributeProto::FLOATS:
      return AttributeKind::kFloats;
    case onnx::AttributeProto::STRINGS:
      return AttributeKind::kStrings;
    case onnx::AttributeProto::TENSOR:
      return AttributeKind::kTensor;
    case onnx::AttributeProto::GRAPH:
      return AttributeKind::kGraph;
    case onnx::AttributeProto::TYPE_PROTO:
      return AttributeKind::kType;
    default:
      return std::nullopt;  // GRAPHS, SPARSE_TENSOR(S), TYPE_PROTOS, TENSORS
  }
}

std::string Quoted(const std::string& s) { return absl::StrCat("\"", s, "\""); }

// The schema default as C++-like text for a field comment, or empty when there is none.
std::string DefaultText(AttributeKind kind, const onnx::AttributeProto& value) {
  auto list = [](const auto& values, auto format) {
    return absl::StrCat(
        "{",
        absl::StrJoin(values, ", ",
                      [&](std::string* out, const auto& v) { out->append(format(v)); }),
        "}");
  };
  auto int_text = [](int64_t v) { return std::to_string(v); };
  auto float_text = [](float v) { return FormatFloat(v); };
  switch (kind) {
    case AttributeKind::kInt:
      return value.has_i() ? int_text(value.i()) : "";
    case AttributeKind::kFloat:
      return value.has_f() ? float_text(value.f()) : "";
    case AttributeKind::kString:
      return value.has_s() ? Quoted(value.s()) : "";
    case AttributeKind::kInts:
      return value.ints_size() > 0 ? list(value.ints(), int_text) : "";
    case AttributeKind::kFloats:
      return value.floats_size() > 0 ? list(value.floats(), float_text) : "";
    case AttributeKind::kStrings:
      return value.strings_size() > 0 ? list(value.strings(), Quoted) : "";
    case AttributeKind::kTensor:
      return value.has_t() ? "a tensor" : "";
    case AttributeKind::kGraph:
      return value.has_g() ? "a graph" : "";
    case AttributeKind::kType:
      return value.has_tp() ? "a type" : "";
  }
  return "";
}

std::string AttributeNote(const onnx::OpSchema::Attribute& attribute, AttributeKind kind) {
  if (attribute.required) return "required";
  std::string text = DefaultText(kind, attribute.default_value);
  if (text.empty()) return "";
  if (text.size() > kMaxDefaultText) return "has a default";
  return "default: " + text;
}

std::string RenameNote(const std::string& onnx_name, const std::string& identifier) {
  return absl::StrCat(onnx_name, " is ", identifier, " here (a C++ keyword or reserved name).");
}

std::vector<InputSpec> Inputs(const onnx::OpSchema& schema, std::vector<std::string>* renames) {
  std::vector<InputSpec> inputs;
  for (const auto& parameter : schema.inputs()) {
    InputSpec input;
    input.onnx_name = parameter.GetName();
    bool renamed = false;
    input.identifier = Identifier(input.onnx_name, &renamed);
    if (renamed) renames->push_back(RenameNote(input.onnx_name, input.identifier));
    input.arity = ArityOf(parameter);
    input.type_str = parameter.GetTypeStr();
    input.description = parameter.GetDescription();
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// An optional input may default to Var() only when every input after it is optional too: a
// default before a parameter without one is not C++. When all inputs are optional, the first
// keeps no default: a call without any Var could not name its graph.
void MarkDefaults(std::vector<InputSpec>& inputs) {
  for (auto it = inputs.rbegin(); it != inputs.rend() && it->arity == Arity::kOptional; ++it) {
    it->has_default = true;
  }
  if (!inputs.empty()) inputs.front().has_default = false;
}

std::vector<OutputSpec> Outputs(const onnx::OpSchema& schema, std::vector<std::string>* renames) {
  std::vector<OutputSpec> outputs;
  for (const auto& parameter : schema.outputs()) {
    OutputSpec output;
    output.onnx_name = parameter.GetName();
    bool renamed = false;
    output.identifier = Identifier(output.onnx_name, &renamed);
    if (renamed) renames->push_back(RenameNote(output.onnx_name, output.identifier));
    output.arity = ArityOf(parameter);
    output.type_str = parameter.GetTypeStr();
    output.description = parameter.GetDescription();
    outputs.push_back(std::move(output));
  }
  return outputs;
}

void SetReturns(OpSpec& op) {
  auto is = [](Arity arity) { return [arity](const OutputSpec& o) { return o.arity == arity; }; };
  if (std::any_of(op.outputs.begin(), op.outputs.end(), is(Arity::kVariadic))) {
    op.returns = Returns::kVector;
    // The required num_outputs comes last, so no parameter before it may have a default.
    for (InputSpec& input : op.inputs) input.has_default = false;
    return;
  }
  if (op.outputs.size() == 1) {
    op.returns = Returns::kVar;
    return;
  }
  op.returns = Returns::kStruct;
  if (std::any_of(op.outputs.begin(), op.outputs.end(), is(Arity::kOptional))) {
    int required =
        static_cast<int>(std::count_if(op.outputs.begin(), op.outputs.end(), is(Arity::kSingle)));
    op.default_num_outputs = std::max(1, required);
  }
}

// Attributes sorted by name, which is the order of the generated options structs (designated
// initializers must follow it, so it is part of the API). ONNX 1.12 kept them in a sorted map; 1.19
// keeps them in an unordered one. Unsupported types are left out; required ones make the op
// unbuildable and are listed in `*blocking`.
void AddAttributes(const onnx::OpSchema& schema, OpSpec& op, std::vector<std::string>* blocking) {
  std::map<std::string, const onnx::OpSchema::Attribute*> sorted;
  for (const auto& [name, attribute] : schema.attributes()) sorted.emplace(name, &attribute);
  for (const auto& [name, attribute_pointer] : sorted) {
    const onnx::OpSchema::Attribute& attribute = *attribute_pointer;
    std::optional<AttributeKind> kind = KindOf(attribute.type);
    if (!kind.has_value()) {
      std::string what =
          absl::StrCat(name, " (", onnx::AttributeProto::AttributeType_Name(attribute.type), ")");
      (attribute.required ? *blocking : op.unsupported_attributes).push_back(std::move(what));
      if (attribute.type == onnx::AttributeProto::SPARSE_TENSOR && !attribute.required) {
        AttributeSpec sparse;
        sparse.onnx_name = name;
        sparse.identifier = name;
        sparse.description = attribute.description;
        op.sparse_attributes.push_back(std::move(sparse));
      }
      continue;
    }
    AttributeSpec spec;
    spec.onnx_name = name;
    bool renamed = false;
    spec.identifier = Identifier(name, &renamed);
    if (renamed) op.renames.push_back(RenameNote(name, spec.identifier));
    spec.kind = *kind;
    spec.note = AttributeNote(attribute, *kind);
    spec.description = attribute.description;
    op.attributes.push_back(std::move(spec));
  }
}

// The spec of `schema` at `version`, or the reason no generated function can build it.
std::optional<OpSpec> BuildSpec(const onnx::OpSchema& schema, std::string* reason) {
  OpSpec op;
  op.name = schema.Name();
  op.domain = schema.domain();
  op.since_version = schema.SinceVersion();
  op.doc = schema.doc() != nullptr ? schema.doc() : "";
  op.summary = DocSummary(op.doc);
  for (const onnx::OpSchema::TypeConstraintParam& param : schema.typeConstraintParams()) {
    op.type_constraints.push_back(
        {param.type_param_str, param.allowed_type_strs, param.description});
  }
  op.inputs = Inputs(schema, &op.renames);
  op.takes_graph = op.inputs.empty();
  MarkDefaults(op.inputs);
  op.outputs = Outputs(schema, &op.renames);
  SetReturns(op);
  std::vector<std::string> blocking;
  AddAttributes(schema, op, &blocking);
  op.outputs_from_body =
      op.returns == Returns::kVector &&
      std::any_of(op.attributes.begin(), op.attributes.end(),
                  [](const AttributeSpec& a) { return a.kind == AttributeKind::kGraph; });
  if (!blocking.empty()) {
    *reason = blocking.size() == 1
                  ? absl::StrCat("needs the attribute ", blocking[0], ", which is not supported")
                  : absl::StrCat("needs the attributes ", absl::StrJoin(blocking, " and "),
                                 ", which are not supported");
    return std::nullopt;
  }
  return op;
}

std::set<std::string> OpNames(const std::string& domain) {
  std::set<std::string> names;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    if (schema.domain() == domain) names.insert(schema.Name());
  }
  return names;
}

}  // namespace

OpsetContents CollectOpset(const std::string& domain, int version,
                           const std::vector<std::string>& excluded) {
  OpsetContents contents;
  contents.domain = domain;
  contents.version = version;
  for (const std::string& name : OpNames(domain)) {
    if (std::find(excluded.begin(), excluded.end(), name) != excluded.end()) continue;
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(name, version, domain);
    if (schema == nullptr) continue;  // introduced after this version
    if (schema->Deprecated()) {
      contents.skipped.push_back(
          {name, absl::StrCat("deprecated since opset ", schema->SinceVersion())});
      continue;
    }
    std::string reason;
    std::optional<OpSpec> op = BuildSpec(*schema, &reason);
    if (op.has_value()) {
      contents.ops.push_back(std::move(*op));
    } else {
      contents.skipped.push_back({name, reason});
    }
  }
  return contents;
}

std::vector<OpSpec> DistinctSchemas(const std::vector<OpsetContents>& opsets) {
  std::map<std::pair<int, std::string>, OpSpec> schemas;
  for (const OpsetContents& opset : opsets) {
    for (const OpSpec& op : opset.ops) schemas.emplace(std::pair(op.since_version, op.name), op);
  }
  std::vector<OpSpec> out;
  for (auto& [key, op] : schemas) out.push_back(std::move(op));
  return out;
}

}  // namespace graphgc::opset_gen
