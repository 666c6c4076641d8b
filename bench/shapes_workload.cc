#include "shapes_workload.h"

#include <optional>
#include <vector>

#include "graphgc/opset/generated/onnx_ops.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::bench {

void ShapesWorkload::Prepare(Graph& graph) {
  reshaped_ = graph.argument("x", DataType::kFloat, kDims);
  head_index_ = graph.constant(Tensor::from_vector<int64_t>({0}));
  tail_index_ = graph.constant(Tensor::from_vector<int64_t>({1, 2}));
}

// Every intermediate is a temporary: its handle goes at the end of the statement.
void ShapesWorkload::Step() {
  const Var shape = op::Shape(reshaped_);
  reshaped_ = op::Reshape(
      reshaped_,
      op::Concat({op::Gather(shape, tail_index_), op::Gather(shape, head_index_)}, {.axis = 0}));
}

bool ShapesWorkload::HasExpectedOutput(int64_t steps) const {
  const std::optional<std::vector<int64_t>> shape = reshaped_.shape();
  if (!reshaped_.ok() || !shape.has_value() || shape->size() != kDims.size()) return false;
  for (size_t i = 0; i < kDims.size(); ++i) {
    if ((*shape)[i] != kDims[(i + static_cast<size_t>(steps)) % kDims.size()]) return false;
  }
  return true;
}

}  // namespace graphgc::bench
