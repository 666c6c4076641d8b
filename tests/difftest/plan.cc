#include "plan.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tensor_text.h"

namespace difftest {

using graphgc::Var;

std::string OutputName(int step, int output) { return absl::StrCat("out_", step, "_", output); }

namespace {

Var Resolve(const BuiltPlan& built, const Ref& ref) {
  if (ref.argument) return built.arguments[static_cast<size_t>(ref.index)];
  if (ref.is_leaf) return built.leaves[static_cast<size_t>(ref.index)];
  return built.steps[static_cast<size_t>(ref.index)][static_cast<size_t>(ref.output)];
}

// The body as graphgc builds it: called once, while the node is made, with its arguments.
graphgc::Subgraph BodyBuilder(graphgc::Graph* graph, std::shared_ptr<const Body> body) {
  return [graph, body](absl::Span<const Var> arguments) {
    BuiltPlan inner;
    inner.graph = graph;
    inner.arguments.assign(arguments.begin(), arguments.end());
    for (const Leaf& leaf : body->plan.leaves) inner.leaves.push_back(graph->constant(leaf.value));
    for (const Step& step : body->plan.steps) BuildStep(body->plan, step, inner);
    std::vector<Var> results;
    for (const Ref& ref : body->results) results.push_back(Resolve(inner, ref));
    return results;
  };
}

}  // namespace

void BuildStep(const Plan& plan, const Step& step, BuiltPlan& built) {
  std::vector<Var> inputs;
  for (const std::optional<Ref>& ref : step.inputs) {
    inputs.push_back(ref.has_value() ? Resolve(built, *ref) : Var());
  }
  std::vector<graphgc::Attribute> attributes = step.attributes;
  if (step.body != nullptr) attributes.push_back({"body", BodyBuilder(built.graph, step.body)});
  built.steps.push_back(
      graphgc::make_node(step.op_type, inputs, attributes, {.num_outputs = step.num_outputs}));
}

BuiltPlan Build(graphgc::Graph& graph, const Plan& plan, bool leaves_as_arguments) {
  BuiltPlan built;
  built.graph = &graph;
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

// How a plan's refs read: the top level's "in_3" and "out_2_0"; a body's "arg_1", "c_0" (its
// constants) and "b_2_0" (its steps' outputs).
struct Names {
  const char* leaf;
  const char* step;
};
constexpr Names kTopNames = {"in_", "out_"};
constexpr Names kBodyNames = {"c_", "b_"};

std::string RefText(const std::optional<Ref>& ref, const Names& names) {
  if (!ref.has_value()) return "(omitted)";
  if (ref->argument) return absl::StrCat("arg_", ref->index);
  if (ref->is_leaf) return absl::StrCat(names.leaf, ref->index);
  return absl::StrCat(names.step, ref->index, "_", ref->output);
}

void Describe(const Plan& plan, const Names& names, const std::string& indent, std::string& text) {
  for (size_t i = 0; i < plan.leaves.size(); ++i) {
    absl::StrAppend(&text, indent, names.leaf, i,
                    plan.leaves[i].constant_in_both ? " (constant)" : "", " = ",
                    TensorText(plan.leaves[i].value), "\n");
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Step& step = plan.steps[s];
    std::vector<std::string> outputs, inputs, attributes;
    for (int o = 0; o < step.num_outputs; ++o)
      outputs.push_back(absl::StrCat(names.step, s, "_", o));
    for (const auto& ref : step.inputs) inputs.push_back(RefText(ref, names));
    for (const auto& a : step.attributes) attributes.push_back(AttributeText(a));
    absl::StrAppend(
        &text, indent, absl::StrJoin(outputs, ", "), " = ", step.op_type, "(",
        absl::StrJoin(inputs, ", "), ")",
        attributes.empty() ? "" : absl::StrCat(" {", absl::StrJoin(attributes, ", "), "}"), "\n");
    if (step.body == nullptr) continue;
    const std::string inner = indent + "    ";
    absl::StrAppend(&text, indent, "  body:\n");
    Describe(step.body->plan, kBodyNames, inner, text);
    std::vector<std::string> results;
    for (const Ref& ref : step.body->results) results.push_back(RefText(ref, kBodyNames));
    absl::StrAppend(&text, inner, "return ", absl::StrJoin(results, ", "), "\n");
  }
}

}  // namespace

std::string Describe(const Plan& plan) {
  std::string text;
  Describe(plan, kTopNames, "  ", text);
  return text;
}

}  // namespace difftest
