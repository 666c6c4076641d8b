#include "opset_gen_emit.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "opset_gen_model.h"
#include "opset_gen_text.h"

namespace graphgc::opset_gen {
namespace {

// The calling convention, at the top of every generated header. Kept verbatim (not re-wrapped)
// because its examples are laid out by hand.
constexpr const char kConvention[] =
    R"(// Calling convention, the same for every function here (the examples use graphgc::op):
//   - Inputs first, in schema order, as `const Var&`. An optional input defaults to `Var()` (an
//     empty Var: the input is omitted) when every later input is optional too; elsewhere, pass
//     `Var()` to omit it. A variadic input is an `absl::Span<const Var>`: pass `{a, b, c}`.
//     The graph is the inputs' graph; an op without inputs (RandomNormal, ...) takes a
//     `Graph& graph` first instead.
//   - Then the attributes, in one struct `<Op>Attributes` (default `{}`) with one field per
//     attribute, named as in ONNX and declared in the schema's order (ONNX sorts them by name),
//     so designated initializers work:
//       op::Conv(x, w, Var(), {.pads = {{1, 1, 1, 1}}, .strides = {{1, 1}}})
//     Field types: INT std::optional<int64_t>, FLOAT std::optional<float>, STRING
//     std::optional<std::string>, INTS, FLOATS and STRINGS std::optional<std::vector<...>> of
//     those, TENSOR std::optional<Tensor>, GRAPH std::optional<Subgraph> (a function building
//     the body from its arguments; see graphgc/ir/attribute.h), TYPE_PROTO std::optional<VarType>.
//     A field left unset is not passed, so the schema's default applies; a required attribute
//     left unset fails the call with a status naming the op and the attribute. SPARSE_TENSOR
//     attributes are not supported: an op with optional ones says so, and ops that require one
//     are not generated.
//     An ONNX name that is a C++ keyword gets a trailing underscore, noted at the op.
//   - One output: the function returns a Var. Several: a struct `<Op>Outputs` with one Var per
//     output, named as in ONNX, so `auto [values, indices] = op::TopK(x, k);` works. When
//     trailing outputs are optional, an `int num_outputs` after the attributes (default: the
//     number of required outputs, at least one) says how many to make; the rest stay empty:
//       op::Dropout(x, Var(), Var(), {}, /*num_outputs=*/2)
//   - A variadic output: the function returns a std::vector<Var> of `num_outputs` Vars, a
//     required last parameter; C++ then allows no default before it, so pass every input and
//     the attributes: op::Split(x, Var(), {.axis = 0}, /*num_outputs=*/3). If, Loop and Scan
//     default it to -1, as many outputs as their body gives (fields in ONNX's order, so
//     else_branch comes first):
//       auto outs = op::If(c, {.else_branch = [&] { return std::vector<Var>{b}; },
//                              .then_branch = [&] { return std::vector<Var>{a}; }});
//   - A call never throws: bad input gives failed Vars whose status names the op. Every function
//     is a typed front of graphgc::make_node (graphgc/opset/node.h), which checks the call against the
//     schema, infers the outputs and propagates values.
)";

std::string IncludeGuard(const NamespaceSpec& spec) {
  return absl::StrCat("GRAPHGC_", absl::AsciiStrToUpper(spec.file_stem), "_H_");
}

std::string AttributesType(const OpSpec& op) { return op.name + "Attributes"; }
std::string OutputsType(const OpSpec& op) { return op.name + "Outputs"; }

std::string FieldType(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::kInt:
      return "std::optional<int64_t>";
    case AttributeKind::kFloat:
      return "std::optional<float>";
    case AttributeKind::kString:
      return "std::optional<std::string>";
    case AttributeKind::kInts:
      return "std::optional<std::vector<int64_t>>";
    case AttributeKind::kFloats:
      return "std::optional<std::vector<float>>";
    case AttributeKind::kStrings:
      return "std::optional<std::vector<std::string>>";
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
  if (!op.attributes.empty()) {
    bool has_default = with_defaults && (op.returns != Returns::kVector || op.outputs_from_body);
    parameters.push_back(
        absl::StrCat("const ", AttributesType(op), "& attributes", has_default ? " = {}" : ""));
  }
  if (op.returns == Returns::kVector) {
    parameters.push_back(
        with_defaults && op.outputs_from_body ? "int num_outputs = -1" : "int num_outputs");
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
    // The explicit initializer keeps GCC's -Wextra quiet about the fields a designated
    // initializer leaves out (it would warn at every call that sets only some attributes).
    declarations.push_back(absl::StrCat("  ", FieldType(attribute.kind), " ", attribute.identifier,
                                        " = std::nullopt;"));
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

std::string Declaration(const OpSpec& op) {
  std::string out = OpComment(op);
  if (!op.attributes.empty()) out += AttributesStruct(op);
  if (op.returns == Returns::kStruct) out += OutputsStruct(op);
  out += WrapList(absl::StrCat(ReturnType(op), " ", op.name, "("), Parameters(op, true), ");", 0);
  return out;
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

// Every field is named, the domain too when empty: GCC's -Wextra warns about a designated
// initializer that leaves a field out.
std::string OptionsArgument(const OpSpec& op) {
  return absl::StrCat("{.domain = \"", op.domain, "\", .version = ", op.opset_version,
                      ", .num_outputs = ", NumOutputsArgument(op), "}");
}

// `head` (ending in " = ") and a call: on one line if it fits, else broken after the '=' with
// the call wrapped on the following lines, as clang-format lays it out.
std::string Assignment(const std::string& head, const std::string& callee,
                       const std::vector<std::string>& args, const std::string& tail) {
  std::string call = absl::StrCat(callee, absl::StrJoin(args, ", "), tail);
  if (head.size() + call.size() <= kColumnLimit) return head + call + "\n";
  std::string same_line = WrapList(head + callee, args, tail, 2);
  std::string broken = absl::StrCat(absl::StripTrailingAsciiWhitespace(head), "\n",
                                    WrapList("      " + callee, args, tail, 6));
  auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  return lines(same_line) < lines(broken) ? same_line : broken;
}

std::string Body(const OpSpec& op) {
  std::string out;
  if (!op.attributes.empty()) {
    out += "  std::vector<Attribute> attribute_list;\n";
    for (const AttributeSpec& attribute : op.attributes) {
      out += WrapList("  internal::AppendAttribute(",
                      {"attribute_list", absl::StrCat("\"", attribute.onnx_name, "\""),
                       "attributes." + attribute.identifier},
                      ");", 2);
    }
  }
  std::vector<std::string> arguments = {absl::StrCat("\"", op.name, "\""), InputsArgument(op),
                                        op.attributes.empty() ? "{}" : "attribute_list",
                                        OptionsArgument(op)};
  if (op.takes_graph) arguments.insert(arguments.begin(), "graph");
  if (op.returns == Returns::kVector) {
    return out + WrapList("  return graphgc::make_node(", arguments, ");", 2);
  }
  out += Assignment("  std::vector<Var> results = ", "graphgc::make_node(", arguments, ");");
  if (op.returns == Returns::kVar) return out + "  return internal::SingleOutput(results);\n";
  absl::StrAppend(&out, "  internal::PadOutputs(results, ", op.outputs.size(), ");\n");
  std::vector<std::string> fields;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    fields.push_back(absl::StrCat("std::move(results[", i, "])"));
  }
  return out + WrapList("  return {", fields, "};", 2);
}

std::string Definition(const OpSpec& op) {
  return WrapList(absl::StrCat(ReturnType(op), " ", op.name, "("), Parameters(op, false), ") {",
                  0) +
         Body(op) + "}\n";
}

std::string FileComment(const NamespaceContents& contents, const std::string& onnx_version) {
  const NamespaceSpec& spec = contents.spec;
  std::string out = CommentBlock(absl::StrCat(spec.cpp_namespace, " — ", spec.title), 0);
  out += "//\n";
  out +=
      CommentBlock(absl::StrCat("Generated by graphgc-opset-gen from the operator schemas of ONNX ",
                                onnx_version,
                                "; do not edit. Change tools/opset_gen*.cc instead and run "
                                "`cmake --build <build dir> --target regenerate-opset`."),
                   0);
  return out;
}

std::string Notes(const NamespaceContents& contents) {
  const NamespaceSpec& spec = contents.spec;
  std::string out;
  if (!spec.handwritten.empty()) {
    out += "//\n";
    out += CommentBlock(
        absl::StrCat(absl::StrJoin(spec.handwritten, ", "),
                     " are declared by hand in graphgc/opset/ops.h (included here), with their own "
                     "signatures; graphgc::opset",
                     spec.version, " has generated ones."),
        0);
  }
  if (!contents.skipped.empty()) {
    out += "//\n// Not generated:\n";
    for (const SkippedOp& skipped : contents.skipped) {
      out +=
          CommentLines(absl::StrCat(skipped.name, ": ", skipped.reason, "."), "//   - ", "//     ");
    }
  }
  return out;
}

// The standard and project headers the declarations need, and no more: the generated headers
// are included by every user of the umbrella header.
std::vector<std::string> HeaderIncludes(const NamespaceContents& contents) {
  std::set<std::string> system;
  std::set<std::string> project = {"\"graphgc/ir/var.h\""};
  for (const OpSpec& op : contents.ops) {
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
  if (!contents.spec.handwritten.empty()) project.insert("\"graphgc/opset/ops.h\"");
  std::vector<std::string> lines;
  for (const std::string& header : system) lines.push_back("#include " + header);
  if (!system.empty()) lines.push_back("");
  for (const std::string& header : project) lines.push_back("#include " + header);
  return lines;
}

}  // namespace

// using-declarations of one op's function and types from the aliased namespace.
std::string ReExport(const OpSpec& op, const std::string& from) {
  std::string out = absl::StrCat("using ", from, "::", op.name, ";\n");
  if (!op.attributes.empty()) absl::StrAppend(&out, "using ", from, "::", AttributesType(op), ";\n");
  if (op.returns == Returns::kStruct) {
    absl::StrAppend(&out, "using ", from, "::", OutputsType(op), ";\n");
  }
  return out;
}

GeneratedFile EmitAliasHeader(const NamespaceContents& contents, const std::string& onnx_version) {
  const NamespaceSpec& spec = contents.spec;
  const std::string guard = IncludeGuard(spec);
  std::string out = FileComment(contents, onnx_version);
  out += "//\n";
  out += CommentBlock(absl::StrCat("The functions are graphgc::", spec.alias_of,
                                   "'s, re-exported here; their declarations and documentation "
                                   "are in graphgc/opset/", spec.alias_of, ".h."),
                      0);
  out += "//\n";
  out += kConvention;
  out += Notes(contents);
  absl::StrAppend(&out, "#ifndef ", guard, "\n#define ", guard, "\n\n");
  absl::StrAppend(&out, "#include \"graphgc/opset/ops.h\"\n#include \"graphgc/opset/", spec.alias_of, ".h\"\n");
  absl::StrAppend(&out, "\nnamespace ", spec.cpp_namespace, " {\n\n");
  for (const OpSpec& op : contents.ops) out += ReExport(op, spec.alias_of);
  absl::StrAppend(&out, "\n}  // namespace ", spec.cpp_namespace, "\n\n#endif  // ", guard, "\n");
  return {spec.file_stem + ".h", out};
}

GeneratedFile EmitHeader(const NamespaceContents& contents, const std::string& onnx_version) {
  if (!contents.spec.alias_of.empty()) return EmitAliasHeader(contents, onnx_version);
  const NamespaceSpec& spec = contents.spec;
  std::string guard = IncludeGuard(spec);
  std::string out = FileComment(contents, onnx_version);
  out += "//\n";
  out += kConvention;
  out += Notes(contents);
  absl::StrAppend(&out, "#ifndef ", guard, "\n#define ", guard, "\n\n");
  out += absl::StrJoin(HeaderIncludes(contents), "\n");
  absl::StrAppend(&out, "\n\nnamespace ", spec.cpp_namespace, " {\n");
  for (const OpSpec& op : contents.ops) absl::StrAppend(&out, "\n", Declaration(op));
  absl::StrAppend(&out, "\n}  // namespace ", spec.cpp_namespace, "\n\n#endif  // ", guard, "\n");
  return {spec.file_stem + ".h", out};
}

GeneratedFile EmitSource(const NamespaceContents& contents, const std::string& onnx_version) {
  const NamespaceSpec& spec = contents.spec;
  std::string out =
      CommentBlock(absl::StrCat("Generated by graphgc-opset-gen from the operator schemas of ONNX ",
                                onnx_version, "; do not edit. See graphgc/opset/", spec.file_stem, ".h."),
                   0);
  absl::StrAppend(&out, "#include \"graphgc/opset/", spec.file_stem, ".h\"\n\n");
  out += "#include <utility>\n#include <vector>\n\n";
  bool any_attributes = std::any_of(contents.ops.begin(), contents.ops.end(),
                                    [](const OpSpec& op) { return !op.attributes.empty(); });
  if (any_attributes) out += "#include \"graphgc/ir/attribute.h\"\n";
  out += "#include \"graphgc/opset/generated_support.h\"\n#include \"graphgc/opset/node.h\"\n";
  absl::StrAppend(&out, "\nnamespace ", spec.cpp_namespace, " {\n");
  for (const OpSpec& op : contents.ops) absl::StrAppend(&out, "\n", Definition(op));
  absl::StrAppend(&out, "\n}  // namespace ", spec.cpp_namespace, "\n");
  return {spec.file_stem + ".cc", out};
}

}  // namespace graphgc::opset_gen
