#include "opset_gen_op.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "opset_gen_model.h"
#include "opset_gen_text.h"

namespace graphgc::opset_gen {
namespace {

std::string FieldType(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::kInt:
      return "std::optional<int64_t>";
    case AttributeKind::kFloat:
      return "std::optional<float>";
    case AttributeKind::kString:
      return "std::optional<std::string>";
    case AttributeKind::kInts:
      return "OptionalList<int64_t>";
    case AttributeKind::kFloats:
      return "OptionalList<float>";
    case AttributeKind::kStrings:
      return "OptionalList<std::string>";
    case AttributeKind::kTensor:
      return "std::optional<Tensor>";
    case AttributeKind::kGraph:
      return "std::optional<Subgraph>";
    case AttributeKind::kType:
      return "std::optional<VarType>";
  }
  return "";
}

std::string ReturnType(const OpSpec& op) {
  switch (op.returns) {
    case Returns::kVar:
      return "Var";
    case Returns::kStruct:
      return OutputsType(op);
    case Returns::kVector:
      return "std::vector<Var>";
  }
  return "";
}

bool HasNumOutputsParameter(const OpSpec& op) {
  return op.returns == Returns::kVector || op.default_num_outputs > 0;
}

// The parameter list; `with_defaults` for the declaration, without for the definition.
std::vector<std::string> Parameters(const OpSpec& op, bool with_defaults) {
  std::vector<std::string> parameters;
  if (op.takes_graph) parameters.push_back("Graph& graph");
  for (const InputSpec& input : op.inputs) {
    if (input.arity == Arity::kVariadic) {
      parameters.push_back("absl::Span<const Var> " + input.identifier);
    } else {
      parameters.push_back(absl::StrCat("const Var& ", input.identifier,
                                        with_defaults && input.has_default ? " = Var()" : ""));
    }
  }
  if (HasAttributesStruct(op)) {
    bool has_default = with_defaults && (op.returns != Returns::kVector || op.outputs_from_body);
    parameters.push_back(
        absl::StrCat("const ", AttributesType(op), "& attributes", has_default ? " = {}" : ""));
  }
  if (op.returns == Returns::kVector) {
    parameters.push_back(with_defaults && op.outputs_from_body ? "int num_outputs = -1"
                                                               : "int num_outputs");
  }
  if (op.default_num_outputs > 0) {
    parameters.push_back(absl::StrCat(
        "int num_outputs", with_defaults ? absl::StrCat(" = ", op.default_num_outputs) : ""));
  }
  return parameters;
}

// "Since opset 13.", kept on one comment line.
std::string SinceText(const OpSpec& op) {
  std::string text = op.domain.empty()
                         ? absl::StrCat("Since opset ", op.since_version, ".")
                         : absl::StrCat("Since ", op.domain, " opset ", op.since_version, ".");
  std::replace(text.begin(), text.end(), ' ', kNoBreak);
  return text;
}

std::string OpComment(const OpSpec& op) {
  std::string text = op.summary.empty() ? op.name + "." : op.summary;
  std::string out = CommentBlock(absl::StrCat(text, " ", SinceText(op)), 0);
  if (!op.unsupported_attributes.empty()) {
    out += CommentBlock(absl::StrCat("Not supported here: the attribute",
                                     op.unsupported_attributes.size() > 1 ? "s " : " ",
                                     absl::StrJoin(op.unsupported_attributes, ", "), "."),
                        0);
  }
  for (const std::string& rename : op.renames) out += CommentBlock(rename, 0);
  return out;
}

// Fields with their notes as trailing comments, aligned within each run of consecutive
// commented fields as clang-format aligns them. A note that cannot trail its field within the
// column limit goes on the line above and ends the run.
std::string AttributesStruct(const OpSpec& op) {
  const std::vector<AttributeSpec>& attributes = op.attributes;
  std::vector<std::string> declarations;
  std::vector<bool> trailing;  // whether the field's note trails it
  for (const AttributeSpec& attribute : attributes) {
    // The default member initializer keeps GCC's -Wextra quiet about the fields a designated
    // initializer leaves out (it would warn at every call that sets only some attributes).
    declarations.push_back(
        absl::StrCat("  ", FieldType(attribute.kind), " ", attribute.identifier, "{};"));
    trailing.push_back(!attribute.note.empty() &&
                       declarations.back().size() + 5 + attribute.note.size() <= kColumnLimit);
  }
  std::string out = absl::StrCat("struct ", AttributesType(op), " {\n");
  for (size_t i = 0; i < attributes.size();) {
    if (!trailing[i]) {
      if (!attributes[i].note.empty()) out += CommentBlock(attributes[i].note, 2);
      out += declarations[i++] + "\n";
      continue;
    }
    size_t run_end = i;
    size_t width = 0;
    for (; run_end < attributes.size() && trailing[run_end]; ++run_end) {
      width = std::max(width, declarations[run_end].size());
    }
    for (; i < run_end; ++i) {
      out += absl::StrCat(declarations[i], std::string(width - declarations[i].size() + 2, ' '),
                          "// ", attributes[i].note, "\n");
    }
  }
  return out + "};\n";
}

std::string OutputsStruct(const OpSpec& op) {
  std::string out = absl::StrCat("struct ", OutputsType(op), " {\n");
  for (const OutputSpec& output : op.outputs) {
    absl::StrAppend(&out, "  Var ", output.identifier, ";\n");
  }
  return out + "};\n";
}

// The inputs argument of make_node: a braced list, or the variadic span (joined to the fixed
// inputs before it, when there are some).
std::string InputsArgument(const OpSpec& op) {
  std::vector<std::string> fixed;
  std::string variadic;
  for (const InputSpec& input : op.inputs) {
    if (input.arity == Arity::kVariadic) {
      variadic = input.identifier;
    } else {
      fixed.push_back(input.identifier);
    }
  }
  std::string braced = absl::StrCat("{", absl::StrJoin(fixed, ", "), "}");
  if (variadic.empty()) return braced;
  if (fixed.empty()) return variadic;
  return absl::StrCat("internal::JoinInputs(", braced, ", ", variadic, ")");
}

std::string NumOutputsArgument(const OpSpec& op) {
  if (HasNumOutputsParameter(op)) return "num_outputs";
  return std::to_string(op.returns == Returns::kVar ? 1 : op.outputs.size());
}

// One statement: internal::Node<Result>(op_type, inputs, {domain, version, num_outputs}, then
// the attribute struct's fields as "name", value pairs). `version` is C++ text: "opset" or "3".
std::string Body(const OpSpec& op, const std::string& version) {
  std::vector<std::string> arguments = {
      absl::StrCat("\"", op.name, "\""), InputsArgument(op),
      absl::StrCat("{\"", op.domain, "\", ", version, ", ", NumOutputsArgument(op), "}")};
  if (op.takes_graph) arguments.insert(arguments.begin(), "graph");
  // Each pair is kept on one line (where clang-format would pack the names and values alone), so
  // that the attributes read as names and values.
  for (const AttributeSpec& attribute : op.attributes) {
    arguments.push_back(
        absl::StrCat("\"", attribute.onnx_name, "\", attributes.", attribute.identifier));
  }
  std::string result = ReturnType(op);
  if (op.returns == Returns::kStruct) absl::StrAppend(&result, ", ", op.outputs.size());
  return WrapList(absl::StrCat("  return internal::Node<", result, ">("), arguments, ");", 2,
                  /*fewest_lines=*/true);
}

}  // namespace

std::string AttributesType(const OpSpec& op) { return op.name + "Attributes"; }
std::string OutputsType(const OpSpec& op) { return op.name + "Outputs"; }
bool HasAttributesStruct(const OpSpec& op) { return !op.attributes.empty(); }
bool HasOutputsStruct(const OpSpec& op) { return op.returns == Returns::kStruct; }

std::string OpDeclarations(const OpSpec& op) {
  std::string out = OpComment(op);
  if (HasAttributesStruct(op)) out += AttributesStruct(op);
  if (HasOutputsStruct(op)) out += OutputsStruct(op);
  std::vector<std::string> parameters = Parameters(op, true);
  absl::StrAppend(&out, "struct ", op.name, " {\n  int opset;\n");
  out += WrapList(absl::StrCat("  ", ReturnType(op), " operator()("), parameters, ") const;", 2);
  return out + "};\n";
}

std::string OpDefinition(const OpSpec& op) {
  std::string head = absl::StrCat(ReturnType(op), " ", op.name, "::operator()(");
  std::string signature = WrapList(head, Parameters(op, false), ") const {", 0);
  std::string body = Body(op, "opset");
  // A short definition stays on one line, as clang-format's Google style keeps it.
  std::string one_line = absl::StrCat(absl::StripSuffix(signature, "\n"), " ",
                                      absl::StripPrefix(absl::StripSuffix(body, "\n"), "  "), " }");
  if (one_line.size() <= kColumnLimit && one_line.find('\n') == std::string::npos) {
    return one_line + "\n";
  }
  return signature + body + "}\n";
}

std::vector<std::string> DeclarationIncludes(const std::vector<OpSpec>& ops) {
  std::set<std::string> system;
  std::set<std::string> project = {"\"graphgc/ir/var.h\""};
  for (const OpSpec& op : ops) {
    if (op.takes_graph) project.insert("\"graphgc/ir/graph.h\"");
    if (op.returns == Returns::kVector) system.insert("<vector>");
    for (const InputSpec& input : op.inputs) {
      if (input.arity == Arity::kVariadic) project.insert("\"absl/types/span.h\"");
    }
    for (const AttributeSpec& attribute : op.attributes) {
      AttributeKind kind = attribute.kind;
      system.insert("<optional>");
      if (kind == AttributeKind::kInts || kind == AttributeKind::kFloats ||
          kind == AttributeKind::kStrings) {
        system.insert("<vector>");
        project.insert("\"graphgc/ir/optional_list.h\"");
      }
      if (kind == AttributeKind::kInt || kind == AttributeKind::kInts) system.insert("<cstdint>");
      if (kind == AttributeKind::kString || kind == AttributeKind::kStrings) {
        system.insert("<string>");
      }
      if (kind == AttributeKind::kTensor) project.insert("\"graphgc/valuestore/tensor.h\"");
      if (kind == AttributeKind::kGraph) project.insert("\"graphgc/ir/attribute.h\"");
      if (kind == AttributeKind::kType) project.insert("\"graphgc/ir/var_type.h\"");
    }
  }
  std::vector<std::string> lines;
  for (const std::string& header : system) lines.push_back("#include " + header);
  if (!system.empty()) lines.push_back("");
  for (const std::string& header : project) lines.push_back("#include " + header);
  return lines;
}

}  // namespace graphgc::opset_gen
