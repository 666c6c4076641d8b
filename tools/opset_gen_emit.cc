#include "opset_gen_emit.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "opset_gen_model.h"
#include "opset_gen_op.h"
#include "opset_gen_text.h"

namespace graphgc::opset_gen {
namespace {

// The calling convention, at the top of onnx_ops.h. Kept verbatim (not re-wrapped) because its
// examples are laid out by hand.
constexpr const char kConvention[] =
    R"(// Calling convention, the same for every op here, in graphgc::opset{FIRST} ... opset{NEWEST}, in
// graphgc::ml{ML_FIRST} ... ml{ML_NEWEST} and in graphgc::ml (the examples use graphgc::op):
//   - Inputs first, in schema order, as `const Var&`. An optional input defaults to `Var()` (an
//     empty Var: the input is omitted) when every later input is optional too; elsewhere, pass
//     `Var()` to omit it. A variadic input is an `absl::Span<const Var>`: pass `{a, b, c}`.
//     The graph is the inputs' graph; an op without inputs (RandomNormal, ...) takes a
//     `Graph& graph` first instead.
//   - Then the attributes, in one struct `<Op>Attributes` (default `{}`) with one field per
//     attribute, named as in ONNX and declared in the schema's order (ONNX sorts them by name),
//     so designated initializers work:
//       op::Conv(x, w, Var(), {.pads = {1, 1, 1, 1}, .strides = {1, 1}})
//     Field types: INT std::optional<int64_t>, FLOAT std::optional<float>, STRING
//     std::optional<std::string>, INTS, FLOATS and STRINGS OptionalList<...> of those (an
//     optional list that takes a braced list; graphgc/ir/optional_list.h), TENSOR
//     std::optional<Tensor>, GRAPH std::optional<Subgraph> (a function building
//     the body from its arguments; see graphgc/ir/attribute.h), TYPE_PROTO std::optional<VarType>.
//     A field left unset is not passed, so the schema's default applies; a required attribute
//     left unset fails the call with a status naming the op and the attribute. SPARSE_TENSOR
//     attributes are not supported: an op with optional ones says so, and ops that require one
//     are not generated.
//     An ONNX name that is a C++ keyword gets a trailing underscore, noted at the op.
//     GCC's error for a misspelled field (`{.stride = {1, 1}}`) names neither the field nor the
//     struct: "could not convert '{...}' from '<brace-enclosed initializer list>' to
//     'const graphgc::ConvAttributes&'" means a field name (or its order) is wrong; the struct
//     is the one the message names, and its fields are listed in graphgc/opset/generated/onnx_schemas.h.
//     Fields must be given in declaration order. Clang names the field.
//   - One output: the op returns a Var. Several: a struct `<Op>Outputs` with one Var per
//     output, named as in ONNX, so `auto [values, indices] = op::TopK(x, k);` works. When
//     trailing outputs are optional, an `int num_outputs` after the attributes (default: the
//     number of required outputs, at least one) says how many to make; the rest stay empty:
//       op::Dropout(x, Var(), Var(), {}, /*num_outputs=*/2)
//   - A variadic output: the op returns a std::vector<Var> of `num_outputs` Vars, a required
//     last parameter; C++ then allows no default before it, so pass every input and the
//     attributes: op::Split(x, Var(), {.axis = 0, .num_outputs_ = 3}, /*num_outputs=*/3) (Split
//     from opset 18 takes the count as an attribute too, num_outputs_ beside the parameter). If, Loop and Scan default it to -1, as
//     many outputs as their body gives (fields in ONNX's order, so else_branch comes first):
//       auto outs = op::If(c, {.else_branch = [&] { return std::vector<Var>{b}; },
//                              .then_branch = [&] { return std::vector<Var>{a}; }});
//   - A call never throws: bad input gives failed Vars whose status names the op. Every
//     generated op is a typed front of graphgc::make_node (graphgc/opset/build/node.h), which
//     checks the call against the schema, infers the outputs and propagates values. The
//     hand-written ops of graphgc/opset/build/ops.h build their nodes natively instead
//     (opset/build/native_ops.h), with the same checks and the same kernels.
//   - The generated ops are function objects (as std::ranges' algorithms are), defined once per
//     schema in graphgc/opset/generated/onnx_schemas.h (ml_schemas.h for ai.onnx.ml) and bound
//     to an opset by each opset namespace: opset15::Softmax builds its node at opset 15,
//     op::Softmax at {NEWEST}, ml::LabelEncoder at ai.onnx.ml {ML_NEWEST}. The ops of
//     graphgc/opset/build/ops.h are plain functions.
)";

std::string Convention() {
  return absl::StrReplaceAll(kConvention, {{"{FIRST}", absl::StrCat(kFirstOnnxOpset)},
                                           {"{NEWEST}", absl::StrCat(kNewestOnnxOpset)},
                                           {"{ML_FIRST}", absl::StrCat(kFirstMlOpset)},
                                           {"{ML_NEWEST}", absl::StrCat(kNewestMlOpset)}});
}

// The namespace, within graphgc, of the schemas introduced at `since_version`.
std::string SchemaNamespace(const DomainNames& names, int since_version) {
  return absl::StrCat(names.since_prefix, since_version);
}

std::string DomainTitle(const DomainNames& names) {
  return names.domain.empty() ? "ai.onnx" : names.domain;
}

std::string IncludeGuard(const std::string& file_stem) {
  return absl::StrCat("GRAPHGC_", absl::AsciiStrToUpper(file_stem), "_H_");
}

std::string GeneratedBy(const std::string& onnx_version) {
  return absl::StrCat("Generated by graphgc-opset-gen from the operator schemas of ONNX ",
                      onnx_version, "; do not edit.");
}

// The first lines of a header: what it holds, that it is generated, then `about` paragraphs.
std::string HeaderComment(const std::string& title, const std::string& onnx_version,
                          const std::vector<std::string>& about) {
  std::string out = CommentBlock(title, 0) + "//\n";
  out += CommentBlock(absl::StrCat(GeneratedBy(onnx_version),
                                   " Change tools/opset_gen*.cc instead and run "
                                   "`cmake --build <build dir> --target regenerate-opset`."),
                      0);
  for (const std::string& paragraph : about) out += "//\n" + CommentBlock(paragraph, 0);
  return out;
}

std::string SourceComment(const std::string& file_stem, const std::string& onnx_version) {
  return CommentBlock(
      absl::StrCat(GeneratedBy(onnx_version), " See graphgc/opset/generated/", file_stem, ".h."),
      0);
}

std::string SkippedNotes(const std::vector<SkippedOp>& skipped) {
  if (skipped.empty()) return "";
  std::string out = "//\n// Not generated:\n";
  for (const SkippedOp& op : skipped) {
    out += CommentLines(absl::StrCat(op.name, ": ", op.reason, "."), "//   - ", "//     ");
  }
  return out;
}

std::string OpenGuard(const std::string& file_stem) {
  const std::string guard = IncludeGuard(file_stem);
  return absl::StrCat("#ifndef ", guard, "\n#define ", guard, "\n\n");
}

std::string CloseGuard(const std::string& file_stem) {
  return absl::StrCat("\n#endif  // ", IncludeGuard(file_stem), "\n");
}

std::string Namespace(const std::string& name, const std::string& body) {
  return absl::StrCat("namespace ", name, " {\n", body, "\n}  // namespace ", name, "\n");
}

// The includes of a source file defining the ops of `file_stem`.h.
std::string SourceIncludes(const std::string& file_stem) {
  return absl::StrCat("#include \"graphgc/opset/generated/", file_stem,
                      ".h\"\n\n#include \"graphgc/opset/build/generated_support.h\"\n");
}

// `ops` split into runs of one since version (they come sorted by it).
std::vector<std::vector<OpSpec>> BySinceVersion(const std::vector<OpSpec>& ops) {
  std::vector<std::vector<OpSpec>> runs;
  for (const OpSpec& op : ops) {
    if (runs.empty() || runs.back().front().since_version != op.since_version) runs.emplace_back();
    runs.back().push_back(op);
  }
  return runs;
}

std::vector<std::string> Names(const std::vector<OpSpec>& ops) {
  std::vector<std::string> names;
  for (const OpSpec& op : ops) names.push_back(op.name);
  return names;
}

// An opset's binding of one op: the using-declarations of its structs, then its function object.
std::string Binding(const DomainNames& names, const OpSpec& op, int version) {
  const std::string from = SchemaNamespace(names, op.since_version) + "::";
  std::string out;
  if (HasAttributesStruct(op)) absl::StrAppend(&out, "using ", from, AttributesType(op), ";\n");
  if (HasOutputsStruct(op)) absl::StrAppend(&out, "using ", from, OutputsType(op), ";\n");
  return out + absl::StrCat("inline constexpr ", from, op.name, " ", op.name, "{", version, "};\n");
}

// graphgc::op's (or ml's) re-export of one op of opset `version`.
std::string ReExport(const DomainNames& names, const OpSpec& op, int version) {
  const std::string from = absl::StrCat(names.opset_prefix, version, "::");
  std::string out = absl::StrCat("using ", from, op.name, ";\n");
  if (HasAttributesStruct(op)) absl::StrAppend(&out, "using ", from, AttributesType(op), ";\n");
  if (HasOutputsStruct(op)) absl::StrAppend(&out, "using ", from, OutputsType(op), ";\n");
  return out;
}

}  // namespace

const DomainNames& OnnxNames() {
  static const DomainNames* const kNames =
      new DomainNames{"", "onnx_schemas", "since", "opset", "op", "onnx_ops"};
  return *kNames;
}

const DomainNames& MlNames() {
  static const DomainNames* const kNames =
      new DomainNames{"ai.onnx.ml", "ml_schemas", "ml_since", "ml", "ml", "ml_ops"};
  return *kNames;
}

std::vector<GeneratedFile> EmitSchemas(const DomainNames& names, int first, int newest,
                                       const std::vector<OpSpec>& schemas,
                                       const std::string& onnx_version) {
  const std::string stem = names.schemas_stem;
  const std::string since = names.since_prefix;
  const std::string opset = names.opset_prefix;
  const OpSpec& example = schemas.back();
  const std::string example_since = SchemaNamespace(names, example.since_version);
  const int example_opset = std::max(example.since_version, newest - 1);
  std::string header = HeaderComment(
      absl::StrCat("graphgc::", since, schemas.front().since_version, " ... ", example_since,
                   " — the ", DomainTitle(names), " operator schemas that graphgc::", opset, first,
                   " ... ", opset, newest,
                   " use, each defined once, in the namespace of the opset that introduced it: ",
                   example_since, "::", example.name, " is ", example.name, " as defined at opset ",
                   example.since_version, "."),
      onnx_version,
      {absl::StrCat("Each op is a function object: a struct named by its op_type, holding the "
                    "opset its nodes are built at, whose call operator makes the node. The opset "
                    "namespaces bind them (graphgc::",
                    opset, example_opset, "::", example.name, " is ", example_since,
                    "::", example.name, "{", example_opset,
                    "}); call the ops through those or graphgc::", names.newest,
                    ". The calling convention is at the top of "
                    "graphgc/opset/generated/onnx_ops.h.")});
  header += OpenGuard(stem) + absl::StrJoin(DeclarationIncludes(schemas), "\n") + "\n";
  std::string source = SourceComment(stem, onnx_version) + SourceIncludes(stem);
  for (const std::vector<OpSpec>& run : BySinceVersion(schemas)) {
    std::string declarations;
    std::string definitions;
    for (const OpSpec& op : run) {
      absl::StrAppend(&declarations, "\n", OpDeclarations(op));
      absl::StrAppend(&definitions, "\n", OpDefinition(op));
    }
    const std::string name = "graphgc::" + SchemaNamespace(names, run.front().since_version);
    absl::StrAppend(&header, "\n", Namespace(name, declarations));
    absl::StrAppend(&source, "\n", Namespace(name, definitions));
  }
  header += CloseGuard(stem);
  return {{stem + ".h", header}, {stem + ".cc", source}};
}

GeneratedFile EmitOpset(const DomainNames& names, const OpsetContents& opset,
                        const std::string& onnx_version) {
  const std::string stem = absl::StrCat(names.opset_prefix, opset.version);
  std::vector<OpSpec> introduced;
  std::copy_if(opset.ops.begin(), opset.ops.end(), std::back_inserter(introduced),
               [&](const OpSpec& op) { return op.since_version == opset.version; });
  std::string out = HeaderComment(
      absl::StrCat("graphgc::", stem, " — the ", DomainTitle(names), " operators as of opset ",
                   opset.version, "; every node is built at opset ", opset.version, "."),
      onnx_version,
      {absl::StrCat("Each op is the function object of its schema (graphgc/opset/generated/",
                    names.schemas_stem, ".h, where it is documented) bound to opset ",
                    opset.version,
                    "; its attribute and output structs are the schema's, shared with the other "
                    "opsets that have it. The calling convention is at the top of "
                    "graphgc/opset/generated/onnx_ops.h."),
       absl::StrCat("Schemas introduced at opset ", opset.version, ": ",
                    introduced.empty() ? "none" : absl::StrJoin(Names(introduced), ", "), ".")});
  out += SkippedNotes(opset.skipped);
  out += OpenGuard(stem);
  absl::StrAppend(&out, "#include \"graphgc/opset/generated/", names.schemas_stem, ".h\"\n\n");
  std::string bindings;
  for (const OpSpec& op : opset.ops) bindings += Binding(names, op, opset.version);
  out += Namespace("graphgc::" + stem, "\n" + bindings);
  return {stem + ".h", out + CloseGuard(stem)};
}

GeneratedFile EmitNewest(const DomainNames& names, const OpsetContents& newest,
                         const std::vector<std::string>& handwritten,
                         const std::string& onnx_version) {
  const std::string stem = names.newest_stem;
  const std::string newest_opset = absl::StrCat(names.opset_prefix, newest.version);
  std::string out = HeaderComment(
      absl::StrCat("graphgc::", names.newest, " — the ", DomainTitle(names), " operators at opset ",
                   newest.version, ", one each, named by ONNX's op_type."),
      onnx_version,
      {absl::StrCat(
          "The ops are graphgc::", newest_opset,
          "'s, re-exported here; their schemas and documentation are in graphgc/opset/generated/",
          names.schemas_stem, ".h.")});
  if (names.domain.empty()) out += "//\n" + Convention();
  if (!handwritten.empty()) {
    out += "//\n";
    out += CommentBlock(absl::StrCat(absl::StrJoin(handwritten, ", "),
                                     " are declared by hand in graphgc/opset/build/ops.h (included "
                                     "here), with their own signatures; graphgc::",
                                     newest_opset, " has generated ones."),
                        0);
  }
  out += SkippedNotes(newest.skipped);
  out += OpenGuard(stem);
  if (!handwritten.empty()) out += "#include \"graphgc/opset/build/ops.h\"\n";
  absl::StrAppend(&out, "#include \"graphgc/opset/generated/", newest_opset, ".h\"\n\n");
  std::string uses;
  for (const OpSpec& op : newest.ops) {
    if (std::find(handwritten.begin(), handwritten.end(), op.name) == handwritten.end()) {
      uses += ReExport(names, op, newest.version);
    }
  }
  out += Namespace("graphgc::" + names.newest, "\n" + uses);
  return {stem + ".h", out + CloseGuard(stem)};
}

}  // namespace graphgc::opset_gen
