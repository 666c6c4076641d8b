#include "graphgc/opset/build/subgraph_builder.h"

#include <cstdint>
#include <exception>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

using ArgumentTypes = std::vector<OutputType>;

// `cause`, its code kept, with a message that names the op and the body.
absl::Status InBody(absl::string_view op_type, absl::string_view attribute,
                    const absl::Status& cause) {
  return absl::Status(cause.code(),
                      absl::StrCat(op_type, ": body '", attribute, "': ", cause.message()));
}

const AttributeValue* FindAttribute(absl::Span<const Attribute> attributes,
                                    absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name) return &attribute.value;
  }
  return nullptr;
}

ArgumentTypes LoopArguments(absl::Span<const OperandInfo> operands) {
  ArgumentTypes types(2);  // the iteration number and the condition: scalars
  types[0].dtype = DataType::kInt64;
  types[0].shape.emplace();
  types[1].dtype = DataType::kBool;
  types[1].shape.emplace();
  for (size_t i = 2; i < operands.size(); ++i) {
    std::optional<Shape> shape;
    if (operands[i].shape.has_value()) shape = Shape(operands[i].shape->size(), -1);
    types.push_back(AnyOutput(operands[i].dtype, std::move(shape), operands[i].non_tensor));
  }
  return types;
}

// SequenceMap: one element of each sequence input, and each other input as it is.
absl::StatusOr<ArgumentTypes> SequenceMapArguments(absl::Span<const OperandInfo> operands) {
  ArgumentTypes types;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::optional<VarType>& type = operands[i].non_tensor;
    if (type.has_value() && type->kind() == VarType::Kind::kSequence) {
      types.push_back(OutputTypeOf(type->element()));
    } else if (i == 0) {
      return absl::InvalidArgumentError("input 0 (input_sequence) is not a sequence");
    } else {
      types.push_back(AnyOutput(operands[i].dtype, operands[i].shape, operands[i].non_tensor));
    }
  }
  return types;
}

absl::StatusOr<ArgumentTypes> ScanArguments(absl::Span<const OperandInfo> operands,
                                            absl::Span<const Attribute> attributes) {
  const AttributeValue* count = FindAttribute(attributes, "num_scan_inputs");
  if (count == nullptr || !std::holds_alternative<int64_t>(*count)) {
    return absl::InvalidArgumentError("missing required attribute 'num_scan_inputs' (INT)");
  }
  const int64_t scan_inputs = std::get<int64_t>(*count);
  if (scan_inputs < 1 || scan_inputs > static_cast<int64_t>(operands.size())) {
    return absl::InvalidArgumentError(absl::StrCat("num_scan_inputs is ", scan_inputs, " but ",
                                                   operands.size(), " inputs are given"));
  }
  const size_t states = operands.size() - static_cast<size_t>(scan_inputs);
  std::vector<int64_t> axes(static_cast<size_t>(scan_inputs), 0);
  if (const AttributeValue* given = FindAttribute(attributes, "scan_input_axes");
      given != nullptr && std::holds_alternative<std::vector<int64_t>>(*given)) {
    axes = std::get<std::vector<int64_t>>(*given);
    if (axes.size() != static_cast<size_t>(scan_inputs)) {
      return absl::InvalidArgumentError(absl::StrCat("scan_input_axes has ", axes.size(),
                                                     " entries for ", scan_inputs, " scan inputs"));
    }
  }
  ArgumentTypes types;
  for (size_t i = 0; i < operands.size(); ++i) {
    OutputType type = TensorOutput(operands[i].dtype, operands[i].shape);
    if (i >= states && type.shape.has_value()) {
      const int64_t rank = static_cast<int64_t>(type.shape->size());
      int64_t axis = axes[i - states];
      if (axis < -rank || axis >= rank) {
        return absl::InvalidArgumentError(
            absl::StrCat("scan input ", i - states, " has rank ", rank, ", no axis ", axis));
      }
      if (axis < 0) axis += rank;
      type.shape->erase(type.shape->begin() + axis);
    }
    types.push_back(std::move(type));
  }
  return types;
}

// Scan-8: input 0 is sequence_lens (may be omitted), then the states [batch, ...] and the scan
// inputs [batch, sequence, ...]; the body sees one batch entry: the states without their batch
// axis, the scan inputs without their batch and sequence axes.
absl::StatusOr<ArgumentTypes> Scan8Arguments(absl::Span<const OperandInfo> operands,
                                             absl::Span<const Attribute> attributes) {
  const AttributeValue* count = FindAttribute(attributes, "num_scan_inputs");
  if (count == nullptr || !std::holds_alternative<int64_t>(*count)) {
    return absl::InvalidArgumentError("missing required attribute 'num_scan_inputs' (INT)");
  }
  const int64_t scan_inputs = std::get<int64_t>(*count);
  if (operands.empty() || scan_inputs < 1 ||
      scan_inputs > static_cast<int64_t>(operands.size()) - 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_scan_inputs is ", scan_inputs, " but ",
                                                   operands.size(), " inputs are given"));
  }
  const size_t first_scan = operands.size() - static_cast<size_t>(scan_inputs);
  ArgumentTypes types;
  for (size_t i = 1; i < operands.size(); ++i) {
    if (!operands[i].present) {
      return absl::InvalidArgumentError(absl::StrCat("input ", i, " is omitted"));
    }
    OutputType type = TensorOutput(operands[i].dtype, operands[i].shape);
    const size_t dropped = i >= first_scan ? 2 : 1;  // batch (and sequence) axes
    if (type.shape.has_value()) {
      if (type.shape->size() < dropped) {
        return absl::InvalidArgumentError(
            absl::StrCat("input ", i, " has rank ", type.shape->size(), ", less than its batch",
                         dropped == 2 ? " and sequence axes" : " axis"));
      }
      type.shape->erase(type.shape->begin(), type.shape->begin() + static_cast<int64_t>(dropped));
    }
    types.push_back(std::move(type));
  }
  return types;
}

absl::StatusOr<ArgumentTypes> ArgumentTypesOf(absl::string_view op_type, int since_version,
                                              absl::string_view attribute,
                                              absl::Span<const OperandInfo> operands,
                                              absl::Span<const Attribute> attributes) {
  if (op_type == "If" && (attribute == "then_branch" || attribute == "else_branch")) {
    return ArgumentTypes{};
  }
  if (op_type == "Scan" && since_version < 9 && attribute == "body") {
    return Scan8Arguments(operands, attributes);
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (op_type != "Loop" || i >= 2) {
      if (!operands[i].present) {
        return absl::InvalidArgumentError(absl::StrCat("input ", i, " is omitted"));
      }
    }
  }
  if (op_type == "Loop" && attribute == "body") return LoopArguments(operands);
  if (op_type == "Scan" && attribute == "body") return ScanArguments(operands, attributes);
  if (op_type == "SequenceMap" && attribute == "body") return SequenceMapArguments(operands);
  return absl::UnimplementedError(
      "graphgc builds the graph attributes of ai.onnx If, Loop, Scan and SequenceMap only");
}

// Closes the subgraph on every way out, so that the nodes made after it land in the enclosing
// graph again.
class OpenSubgraph {
 public:
  explicit OpenSubgraph(Arena& arena) : arena_(arena), id_(arena.begin_subgraph()) {}
  ~OpenSubgraph() {
    if (!closed_) arena_.end_subgraph(id_, {});
  }
  SubgraphId id() const { return id_; }
  void close(absl::Span<const VarId> results) {
    arena_.end_subgraph(id_, results);
    closed_ = true;
  }

 private:
  Arena& arena_;
  SubgraphId id_;
  bool closed_ = false;
};

absl::Status CheckResult(const GraphCore& core, size_t index, const Var& result) {
  const std::string which = absl::StrCat("result ", index);
  if (result.empty()) return absl::InvalidArgumentError(absl::StrCat(which, " is an empty Var"));
  if (!result.ok()) {
    const absl::Status cause = result.status();
    return absl::Status(cause.code(), absl::StrCat(which, " failed: ", cause.message()));
  }
  if (result.core() != &core) {
    return absl::InvalidArgumentError(absl::StrCat(which, " belongs to another Graph"));
  }
  if (!core.visible_here(result.id())) {
    return absl::InvalidArgumentError(
        absl::StrCat(which, " was made inside another body, which it cannot leave"));
  }
  return absl::OkStatus();
}

absl::StatusOr<BuiltBody> BuildBody(GraphCore& core, const std::string& attribute,
                                    const Subgraph& builder, ArgumentTypes argument_types) {
  const GraphCore::BusyScope busy(core);  // the builder is user code: it may destroy the Graph
  OpenSubgraph open(core.arena());
  std::vector<Var> arguments;
  for (const OutputType& type : argument_types) {
    const VarId argument = core.add_subgraph_argument(open.id(), type.dtype, type.shape);
    if (type.non_tensor.has_value()) core.arena().set_var_type(argument, *type.non_tensor);
    arguments.emplace_back(&core, argument);
  }
  std::vector<Var> results;
  try {
    results = builder.build(arguments);
  } catch (const std::exception& thrown) {
    return absl::InvalidArgumentError(absl::StrCat("the body builder threw: ", thrown.what()));
  } catch (...) {
    return absl::InvalidArgumentError("the body builder threw");
  }
  if (!core.alive()) return absl::FailedPreconditionError("the Graph was destroyed by its body");
  if (results.empty()) return absl::InvalidArgumentError("the builder returned no results");
  std::vector<VarId> ids;
  BodyTypes types{attribute, std::move(argument_types), {}};
  for (size_t i = 0; i < results.size(); ++i) {
    GRAPHGC_RETURN_IF_ERROR(CheckResult(core, i, results[i]));
    ids.push_back(results[i].id());
    types.results.push_back(OutputTypeOf(core.arena().var_type(results[i].id())));
  }
  open.close(ids);
  return BuiltBody{std::move(types), open.id(), std::move(results)};
}

}  // namespace

bool HasSubgraphAttributes(absl::Span<const Attribute> attributes) {
  for (const Attribute& attribute : attributes) {
    if (std::holds_alternative<Subgraph>(attribute.value)) return true;
  }
  return false;
}

absl::StatusOr<BuiltBodies> BuildBodies(GraphCore& core, absl::string_view op_type,
                                        int since_version, absl::Span<const OperandInfo> operands,
                                        std::vector<Attribute>& attributes) {
  BuiltBodies bodies;
  for (Attribute& attribute : attributes) {
    const Subgraph* builder = std::get_if<Subgraph>(&attribute.value);
    if (builder == nullptr) continue;
    if (builder->empty()) {
      return InBody(op_type, attribute.name,
                    absl::InvalidArgumentError("the Subgraph is empty (no builder function)"));
    }
    absl::StatusOr<ArgumentTypes> arguments =
        ArgumentTypesOf(op_type, since_version, attribute.name, operands, attributes);
    if (!arguments.ok()) {
      return absl::Status(arguments.status().code(),
                          absl::StrCat(op_type, ": ", arguments.status().message()));
    }
    absl::StatusOr<BuiltBody> body =
        BuildBody(core, attribute.name, *builder, *std::move(arguments));
    if (!body.ok()) return InBody(op_type, attribute.name, body.status());
    attribute.value = body->subgraph;
    bodies.push_back(*std::move(body));
  }
  return bodies;
}

int OutputCountFromBodies(absl::string_view op_type, const BuiltBodies& bodies) {
  if (bodies.empty()) return -1;
  const int results = static_cast<int>(bodies.front().results.size());
  if (op_type == "Loop") return results - 1;
  return results;
}

void RefineLoopOutputs(absl::Span<const OperandInfo> operands, const BuiltBodies& bodies,
                       OutputTypes& types) {
  if (bodies.size() != 1) return;
  const std::vector<OutputType>& results = bodies.front().types.results;  // cond, carried...
  for (size_t i = 0; i + 2 < operands.size() && i < types.size() && i + 1 < results.size(); ++i) {
    const std::optional<Shape>& initial = operands[i + 2].shape;
    const std::optional<Shape>& last = results[i + 1].shape;
    if (types[i].shape.has_value() || !initial.has_value() || !last.has_value() ||
        initial->size() != last->size()) {
      continue;
    }
    Shape shape(initial->size(), -1);
    for (size_t d = 0; d < shape.size(); ++d) {
      if ((*initial)[d] == (*last)[d]) shape[d] = (*initial)[d];
    }
    types[i].shape = std::move(shape);
  }
}

namespace {

VarType VarTypeOf(const OutputType& type) {
  if (type.non_tensor.has_value()) return *type.non_tensor;
  if (!type.shape.has_value()) return VarType::Tensor(type.dtype);
  return VarType::Tensor(type.dtype, std::vector<int64_t>(type.shape->begin(), type.shape->end()));
}

}  // namespace

void RefineIfOutputs(const BuiltBodies& bodies, OutputTypes& types) {
  if (bodies.size() != 2) return;
  const std::vector<OutputType>& then_results = bodies[0].types.results;
  const std::vector<OutputType>& else_results = bodies[1].types.results;
  for (size_t i = 0; i < types.size() && i < then_results.size() && i < else_results.size(); ++i) {
    const VarType inferred = VarTypeOf(types[i]);
    const VarType either = CommonType(VarTypeOf(then_results[i]), VarTypeOf(else_results[i]));
    // ONNX 1.12 merges sequence branches by taking one of them; the union is never narrower.
    if (either.kind() == inferred.kind() && either != inferred) types[i] = OutputTypeOf(either);
  }
}

OutputValues PropagateIf(absl::Span<const OperandInfo> operands, absl::Span<const OutputType> types,
                         const BuiltBodies& bodies) {
  OutputValues values(types.size());
  if (operands.empty() || !operands[0].value.has_value() || operands[0].value->size() != 1 ||
      operands[0].value->dtype() != DataType::kBool) {
    return values;
  }
  const std::string chosen = operands[0].value->data<bool>()[0] ? "then_branch" : "else_branch";
  for (const BuiltBody& body : bodies) {
    if (body.types.attribute != chosen || body.results.size() != types.size()) continue;
    for (size_t i = 0; i < types.size(); ++i) {
      std::optional<Value> value = body.results[i].any_value();
      OutputType type = types[i];
      if (value.has_value() && CheckOutputValue(i, *value, type).ok()) values[i] = value;
    }
  }
  return values;
}

}  // namespace graphgc::internal
