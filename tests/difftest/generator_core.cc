// The generator's state and shared helpers (generator_core.h), its entry point GeneratePlan
// (generator.h), and the choice of the next recipe.
#include "generator_core.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generator.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "onnx/defs/schema.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;
using graphgc::Tensor;

namespace {

DataType TypeOfName(const std::string& name) {
  static const std::pair<const char*, DataType> kTypes[] = {
      {"tensor(float)", DataType::kFloat},     {"tensor(double)", DataType::kDouble},
      {"tensor(float16)", DataType::kFloat16}, {"tensor(int8)", DataType::kInt8},
      {"tensor(int16)", DataType::kInt16},     {"tensor(int32)", DataType::kInt32},
      {"tensor(int64)", DataType::kInt64},     {"tensor(uint8)", DataType::kUint8},
      {"tensor(uint16)", DataType::kUint16},   {"tensor(uint32)", DataType::kUint32},
      {"tensor(uint64)", DataType::kUint64},   {"tensor(bool)", DataType::kBool}};
  for (const auto& [text, dtype] : kTypes) {
    if (name == text) return dtype;
  }
  // Strings, complex, sequences: not generated; nor bfloat16, which ONNX Runtime's Node.js
  // binding cannot feed or return.
  return DataType::kUndefined;
}

}  // namespace

std::vector<DataType> SchemaTypes(const std::string& op, size_t index) {
  std::vector<DataType> types;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, graphgc::kNewestOnnxOpset, "");
  if (schema == nullptr || schema->inputs().empty()) return types;
  const auto& formal = schema->inputs()[std::min(index, schema->inputs().size() - 1)];
  for (const auto& constraint : schema->typeConstraintParams()) {
    if (constraint.type_param_str != formal.GetTypeStr()) continue;
    for (const std::string& name : constraint.allowed_type_strs) {
      const DataType dtype = TypeOfName(name);
      if (dtype != DataType::kUndefined) types.push_back(dtype);
    }
  }
  if (types.empty()) types.push_back(TypeOfName(formal.GetTypeStr()));
  types.erase(std::remove(types.begin(), types.end(), DataType::kUndefined), types.end());
  return types;
}

Generator::Generator(uint64_t seed, const std::vector<std::string>& ops)
    : rng_(seed), recipes_(&RecipesFor(ops)) {
  built_.graph = &graph_;
}

Generator::Generator(uint64_t seed, int depth, const std::vector<PoolEntry>& arguments)
    : rng_(seed), depth_(depth), recipes_(&RecipesFor({})), pool_(arguments) {
  built_.graph = &graph_;
  for (size_t i = 0; i < arguments.size(); ++i) {
    built_.arguments.push_back(
        graph_.argument(absl::StrCat("arg_", i), arguments[i].dtype, arguments[i].shape));
  }
}

Plan Generator::Run() {
  AddSteps(Uniform(1, 6));
  return std::move(plan_);
}

Shape Generator::RandomShape(int min_rank, int max_rank, int min_dim) {
  // Bodies hold no empty leaves: ONNX Runtime gets some reductions of empty tensors wrong, which
  // the top level tells from graphgc's mistakes by ONNX's inference, but a body's output shapes
  // are not inferred.
  if (depth_ > 0) min_dim = std::max(min_dim, 1);
  static const int kRanks[] = {0, 1, 1, 2, 2, 2, 3, 3, 4};
  int rank;
  do {
    rank = kRanks[Uniform(0, 8)];
  } while (rank < min_rank || rank > max_rank);
  Shape shape;
  for (int d = 0; d < rank; ++d)
    shape.push_back(Chance(0.06) ? std::max(0, min_dim) : Uniform(std::max(1, min_dim), 5));
  return shape;
}

Shape Generator::BroadcastPartner(const Shape& shape) {
  Shape out;
  const int extra = Chance(0.2) ? Uniform(0, 1) : 0;
  for (int i = 0; i < extra; ++i) out.push_back(Uniform(1, 2) == 1 ? 1 : 1);
  const int drop = shape.empty() ? 0 : Uniform(0, static_cast<int>(shape.size()) / 2);
  for (size_t d = static_cast<size_t>(drop); d < shape.size(); ++d) {
    out.push_back(Chance(0.3) ? 1 : shape[d]);
  }
  return out;
}

double Generator::Value(Domain domain, bool floating) {
  switch (domain) {
    case Domain::kAny:
      if (floating && Chance(0.03)) {
        return Pick(std::vector<double>{NAN, INFINITY, -INFINITY});
      }
      [[fallthrough]];
    case Domain::kFinite:
      return floating ? std::round(Real(-4, 4) * 100) / 100 : Uniform(-9, 9);
    case Domain::kHalves:
      return Uniform(-8, 8) * 0.5;
    case Domain::kSmall:
      return floating ? std::round(Real(-2, 2) * 100) / 100 : Uniform(-2, 2);
    case Domain::kPositive:
      return floating ? std::round(Real(0.01, 4) * 100) / 100 : Uniform(1, 9);
    case Domain::kUnit:
      return floating ? std::round(Real(-1, 1) * 100) / 100 : Uniform(-1, 1);
    case Domain::kOpenUnit:
      return std::round(Real(-0.99, 0.99) * 100) / 100;
    case Domain::kGeOne:
      return floating ? std::round(Real(1, 5) * 100) / 100 : Uniform(1, 5);
    case Domain::kGrid:
      return Uniform(-20, 20) / 16.0;
    case Domain::kNonZero: {
      const double v = floating ? std::round(Real(0.1, 4) * 100) / 100 : Uniform(1, 9);
      return Chance(0.5) ? v : -v;
    }
  }
  return 0;
}

Tensor Generator::RandomTensor(DataType dtype, const Shape& shape, Domain domain) {
  absl::StatusOr<graphgc::MutableTensor> out = graphgc::MutableTensor::allocate(dtype, shape);
  if (dtype == DataType::kBool) {
    for (bool& b : out->mutable_data<bool>()) b = Chance(0.5);
    return std::move(*out).freeze();
  }
  graphgc::internal::DispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = graphgc::internal::ComputeType<T>;
    const bool floating = std::is_floating_point_v<C>;
    for (T& v : out->template mutable_data<T>()) {
      double x = Value(domain, floating);
      if constexpr (std::is_unsigned_v<C>) x = std::fabs(x);
      v = graphgc::internal::Store<T>(static_cast<C>(x));
    }
  });
  return std::move(*out).freeze();
}

Ref Generator::Leaf(Tensor value, bool constant_in_both) {
  plan_.leaves.push_back({std::move(value), constant_in_both});
  built_.leaves.push_back(graph_.constant(plan_.leaves.back().value));
  return Ref{true, static_cast<int>(plan_.leaves.size()) - 1, 0};
}
Ref Generator::FreshLeaf(DataType dtype, const Shape& shape, Domain domain) {
  return Leaf(RandomTensor(dtype, shape, domain));
}
Ref Generator::Int64Constant(std::vector<int64_t> values, bool scalar) {
  Shape shape;
  if (!scalar) shape.push_back(static_cast<int64_t>(values.size()));
  return Leaf(Tensor::from_vector<int64_t>(std::move(values), shape), true);
}

PoolEntry Generator::Operand(const std::vector<DataType>& types, bool reuse, Domain domain,
                             int min_rank, int max_rank) {
  if (reuse && Chance(0.6)) {
    std::vector<PoolEntry> fits;
    for (const PoolEntry& e : pool_) {
      const int rank = static_cast<int>(e.shape.size());
      if (std::find(types.begin(), types.end(), e.dtype) != types.end() && rank >= min_rank &&
          rank <= max_rank) {
        fits.push_back(e);
      }
    }
    if (!fits.empty()) return Pick(fits);
  }
  const DataType dtype = Pick(types);
  const Shape shape = RandomShape(min_rank, max_rank);
  return PoolEntry{FreshLeaf(dtype, shape, domain), dtype, shape};
}

bool Generator::TryStep(Step step) {
  BuildStep(plan_, step, built_);
  const std::vector<graphgc::Var>& outputs = built_.steps.back();
  bool ok = !outputs.empty();
  for (const graphgc::Var& v : outputs) ok = ok && v.ok() && v.shape().has_value();
  if (!ok) {
    built_.steps.pop_back();
    return false;
  }
  plan_.steps.push_back(std::move(step));
  const int index = static_cast<int>(plan_.steps.size()) - 1;
  for (size_t o = 0; o < outputs.size(); ++o) {
    Shape shape;
    if (const std::optional<Tensor> value = outputs[o].value()) {
      shape.assign(value->shape().begin(), value->shape().end());
    } else {
      const std::vector<int64_t> dims = *outputs[o].shape();
      shape.assign(dims.begin(), dims.end());
    }
    // A dim inference leaves open (a loop-carried value's, in a body) is no shape to build on.
    if (std::count(shape.begin(), shape.end(), -1) > 0) continue;
    pool_.push_back({Ref{false, index, static_cast<int>(o)}, outputs[o].dtype(), shape});
  }
  return true;
}

Step Generator::MakeStep(std::string op, std::vector<std::optional<Ref>> inputs,
                         std::vector<Attribute> attributes, int num_outputs) {
  return Step{std::move(op), std::move(inputs), std::move(attributes), num_outputs, nullptr};
}

std::vector<int64_t> Generator::RandomAxes(int rank, bool allow_empty) {
  std::vector<int64_t> axes;
  for (int d = 0; d < rank; ++d) {
    if (Chance(0.5)) axes.push_back(Chance(0.3) ? d - rank : d);
  }
  if (axes.empty() && !allow_empty && rank > 0) axes.push_back(Uniform(0, rank - 1));
  return axes;
}

Shape Generator::RandomSpatial(int rank, int max_extent) {
  Shape spatial;
  for (int d = 0; d < rank; ++d) spatial.push_back(Uniform(1, max_extent));
  return spatial;
}

namespace {

// Every recipe, in a fixed order.
Generator::Recipes AllRecipes() {
  Generator::Recipes recipes;
  Generator::AddAllRecipes(recipes);
  return recipes;
}

}  // namespace

const Generator::Recipes& Generator::RecipesFor(const std::vector<std::string>& ops) {
  static const Recipes with_kernels = [] {
    Recipes recipes;
    for (auto& recipe : AllRecipes()) {
      if (graphgc::has_kernel(recipe.first)) recipes.push_back(std::move(recipe));
    }
    return recipes;
  }();
  if (ops.empty()) return with_kernels;
  static std::map<std::vector<std::string>, Recipes> chosen;
  auto [it, added] = chosen.try_emplace(ops);
  if (added) {
    for (auto& recipe : AllRecipes()) {
      if (std::find(ops.begin(), ops.end(), recipe.first) != ops.end())
        it->second.push_back(std::move(recipe));
    }
  }
  return it->second;
}

void Generator::AddAllRecipes(Recipes& recipes) {
  AddElementwiseRecipes(recipes);
  AddTensorRecipes(recipes);
  AddConvRecipes(recipes);
  AddNnRecipes(recipes);
  AddOpset18Recipes(recipes);
  AddRecurrentRecipes(recipes);
  AddControlFlowRecipes(recipes);
}

void Generator::AddRandomStep() {
  if (recipes_->empty()) return;
  Pick(*recipes_).second(*this);
}

std::vector<std::string> RecipeOps() {
  std::vector<std::string> ops;
  for (const auto& recipe : AllRecipes()) {
    if (std::find(ops.begin(), ops.end(), recipe.first) == ops.end()) ops.push_back(recipe.first);
  }
  return ops;
}

Plan GeneratePlan(uint64_t seed, const std::vector<std::string>& ops) {
  return Generator(seed, ops).Run();
}

}  // namespace difftest
