#include "graphgc/opset/inference/shape_data.h"

#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {

std::optional<ShapeData> ShapeDataOfOperand(const OperandInfo& operand) {
  if (!operand.value.has_value()) {
    if (!operand.shape_data.has_value()) return std::nullopt;
    return ShapeData{*operand.shape_data, false};
  }
  const Tensor& value = *operand.value;
  if (value.shape().size() > 1 || value.size() > kMaxShapeDataElements) return std::nullopt;
  if (value.dtype() == DataType::kInt64) {
    const auto elements = value.data<int64_t>();
    return ShapeData{Shape(elements.begin(), elements.end()), true};
  }
  if (value.dtype() == DataType::kInt32) {
    const auto elements = value.data<int32_t>();
    return ShapeData{Shape(elements.begin(), elements.end()), true};
  }
  return std::nullopt;
}

}  // namespace graphgc::internal
