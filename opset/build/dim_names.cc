#include "graphgc/opset/build/dim_names.h"

#include <algorithm>
#include <string>
#include <vector>

#include "graphgc/ir/arena.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

std::vector<std::string> Strings(const Arena& arena, const std::vector<StringId>* ids) {
  std::vector<std::string> names;
  if (ids == nullptr) return names;
  for (StringId id : *ids) names.emplace_back(id.valid() ? arena.string(id) : "");
  return names;
}

// Names where `names` has one and `known` (the var's dims or elements) leaves the place unknown;
// empty when there is none.
template <class Known>
std::vector<StringId> Interned(Arena& arena, const std::vector<std::string>& names,
                               const std::optional<Known>& known, int64_t unknown) {
  if (names.empty() || !known.has_value() || known->size() != names.size()) return {};
  std::vector<StringId> ids;
  bool any = false;
  for (size_t d = 0; d < names.size(); ++d) {
    const bool named = (*known)[d] == unknown && !names[d].empty();
    ids.push_back(named ? arena.intern(names[d]) : StringId());
    any = any || named;
  }
  return any ? ids : std::vector<StringId>();
}

// Whether an output has a dim or a shape-data element a name could stand for.
bool AnyUnknown(const Arena& arena, absl::Span<const VarId> outputs) {
  for (VarId output : outputs) {
    const std::optional<std::vector<int64_t>> shape = arena.var_type(output).shape();
    if (shape.has_value() && std::find(shape->begin(), shape->end(), -1) != shape->end()) {
      return true;
    }
    const std::optional<Shape> elements = arena.var_shape_data(output);
    if (elements.has_value() &&
        std::find(elements->begin(), elements->end(), Arena::kUnknownElement) != elements->end()) {
      return true;
    }
  }
  return false;
}

}  // namespace

void CarryDimNames(GraphCore& core, const OpSignature& signature, int version,
                   absl::Span<const Var* const> inputs, absl::Span<const OperandInfo> infos,
                   absl::Span<const Attribute> attributes, absl::Span<const VarId> outputs) {
  Arena& arena = core.arena();
  std::vector<SymbolicNames> input_names(inputs.size());
  bool any = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !inputs[i]->ok()) continue;
    input_names[i].dims = Strings(arena, arena.dim_names(inputs[i]->id()));
    input_names[i].elements = Strings(arena, arena.element_names(inputs[i]->id()));
    any = any || !input_names[i].dims.empty() || !input_names[i].elements.empty();
  }
  if (!any || !AnyUnknown(arena, outputs)) return;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      std::string(signature.op_type), version, std::string(signature.domain));
  if (schema == nullptr) return;  // a custom op: its inference is graphgc's own
  const std::vector<SymbolicNames> output_names =
      InferSymbolicNames(*schema, infos, input_names, attributes, static_cast<int>(outputs.size()));
  for (size_t o = 0; o < outputs.size() && o < output_names.size(); ++o) {
    std::vector<StringId> dims =
        Interned(arena, output_names[o].dims, arena.var_type(outputs[o]).shape(), -1);
    if (!dims.empty()) arena.set_dim_names(outputs[o], std::move(dims));
    std::vector<StringId> elements = Interned(
        arena, output_names[o].elements, arena.var_shape_data(outputs[o]), Arena::kUnknownElement);
    if (!elements.empty()) arena.set_element_names(outputs[o], std::move(elements));
  }
}

}  // namespace graphgc::internal
