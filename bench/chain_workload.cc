#include "chain_workload.h"

#include <optional>

#include "graphgc/opset/build/ops.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::bench {
namespace {

bool IsSeedShapedZeros(const Tensor& value) {
  if (value.dtype() != DataType::kDouble || value.rank() != 1 ||
      value.shape()[0] != kSeedElements) {
    return false;
  }
  for (double element : value.data<double>()) {
    if (element != 0.0) return false;
  }
  return true;
}

}  // namespace

void ChainWorkload::Prepare(Graph& graph) {
  a_ = graph.constant(Tensor::zeros(DataType::kDouble, {kSeedElements}));
}

void ChainWorkload::Step() { a_ = op::Mul(a_, a_); }

// Any value but zeros means a kernel or a collection went wrong (a freed value that was still
// needed shows up here as a missing or garbage value).
bool ChainWorkload::HasExpectedOutput(int64_t /*steps*/) const {
  if (!a_.ok()) return false;
  const std::optional<Tensor> value = a_.value();
  return value.has_value() && IsSeedShapedZeros(*value);
}

}  // namespace graphgc::bench
