#include "graphgc/generated_support.h"

#include <utility>

namespace graphgc::internal {
namespace {

template <class T>
void AppendIfSet(std::vector<Attribute>& attributes, const char* name,
                 const std::optional<T>& value) {
  if (value.has_value()) attributes.push_back(Attribute{name, AttributeValue(*value)});
}

}  // namespace

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<int64_t>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<float>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<std::string>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<std::vector<int64_t>>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<std::vector<float>>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<std::vector<std::string>>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<Tensor>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<Subgraph>& value) {
  AppendIfSet(attributes, name, value);
}

void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<VarType>& value) {
  AppendIfSet(attributes, name, value);
}

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
