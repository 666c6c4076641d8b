// The generator's control-flow recipes: Loop and Scan, whose bodies are written by a nested
// Generator from the same recipes (a body may hold a Loop or Scan itself, two levels deep).
//
// The body generator's pool starts with the body's arguments, typed as the initial values and
// scan slices are, so its steps are checked the way the top level's are. A loop-carried result
// keeps its initial value's type and shape (one of the body's values of that type, or the
// argument itself), so that every trip sees the same shapes; scan outputs are any of the body's
// values. A Loop ends by its trip count, or by a condition computed from the iteration number
// (exact in any runtime), never by a value that rounding could flip.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "generator_core.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;
using graphgc::Tensor;

namespace {

const std::vector<DataType> kCarriedTypes = {DataType::kFloat, DataType::kFloat, DataType::kDouble,
                                             DataType::kInt32, DataType::kInt64};

constexpr int kMaxDepth = 2;

Ref Argument(int index) { return Ref{false, index, 0, true}; }

// Bodies see no empty values (see RandomShape).
bool Empty(const Shape& shape) { return std::count(shape.begin(), shape.end(), 0) > 0; }

}  // namespace

void Generator::AddSteps(int count) {
  for (int attempt = 0; attempt < 60 && static_cast<int>(plan_.steps.size()) < count; ++attempt) {
    AddRandomStep();
  }
}

Ref Generator::BodyResult(const PoolEntry& like) {
  std::vector<Ref> computed;
  for (const PoolEntry& e : pool_) {
    if (e.dtype == like.dtype && e.shape == like.shape && !e.ref.argument)
      computed.push_back(e.ref);
  }
  return computed.empty() || Chance(0.1) ? like.ref : Pick(computed);
}

std::vector<Ref> Generator::ScanOutputs(int count, std::vector<int64_t>& ranks) {
  std::vector<Ref> outputs;
  for (int i = 0; i < count && !pool_.empty(); ++i) {
    const PoolEntry& e = Pick(pool_);
    outputs.push_back(e.ref);
    ranks.push_back(static_cast<int64_t>(e.shape.size()));
  }
  return outputs;
}

void Generator::Loop() {
  if (depth_ >= kMaxDepth) return;
  std::optional<Ref> trips;
  if (Chance(0.8)) trips = Leaf(Tensor::scalar<int64_t>(Uniform(0, 4)), Chance(0.5));
  const bool with_condition = !trips.has_value() || Chance(0.4);
  std::optional<Ref> condition;
  if (with_condition) condition = Leaf(Tensor::scalar<bool>(Chance(0.9)), Chance(0.5));
  std::vector<PoolEntry> carried;
  for (int i = Uniform(1, 2); i > 0; --i) {
    carried.push_back(Operand(kCarriedTypes, true, Domain::kFinite, 0, 3));
    if (Empty(carried.back().shape)) return;
  }
  // Arguments: the iteration number, the condition, then the loop-carried values.
  std::vector<PoolEntry> arguments = {{Argument(0), DataType::kInt64, {}},
                                      {Argument(1), DataType::kBool, {}}};
  for (size_t i = 0; i < carried.size(); ++i) {
    arguments.push_back({Argument(static_cast<int>(i) + 2), carried[i].dtype, carried[i].shape});
  }
  Generator body(rng_(), depth_ + 1, arguments);
  body.AddSteps(Uniform(1, 3));
  std::vector<Ref> results = {Argument(1)};
  if (!trips.has_value() || (with_condition && Chance(0.5))) {
    const Ref limit = body.Int64Constant({Uniform(0, 4)}, /*scalar=*/true);
    if (!body.TryStep(MakeStep("Less", {Argument(0), limit}))) return;
    results[0] = body.pool_.back().ref;
  }
  for (size_t i = 0; i < carried.size(); ++i) {
    results.push_back(body.BodyResult(arguments[i + 2]));
  }
  std::vector<int64_t> ranks;
  for (const Ref& scan : body.ScanOutputs(Uniform(0, 2), ranks)) results.push_back(scan);
  std::vector<std::optional<Ref>> inputs = {trips, condition};
  for (const PoolEntry& c : carried) inputs.push_back(c.ref);
  Step step = MakeStep("Loop", std::move(inputs), {}, static_cast<int>(results.size()) - 1);
  step.body = std::make_shared<const Body>(Body{std::move(body.plan_), std::move(results)});
  TryStep(std::move(step));
}

void Generator::Scan() {
  if (depth_ >= kMaxDepth) return;
  std::vector<PoolEntry> arguments;
  std::vector<std::optional<Ref>> inputs;
  for (int i = Uniform(0, 2); i > 0; --i) {  // states
    const PoolEntry state = Operand(kCarriedTypes, true, Domain::kFinite, 0, 2);
    if (Empty(state.shape)) return;
    arguments.push_back({Argument(static_cast<int>(arguments.size())), state.dtype, state.shape});
    inputs.push_back(state.ref);
  }
  const size_t states = arguments.size();
  const int64_t length = Uniform(1, 4);
  const int scan_inputs = Uniform(1, 2);
  const bool with_input_axes = Chance(0.7);
  std::vector<int64_t> input_axes, input_directions;
  for (int i = 0; i < scan_inputs; ++i) {
    const DataType dtype = Pick(kCarriedTypes);
    const Shape slice = RandomShape(0, 2, /*min_dim=*/1);
    const int rank = static_cast<int>(slice.size()) + 1;
    const int axis = with_input_axes ? Uniform(0, rank - 1) : 0;
    Shape shape = slice;
    shape.insert(shape.begin() + axis, length);
    inputs.push_back(FreshLeaf(dtype, shape, Domain::kFinite));
    arguments.push_back({Argument(static_cast<int>(arguments.size())), dtype, slice});
    input_axes.push_back(axis - (Chance(0.3) ? rank : 0));
    input_directions.push_back(Uniform(0, 1));
  }
  Generator body(rng_(), depth_ + 1, arguments);
  body.AddSteps(Uniform(1, 3));
  std::vector<Ref> results;
  for (size_t i = 0; i < states; ++i) results.push_back(body.BodyResult(arguments[i]));
  std::vector<int64_t> ranks;
  for (const Ref& scan : body.ScanOutputs(Uniform(states == 0 ? 1 : 0, 2), ranks))
    results.push_back(scan);
  std::vector<int64_t> output_axes, output_directions;
  for (int64_t rank : ranks) {
    const int axis = Uniform(0, static_cast<int>(rank));
    output_axes.push_back(axis - (Chance(0.3) ? rank + 1 : 0));
    output_directions.push_back(Uniform(0, 1));
  }
  std::vector<Attribute> attributes = {{"num_scan_inputs", int64_t{scan_inputs}}};
  if (with_input_axes) attributes.push_back({"scan_input_axes", input_axes});
  if (Chance(0.7)) attributes.push_back({"scan_input_directions", input_directions});
  if (!ranks.empty() && Chance(0.7)) attributes.push_back({"scan_output_axes", output_axes});
  if (!ranks.empty() && Chance(0.7))
    attributes.push_back({"scan_output_directions", output_directions});
  Step step =
      MakeStep("Scan", std::move(inputs), std::move(attributes), static_cast<int>(results.size()));
  step.body = std::make_shared<const Body>(Body{std::move(body.plan_), std::move(results)});
  TryStep(std::move(step));
}

void Generator::AddControlFlowRecipes(Recipes& recipes) {
  recipes.push_back({"Loop", [](Generator& g) { g.Loop(); }});
  recipes.push_back({"Scan", [](Generator& g) { g.Scan(); }});
}

}  // namespace difftest
