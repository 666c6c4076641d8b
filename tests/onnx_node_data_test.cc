// Conformance against ONNX's backend node tests: for every directory of ONNX's node test data
// (ONNX 1.12: /usr/share/libonnx-testdata/data/node/<test>/{model.onnx, test_data_set_0/*.pb}),
// the model's nodes are rebuilt with make_node on constant inputs (input_K.pb), at the opset the
// model imports, and every output with an output_K.pb must be ok, have the expected element type
// and, where graphgc knows the shape, the expected dims. The outputs are then exported with to_onnx
// and ONNX's strict shape inference must accept the export and infer the same types.
//
// Every test directory ends in one of three categories:
//   passed       all checks hold;
//   unsupported  the test needs something graphgc does not represent, found by a specific check
//                with a fixed reason (sequence/optional/sparse/map values, subgraph, sparse-tensor,
//                type-proto or tensors attributes, training-domain ops, opsets newer than the
//                library supports, element types graphgc lacks, external data, ops other than
//                Constant without inputs, outputs whose rank ONNX's inference does not know either,
//                which to_onnx cannot export, and disagreements with the test data that ONNX 1.12's
//                own inference has exactly); recorded as the test property "unsupported", and the
//                test succeeds (the project forbids skips);
//   failed       anything else: the test fails, naming the op, the stage and the status.
// A summary (counts per category, unsupported reasons, failures by stage) is printed at the end.
//
// "ONNX's own inference" is ONNX's shape inference on the test model with its inputs turned into
// initializers holding the test data: the reference that tells ONNX's limits and bugs (which
// make_node inherits, running the schemas' inference) from graphgc's.
//
// Details: models with several nodes (ONNX's "_expanded" function-body tests, and a few others)
// are rebuilt node by node in order. A Constant node becomes Graph::constant (make_node takes its
// Graph from its inputs, so it cannot make an op without any). bfloat16 data, which ONNX's
// generator stores as uint16 bit patterns, is read as bfloat16 where the model declares bfloat16.
// The data directory can be overridden with GRAPHGC_ONNX_NODE_DATA.
// Also here: unit tests of internal::FromAttributeProto, which the conformance run relies on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx_conformance_util.h"

namespace {

namespace fs = std::filesystem;
namespace gg = graphgc;
using gg::DataType;
using gg::Graph;
using gg::NamedVars;
using gg::Tensor;
using gg::Var;
using Dims = std::vector<int64_t>;
using onnx_conformance::CheckOnnxInference;
using onnx_conformance::CompareWithOnnx;
using onnx_conformance::DataDir;
using onnx_conformance::DimsToString;
using onnx_conformance::ElemTypeName;
using onnx_conformance::kMinimumTestCount;
using onnx_conformance::ListTestDirs;
using onnx_conformance::NormalizedDomain;
using onnx_conformance::ParseFile;
using onnx_conformance::TypeDims;
using onnx_conformance::TypeToString;

constexpr char kTrainingDomain[] = "ai.onnx.preview.training";

// gtest parameter names: [A-Za-z0-9_] only, unique.
std::string SanitizedName(const std::string& dir) {
  std::string name = fs::path(dir).filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name.empty() ? std::string("unnamed") : name;
}

// Directory names are valid already; a name that sanitizing changed takes its index, to stay
// unique.
std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  const std::string name = SanitizedName(info.param);
  if (name == fs::path(info.param).filename().string()) return name;
  return absl::StrCat(name, "_", info.index);
}

// --- Outcome and summary -----------------------------------------------------------------------

enum class Category { kPassed, kUnsupported, kFailed };

struct Outcome {
  Category category = Category::kPassed;
  std::string reason;               // unsupported: the fixed reason
  std::string op_type;              // the op concerned (the failing node's, for failures)
  std::string stage;                // failed: load, make_node, check, export, onnx_inference
  std::vector<std::string> errors;  // failed: one message per failed check
  // passed: outputs whose shape ONNX's own inference knows better (not a failure; reported)
  std::vector<std::string> notes;
};

Outcome Unsupported(std::string reason, std::string op_type = "") {
  Outcome outcome;
  outcome.category = Category::kUnsupported;
  outcome.reason = std::move(reason);
  outcome.op_type = std::move(op_type);
  return outcome;
}

Outcome Failed(std::string stage, std::string op_type, std::string error) {
  Outcome outcome;
  outcome.category = Category::kFailed;
  outcome.stage = std::move(stage);
  outcome.op_type = std::move(op_type);
  outcome.errors.push_back(std::move(error));
  return outcome;
}

struct Summary {
  int passed = 0;
  int unsupported = 0;
  int failed = 0;
  std::map<std::string, std::vector<std::string>> reasons;  // reason -> tests
  struct Failure {
    std::string test, op_type, stage, error;
  };
  std::vector<Failure> failures;
  std::vector<std::pair<std::string, std::string>> less_precise;  // test, note

  void Add(const std::string& test, const Outcome& outcome) {
    switch (outcome.category) {
      case Category::kPassed:
        ++passed;
        for (const std::string& note : outcome.notes) less_precise.emplace_back(test, note);
        break;
      case Category::kUnsupported:
        ++unsupported;
        reasons[outcome.reason].push_back(test);
        break;
      case Category::kFailed:
        ++failed;
        failures.push_back(
            {test, outcome.op_type, outcome.stage, absl::StrJoin(outcome.errors, "; ")});
        break;
    }
  }

  void Print() const {
    const int total = passed + unsupported + failed;
    if (total == 0) return;
    std::printf("\n=== ONNX node test data: %d test(s) ===\n", total);
    std::printf("passed: %d\nunsupported: %d\nfailed: %d\n", passed, unsupported, failed);
    if (!reasons.empty()) std::printf("\nunsupported, by reason:\n");
    for (const auto& [reason, tests] : reasons) {
      std::printf("  %4zu  %s\n", tests.size(), reason.c_str());
      if (tests.size() <= 12) std::printf("          %s\n", absl::StrJoin(tests, " ").c_str());
    }
    if (!less_precise.empty()) {
      std::printf("\npassed, but ONNX's inference on the test model knows more dims (%zu):\n",
                  less_precise.size());
      for (const auto& [test, note] : less_precise) {
        std::printf("    %s: %s\n", test.c_str(), note.c_str());
      }
    }
    if (failures.empty()) return;
    std::map<std::string, std::vector<const Failure*>> by_stage;
    for (const Failure& failure : failures) by_stage[failure.stage].push_back(&failure);
    std::printf("\nfailed, by stage:\n");
    for (const auto& [stage, list] : by_stage) {
      std::printf("  [%s] %zu\n", stage.c_str(), list.size());
      for (const Failure* failure : list) {
        std::printf("    %s (%s): %s\n", failure->test.c_str(), failure->op_type.c_str(),
                    failure->error.c_str());
      }
    }
    std::fflush(stdout);
  }
};

Summary& GlobalSummary() {
  static Summary* summary = new Summary;
  return *summary;
}

class SummaryEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { GlobalSummary().Print(); }
};

const ::testing::Environment* const kSummaryEnvironment =
    ::testing::AddGlobalTestEnvironment(new SummaryEnvironment);

// --- Reading the data --------------------------------------------------------------------------

// "" for a tensor type graphgc represents; otherwise the fixed unsupported reason for a graph
// input or output (`role`) of this type.
std::string UnsupportedValueType(const onnx::TypeProto& type, const std::string& role) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      if (!gg::IsSupportedDataType(type.tensor_type().elem_type())) {
        return absl::StrCat("graph ", role, " of element type ",
                            ElemTypeName(type.tensor_type().elem_type()),
                            ", which graphgc does not support");
      }
      return "";
    case onnx::TypeProto::kSequenceType:
    case onnx::TypeProto::kOptionalType:
    case onnx::TypeProto::kMapType: {
      absl::StatusOr<gg::VarType> converted = gg::internal::FromTypeProto(type, "graph " + role);
      return converted.ok() ? "" : std::string(converted.status().message());
    }
    case onnx::TypeProto::kSparseTensorType:
      return absl::StrCat("sparse-tensor graph ", role);
    default:
      return absl::StrCat("graph ", role, " without a type");
  }
}

// "" for an attribute FromAttributeProto converts; otherwise the fixed unsupported reason.
std::string UnsupportedAttribute(const onnx::NodeProto& node, const onnx::AttributeProto& attr) {
  switch (attr.type()) {
    case onnx::AttributeProto::GRAPHS:
      return absl::StrCat("subgraph attribute (", node.op_type(), ")");
    case onnx::AttributeProto::SPARSE_TENSOR:
    case onnx::AttributeProto::SPARSE_TENSORS:
      return absl::StrCat("sparse-tensor attribute (", node.op_type(), ")");
    case onnx::AttributeProto::TYPE_PROTOS:
      return absl::StrCat("type-proto attribute (", node.op_type(), ")");
    case onnx::AttributeProto::TENSORS:
      return absl::StrCat("tensors attribute (", node.op_type(), ")");
    case onnx::AttributeProto::TENSOR:
      if (!gg::IsSupportedDataType(attr.t().data_type())) {
        return absl::StrCat("tensor attribute of element type ", ElemTypeName(attr.t().data_type()),
                            ", which graphgc does not support");
      }
      if (attr.t().data_location() == onnx::TensorProto::EXTERNAL) {
        return "tensor attribute with external data";
      }
      return "";
    default:
      return "";
  }
}

// --- Checks ------------------------------------------------------------------------------------

// The var has the element type and shape of `expected` ("" if so, else what differs).
std::string CompareWithExpected(const Var& var, const onnx::TensorProto& expected) {
  if (static_cast<int32_t>(var.dtype()) != expected.data_type()) {
    return absl::StrCat("element type ", gg::DataTypeName(var.dtype()), ", expected ",
                        ElemTypeName(expected.data_type()));
  }
  const std::optional<Dims> shape = var.shape();
  if (!shape.has_value()) return "";
  const Dims want(expected.dims().begin(), expected.dims().end());
  bool agrees = shape->size() == want.size();
  for (size_t i = 0; agrees && i < want.size(); ++i) {
    agrees = (*shape)[i] < 0 || (*shape)[i] == want[i];
  }
  if (agrees) return "";
  return absl::StrCat("shape ", DimsToString(*shape), ", expected ", DimsToString(want));
}

// --- ONNX's own inference on the test model -----------------------------------------------------

// ONNX's shape inference on the test model itself, its graph inputs turned into initializers that
// hold the test data (so that inference functions reading input values can use them, as make_node's
// constants allow), with data propagation: the type ONNX infers for each graph output, by name.
// nullopt if ONNX's inference throws.
std::optional<std::map<std::string, onnx::TypeProto>> OnnxReference(
    const onnx::ModelProto& model, const std::map<std::string, onnx::TensorProto>& input_data) {
  onnx::ModelProto reference = model;
  // From IR version 4 on, initializers need not be graph inputs.
  reference.set_ir_version(std::max<int64_t>(reference.ir_version(), 4));
  onnx::GraphProto* graph = reference.mutable_graph();
  // Inputs without tensor data (sequences, optionals, maps) stay inputs: their types matter.
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept_inputs;
  for (const onnx::ValueInfoProto& input : graph->input()) {
    if (input_data.count(input.name()) == 0) *kept_inputs.Add() = input;
  }
  graph->mutable_input()->Swap(&kept_inputs);
  graph->clear_value_info();
  for (const auto& [name, tensor] : input_data) {
    onnx::TensorProto* initializer = graph->add_initializer();
    *initializer = tensor;
    initializer->set_name(name);
  }
  for (onnx::ValueInfoProto& output : *graph->mutable_output()) output.clear_type();
  onnx::ShapeInferenceOptions options;
  options.check_type = false;
  options.error_mode = 1;
  options.enable_data_propagation = true;
  try {
    onnx::shape_inference::InferShapes(reference, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::map<std::string, onnx::TypeProto> types;
  for (const onnx::ValueInfoProto& output : graph->output()) types[output.name()] = output.type();
  return types;
}

// ONNX infers exactly the var's element type and shape (unknown dims included).
bool OnnxInfersTheSame(const onnx::TypeProto& type, const Var& var) {
  return type.has_tensor_type() &&
         type.tensor_type().elem_type() == static_cast<int32_t>(var.dtype()) &&
         TypeDims(type) == var.shape();
}

// ONNX knows a dim (or the rank) that the var leaves unknown.
bool OnnxIsMorePrecise(const onnx::TypeProto& type, const Var& var) {
  const std::optional<Dims> onnx_dims = TypeDims(type);
  const std::optional<Dims> dims = var.shape();
  if (!onnx_dims.has_value()) return false;
  if (!dims.has_value()) return true;
  if (dims->size() != onnx_dims->size()) return false;  // a contradiction, checked elsewhere
  for (size_t i = 0; i < dims->size(); ++i) {
    if ((*dims)[i] < 0 && (*onnx_dims)[i] >= 0) return true;
  }
  return false;
}

// --- One test directory ------------------------------------------------------------------------

// ONNX's numpy-based test generator stores bfloat16 data as uint16 (the same bit patterns): the
// element type a data file's tensor really has, given the type the model declares for it.
int32_t ActualDataType(const onnx::TensorProto& data, int32_t declared) {
  if (declared == onnx::TensorProto::BFLOAT16 && data.data_type() == onnx::TensorProto::UINT16) {
    return onnx::TensorProto::BFLOAT16;
  }
  return data.data_type();
}

// The tensor of a Constant node, from whichever value attribute it has. make_node cannot make a
// Constant: an op without inputs has no Graph to go to (it takes the Graph from its inputs), and
// Graph::constant is the documented way.
absl::StatusOr<Tensor> ConstantValue(const onnx::NodeProto& node) {
  if (node.attribute_size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Constant has ", node.attribute_size(), " attributes, not one"));
  }
  absl::StatusOr<gg::Attribute> attribute = gg::internal::FromAttributeProto(node.attribute(0));
  if (!attribute.ok()) return attribute.status();
  return std::visit(
      [](const auto& value) -> absl::StatusOr<Tensor> {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, Tensor>) {
          return value;
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                             std::is_same_v<T, std::vector<float>> ||
                             std::is_same_v<T, std::vector<std::string>>) {
          return Tensor::from_vector<typename T::value_type>(value);
        } else if constexpr (std::is_same_v<T, gg::Subgraph> || std::is_same_v<T, gg::SubgraphId> ||
                             std::is_same_v<T, gg::VarType>) {
          return absl::InvalidArgumentError("a Constant's value is not a graph");
        } else {
          return Tensor::scalar<T>(value);
        }
      },
      attribute->value);
}

int NumGivenInputs(const onnx::NodeProto& node) {
  return static_cast<int>(std::count_if(node.input().begin(), node.input().end(),
                                        [](const std::string& name) { return !name.empty(); }));
}

// Whether ONNX's inference on the test model types some output otherwise than graphgc, whose
// types were checked against the expected data.
template <class Outputs, class OnnxType>
bool OnnxContradictsTheData(const Outputs& outputs, const OnnxType& onnx_type) {
  for (const auto& [name, var] : outputs) {
    const onnx::TypeProto* inferred = onnx_type(name);
    if (inferred != nullptr && !OnnxInfersTheSame(*inferred, var)) return true;
  }
  return false;
}

Outcome RunNodeTest(const fs::path& dir) {
  onnx::ModelProto model;
  if (!ParseFile(dir / "model.onnx", &model)) {
    return Failed("load", "", "model.onnx does not parse as a ModelProto");
  }
  const onnx::GraphProto& graph = model.graph();
  if (graph.node_size() == 0) return Failed("load", "", "the model has no node");
  // A single-node test is reported under its op; a multi-node one under the node concerned, or as
  // a whole.
  const std::string test_op =
      graph.node_size() == 1 ? graph.node(0).op_type() : absl::StrCat(graph.node_size(), " nodes");

  std::map<std::string, int64_t> opsets;  // normalized domain -> version
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    opsets[NormalizedDomain(opset.domain())] = opset.version();
  }

  // Unsupported features, each found by its own check, before anything is built.
  for (const onnx::NodeProto& node : graph.node()) {
    const std::string domain = NormalizedDomain(node.domain());
    if (domain == kTrainingDomain) {
      return Unsupported(absl::StrCat("training-domain op (", kTrainingDomain, ")"),
                         node.op_type());
    }
    auto opset = opsets.find(domain);
    if (opset == opsets.end()) {
      return Failed("load", node.op_type(),
                    absl::StrCat("the model imports no opset for domain '", domain, "'"));
    }
    const int supported = gg::SupportedOpsetVersion(domain);
    if (supported == 0) {
      return Unsupported(absl::StrCat("op of domain '", domain, "', which graphgc does not know"),
                         node.op_type());
    }
    if (opset->second > supported) {
      return Unsupported(absl::StrCat("model imports opset ", opset->second, " of domain '", domain,
                                      "', newer than the supported ", supported),
                         node.op_type());
    }
  }
  for (const onnx::ValueInfoProto& input : graph.input()) {
    const std::string reason = UnsupportedValueType(input.type(), "input");
    if (!reason.empty()) return Unsupported(reason, test_op);
  }
  for (const onnx::ValueInfoProto& output : graph.output()) {
    const std::string reason = UnsupportedValueType(output.type(), "output");
    if (!reason.empty()) return Unsupported(reason, test_op);
  }
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attr : node.attribute()) {
      const std::string reason = UnsupportedAttribute(node, attr);
      if (!reason.empty()) return Unsupported(reason, node.op_type());
    }
  }

  // The inputs, as constants (initializers first; a graph input of the same name overrides).
  Graph g;
  std::map<std::string, Var> vars;
  std::map<std::string, onnx::TensorProto> input_data;  // for ONNX's reference inference
  auto add_constant = [&](const onnx::TensorProto& proto, const std::string& name,
                          const std::string& what) -> std::optional<Outcome> {
    if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
      return Unsupported(absl::StrCat(what, " with external data"), test_op);
    }
    if (!gg::IsSupportedDataType(proto.data_type())) {
      return Unsupported(absl::StrCat(what, " of element type ", ElemTypeName(proto.data_type()),
                                      ", which graphgc does not support"),
                         test_op);
    }
    absl::StatusOr<Tensor> tensor = gg::internal::FromTensorProto(proto);
    if (!tensor.ok()) {
      return Failed("load", test_op,
                    absl::StrCat("FromTensorProto rejects ", what, " '", name,
                                 "': ", tensor.status().ToString()));
    }
    Var var = g.constant(*tensor);
    if (!var.ok()) {
      return Failed("load", test_op,
                    absl::StrCat("Graph::constant fails for ", what, " '", name,
                                 "': ", var.status().ToString()));
    }
    vars[name] = std::move(var);
    input_data[name] = proto;
    return std::nullopt;
  };
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    if (std::optional<Outcome> outcome =
            add_constant(initializer, initializer.name(), "initializer")) {
      return *outcome;
    }
  }
  const fs::path data = dir / "test_data_set_0";
  for (int i = 0; i < graph.input_size(); ++i) {
    const std::string& name = graph.input(i).name();
    const std::string file_name = absl::StrCat("input_", i, ".pb");
    if (!graph.input(i).type().has_tensor_type()) {
      // A sequence, optional or map: an argument of that type (only tensors carry values).
      absl::StatusOr<gg::VarType> type = gg::internal::FromTypeProto(graph.input(i).type(), name);
      if (!type.ok()) return Failed("load", test_op, type.status().ToString());
      Var argument = g.argument(name, *type);
      if (!argument.ok()) return Failed("load", test_op, argument.status().ToString());
      vars[name] = std::move(argument);
      continue;
    }
    if (!fs::exists(data / file_name)) {
      if (vars.count(name) > 0) continue;  // an initializer provides it
      return Failed("load", test_op, absl::StrCat("no ", file_name, " for input '", name, "'"));
    }
    onnx::TensorProto proto;
    if (!ParseFile(data / file_name, &proto)) {
      return Failed("load", test_op,
                    absl::StrCat(file_name, " (input '", name,
                                 "', tensor-typed) does not parse as a TensorProto"));
    }
    const int32_t declared = graph.input(i).type().tensor_type().elem_type();
    proto.set_data_type(ActualDataType(proto, declared));
    if (proto.data_type() != declared) {
      return Failed("load", test_op,
                    absl::StrCat(file_name, " holds ", ElemTypeName(proto.data_type()),
                                 ", the model declares ", ElemTypeName(declared)));
    }
    if (std::optional<Outcome> outcome = add_constant(proto, name, "input data")) return *outcome;
  }

  // The nodes, in order.
  for (const onnx::NodeProto& node : graph.node()) {
    if (node.op_type() == "Constant" && NumGivenInputs(node) == 0) {
      absl::StatusOr<Tensor> value = ConstantValue(node);
      if (!value.ok()) return Failed("load", node.op_type(), value.status().ToString());
      if (node.output_size() != 1)
        return Failed("load", node.op_type(), "Constant without one output");
      Var var = g.constant(*value);
      if (!var.ok()) return Failed("load", node.op_type(), var.status().ToString());
      vars[node.output(0)] = std::move(var);
      continue;
    }
    std::vector<Var> inputs;
    for (const std::string& name : node.input()) {
      if (name.empty()) {
        inputs.emplace_back();  // an omitted optional input
        continue;
      }
      auto it = vars.find(name);
      if (it == vars.end()) {
        return Failed("load", node.op_type(), absl::StrCat("node input '", name, "' is undefined"));
      }
      inputs.push_back(it->second);
    }
    std::vector<gg::Attribute> attributes;
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.type() == onnx::AttributeProto::GRAPH) {  // built as inline_model builds bodies
        gg::internal::ImportedOpsets imported;
        for (const auto& [domain, version] : opsets) imported[domain] = static_cast<int>(version);
        auto lookup = [&vars](const std::string& name) -> std::optional<Var> {
          auto it = vars.find(name);
          return it == vars.end() ? std::nullopt : std::optional<Var>(it->second);
        };
        attributes.push_back(
            {attr.name(), gg::internal::SubgraphFromGraphProto(g, attr.g(), imported, lookup)});
        continue;
      }
      absl::StatusOr<gg::Attribute> attribute = gg::internal::FromAttributeProto(attr);
      if (!attribute.ok()) {
        return Failed("load", node.op_type(),
                      absl::StrCat("FromAttributeProto: ", attribute.status().ToString()));
      }
      attributes.push_back(*std::move(attribute));
    }
    gg::NodeOptions options;
    options.domain = node.domain();
    options.version = static_cast<int>(opsets[NormalizedDomain(node.domain())]);
    options.num_outputs = node.output_size();
    const std::vector<Var> outputs = gg::make_node(g, node.op_type(), inputs, attributes, options);
    if (outputs.size() != static_cast<size_t>(node.output_size())) {
      return Failed("make_node", node.op_type(),
                    absl::StrCat("make_node returned ", outputs.size(), " vars for ",
                                 node.output_size(), " outputs"));
    }
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;  // an omitted optional output
      if (!outputs[i].ok()) {
        return Failed("make_node", node.op_type(),
                      absl::StrCat("output ", i, ": ", outputs[i].status().ToString()));
      }
      vars[node.output(i)] = outputs[i];
    }
  }

  // The expected outputs. A disagreement that ONNX's own inference shares exactly is ONNX's, not
  // graphgc's: make_node runs the schema's inference function.
  const std::optional<std::map<std::string, onnx::TypeProto>> reference =
      OnnxReference(model, input_data);
  auto onnx_type = [&](const std::string& name) -> const onnx::TypeProto* {
    if (!reference.has_value()) return nullptr;
    auto it = reference->find(name);
    return it == reference->end() ? nullptr : &it->second;
  };
  Outcome outcome;
  outcome.op_type = test_op;
  NamedVars exported;
  std::map<std::string, Dims> expected_dims;  // of the outputs with expected data
  bool all_errors_upstream = true;
  for (int i = 0; i < graph.output_size(); ++i) {
    const std::string& name = graph.output(i).name();
    auto it = vars.find(name);
    if (it == vars.end()) {
      return Failed("load", test_op, absl::StrCat("graph output '", name, "' is never defined"));
    }
    const Var& var = it->second;
    exported.emplace_back(name, var);
    const std::string file_name = absl::StrCat("output_", i, ".pb");
    if (!graph.output(i).type().has_tensor_type() || !var.type().is_tensor()) {
      // Sequences, optionals and maps carry no values: their types are compared with ONNX's.
      const onnx::TypeProto* onnx_inferred = onnx_type(name);
      const std::string error =
          CompareWithOnnx(onnx_inferred != nullptr ? *onnx_inferred : graph.output(i).type(), var);
      if (!error.empty()) {
        all_errors_upstream = false;
        outcome.errors.push_back(absl::StrCat("output '", name, "': ", error));
      }
      continue;
    }
    if (!fs::exists(data / file_name)) continue;
    onnx::TensorProto expected;
    if (!ParseFile(data / file_name, &expected)) {
      return Failed("load", test_op,
                    absl::StrCat(file_name, " (output '", name,
                                 "', tensor-typed) does not parse as a TensorProto"));
    }
    expected.set_data_type(
        ActualDataType(expected, graph.output(i).type().tensor_type().elem_type()));
    expected_dims[name] = Dims(expected.dims().begin(), expected.dims().end());
    const std::string error = CompareWithExpected(var, expected);
    if (error.empty()) continue;
    const onnx::TypeProto* onnx_inferred = onnx_type(name);
    if (onnx_inferred == nullptr || !OnnxInfersTheSame(*onnx_inferred, var)) {
      all_errors_upstream = false;
    }
    outcome.errors.push_back(absl::StrCat(
        "output '", name, "': ", error, " (ONNX's own inference on the test model: ",
        onnx_inferred != nullptr ? TypeToString(*onnx_inferred) : std::string("unavailable"), ")"));
  }
  if (!outcome.errors.empty()) {
    if (all_errors_upstream) {
      return Unsupported(
          "ONNX 1.12's own shape inference contradicts its test data, and make_node "
          "runs that inference (upstream bug)",
          test_op);
    }
    outcome.category = Category::kFailed;
    outcome.stage = "check";
    return outcome;
  }

  // Export (every output needs a rank) and ONNX's inference on the export. An output of unknown
  // rank is exported through a Reshape to the shape of its expected data; ONNX's type for the
  // output itself is then compared where the exported model has it.
  std::map<std::string, Var> reshaped;  // exported name -> the output before its Reshape
  for (auto& [name, var] : exported) {
    if (var.rank().has_value() || !var.type().is_tensor()) continue;
    const onnx::TypeProto* onnx_inferred = onnx_type(name);
    if (onnx_inferred != nullptr && TypeDims(*onnx_inferred).has_value()) {
      return Failed("export", test_op,
                    absl::StrCat("output '", name,
                                 "' has unknown rank, so to_onnx cannot export "
                                 "it, but ONNX's inference on the test model gives ",
                                 TypeToString(*onnx_inferred)));
    }
    auto dims = expected_dims.find(name);
    if (dims == expected_dims.end()) {
      return Unsupported(
          "an output's rank is unknown to ONNX's inference too and there is no "
          "expected data to give it one for export",
          test_op);
    }
    Var with_rank = gg::op::Reshape(var, g.constant(Tensor::from_vector<int64_t>(dims->second)));
    if (!with_rank.ok()) return Failed("export", test_op, with_rank.status().ToString());
    reshaped.emplace(name, var);
    var = std::move(with_rank);
  }
  for (const auto& [name, var] : exported) {
    const onnx::TypeProto* onnx_inferred = onnx_type(name);
    if (onnx_inferred != nullptr && OnnxIsMorePrecise(*onnx_inferred, var)) {
      const std::optional<Dims> shape = var.shape();
      outcome.notes.push_back(
          absl::StrCat("output '", name, "': graphgc has ", DimsToString(shape.value_or(Dims{})),
                       ", ONNX's inference on the test model ", TypeToString(*onnx_inferred)));
    }
  }
  absl::StatusOr<onnx::ModelProto> exported_model = gg::to_onnx(g, exported);
  if (!exported_model.ok()) return Failed("export", test_op, exported_model.status().ToString());
  onnx::ModelProto inferred;
  outcome.errors = CheckOnnxInference(*exported_model, exported, {}, &inferred);
  for (const auto& [name, original] : reshaped) {
    // The Reshape that gives `name` its rank reads the op's own output.
    for (const onnx::NodeProto& node : inferred.graph().node()) {
      if (node.op_type() != "Reshape" || node.output(0) != name) continue;
      for (const onnx::ValueInfoProto& info : inferred.graph().value_info()) {
        if (info.name() != node.input(0)) continue;
        const std::string error = CompareWithOnnx(info.type(), original);
        if (!error.empty()) outcome.errors.push_back(absl::StrCat("output '", name, "': ", error));
      }
    }
  }
  if (!outcome.errors.empty() && !reference.has_value()) {
    // ONNX's inference throws on its own test model as on the export (ONNX 1.19's
    // MeanVarianceNormalization body, whose Constant gets no attribute): ONNX's failure, not a
    // disagreement with graphgc, whose values matched the data above.
    outcome.notes.push_back(absl::StrCat("ONNX's inference fails on its own test model too: ",
                                         absl::StrJoin(outcome.errors, "; ")));
    outcome.errors.clear();
  }
  if (!outcome.errors.empty() && OnnxContradictsTheData(exported, onnx_type)) {
    // graphgc's types matched the expected data above; ONNX 1.12's inference, which gives the
    // test model's outputs other types, cannot agree with them (opset/inference/inference_fixes.h).
    outcome.notes.push_back(absl::StrCat("ONNX 1.12's inference contradicts its test data, which ",
                                         "graphgc follows: ", absl::StrJoin(outcome.errors, "; ")));
    outcome.errors.clear();
  }
  if (!outcome.errors.empty()) {
    outcome.category = Category::kFailed;
    outcome.stage = "onnx_inference";
  }
  return outcome;
}

// --- The parameterized conformance test --------------------------------------------------------

class OnnxNodeDataTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnnxNodeDataTest, MakeNodeMatchesOnnx) {
  const fs::path dir = GetParam();
  const std::string test = dir.filename().string();
  const Outcome outcome = RunNodeTest(dir);
  GlobalSummary().Add(test, outcome);
  if (!outcome.op_type.empty()) RecordProperty("op_type", outcome.op_type);
  switch (outcome.category) {
    case Category::kPassed:
      if (!outcome.notes.empty())
        RecordProperty("less_precise", absl::StrJoin(outcome.notes, "; "));
      break;
    case Category::kUnsupported:
      RecordProperty("unsupported", outcome.reason);
      SUCCEED() << "unsupported: " << outcome.reason;
      break;
    case Category::kFailed:
      for (const std::string& error : outcome.errors) {
        ADD_FAILURE() << test << " (" << outcome.op_type << ") failed at " << outcome.stage << ": "
                      << error;
      }
      break;
  }
}

INSTANTIATE_TEST_SUITE_P(Node, OnnxNodeDataTest, ::testing::ValuesIn(ListTestDirs()), TestName);
// A missing data directory fails DataIsPresent below instead.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OnnxNodeDataTest);

TEST(OnnxNodeDataSetup, DataIsPresent) {
  const std::vector<std::string> dirs = ListTestDirs();
  EXPECT_GE(dirs.size(), kMinimumTestCount)
      << "ONNX's node test data is missing or incomplete in " << DataDir()
      << " (install libonnx-testdata or set GRAPHGC_ONNX_NODE_DATA)";
}

// --- FromAttributeProto ------------------------------------------------------------------------

using gg::internal::FromAttributeProto;

TEST(FromAttributeProtoTest, ConvertsScalarsAndLists) {
  onnx::AttributeProto proto;
  proto.set_name("axis");
  proto.set_type(onnx::AttributeProto::INT);
  proto.set_i(-3);
  absl::StatusOr<gg::Attribute> attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(attribute->name, "axis");
  EXPECT_EQ(std::get<int64_t>(attribute->value), -3);

  proto.Clear();
  proto.set_name("alpha");
  proto.set_type(onnx::AttributeProto::FLOAT);
  proto.set_f(0.25f);
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(std::get<float>(attribute->value), 0.25f);

  proto.Clear();
  proto.set_name("mode");
  proto.set_type(onnx::AttributeProto::STRING);
  proto.set_s("constant");
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(std::get<std::string>(attribute->value), "constant");

  proto.Clear();
  proto.set_name("perm");
  proto.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : {2, 0, 1}) proto.add_ints(v);
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(std::get<std::vector<int64_t>>(attribute->value), (std::vector<int64_t>{2, 0, 1}));

  proto.Clear();
  proto.set_name("scales");
  proto.set_type(onnx::AttributeProto::FLOATS);
  for (float v : {1.5f, 2.0f}) proto.add_floats(v);
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(std::get<std::vector<float>>(attribute->value), (std::vector<float>{1.5f, 2.0f}));

  proto.Clear();
  proto.set_name("stopwords");
  proto.set_type(onnx::AttributeProto::STRINGS);
  proto.add_strings("a");
  proto.add_strings("");
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(std::get<std::vector<std::string>>(attribute->value),
            (std::vector<std::string>{"a", ""}));

  proto.Clear();  // an empty list keeps its type
  proto.set_name("pads");
  proto.set_type(onnx::AttributeProto::INTS);
  attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_TRUE(std::get<std::vector<int64_t>>(attribute->value).empty());
}

TEST(FromAttributeProtoTest, ConvertsTensors) {
  onnx::AttributeProto proto;
  proto.set_name("value");
  proto.set_type(onnx::AttributeProto::TENSOR);
  *proto.mutable_t() =
      gg::internal::ToTensorProto(Tensor::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}));
  absl::StatusOr<gg::Attribute> attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  EXPECT_EQ(attribute->name, "value");
  EXPECT_EQ(std::get<Tensor>(attribute->value),
            Tensor::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}));

  // A tensor FromTensorProto rejects: its status, naming the attribute.
  proto.mutable_t()->add_dims(5);
  attribute = FromAttributeProto(proto);
  ASSERT_FALSE(attribute.ok());
  EXPECT_EQ(attribute.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(attribute.status().message(), "'value'")) << attribute.status();
}

TEST(FromAttributeProtoTest, ConvertsTypes) {
  onnx::AttributeProto proto;
  proto.set_name("type");
  proto.set_type(onnx::AttributeProto::TYPE_PROTO);
  proto.mutable_tp()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(onnx::TensorProto::FLOAT);
  absl::StatusOr<gg::Attribute> attribute = FromAttributeProto(proto);
  ASSERT_TRUE(attribute.ok()) << attribute.status();
  ASSERT_TRUE(std::holds_alternative<gg::VarType>(attribute->value));
  EXPECT_EQ(std::get<gg::VarType>(attribute->value).ToString(), "seq(tensor(float))");
  proto.mutable_tp()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(onnx::TensorProto::COMPLEX64);
  EXPECT_FALSE(FromAttributeProto(proto).ok());
}

TEST(FromAttributeProtoTest, UnsupportedTypesAreUnimplementedAndNamed) {
  for (const onnx::AttributeProto::AttributeType type :
       {onnx::AttributeProto::GRAPH, onnx::AttributeProto::GRAPHS,
        onnx::AttributeProto::SPARSE_TENSOR, onnx::AttributeProto::SPARSE_TENSORS,
        onnx::AttributeProto::TENSORS, onnx::AttributeProto::TYPE_PROTOS}) {
    SCOPED_TRACE(onnx::AttributeProto::AttributeType_Name(type));
    onnx::AttributeProto proto;
    proto.set_name("then_branch");
    proto.set_type(type);
    const absl::StatusOr<gg::Attribute> attribute = FromAttributeProto(proto);
    ASSERT_FALSE(attribute.ok());
    EXPECT_EQ(attribute.status().code(), absl::StatusCode::kUnimplemented);
    EXPECT_TRUE(absl::StrContains(attribute.status().message(), "'then_branch'"));
    EXPECT_TRUE(absl::StrContains(attribute.status().message(),
                                  onnx::AttributeProto::AttributeType_Name(type)));
  }
  onnx::AttributeProto untyped;
  untyped.set_name("axis");
  untyped.set_i(1);
  EXPECT_EQ(FromAttributeProto(untyped).status().code(), absl::StatusCode::kInvalidArgument);

  onnx::AttributeProto reference;
  reference.set_name("alpha");
  reference.set_type(onnx::AttributeProto::FLOAT);
  reference.set_ref_attr_name("outer_alpha");
  const absl::Status status = FromAttributeProto(reference).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(absl::StrContains(status.message(), "'alpha'"));
}

}  // namespace
