#include "graphgc/opset/generated_support.h"

#include <utility>

namespace graphgc::internal {

std::vector<Var> JoinInputs(std::initializer_list<Var> fixed, absl::Span<const Var> variadic) {
  std::vector<Var> inputs;
  inputs.reserve(fixed.size() + variadic.size());
  inputs.insert(inputs.end(), fixed.begin(), fixed.end());
  inputs.insert(inputs.end(), variadic.begin(), variadic.end());
  return inputs;
}

Var SingleOutput(std::vector<Var>& outputs) {
  if (outputs.empty()) return Var();
  return std::move(outputs.front());
}

void PadOutputs(std::vector<Var>& outputs, size_t count) {
  if (outputs.size() < count) outputs.resize(count);
}

}  // namespace graphgc::internal
