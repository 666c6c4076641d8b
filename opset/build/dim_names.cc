#include "graphgc/opset/build/dim_names.h"

#include <string>
#include <vector>

#include "graphgc/ir/arena.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

// Input i's names, one per dim ("" for none); empty for an input without any.
std::vector<std::vector<std::string>> InputDimNames(const Arena& arena,
                                                    absl::Span<const Var* const> inputs,
                                                    bool& any) {
  std::vector<std::vector<std::string>> names(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr || !inputs[i]->ok()) continue;
    const std::vector<StringId>* dims = arena.dim_names(inputs[i]->id());
    if (dims == nullptr) continue;
    for (StringId name : *dims) names[i].emplace_back(name.valid() ? arena.string(name) : "");
    any = true;
  }
  return names;
}

}  // namespace

void CarryDimNames(GraphCore& core, const OpSignature& signature, int version,
                   absl::Span<const Var* const> inputs, absl::Span<const OperandInfo> infos,
                   absl::Span<const Attribute> attributes, absl::Span<const VarId> outputs) {
  Arena& arena = core.arena();
  bool any = false;
  const std::vector<std::vector<std::string>> input_names = InputDimNames(arena, inputs, any);
  if (!any) return;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      std::string(signature.op_type), version, std::string(signature.domain));
  if (schema == nullptr) return;  // a custom op: its inference is graphgc's own
  const std::vector<std::vector<std::string>> output_names =
      InferDimNames(*schema, infos, input_names, attributes, static_cast<int>(outputs.size()));
  for (size_t o = 0; o < outputs.size() && o < output_names.size(); ++o) {
    const std::vector<std::string>& names = output_names[o];
    if (names.empty()) continue;
    const std::optional<std::vector<int64_t>> shape = arena.var_type(outputs[o]).shape();
    if (!shape.has_value() || shape->size() != names.size()) continue;
    std::vector<StringId> ids;
    bool named = false;
    for (size_t d = 0; d < names.size(); ++d) {
      const bool unknown = (*shape)[d] < 0 && !names[d].empty();
      ids.push_back(unknown ? arena.intern(names[d]) : StringId());
      named = named || unknown;
    }
    if (named) arena.set_dim_names(outputs[o], std::move(ids));
  }
}

}  // namespace graphgc::internal
