#include "fanout_workload.h"

#include <optional>

#include "graphgc/opset/build/ops.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::bench {

void FanoutWorkload::Prepare(Graph& graph) {
  shared_ = graph.constant(Tensor::zeros(DataType::kFloat, {kElements}));
  one_ = graph.constant(Tensor::scalar<float>(1.0f));
}

// Assigning drops the previous consumer's last handle: it was used, now it is garbage.
void FanoutWorkload::Step() { consumer_ = op::Add(shared_, one_); }

bool FanoutWorkload::HasExpectedOutput(int64_t /*steps*/) const {
  const std::optional<Tensor> value = consumer_.value();
  if (!value.has_value() || value->dtype() != DataType::kFloat || value->size() != kElements) {
    return false;
  }
  for (float element : value->data<float>()) {
    if (element != 1.0f) return false;
  }
  return true;
}

}  // namespace graphgc::bench
