#include "graphgc/export/onnx/reshape_target.h"

#include <cstdint>
#include <vector>

#include "graphgc/ir/arena.h"
#include "graphgc/ir/graph_core.h"

namespace graphgc::internal {

std::optional<Tensor> ReshapeTargetFromDims(const Var& data, const Var& shape, bool allowzero) {
  if (allowzero || !data.ok() || !shape.ok() || data.core() != shape.core()) return std::nullopt;
  if (shape.dtype() != DataType::kInt64 || shape.value().has_value()) return std::nullopt;
  const Arena& arena = shape.core()->arena();
  const std::optional<Shape> elements = arena.var_shape_data(shape.id());
  const std::vector<StringId>* element_names = arena.element_names(shape.id());
  const std::vector<StringId>* dim_names = arena.dim_names(data.id());
  if (!elements.has_value() || element_names == nullptr || dim_names == nullptr ||
      element_names->size() != elements->size()) {
    return std::nullopt;
  }
  std::vector<int64_t> target;
  for (size_t i = 0; i < elements->size(); ++i) {
    if ((*elements)[i] != Arena::kUnknownElement) {
      target.push_back((*elements)[i]);  // a known 0 copies the data's dim, as it did
      continue;
    }
    const StringId name = (*element_names)[i];
    if (!name.valid() || i >= dim_names->size() || (*dim_names)[i] != name) return std::nullopt;
    target.push_back(0);
  }
  return Tensor::from_vector<int64_t>(target, {static_cast<int64_t>(target.size())});
}

}  // namespace graphgc::internal
