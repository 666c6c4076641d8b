#include "python_gen_emit.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "opset_gen_text.h"

namespace graphgc::opset_gen {
namespace {

constexpr int kPythonColumns = 99;

// Python's keywords, and the parameter names the generated functions use themselves.
bool IsPythonKeyword(absl::string_view name) {
  static const std::set<absl::string_view>* const kKeywords = new std::set<absl::string_view>{
      "False",   "None",     "True",     "and",    "as",         "assert", "async",  "await",
      "break",   "class",    "continue", "def",    "del",        "elif",   "else",   "except",
      "finally", "for",      "from",     "global", "if",         "import", "in",     "is",
      "lambda",  "nonlocal", "not",      "or",     "pass",       "raise",  "return", "try",
      "while",   "with",     "yield",    "graph",  "num_outputs"};
  return kKeywords->count(name) > 0;
}

std::string PythonIdentifier(const std::string& name) {
  bool renamed = false;
  return IdentifierAvoiding(name, IsPythonKeyword, &renamed);
}

std::string SnakeCase(const std::string& name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper = std::isupper(static_cast<unsigned char>(c));
    if (upper && i > 0) {
      const char before = name[i - 1];
      const bool after_lower = std::islower(static_cast<unsigned char>(before)) ||
                               std::isdigit(static_cast<unsigned char>(before));
      const bool ends_acronym = std::isupper(static_cast<unsigned char>(before)) &&
                                i + 1 < name.size() &&
                                std::islower(static_cast<unsigned char>(name[i + 1]));
      if (after_lower || ends_acronym) out.push_back('_');
    }
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

const char* KindName(AttributeKind kind) {
  switch (kind) {
    case AttributeKind::kInt:
      return "int";
    case AttributeKind::kFloat:
      return "float";
    case AttributeKind::kString:
      return "string";
    case AttributeKind::kInts:
      return "ints";
    case AttributeKind::kFloats:
      return "floats";
    case AttributeKind::kStrings:
      return "strings";
    case AttributeKind::kTensor:
      return "tensor";
    case AttributeKind::kGraph:
      return "graph";
    case AttributeKind::kType:
      return "type";
  }
  return "auto";
}

// The annotation of an attribute parameter in the stubs. An element-type attribute (Cast's `to`,
// the random ops' `dtype`) also takes a numpy dtype.
// The attributes Python does not take: the C++ unsupported ones but the sparse tensors.
std::vector<std::string> PythonUnsupported(const OpSpec& op) {
  std::vector<std::string> left;
  for (const std::string& unsupported : op.unsupported_attributes) {
    if (!absl::StrContains(unsupported, "(SPARSE_TENSOR)")) left.push_back(unsupported);
  }
  return left;
}

std::string Annotation(const AttributeSpec& attribute) {
  switch (attribute.kind) {
    case AttributeKind::kInt:
      return attribute.onnx_name == "to" || attribute.onnx_name == "dtype" ? "int | DTypeLike"
                                                                           : "int";
    case AttributeKind::kFloat:
      return "float";
    case AttributeKind::kString:
      return "str";
    case AttributeKind::kInts:
      return "Iterable[int]";
    case AttributeKind::kFloats:
      return "Iterable[float]";
    case AttributeKind::kStrings:
      return "Iterable[str]";
    case AttributeKind::kTensor:
      return "ArrayLike";
    case AttributeKind::kGraph:
      return "Body";
    case AttributeKind::kType:
      return "VarType | DTypeLike";
  }
  return "Any";
}

// What the Python function takes and passes on, shared by the module and its stub.
struct PythonSignature {
  std::vector<std::string> parameters;  // with annotations (stub) or without (module)
  std::string inputs;                   // the tuple expression of the inputs
  std::vector<std::string> attributes;  // the (name, kind, value) triples
  std::string num_outputs;              // an expression
  std::string graph = "None";
  std::string returns;  // stub return annotation
  std::string result;   // how the module turns the output list into the result
};

void CheckUnique(const OpSpec& op, const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) {
      std::fprintf(stderr, "graphgc-python-gen: %s has two parameters named %s\n", op.name.c_str(),
                   name.c_str());
      std::exit(1);
    }
  }
}

std::string Tuple(const std::vector<std::string>& items) {
  if (items.size() == 1) return absl::StrCat("(", items[0], ",)");
  return absl::StrCat("(", absl::StrJoin(items, ", "), ")");
}

// An optional input may be left out by position (a default of None) when every input after it is
// optional too; the first input never is, since the graph comes from it.
bool OmittableFrom(const OpSpec& op, size_t index) {
  if (index == 0) return false;
  for (size_t i = index; i < op.inputs.size(); ++i) {
    if (op.inputs[i].arity != Arity::kOptional) return false;
  }
  return true;
}

// Whether the op's function has a num_outputs parameter (the number of outputs to make).
bool HasNumOutputsParameter(const OpSpec& op) {
  return op.returns == Returns::kVector ||
         (op.returns == Returns::kStruct && op.default_num_outputs > 0);
}

// An attribute's keyword: its name, or with "_" appended (as the C++ field is) where an input of
// the op (Split-1 has both an input and an attribute `split`) or the num_outputs parameter
// (Split-18's attribute num_outputs) already has the name.
std::string AttributeParameterName(const OpSpec& op, const AttributeSpec& attribute) {
  const std::string name = PythonIdentifier(attribute.onnx_name);
  bool taken = name == "graph" && op.takes_graph;
  taken = taken || (name == "num_outputs" && HasNumOutputsParameter(op));
  for (const InputSpec& input : op.inputs)
    taken = taken || PythonIdentifier(input.onnx_name) == name;
  return taken ? name + "_" : name;
}

PythonSignature Signature(const OpSpec& op, bool annotated) {
  PythonSignature s;
  std::vector<std::string> names;
  auto parameter = [&](const std::string& name, const std::string& annotation,
                       const std::string& default_value) {
    names.push_back(name);
    std::string text = annotated ? absl::StrCat(name, ": ", annotation) : name;
    if (!default_value.empty()) absl::StrAppend(&text, annotated ? " = " : "=", default_value);
    s.parameters.push_back(text);
  };
  if (op.takes_graph) {
    // Optional where no positional input follows: inside `with graphgc.Graph():` the current
    // graph is taken (op.constant(value=...) as spox writes it).
    const bool optional = op.inputs.empty();
    parameter("graph", optional ? "Graph | None" : "Graph", optional ? "None" : "");
    s.graph = "graph";
  }
  std::vector<std::string> inputs;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const InputSpec& input = op.inputs[i];
    const std::string name = PythonIdentifier(input.onnx_name);
    switch (input.arity) {
      case Arity::kSingle:
        parameter(name, "Var", "");
        inputs.push_back(name);
        break;
      case Arity::kOptional:
        parameter(name, "Var | None", OmittableFrom(op, i) ? "None" : "");
        inputs.push_back(name);
        break;
      case Arity::kVariadic:
        parameter(name, "Sequence[Var]", "");
        // A Var where a list belongs is graphgc.Error naming the op, not Python's TypeError.
        inputs.push_back(
            absl::StrCat("*_variadic(\"", op.name, "\", \"", input.onnx_name, "\", ", name, ")"));
        break;
    }
  }
  s.inputs = Tuple(inputs);
  s.parameters.push_back("*");  // taken out again below if no keyword parameter follows
  std::vector<std::string> triples;
  for (const AttributeSpec& attribute : op.attributes) {
    const std::string name = AttributeParameterName(op, attribute);
    const bool required = attribute.note == "required";
    parameter(name, required ? Annotation(attribute) : Annotation(attribute) + " | None",
              required ? "" : "None");
    triples.push_back(absl::StrCat("(\"", attribute.onnx_name, "\", \"", KindName(attribute.kind),
                                   "\", ", name, ")"));
  }
  for (const AttributeSpec& sparse : op.sparse_attributes) {
    parameter(sparse.onnx_name, "Any | None", "None");
    triples.push_back(
        absl::StrCat("(\"", sparse.onnx_name, "\", \"sparse_tensor\", ", sparse.onnx_name, ")"));
  }
  s.attributes = triples;
  s.num_outputs = "-1";
  s.returns = "Var";
  s.result = "[0]";
  if (op.returns == Returns::kStruct) {
    s.result = "";
    std::vector<std::string> fields(op.outputs.size(), "Var");
    s.returns = absl::StrCat("tuple[", absl::StrJoin(fields, ", "), "]");
    if (op.default_num_outputs > 0) {
      parameter("num_outputs", "int", std::to_string(op.default_num_outputs));
      s.num_outputs = "num_outputs";
      s.returns = "tuple[Var, ...]";
    }
  } else if (op.returns == Returns::kVector) {
    s.result = "";
    parameter("num_outputs", "int", op.outputs_from_body ? "-1" : "");
    s.num_outputs = "num_outputs";
    s.returns = "list[Var]";
  }
  if (s.parameters.back() == "*") s.parameters.pop_back();
  CheckUnique(op, names);
  return s;
}

std::string Wrapped(const std::string& head, const std::vector<std::string>& parameters,
                    const std::string& tail, int columns = kPythonColumns) {
  std::string one_line = absl::StrCat(head, absl::StrJoin(parameters, ", "), tail);
  if (static_cast<int>(one_line.size()) <= columns) return one_line + "\n";
  std::string out = head + "\n";
  for (const std::string& parameter : parameters) absl::StrAppend(&out, "    ", parameter, ",\n");
  return absl::StrCat(out, tail, "\n");
}

// `name = (...)` on one line when it fits, otherwise one item per line.
std::string LocalTuple(const std::string& name, const std::vector<std::string>& items,
                       int columns) {
  std::string line = absl::StrCat("    ", name, " = ", Tuple(items), "\n");
  if (static_cast<int>(line.size()) <= columns + 1) return line;
  std::string out = absl::StrCat("    ", name, " = (\n");
  for (const std::string& item : items) absl::StrAppend(&out, "        ", item, ",\n");
  return out + "    )\n";
}

// Four more spaces in front of every non-empty line.
std::string Indented(const std::string& text) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!line.empty()) absl::StrAppend(&out, "    ", line);
    out.push_back('\n');
  }
  out.pop_back();
  return out;
}

// The op function, as the schema's factory in _schemas.py defines it inside itself (one indent
// deeper, so laid out for four columns less): `version` is the factory's parameter.
std::string OpFunction(const OpSpec& op, const std::string& docstring) {
  constexpr int kColumns = kPythonColumns - 4;
  // Annotated as the stub is (inspect.signature and help show the types).
  PythonSignature s = Signature(op, /*annotated=*/true);
  std::string out =
      absl::StrCat(Wrapped(absl::StrCat("def ", PythonOpName(op.name), "("), s.parameters,
                           absl::StrCat(") -> ", s.returns, ":"), kColumns),
                   docstring);
  std::string attributes = "()";
  if (!s.attributes.empty()) {
    absl::StrAppend(&out, LocalTuple("_attributes", s.attributes, kColumns));
    attributes = "_attributes";
  }
  auto call = [&](const std::string& inputs) {
    std::string made =
        absl::StrCat("_make_node(\"", op.name, "\", \"", op.domain, "\", version, ", inputs, ", ",
                     attributes, ", ", s.num_outputs, ", ", s.graph, ")");
    if (op.returns == Returns::kStruct) made = absl::StrCat("tuple(", made, ")");
    return absl::StrCat("    return ", made, s.result, "\n");
  };
  std::string line = call(s.inputs);
  if (static_cast<int>(line.size()) <= kColumns + 1) return out + line;
  return absl::StrCat(out, "    _inputs = ", s.inputs, "\n", call("_inputs"));
}

std::string DocEscaped(const std::string& text) {
  return absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"\"\"", "\\\"\\\"\\\""}, {"\x1f", " "}});
}

std::string DomainName(const std::string& domain) { return domain.empty() ? "ai.onnx" : domain; }

// The docstring of an op function whose body is indented by four spaces; `wrap_indent` is where
// its lines will stand once the function is placed (deeper for the factories' inner functions),
// so that they still fit the column limit there.
std::string Docstring(const OpSpec& op, int wrap_indent) {
  const std::string prefix(wrap_indent, ' ');
  std::vector<std::string> lines;
  if (!op.summary.empty()) lines.push_back(DocEscaped(op.summary));
  std::vector<std::string> notes;
  for (const AttributeSpec& attribute : op.attributes) {
    if (!attribute.note.empty() && attribute.note != "required") {
      notes.push_back(
          absl::StrCat(AttributeParameterName(op, attribute), " (", attribute.note, ")"));
    }
  }
  if (!notes.empty()) lines.push_back(absl::StrCat("Defaults: ", absl::StrJoin(notes, "; "), "."));
  if (const std::vector<std::string> unsupported = PythonUnsupported(op); !unsupported.empty()) {
    lines.push_back(absl::StrCat("Not supported here: ", absl::StrJoin(unsupported, ", "), "."));
  }
  lines.push_back(absl::StrCat(op.name, " of ", DomainName(op.domain), ", as defined since opset ",
                               op.since_version, "; built at the opset of the module it is in."));
  std::string text;
  for (const std::string& line : lines) {
    for (absl::string_view wrapped : absl::StrSplit(CommentLines(line, prefix, prefix), '\n')) {
      if (!wrapped.empty()) absl::StrAppend(&text, "    ", wrapped.substr(prefix.size()), "\n");
    }
    absl::StrAppend(&text, "\n");
  }
  text.pop_back();  // the last blank line
  // CommentLines writes `//`-free lines with the given prefixes; make them one docstring.
  return absl::StrCat("    \"\"\"", text.substr(4), "    \"\"\"\n");
}

// The schema's doc as it reads: its own lines, common indentation and blank edges removed.
std::vector<std::string> DocLines(const std::string& doc) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(doc, '\n')) {
    lines.emplace_back(absl::StripTrailingAsciiWhitespace(line));
  }
  size_t indent = std::string::npos;
  for (const std::string& line : lines) {
    if (!line.empty()) indent = std::min(indent, line.find_first_not_of(' '));
  }
  for (std::string& line : lines) line = line.empty() ? line : line.substr(indent);
  while (!lines.empty() && lines.front().empty()) lines.erase(lines.begin());
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// "- name (what): description", wrapped under the item, for the docstring's lists.
void AppendItem(std::vector<std::string>& lines, const std::string& name, const std::string& what,
                const std::string& description) {
  std::string item = absl::StrCat(name, " (", what, ")");
  const std::vector<std::string> words = DocLines(description);
  if (!words.empty()) absl::StrAppend(&item, ": ", absl::StrJoin(words, " "));
  lines.push_back(DocEscaped(item));
}

// The docstring of a module's op function: the schema's whole doc, then its inputs, attributes,
// outputs and type constraints (the stubs keep the short Docstring).
std::string FullDocstring(const OpSpec& op, int wrap_indent) {
  const std::string prefix(wrap_indent, ' ');
  std::string text;
  for (const std::string& line : DocLines(op.doc)) {
    absl::StrAppend(&text, line.empty() ? "" : "    ", DocEscaped(line), "\n");
  }
  const auto section = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    absl::StrAppend(&text, text.empty() ? "" : "\n", "    ", title, ":\n");
    for (const std::string& item : items) {
      for (absl::string_view wrapped :
           absl::StrSplit(CommentLines(item, prefix + "    ", prefix + "        "), '\n')) {
        if (!wrapped.empty()) absl::StrAppend(&text, "    ", wrapped.substr(prefix.size()), "\n");
      }
    }
  };
  const auto arity = [](Arity a) {
    return a == Arity::kOptional ? ", optional" : a == Arity::kVariadic ? ", variadic" : "";
  };
  std::vector<std::string> items;
  for (const InputSpec& input : op.inputs) {
    AppendItem(items, PythonIdentifier(input.onnx_name),
               absl::StrCat(input.type_str, arity(input.arity)), input.description);
  }
  section("Inputs", items);
  items.clear();
  for (const AttributeSpec& attribute : op.attributes) {
    AppendItem(items, AttributeParameterName(op, attribute),
               absl::StrCat(KindName(attribute.kind),
                            attribute.note.empty() ? "" : absl::StrCat(", ", attribute.note)),
               attribute.description);
  }
  for (const AttributeSpec& sparse : op.sparse_attributes) {
    AppendItem(items, sparse.onnx_name, "sparse tensor: an onnx.SparseTensorProto",
               sparse.description);
  }
  for (const std::string& unsupported : PythonUnsupported(op)) {
    items.push_back(DocEscaped(absl::StrCat(unsupported, ": not supported here")));
  }
  section("Attributes", items);
  items.clear();
  for (const OutputSpec& output : op.outputs) {
    AppendItem(items, PythonIdentifier(output.onnx_name),
               absl::StrCat(output.type_str, arity(output.arity)), output.description);
  }
  section("Outputs", items);
  items.clear();
  for (const TypeConstraintSpec& constraint : op.type_constraints) {
    AppendItem(items, constraint.name, absl::StrJoin(constraint.allowed_types, ", "),
               constraint.description);
  }
  section("Type constraints", items);
  for (absl::string_view wrapped :
       absl::StrSplit(CommentLines(absl::StrCat(op.name, " of ", DomainName(op.domain),
                                                ", as defined since opset ", op.since_version,
                                                "; built at the opset of the module it is in."),
                                   prefix, prefix),
                      '\n')) {
    if (!wrapped.empty()) absl::StrAppend(&text, "\n    ", wrapped.substr(prefix.size()));
  }
  return absl::StrCat("    \"\"\"", text.substr(4), "\n    \"\"\"\n");
}

// The name of a schema's factory (_schemas.py) and signature (_signatures.pyi): the op's name and
// the opset that introduced the schema, ai.onnx.ml ones prefixed: softmax_13, ml_binarizer_1.
std::string SchemaName(const OpSpec& op) {
  std::string name = PythonOpName(op.name);
  if (name.back() == '_') name.pop_back();  // if_ -> if_16, not if__16
  return absl::StrCat(op.domain.empty() ? "" : "ml_", name, "_", op.since_version);
}

std::string SchemaFactory(const OpSpec& op) {
  return absl::StrCat("def ", SchemaName(op), "(version, module):\n",
                      Indented(OpFunction(op, FullDocstring(op, 8))), "    return _named(",
                      PythonOpName(op.name), ", module)\n");
}

std::string SignatureStub(const OpSpec& op) {
  PythonSignature s = Signature(op, /*annotated=*/true);
  return absl::StrCat(Wrapped(absl::StrCat("def ", SchemaName(op), "("), s.parameters,
                              absl::StrCat(") -> ", s.returns, ":")),
                      Docstring(op, 4));
}

std::string Header(const std::string& what, const std::string& onnx_version) {
  return absl::StrCat(
      "# ", what, "\n#\n# Generated by graphgc-python-gen from the operator schemas of ONNX ",
      onnx_version,
      "; do not edit. Change\n# tools/python_gen*.cc instead and run `cmake --build <build dir> "
      "--target regenerate-opset`.\n");
}

std::string AllList(const OpsetContents& opset, bool with_const = false) {
  std::string out = "__all__ = [\n";
  if (with_const) out += "    \"const\",\n";
  for (const OpSpec& op : opset.ops)
    absl::StrAppend(&out, "    \"", PythonOpName(op.name), "\",\n");
  return out + "]\n";
}

std::string SkippedNote(const OpsetContents& opset) {
  std::string out;
  for (const SkippedOp& skipped : opset.skipped) {
    absl::StrAppend(&out, "#   - ", skipped.name, ": ", skipped.reason, "\n");
  }
  return out.empty() ? "" : "#\n# Not generated:\n" + out;
}

}  // namespace

std::string PythonOpName(const std::string& op_type) {
  // spox's spellings where plain snake case reads differently.
  static const std::map<std::string, std::string>* const kSpellings =
      new std::map<std::string, std::string>{{"MatMul", "matmul"},
                                             {"MatMulInteger", "matmul_integer"},
                                             {"QLinearMatMul", "qlinear_matmul"},
                                             {"QLinearConv", "qlinear_conv"},
                                             {"CumSum", "cumsum"},
                                             {"IsNaN", "isnan"},
                                             {"IsInf", "isinf"},
                                             {"PRelu", "prelu"}};
  auto spelled = kSpellings->find(op_type);
  if (spelled != kSpellings->end()) return spelled->second;
  return PythonIdentifier(SnakeCase(op_type));
}

std::vector<GeneratedFile> EmitPythonSchemas(const std::vector<OpSpec>& schemas,
                                             const std::string& onnx_version) {
  std::string py = absl::StrCat(
      Header("graphgc._schemas: each operator schema once, as a factory of its op function.",
             onnx_version),
      "#\n# softmax_13(version, module) returns the function `softmax` that builds Softmax (the "
      "schema\n# of opset 13) at opset `version`; graphgc.opset1 ... opset24 and graphgc.ml1 ... "
      "ml5 hold them.\n# Inputs are positional, attributes keyword-only (None: the schema's "
      "default).\n",
      "from __future__ import annotations\n\n"
      "from typing import Any, Iterable, Sequence\n\n"
      "from numpy.typing import ArrayLike, DTypeLike\n\n"
      "from graphgc._api import Body, _variadic\n"
      "from graphgc._graphgc import Graph, Var, VarType\n"
      "from graphgc._graphgc import make_node as _make_node\n\n\n",
      "def _named(function, module):\n", "    function.__module__ = module\n",
      "    function.__qualname__ = function.__name__\n", "    return function\n");
  std::string pyi = absl::StrCat(
      Header("graphgc._signatures: the typed signature of each op function, once per schema.",
             onnx_version),
      "#\n# A stub without a module: graphgc.opset1 ... opset24 and graphgc.ml1 ... ml5 (.pyi) "
      "import these under\n# the op's name, e.g. softmax_13 as softmax.\n",
      "from typing import Any, Iterable, Sequence\n\n"
      "from numpy.typing import ArrayLike, DTypeLike\n\n"
      "from graphgc._api import Body\n"
      "from graphgc._graphgc import Graph, Var, VarType\n");
  for (const OpSpec& op : schemas) {
    absl::StrAppend(&py, "\n\n", SchemaFactory(op));
    absl::StrAppend(&pyi, "\n", SignatureStub(op));
  }
  return {{"_schemas.py", py}, {"_signatures.pyi", pyi}};
}

std::vector<GeneratedFile> EmitPythonOpset(const OpsetContents& opset, const std::string& module,
                                           const std::string& onnx_version) {
  const std::string what = absl::StrCat("graphgc.", module, ": the ", DomainName(opset.domain),
                                        " operators as of opset ", opset.version,
                                        "; every node is built at opset ", opset.version, ".");
  // spox's `const` (a Constant of a numpy value) beside the ai.onnx ops.
  const bool with_const = opset.domain.empty();
  std::string py = absl::StrCat(
      Header(what, onnx_version), SkippedNote(opset),
      "# Each op's schema is in _schemas.py, its typed signature in _signatures.pyi.\n",
      "from graphgc import _schemas\n", with_const ? "from graphgc._api import const\n" : "", "\n",
      AllList(opset, with_const), "\n");
  std::string pyi = absl::StrCat(Header(what, onnx_version),
                                 with_const ? "from graphgc._api import const as const\n" : "",
                                 "from graphgc._signatures import (\n");
  for (const OpSpec& op : opset.ops) {
    absl::StrAppend(&py, PythonOpName(op.name), " = _schemas.", SchemaName(op), "(", opset.version,
                    ", __name__)\n");
    absl::StrAppend(&pyi, "    ", SchemaName(op), " as ", PythonOpName(op.name), ",\n");
  }
  absl::StrAppend(&pyi, ")\n\n", AllList(opset, with_const));
  return {{module + ".py", py}, {module + ".pyi", pyi}};
}

std::vector<GeneratedFile> EmitPythonNewest(const OpsetContents& newest, const std::string& alias,
                                            const std::string& newest_module,
                                            const std::string& onnx_version) {
  const std::string header =
      Header(absl::StrCat("graphgc.", alias, ": the newest ", DomainName(newest.domain),
                          " opset, graphgc.", newest_module, "."),
             onnx_version);
  std::string py =
      absl::StrCat(header, "from graphgc.", newest_module, " import *  # noqa: F403\nfrom graphgc.",
                   newest_module, " import __all__\n");
  // The stub names each op, as type checkers want a stub's exports spelled out.
  const bool with_const = newest.domain.empty();
  std::string pyi = absl::StrCat(header, "from graphgc.", newest_module, " import (\n");
  if (with_const) pyi += "    const as const,\n";
  for (const OpSpec& op : newest.ops) {
    const std::string name = PythonOpName(op.name);
    absl::StrAppend(&pyi, "    ", name, " as ", name, ",\n");
  }
  absl::StrAppend(&pyi, ")\n\n", AllList(newest, with_const));
  return {{alias + ".py", py}, {alias + ".pyi", pyi}};
}

}  // namespace graphgc::opset_gen
