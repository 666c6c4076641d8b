#include "graphgc/opset/build/generated_support.h"

namespace graphgc::internal {

std::vector<Var> JoinInputs(std::initializer_list<Var> fixed, absl::Span<const Var> variadic) {
  std::vector<Var> inputs;
  inputs.reserve(fixed.size() + variadic.size());
  inputs.insert(inputs.end(), fixed.begin(), fixed.end());
  inputs.insert(inputs.end(), variadic.begin(), variadic.end());
  return inputs;
}

}  // namespace graphgc::internal
