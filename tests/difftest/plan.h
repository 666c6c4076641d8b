// A random graph of the differential test, as data: leaf tensors and op steps that refer to them
// and to earlier steps' outputs. The same plan is built twice — leaves as graph arguments (the
// model ONNX Runtime runs) and leaves as constants (the values graphgc propagates) — and printed
// when it finds a mismatch.
#ifndef GRAPHGC_TESTS_DIFFTEST_PLAN_H_
#define GRAPHGC_TESTS_DIFFTEST_PLAN_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace difftest {

struct Leaf {
  graphgc::Tensor value;
  // Inputs inference needs as values (a Reshape's shape, TopK's k): constants in both builds.
  bool constant_in_both = false;
};

struct Ref {
  bool is_leaf = true;
  int index = 0;          // into Plan::leaves or Plan::steps (or a body's arguments)
  int output = 0;         // a step's output
  bool argument = false;  // inside a body: its argument `index`
};

struct Body;

struct Step {
  std::string op_type;
  std::vector<std::optional<Ref>> inputs;  // nullopt: an omitted optional input
  std::vector<graphgc::Attribute> attributes;
  int num_outputs = 1;
  // Loop's or Scan's body, given to the node as the graph attribute "body".
  std::shared_ptr<const Body> body;
};

struct Plan {
  std::vector<Leaf> leaves;
  std::vector<Step> steps;
};

// A body as a plan of its own: its leaves are constants made inside the body, its refs with
// `argument` set name the body's arguments, and it returns `results`. Self-contained (no refs to
// the enclosing plan), so that a step with a body can be isolated like any other.
struct Body {
  Plan plan;
  std::vector<Ref> results;
};

// The vars of a built plan: leaves[i], steps[s][o], and a body's arguments.
struct BuiltPlan {
  graphgc::Graph* graph = nullptr;  // where a body's constants are made
  std::vector<graphgc::Var> leaves;
  std::vector<std::vector<graphgc::Var>> steps;
  std::vector<graphgc::Var> arguments;
};

// Builds the leaves (as arguments "in_<i>" or as constants) and every step, at the newest opset
// (make_node's default).
BuiltPlan Build(graphgc::Graph& graph, const Plan& plan, bool leaves_as_arguments);
// Adds one step to an existing build; its outputs are appended to built.steps.
void BuildStep(const Plan& plan, const Step& step, BuiltPlan& built);

// The graph as text: leaves with their types and values, steps with their attributes.
std::string Describe(const Plan& plan);

// The name of step s's output o in the exported model.
std::string OutputName(int step, int output);

}  // namespace difftest

#endif  // GRAPHGC_TESTS_DIFFTEST_PLAN_H_
