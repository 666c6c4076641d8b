#include "conformance.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/onnx-data.pb.h"
#include "onnx/onnx_pb.h"

namespace graphgc::conformance {
namespace {

namespace fs = std::filesystem;

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

template <class Proto>
bool ParseFile(const fs::path& path, Proto* proto) {
  std::ifstream in(path, std::ios::binary);
  return in && proto->ParseFromIstream(&in);
}

CaseResult Skip(const std::string& name, std::string why) {
  return {name, Verdict::kSkip, std::move(why)};
}
CaseResult Fail(const std::string& name, std::string why) {
  return {name, Verdict::kFail, std::move(why)};
}

// The byte holding element i of a narrow-typed tensor (one element per byte in memory).
unsigned NarrowByte(const Tensor& t, int64_t i) {
  return static_cast<const unsigned char*>(t.raw_data())[i];
}

// The i-th element of a tensor as text, and as a double for numeric types.
std::string ElementText(const Tensor& t, int64_t i) {
  std::string text;
  if (t.dtype() == DataType::kString) return absl::StrCat("\"", t.data<std::string>()[i], "\"");
  if (IsNarrow(t.dtype())) return absl::StrFormat("0x%02x", NarrowByte(t, i));
  if (t.dtype() == DataType::kBool) return t.data<bool>()[i] ? "true" : "false";
  internal::DispatchNumeric(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto v = internal::Load(t.data<T>()[i]);
    if constexpr (std::is_floating_point_v<decltype(v)>) {
      text = absl::StrFormat("%.9g", static_cast<double>(v));
    } else {
      text = absl::StrCat(v);
    }
  });
  return text;
}

bool ElementsMatch(const Tensor& got, const Tensor& expected, int64_t i, double atol) {
  // The narrow types (float8, float4, int4, ...): their bit patterns, exactly, as ONNX's test
  // data fixes them.
  if (IsNarrow(got.dtype())) return NarrowByte(got, i) == NarrowByte(expected, i);
  if (got.dtype() == DataType::kString)
    return got.data<std::string>()[i] == expected.data<std::string>()[i];
  if (got.dtype() == DataType::kBool) return got.data<bool>()[i] == expected.data<bool>()[i];
  bool match = false;
  internal::DispatchNumeric(got.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto g = internal::Load(got.data<T>()[i]);
    const auto e = internal::Load(expected.data<T>()[i]);
    if constexpr (std::is_floating_point_v<decltype(g)>) {
      const double a = g, b = e;
      if (std::isnan(a) || std::isnan(b)) {
        match = std::isnan(a) && std::isnan(b);
      } else if (std::isinf(a) || std::isinf(b)) {
        match = a == b;
      } else {
        match = std::fabs(a - b) <= atol + kRtol * std::fabs(b);
      }
    } else {
      match = g == e;
    }
  });
  return match;
}

// "" when `got` matches `expected`, else what differs first.
std::string Compare(const std::string& output, const Tensor& got, const Tensor& expected,
                    double atol) {
  if (got.dtype() != expected.dtype()) {
    return absl::StrCat("output ", output, ": element type ", DataTypeName(got.dtype()),
                        ", expected ", DataTypeName(expected.dtype()));
  }
  if (got.shape() != expected.shape()) {
    return absl::StrCat("output ", output, ": shape ", ShapeToString(got.shape()), ", expected ",
                        ShapeToString(expected.shape()));
  }
  for (int64_t i = 0; i < got.size(); ++i) {
    if (!ElementsMatch(got, expected, i, atol)) {
      return absl::StrCat("output ", output, ", index ", i, ", got ", ElementText(got, i),
                          ", expected ", ElementText(expected, i));
    }
  }
  return "";
}

// The same for values of any kind: sequences element by element, optionals by their element.
std::string CompareValues(const std::string& output, const Value& got, const Value& expected,
                          double atol) {
  if (got.kind() != expected.kind()) {
    return absl::StrCat("output ", output, ": a ", got.KindName(), ", expected a ",
                        expected.KindName());
  }
  if (got.is_tensor()) return Compare(output, got.tensor(), expected.tensor(), atol);
  if (got.kind() == Value::Kind::kMap) {
    std::string keys = Compare(output + " (keys)", got.keys(), expected.keys(), atol);
    return keys.empty()
               ? Compare(output + " (values)", got.map_values(), expected.map_values(), atol)
               : keys;
  }
  if (got.elements().size() != expected.elements().size()) {
    return absl::StrCat("output ", output, ": ", got.elements().size(), " element(s), expected ",
                        expected.elements().size());
  }
  for (size_t i = 0; i < got.elements().size(); ++i) {
    std::string difference = CompareValues(absl::StrCat(output, "[", i, "]"), got.elements()[i],
                                           expected.elements()[i], atol);
    if (!difference.empty()) return difference;
  }
  return "";
}

std::vector<fs::path> SortedFiles(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && entry.path().extension() == ".pb")
      files.push_back(entry.path());
  }
  // input_10 after input_9: by the number after the prefix.
  std::sort(files.begin(), files.end(), [&](const fs::path& a, const fs::path& b) {
    auto number = [&](const fs::path& p) {
      return std::atoi(p.stem().string().substr(prefix.size()).c_str());
    };
    return number(a) < number(b);
  });
  return files;
}

// The ops of the model (main graph and bodies) without a kernel at the model's opset.
std::vector<std::string> OpsWithoutKernels(const onnx::ModelProto& model) {
  std::map<std::string, int> versions;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    versions[opset.domain() == "ai.onnx" ? "" : opset.domain()] = static_cast<int>(opset.version());
  }
  std::vector<std::string> missing;
  std::vector<const onnx::GraphProto*> graphs = {&model.graph()};
  while (!graphs.empty()) {
    const onnx::GraphProto* graph = graphs.back();
    graphs.pop_back();
    for (const onnx::NodeProto& node : graph->node()) {
      for (const onnx::AttributeProto& a : node.attribute()) {
        if (a.has_g()) graphs.push_back(&a.g());
      }
      const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
      const NodeOptions options{.domain = domain, .version = versions[domain]};
      if (!has_kernel(node.op_type(), options) &&
          std::find(missing.begin(), missing.end(), node.op_type()) == missing.end()) {
        missing.push_back(node.op_type());
      }
    }
  }
  return missing;
}

// ONNX 1.12's test data stores bfloat16 tensors with data_type UINT16 (the same bits): read
// them as the element type the model declares.
absl::StatusOr<Tensor> ReadTensor(onnx::TensorProto proto, const onnx::TypeProto& declared) {
  const int32_t elem_type = declared.tensor_type().elem_type();
  if (elem_type == onnx::TensorProto::BFLOAT16 && proto.data_type() == onnx::TensorProto::UINT16) {
    proto.set_data_type(onnx::TensorProto::BFLOAT16);
  }
  return internal::FromTensorProto(proto);
}

absl::StatusOr<Value> ReadSequence(const onnx::SequenceProto& proto,
                                   const onnx::TypeProto& declared) {
  if (proto.elem_type() != onnx::SequenceProto::TENSOR && proto.tensor_values_size() == 0 &&
      proto.elem_type() != onnx::SequenceProto::UNDEFINED) {
    return absl::UnimplementedError("a sequence of non-tensors");
  }
  std::vector<Value> elements;
  for (const onnx::TensorProto& tensor : proto.tensor_values()) {
    GRAPHGC_ASSIGN_OR_RETURN(Tensor element,
                             ReadTensor(tensor, declared.sequence_type().elem_type()));
    elements.emplace_back(std::move(element));
  }
  return Value::Sequence(std::move(elements));
}

// A value file (TensorProto, SequenceProto or OptionalProto) as the type `declared` says.
absl::StatusOr<Value> ReadValue(const fs::path& path, const onnx::TypeProto& declared) {
  if (declared.has_tensor_type()) {
    onnx::TensorProto proto;
    if (!ParseFile(path, &proto) || proto.data_type() == 0) {
      return absl::UnimplementedError("not a TensorProto");
    }
    GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(std::move(proto), declared));
    return Value(std::move(tensor));
  }
  if (declared.has_sequence_type()) {
    onnx::SequenceProto proto;
    if (!ParseFile(path, &proto)) return absl::UnimplementedError("not a SequenceProto");
    return ReadSequence(proto, declared);
  }
  if (declared.has_optional_type()) {
    onnx::OptionalProto proto;
    if (!ParseFile(path, &proto)) return absl::UnimplementedError("not an OptionalProto");
    const onnx::TypeProto& element = declared.optional_type().elem_type();
    if (proto.has_tensor_value()) {
      GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, ReadTensor(proto.tensor_value(), element));
      return Value::Optional(std::move(tensor));
    }
    if (proto.has_sequence_value()) {
      GRAPHGC_ASSIGN_OR_RETURN(Value sequence, ReadSequence(proto.sequence_value(), element));
      return Value::Optional(std::move(sequence));
    }
    return Value::EmptyOptional();
  }
  return absl::UnimplementedError("a map or sparse tensor");
}

// A var of `graph` holding `value` of type `declared`: a constant, or the sequence and optional
// ops that make the value from constants.
absl::StatusOr<Var> Bind(Graph& graph, const Value& value, const onnx::TypeProto& declared) {
  GRAPHGC_ASSIGN_OR_RETURN(VarType type, internal::FromTypeProto(declared, "input"));
  std::vector<Var> made;
  switch (value.kind()) {
    case Value::Kind::kTensor:
      return graph.constant(value.tensor());
    case Value::Kind::kSequence: {
      std::vector<Var> elements;
      for (const Value& element : value.elements())
        elements.push_back(graph.constant(element.tensor()));
      made = elements.empty() ? make_node(graph, "SequenceEmpty", {},
                                          {{"dtype", static_cast<int64_t>(type.element().dtype())}})
                              : make_node(graph, "SequenceConstruct", elements);
      break;
    }
    case Value::Kind::kOptional: {
      if (!value.has_element()) {
        made = make_node(graph, "Optional", {}, {{"type", type.element()}});
        break;
      }
      GRAPHGC_ASSIGN_OR_RETURN(
          Var element, Bind(graph, value.elements()[0], declared.optional_type().elem_type()));
      made = make_node(graph, "Optional", {element});
      break;
    }
    case Value::Kind::kMap:
      return absl::UnimplementedError("map inputs");
  }
  if (made.empty() || !made[0].ok()) {
    return absl::UnimplementedError(made.empty() ? "no var" : made[0].status().message());
  }
  return made[0];
}

// The first domain the model imports that this library does not support, if any.
std::optional<std::string> UnsupportedDomain(const onnx::ModelProto& model) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (SupportedOpsetVersion(opset.domain() == "ai.onnx" ? "" : opset.domain()) == 0) {
      return opset.domain();
    }
  }
  return std::nullopt;
}

// Where a test input contradicts the model's declared input: another rank, or another extent of
// a dim the model fixes. ONNX Runtime refuses such an input ("Invalid rank for input").
std::optional<std::string> ContradictedInput(const onnx::ValueInfoProto& declared,
                                             const Value& value) {
  if (!value.is_tensor() || !declared.type().has_tensor_type() ||
      !declared.type().tensor_type().has_shape()) {
    return std::nullopt;
  }
  const auto& dims = declared.type().tensor_type().shape().dim();
  const absl::Span<const int64_t> given = value.tensor().shape();
  bool contradicts = static_cast<size_t>(dims.size()) != given.size();
  std::vector<std::string> declared_dims;
  for (int d = 0; d < dims.size(); ++d) {
    const bool fixed = dims[d].has_dim_value();
    declared_dims.push_back(fixed ? absl::StrCat(dims[d].dim_value()) : "?");
    if (fixed && !contradicts && dims[d].dim_value() != given[static_cast<size_t>(d)])
      contradicts = true;
  }
  if (!contradicts) return std::nullopt;
  return absl::StrCat("bad test data: input '", declared.name(), "' has shape [",
                      absl::StrJoin(given, ","), "] where the model declares [",
                      absl::StrJoin(declared_dims, ","), "]");
}

// One data set: "" when every output matches; else a FAIL, SKIP or BAD_DATA result.
std::optional<CaseResult> RunDataSet(const std::string& name, const onnx::ModelProto& model,
                                     const fs::path& data_set, double atol) {
  std::vector<const onnx::ValueInfoProto*> model_inputs;
  std::set<std::string> initializers;
  for (const onnx::TensorProto& t : model.graph().initializer()) initializers.insert(t.name());
  for (const onnx::ValueInfoProto& input : model.graph().input()) {
    if (initializers.count(input.name()) == 0) model_inputs.push_back(&input);
  }
  Graph graph;
  std::map<std::string, Var> bindings;
  const std::vector<fs::path> inputs = SortedFiles(data_set, "input_");
  for (size_t i = 0; i < inputs.size() && i < model_inputs.size(); ++i) {
    const onnx::TypeProto& declared = model_inputs[i]->type();
    absl::StatusOr<Value> value = ReadValue(inputs[i], declared);
    if (!value.ok()) return Skip(name, absl::StrCat("input ", i, ": ", value.status().message()));
    if (std::optional<std::string> why = ContradictedInput(*model_inputs[i], *value)) {
      return CaseResult{name, Verdict::kBadData, *std::move(why)};
    }
    absl::StatusOr<Var> bound = Bind(graph, *value, declared);
    if (!bound.ok()) return Skip(name, absl::StrCat("input ", i, ": ", bound.status().message()));
    bindings[model_inputs[i]->name()] = *std::move(bound);
  }
  // At the model's own opset: a case checks the op version it was written for (import's default
  // converts to the newest opset, whose versions of some ops have no kernel yet).
  absl::StatusOr<std::map<std::string, Var>> outputs =
      inline_model(graph, model, bindings, {.opset = 0});
  if (!outputs.ok()) {
    std::string why = absl::StrCat("import: ", outputs.status().message());
    return absl::IsUnimplemented(outputs.status()) ? Skip(name, std::move(why))
                                                   : Fail(name, std::move(why));
  }
  const std::vector<fs::path> expected_files = SortedFiles(data_set, "output_");
  std::string without_value;  // the first output without a value
  for (size_t i = 0; i < expected_files.size(); ++i) {
    if (i >= static_cast<size_t>(model.graph().output_size())) break;
    const std::string& output = model.graph().output(static_cast<int>(i)).name();
    absl::StatusOr<Value> expected =
        ReadValue(expected_files[i], model.graph().output(static_cast<int>(i)).type());
    if (!expected.ok()) {
      return Skip(name, absl::StrCat("output ", output, ": ", expected.status().message()));
    }
    const Var& var = outputs->at(output);
    if (!var.ok()) return Fail(name, absl::StrCat("output ", output, ": ", var.status().message()));
    std::optional<Value> got = var.any_value();
    if (!got.has_value()) {  // the outputs that have values are still compared
      if (without_value.empty()) without_value = output;
      continue;
    }
    std::string difference = CompareValues(output, *got, *expected, atol);
    if (!difference.empty()) return Fail(name, std::move(difference));
  }
  if (!without_value.empty()) {
    const std::vector<std::string> missing = OpsWithoutKernels(model);
    return Skip(name, missing.empty()
                          ? absl::StrCat("output ", without_value, " has no value")
                          : absl::StrCat("no kernel for ", absl::StrJoin(missing, ", ")));
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> FindCases(const std::vector<std::string>& paths,
                                   std::vector<std::string>& missing) {
  std::vector<std::string> cases;
  for (const std::string& path : paths) {
    std::error_code error;
    if (fs::exists(fs::path(path) / "model.onnx", error)) {
      cases.push_back(path);
      continue;
    }
    if (!fs::is_directory(path, error)) {
      missing.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, error);
         it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (error) break;
      if (it->is_directory(error) && fs::exists(it->path() / "model.onnx", error)) {
        found.push_back(it->path().string());
        it.disable_recursion_pending();
      }
    }
    std::sort(found.begin(), found.end());
    cases.insert(cases.end(), found.begin(), found.end());
  }
  return cases;
}

CaseResult RunCase(const std::string& directory, std::optional<double> atol) {
  const fs::path dir(directory);
  const std::string name = dir.filename().string();
  onnx::ModelProto model;
  if (!ParseFile(dir / "model.onnx", &model)) return Fail(name, "model.onnx cannot be read");
  if (std::optional<std::string> domain = UnsupportedDomain(model)) {
    return Skip(name, absl::StrCat("domain '", *domain, "' is not supported"));
  }
  std::vector<fs::path> data_sets;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      data_sets.push_back(entry.path());
    }
  }
  std::sort(data_sets.begin(), data_sets.end());
  if (data_sets.empty()) return Skip(name, "no test_data_set_*");
  for (const fs::path& data_set : data_sets) {
    if (std::optional<CaseResult> problem =
            RunDataSet(name, model, data_set, atol.value_or(kAtol))) {
      return *problem;
    }
  }
  return {name, Verdict::kPass, ""};
}

const std::string* KnownDifferences::SkipReason(const std::string& name) const {
  for (const auto& [pattern, reason] : skips) {
    const bool prefix = !pattern.empty() && pattern.back() == '*';
    if (prefix ? absl::StartsWith(name, pattern.substr(0, pattern.size() - 1)) : name == pattern) {
      return &reason;
    }
  }
  return nullptr;
}

KnownDifferences ReadKnownDifferences(const std::string& path, std::string& error) {
  KnownDifferences known;
  std::ifstream in(path);
  if (!in) {
    error = absl::StrCat("cannot read ", path);
    return known;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    const bool skip = name == "SKIP";
    const bool tolerance = name == "ATOL";
    if (skip || tolerance) fields >> name;
    double atol = 0;
    if (tolerance && !(fields >> atol)) {
      error = absl::StrCat(path, ":", number, ": ATOL needs a case name, a tolerance and a reason");
      return known;
    }
    std::string reason;
    std::getline(fields, reason);
    reason.erase(0, reason.find_first_not_of(' '));
    if (name.empty() || reason.empty()) {
      error = absl::StrCat(path, ":", number, ": a case name and its reason are needed");
      return known;
    }
    if (skip) {
      known.skips.emplace_back(name, reason);
    } else if (tolerance) {
      known.tolerances[name] = {atol, reason};
    } else {
      known.failures[name] = reason;
    }
  }
  return known;
}

}  // namespace graphgc::conformance
