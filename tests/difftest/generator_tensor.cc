// The generator's recipes that move and reshape data: Transpose, Concat, Gather, Slice, Split,
// Pad, Tile, Expand, Flatten/Unsqueeze/Squeeze/Reshape, Trilu.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "generator_core.h"
#include "graphgc/opset/kernels/common/dispatch.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;
using graphgc::Tensor;

void Generator::Transpose() {
  const PoolEntry x = Operand(SchemaTypes("Transpose", 0), true);
  std::vector<int64_t> perm(x.shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng_);
  std::vector<Attribute> attributes;
  if (Chance(0.8)) attributes.push_back({"perm", perm});
  TryStep(MakeStep("Transpose", {x.ref}, std::move(attributes)));
}

void Generator::Concat() {
  const PoolEntry x = Operand(SchemaTypes("Concat", 0), true, Domain::kAny, 1);
  const int rank = static_cast<int>(x.shape.size());
  const int axis = Uniform(0, rank - 1);
  std::vector<std::optional<Ref>> inputs = {x.ref};
  for (int i = Uniform(1, 2); i > 0; --i) {
    Shape shape = x.shape;
    shape[static_cast<size_t>(axis)] = Uniform(0, 3);
    inputs.push_back(FreshLeaf(x.dtype, shape));
  }
  TryStep(
      MakeStep("Concat", std::move(inputs), {{"axis", int64_t{axis - (Chance(0.3) ? rank : 0)}}}));
}

Ref Generator::Indices(int64_t extent, const Shape& shape) {
  const DataType dtype = Chance(0.5) ? DataType::kInt64 : DataType::kInt32;
  absl::StatusOr<graphgc::MutableTensor> out = graphgc::MutableTensor::allocate(dtype, shape);
  graphgc::internal::DispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      for (T& v : out->template mutable_data<T>())
        v = static_cast<T>(Uniform(static_cast<int>(-extent), static_cast<int>(extent) - 1));
    }
  });
  return Leaf(std::move(*out).freeze());
}

void Generator::Gather(const std::string& op) {
  const PoolEntry x = Operand(SchemaTypes(op, 0), true, Domain::kAny, 1);
  const int rank = static_cast<int>(x.shape.size());
  const int axis = Uniform(0, rank - 1);
  const int64_t extent = x.shape[static_cast<size_t>(axis)];
  if (extent == 0) return;
  Shape index_shape = RandomShape(0, 2, 0);
  if (op == "GatherElements") {
    index_shape = x.shape;
    index_shape[static_cast<size_t>(axis)] = Uniform(0, 3);
  }
  TryStep(MakeStep(op, {x.ref, Indices(extent, index_shape)}, {{"axis", int64_t{axis}}}));
}

void Generator::Slice() {
  const PoolEntry x = Operand(SchemaTypes("Slice", 0), true, Domain::kAny, 1);
  std::vector<int64_t> starts, ends, axes, steps;
  for (int64_t d = 0; d < static_cast<int64_t>(x.shape.size()); ++d) {
    if (!Chance(0.6)) continue;
    const int dim = static_cast<int>(x.shape[static_cast<size_t>(d)]);
    axes.push_back(d);
    starts.push_back(Uniform(-dim - 1, dim + 1));
    ends.push_back(Chance(0.2) ? (Chance(0.5) ? INT64_MAX : INT64_MIN)
                               : Uniform(-dim - 1, dim + 1));
    steps.push_back(Pick(std::vector<int64_t>{1, 1, 2, -1, -2}));
  }
  if (axes.empty()) return;
  TryStep(MakeStep("Slice", {x.ref, Int64Constant(starts), Int64Constant(ends), Int64Constant(axes),
                             Int64Constant(steps)}));
}

void Generator::Split() {
  const PoolEntry x = Operand(SchemaTypes("Split", 0), true, Domain::kAny, 1);
  const int axis = Uniform(0, static_cast<int>(x.shape.size()) - 1);
  const int64_t dim = x.shape[static_cast<size_t>(axis)];
  const int parts = Uniform(1, 3);
  if (Chance(0.4)) {
    // Opset 18's num_outputs: parts of ceil(dim / parts), the last one smaller.
    const int64_t part = parts == 0 ? 0 : (dim + parts - 1) / parts;
    if (part == 0 || (parts - 1) * part >= dim) return;
    TryStep(MakeStep("Split", {x.ref}, {{"axis", int64_t{axis}}, {"num_outputs", int64_t{parts}}},
                     parts));
    return;
  }
  std::vector<int64_t> split(static_cast<size_t>(parts), 0);
  for (int64_t i = 0; i < dim; ++i) ++split[static_cast<size_t>(Uniform(0, parts - 1))];
  TryStep(MakeStep("Split", {x.ref, Int64Constant(split)}, {{"axis", int64_t{axis}}}, parts));
}

void Generator::Pad() {
  const PoolEntry x = Operand(SchemaTypes("Pad", 0), true, Domain::kAny, 1);
  // wrap from opset 19; axes (a subset of the dims, in any order) from 18.
  const std::string mode =
      Pick(std::vector<std::string>{"constant", "constant", "reflect", "edge", "wrap"});
  const int rank = static_cast<int>(x.shape.size());
  std::vector<int64_t> axes;
  if (Chance(0.4)) axes = RandomAxes(rank, false);
  std::vector<int64_t> dims;
  for (int64_t axis : axes) dims.push_back(x.shape[static_cast<size_t>((axis + rank) % rank)]);
  if (axes.empty()) dims.assign(x.shape.begin(), x.shape.end());
  std::vector<int64_t> pads(dims.size() * 2);
  for (size_t i = 0; i < pads.size(); ++i) {
    const int64_t dim = dims[i % dims.size()];
    if (dim == 0 && mode != "constant") return;
    // reflect pads below the dim; wrap at most one copy of it (ONNX Runtime's limit).
    pads[i] = mode == "reflect" ? Uniform(0, static_cast<int>(dim) - 1)
              : mode == "wrap"  ? Uniform(0, static_cast<int>(std::min<int64_t>(dim, 2)))
                                : Uniform(-1, 2);
    if (mode != "constant") pads[i] = std::max<int64_t>(pads[i], 0);
  }
  std::vector<std::optional<Ref>> inputs = {x.ref, Int64Constant(pads)};
  if (mode == "constant" && Chance(0.5)) {
    inputs.push_back(FreshLeaf(x.dtype, {}, Domain::kFinite));
  } else if (!axes.empty()) {
    inputs.push_back(std::nullopt);
  }
  if (!axes.empty()) inputs.push_back(Int64Constant(axes));
  TryStep(MakeStep("Pad", std::move(inputs), {{"mode", mode}}));
}

void Generator::Tile() {
  const PoolEntry x = Operand(SchemaTypes("Tile", 0), true, Domain::kAny, 1, 3);
  std::vector<int64_t> repeats;
  for (size_t d = 0; d < x.shape.size(); ++d) repeats.push_back(Uniform(0, 3));
  TryStep(MakeStep("Tile", {x.ref, Int64Constant(repeats)}));
}

void Generator::Expand() {
  const PoolEntry x = Operand(SchemaTypes("Expand", 0), true, Domain::kAny, 0, 3);
  const Shape target = BroadcastPartner(x.shape);
  TryStep(MakeStep("Expand",
                   {x.ref, Int64Constant(std::vector<int64_t>(target.begin(), target.end()))}));
}

void Generator::Reshaping(const std::string& op) {
  const PoolEntry x = Operand(SchemaTypes(op, 0), true);
  const int rank = static_cast<int>(x.shape.size());
  if (op == "Flatten") {
    TryStep(MakeStep(op, {x.ref}, {{"axis", int64_t{Uniform(-rank, rank)}}}));
  } else if (op == "Unsqueeze") {
    TryStep(MakeStep(op, {x.ref, Int64Constant({Uniform(-rank - 1, rank)})}));
  } else if (op == "Squeeze") {
    std::vector<int64_t> ones;
    for (int d = 0; d < rank; ++d) {
      if (x.shape[static_cast<size_t>(d)] == 1) ones.push_back(d);
    }
    std::vector<std::optional<Ref>> inputs = {x.ref};
    if (!ones.empty() && Chance(0.7)) inputs.push_back(Int64Constant(ones));
    TryStep(MakeStep(op, std::move(inputs)));
  } else {  // Reshape: the dims reversed, one of them as -1
    std::vector<int64_t> target(x.shape.rbegin(), x.shape.rend());
    if (!target.empty() && Chance(0.5) && target[0] != 0) target[0] = -1;
    TryStep(MakeStep(op, {x.ref, Int64Constant(target)}));
  }
}

void Generator::Trilu() {
  const PoolEntry x = Operand(SchemaTypes("Trilu", 0), true, Domain::kAny, 2);
  std::vector<std::optional<Ref>> inputs = {x.ref};
  if (Chance(0.6)) inputs.push_back(Leaf(Tensor::scalar<int64_t>(Uniform(-3, 3)), true));
  TryStep(MakeStep("Trilu", std::move(inputs), {{"upper", int64_t{Uniform(0, 1)}}}));
}
void Generator::AddTensorRecipes(Recipes& recipes) {
  recipes.push_back({"Transpose", [](Generator& g) { g.Transpose(); }});
  recipes.push_back({"Concat", [](Generator& g) { g.Concat(); }});
  recipes.push_back({"Gather", [](Generator& g) { g.Gather("Gather"); }});
  recipes.push_back({"GatherElements", [](Generator& g) { g.Gather("GatherElements"); }});
  recipes.push_back({"Slice", [](Generator& g) { g.Slice(); }});
  recipes.push_back({"Split", [](Generator& g) { g.Split(); }});
  recipes.push_back({"Pad", [](Generator& g) { g.Pad(); }});
  recipes.push_back({"Tile", [](Generator& g) { g.Tile(); }});
  recipes.push_back({"Expand", [](Generator& g) { g.Expand(); }});
  for (const char* op : {"Flatten", "Unsqueeze", "Squeeze", "Reshape"}) {
    recipes.push_back({op, [=](Generator& g) { g.Reshaping(op); }});
  }
  recipes.push_back({"Trilu", [](Generator& g) { g.Trilu(); }});
}

}  // namespace difftest
