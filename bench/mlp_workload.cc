#include "mlp_workload.h"

#include <cmath>
#include <optional>
#include <vector>

#include "graphgc/opset/build/ops.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::bench {
namespace {

Tensor Filled(float value, std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return Tensor::from_vector(std::vector<float>(static_cast<size_t>(count), value), shape);
}

}  // namespace

void MlpWorkload::Prepare(Graph& graph) {
  // 1/256 is a power of two, so each MatMul sums 256 exact terms to the input value itself.
  weights_ = graph.constant(Filled(1.0f / static_cast<float>(kWidth), {kWidth, kWidth}));
  bias_ = graph.constant(Filled(0.5f, {kWidth}));
  activations_ = graph.constant(Filled(1.0f, {kBatch, kWidth}));
}

// The temporaries die at the end of the statement; the assignment drops the layer's input.
void MlpWorkload::Step() {
  activations_ = op::Relu(op::Add(op::MatMul(activations_, weights_), bias_));
}

bool MlpWorkload::HasExpectedOutput(int64_t steps) const {
  const std::optional<Tensor> value = activations_.value();
  if (!value.has_value() || value->dtype() != DataType::kFloat ||
      value->size() != kBatch * kWidth) {
    return false;
  }
  const double expected = 1.0 + 0.5 * static_cast<double>(steps);
  for (float element : value->data<float>()) {
    if (std::abs(static_cast<double>(element) - expected) > 1e-4 * expected) return false;
  }
  return true;
}

}  // namespace graphgc::bench
