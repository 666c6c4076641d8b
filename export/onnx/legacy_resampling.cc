#include "graphgc/export/onnx/legacy_resampling.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/opset/proto/tensor_proto.h"

namespace graphgc::internal {
namespace {

constexpr int kResizeAttributesSince = 11;

struct Scope;
// The graphs whose values a node sees, innermost last: a body sees its enclosing graphs' values.
using Scopes = std::vector<const Scope*>;

void SetStringAttribute(onnx::NodeProto& node, absl::string_view name, absl::string_view value) {
  onnx::AttributeProto* attribute = nullptr;
  for (onnx::AttributeProto& existing : *node.mutable_attribute()) {
    if (existing.name() == name) attribute = &existing;
  }
  if (attribute == nullptr) attribute = node.add_attribute();
  attribute->Clear();
  attribute->set_name(std::string(name));
  attribute->set_type(onnx::AttributeProto::STRING);
  attribute->set_s(std::string(value));
}

std::optional<std::vector<float>> Floats(const absl::StatusOr<Tensor>& tensor) {
  if (!tensor.ok() || tensor->dtype() != DataType::kFloat) return std::nullopt;
  absl::Span<const float> floats = tensor->data<float>();
  return std::vector<float>(floats.begin(), floats.end());
}

// The float constant `producer` (an initializer or a Constant node) holds; nullopt for anything
// else.
std::optional<std::vector<float>> ConstantOf(const onnx::NodeProto& producer) {
  if (!IsOnnxOp(producer, "Constant")) return std::nullopt;
  if (const onnx::AttributeProto* value = FindAttribute(producer, "value");
      value != nullptr && value->has_t()) {
    return Floats(FromTensorProto(value->t()));
  }
  if (const onnx::AttributeProto* floats = FindAttribute(producer, "value_floats")) {
    return std::vector<float>(floats->floats().begin(), floats->floats().end());
  }
  return std::nullopt;
}

// Where a name is defined in one graph: an initializer, a node output or a graph input.
struct Definition {
  const onnx::TensorProto* initializer = nullptr;
  const onnx::NodeProto* producer = nullptr;
  bool input = false;
};

// One graph and the names it defines, indexed once: a model may hold many Resize nodes. The keys
// view the graph's own strings, which pinning leaves alone (it adds attributes only).
struct Scope {
  explicit Scope(const onnx::GraphProto& graph) {
    for (const onnx::TensorProto& initializer : graph.initializer()) {
      definitions[initializer.name()].initializer = &initializer;
    }
    for (const onnx::NodeProto& node : graph.node()) {
      for (const std::string& output : node.output()) definitions[output].producer = &node;
    }
    for (const onnx::ValueInfoProto& input : graph.input()) definitions[input.name()].input = true;
  }
  absl::flat_hash_map<absl::string_view, Definition> definitions;
};

// The innermost of `scopes` that defines `name` (a body's own name hides an outer one), and how;
// nullptr when none does.
const Definition* FindDefinition(const std::string& name, const Scopes& scopes,
                                 const Scope** defining = nullptr) {
  for (auto scope = scopes.rbegin(); scope != scopes.rend(); ++scope) {
    auto it = (*scope)->definitions.find(name);
    if (it == (*scope)->definitions.end()) continue;
    if (defining != nullptr) *defining = *scope;
    return &it->second;
  }
  return nullptr;
}

// The value of `name` where it is a float constant: an initializer (that no graph input of its
// graph overrides) or a Constant node's output.
std::optional<std::vector<float>> ConstantFloats(const std::string& name, const Scopes& scopes,
                                                 const InitializerLoader& load_initializer) {
  const Definition* definition = FindDefinition(name, scopes);
  if (definition == nullptr) return std::nullopt;
  if (definition->producer != nullptr) return ConstantOf(*definition->producer);
  if (definition->input || definition->initializer == nullptr) return std::nullopt;
  return Floats(load_initializer(*definition->initializer));
}

// The dims of `name`, known only for the main graph's values: a body's own values (which may
// hide a main-graph name) have none here.
std::optional<std::vector<int64_t>> DimsOf(const std::string& name, const Scopes& scopes,
                                           const ShapeOf& shape_of) {
  const Scope* defining = nullptr;
  if (FindDefinition(name, scopes, &defining) == nullptr || defining != scopes.front()) {
    return std::nullopt;
  }
  return shape_of(name);
}

// Opset 11's nearest_mode for legacy nearest sampling by `scales`: rounding down where axes grow,
// up where they shrink; an axis of scale 1 samples whole coordinates, where both agree.
std::optional<absl::string_view> NearestModeFor(const std::vector<float>& scales) {
  bool grows = false;
  bool shrinks = false;
  for (float scale : scales) {
    grows = grows || scale > 1;
    shrinks = shrinks || scale < 1;
  }
  if (grows && shrinks) return std::nullopt;
  return shrinks ? "ceil" : "floor";
}

// How many significant bits a float has (0 for zero; more than a float holds for NaN and the
// infinities, which no exact product has).
int SignificantBits(float value) {
  if (!std::isfinite(value)) return 25;
  int exponent = 0;
  const double mantissa = std::frexp(static_cast<double>(value), &exponent);
  auto bits = static_cast<int64_t>(std::ldexp(std::fabs(mantissa), 24));
  if (bits == 0) return 0;
  int count = 24;
  while ((bits & 1) == 0) {
    bits >>= 1;
    --count;
  }
  return count;
}

// Why opset 10's output size floor(scale * size), computed in float, may differ from opset 11's,
// computed in double; nullopt when they agree (`size` -1: unknown).
std::optional<std::string> SizesMayDiffer(float scale, int64_t size) {
  if (size >= 0) {
    const float in_float = static_cast<float>(size) * scale;
    const double in_double = static_cast<double>(size) * static_cast<double>(scale);
    if (std::floor(static_cast<double>(in_float)) == std::floor(in_double)) return std::nullopt;
    return absl::StrCat("an input of size ", size);
  }
  if (SignificantBits(scale) <= 8) return std::nullopt;
  return std::string("an input of unknown size");
}

std::optional<std::string> PinNode(onnx::NodeProto& node, const Scopes& scopes,
                                   const InitializerLoader& load_initializer,
                                   const ShapeOf& shape_of) {
  // Resize-11's inputs: X, roi, scales.
  std::optional<std::vector<float>> scales;
  if (node.input_size() >= 3) scales = ConstantFloats(node.input(2), scopes, load_initializer);
  if (!scales.has_value()) {
    return absl::StrCat(NodeLabel(node),
                        " resizes by scales that are not a constant, and opset 11 computes other "
                        "output sizes (in double, not float) and nearest rounding from them");
  }
  const std::optional<std::vector<int64_t>> sizes = DimsOf(node.input(0), scopes, shape_of);
  for (size_t axis = 0; axis < scales->size(); ++axis) {
    const int64_t size = sizes.has_value() && axis < sizes->size() ? (*sizes)[axis] : int64_t{-1};
    const float scale = (*scales)[axis];
    if (std::optional<std::string> differ = SizesMayDiffer(scale, size)) {
      return absl::StrCat(NodeLabel(node), " scales axis ", axis, " by ", scale,
                          ", and opset 10 computes the output size in float where opset 11 "
                          "computes it in double: they may differ for ",
                          *differ);
    }
  }
  const onnx::AttributeProto* mode = FindAttribute(node, "mode");
  if (mode == nullptr || mode->s() == "nearest") {
    const std::optional<absl::string_view> rounding = NearestModeFor(*scales);
    if (!rounding.has_value()) {
      return absl::StrCat(NodeLabel(node),
                          " samples nearest on axes that grow and axes that shrink, which opset 10 "
                          "rounds down and up and opset 11 cannot round by one nearest_mode");
    }
    SetStringAttribute(node, "nearest_mode", *rounding);
  }
  SetStringAttribute(node, "coordinate_transformation_mode", "asymmetric");
  return std::nullopt;
}

std::optional<std::string> PinGraph(onnx::GraphProto& graph, Scopes scopes,
                                    const InitializerLoader& load_initializer,
                                    const ShapeOf& shape_of) {
  const Scope scope(graph);
  scopes.push_back(&scope);
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    if (IsOnnxOp(node, "Resize")) {
      if (std::optional<std::string> why = PinNode(node, scopes, load_initializer, shape_of)) {
        return why;
      }
    }
    for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
      if (attribute.has_g()) {
        if (std::optional<std::string> why =
                PinGraph(*attribute.mutable_g(), scopes, load_initializer, shape_of)) {
          return why;
        }
      }
      for (onnx::GraphProto& body : *attribute.mutable_graphs()) {
        if (std::optional<std::string> why = PinGraph(body, scopes, load_initializer, shape_of)) {
          return why;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool CrossesLegacyResampling(int64_t from, int target) {
  return from < kResizeAttributesSince && target >= kResizeAttributesSince;
}

std::optional<std::string> PinLegacyResampling(onnx::ModelProto& converted,
                                               const InitializerLoader& load_initializer,
                                               const ShapeOf& shape_of) {
  // A function's nodes cannot be told apart from ones written for opset 11 here.
  for (const onnx::FunctionProto& function : converted.functions()) {
    if (OnnxOpsetIn(function.opset_import()) < kResizeAttributesSince) continue;
    for (const onnx::NodeProto& node : function.node()) {
      if (IsOnnxOp(node, "Resize") || IsOnnxOp(node, "Upsample")) {
        return absl::StrCat("graphgc does not carry the meaning of ", NodeLabel(node),
                            " in model-local function '", function.name(), "' past opset 10");
      }
    }
  }
  return PinGraph(*converted.mutable_graph(), Scopes(), load_initializer, shape_of);
}

}  // namespace graphgc::internal
