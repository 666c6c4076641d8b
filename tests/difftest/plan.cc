#include "plan.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tensor_text.h"

namespace difftest {

using graphgc::Var;

std::string OutputName(int step, int output) { return absl::StrCat("out_", step, "_", output); }

void BuildStep(const Plan& plan, const Step& step, BuiltPlan& built) {
  std::vector<Var> inputs;
  for (const std::optional<Ref>& ref : step.inputs) {
    if (!ref.has_value()) {
      inputs.emplace_back();
    } else if (ref->is_leaf) {
      inputs.push_back(built.leaves[static_cast<size_t>(ref->index)]);
    } else {
      inputs.push_back(
          built.steps[static_cast<size_t>(ref->index)][static_cast<size_t>(ref->output)]);
    }
  }
  built.steps.push_back(
      graphgc::make_node(step.op_type, inputs, step.attributes, {.num_outputs = step.num_outputs}));
}

BuiltPlan Build(graphgc::Graph& graph, const Plan& plan, bool leaves_as_arguments) {
  BuiltPlan built;
  for (size_t i = 0; i < plan.leaves.size(); ++i) {
    const Leaf& leaf = plan.leaves[i];
    if (leaves_as_arguments && !leaf.constant_in_both) {
      built.leaves.push_back(
          graph.argument(absl::StrCat("in_", i), leaf.value.dtype(), leaf.value.shape()));
    } else {
      built.leaves.push_back(graph.constant(leaf.value));
    }
  }
  for (const Step& step : plan.steps) BuildStep(plan, step, built);
  return built;
}

namespace {

std::string AttributeText(const graphgc::Attribute& attribute) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float>) {
          return absl::StrCat(attribute.name, "=", v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return absl::StrCat(attribute.name, "=\"", v, "\"");
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                             std::is_same_v<T, std::vector<float>>) {
          return absl::StrCat(attribute.name, "=[", absl::StrJoin(v, ","), "]");
        } else if constexpr (std::is_same_v<T, graphgc::Tensor>) {
          return absl::StrCat(attribute.name, "=", TensorText(v));
        } else {
          return absl::StrCat(attribute.name, "=?");
        }
      },
      attribute.value);
}

std::string RefText(const std::optional<Ref>& ref) {
  if (!ref.has_value()) return "(omitted)";
  if (ref->is_leaf) return absl::StrCat("in_", ref->index);
  return OutputName(ref->index, ref->output);
}

}  // namespace

std::string Describe(const Plan& plan) {
  std::string text;
  for (size_t i = 0; i < plan.leaves.size(); ++i) {
    absl::StrAppend(&text, "  in_", i, plan.leaves[i].constant_in_both ? " (constant)" : "", " = ",
                    TensorText(plan.leaves[i].value), "\n");
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    std::vector<std::string> outputs, inputs, attributes;
    for (int o = 0; o < step.num_outputs; ++o)
      outputs.push_back(OutputName(static_cast<int>(s), o));
    for (const auto& ref : step.inputs) inputs.push_back(RefText(ref));
    for (const auto& a : step.attributes) attributes.push_back(AttributeText(a));
    absl::StrAppend(
        &text, "  ", absl::StrJoin(outputs, ", "), " = ", step.op_type, "(",
        absl::StrJoin(inputs, ", "), ")",
        attributes.empty() ? "" : absl::StrCat(" {", absl::StrJoin(attributes, ", "), "}"), "\n");
  }
  return text;
}

}  // namespace difftest
