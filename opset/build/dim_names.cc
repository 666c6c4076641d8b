#include "graphgc/opset/build/dim_names.h"

#include <algorithm>
#include <string>
#include <vector>

#include "graphgc/ir/arena.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

std::vector<std::string> Names(const Arena& arena, const std::vector<StringId>* ids) {
  return ids == nullptr ? std::vector<std::string>() : arena.names(*ids);
}

// `names` where `known` (the output's dims or elements) leaves the place unknown, interned;
// empty when none is left.
std::vector<StringId> Interned(Arena& arena, std::vector<std::string> names,
                               const std::optional<Shape>& known, int64_t unknown) {
  if (names.empty() || !known.has_value() || known->size() != names.size()) return {};
  bool any = false;
  for (size_t d = 0; d < names.size(); ++d) {
    if ((*known)[d] != unknown) names[d].clear();
    any = any || !names[d].empty();
  }
  return any ? arena.intern_names(names) : std::vector<StringId>();
}

bool Contains(const std::optional<Shape>& values, int64_t value) {
  return values.has_value() && std::find(values->begin(), values->end(), value) != values->end();
}

// Whether an output has a dim or a shape-data element a name could stand for.
bool AnyUnknown(absl::Span<const OutputType> types) {
  return std::any_of(types.begin(), types.end(), [](const OutputType& type) {
    return Contains(type.shape, -1) || Contains(type.shape_data, Arena::kUnknownElement);
  });
}

}  // namespace

void CarryDimNames(GraphCore& core, const OpSignature& signature, int version,
                   absl::Span<const Var* const> inputs, absl::Span<const OperandInfo> infos,
                   absl::Span<const Attribute> attributes, absl::Span<const VarId> outputs,
                   absl::Span<const OutputType> types) {
  Arena& arena = core.arena();
  if (!AnyUnknown(types)) return;
  std::vector<SymbolicNames> input_names(inputs.size());
  bool any = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !inputs[i]->ok()) continue;
    input_names[i].dims = Names(arena, arena.dim_names(inputs[i]->id()));
    input_names[i].elements = Names(arena, arena.element_names(inputs[i]->id()));
    any = any || !input_names[i].dims.empty() || !input_names[i].elements.empty();
  }
  if (!any) return;
  const onnx::OpSchema* schema = FindSchema(signature.op_type, version, signature.domain);
  if (schema == nullptr) return;  // a custom op: its inference is graphgc's own
  std::vector<SymbolicNames> output_names =
      InferSymbolicNames(*schema, infos, input_names, attributes, static_cast<int>(outputs.size()));
  for (size_t o = 0; o < outputs.size() && o < output_names.size() && o < types.size(); ++o) {
    std::vector<StringId> dims =
        Interned(arena, std::move(output_names[o].dims), types[o].shape, -1);
    if (!dims.empty()) arena.set_dim_names(outputs[o], std::move(dims));
    std::vector<StringId> elements = Interned(arena, std::move(output_names[o].elements),
                                              types[o].shape_data, Arena::kUnknownElement);
    if (!elements.empty()) arena.set_element_names(outputs[o], std::move(elements));
  }
}

}  // namespace graphgc::internal
