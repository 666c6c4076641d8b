// The generator's element-wise recipes (unary, binary and variadic ops, Clip, Where, Cast), the
// reductions and axis ops (Softmax, ArgMax, CumSum, TopK) and the contractions (MatMul, Gemm).
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

void Generator::Unary(const std::string& op, Domain domain, bool jumps) {
  std::vector<DataType> types = SchemaTypes(op, 0);
  // ONNX Runtime computes double Shrink in float: a result near 0 (the input less the bias)
  // keeps a float rounding of the input (ort_difftest --graph-seed 10000126).
  if (op == "Shrink") types.erase(std::remove(types.begin(), types.end(), DataType::kDouble));
  const PoolEntry x = Operand(types, !jumps && domain == Domain::kAny, domain);
  std::vector<Attribute> attributes;
  if (op == "Elu" || op == "Celu" || op == "LeakyRelu" || op == "HardSigmoid" ||
      op == "ThresholdedRelu") {
    if (Chance(0.5)) attributes.push_back({"alpha", static_cast<float>(Real(0.1, 2))});
  }
  if (op == "Selu" && Chance(0.5))
    attributes.push_back({"gamma", static_cast<float>(Real(0.5, 2))});
  if (op == "Shrink" && Chance(0.5))
    attributes.push_back({"lambd", static_cast<float>(Real(0, 2))});
  if (op == "Shrink" && Chance(0.5)) attributes.push_back({"bias", static_cast<float>(Real(0, 1))});
  if (op == "IsInf" && Chance(0.5)) attributes.push_back({"detect_negative", int64_t{0}});
  TryStep(MakeStep(op, {x.ref}, std::move(attributes)));
}

void Generator::Binary(const std::string& op, bool jumps) {
  const PoolEntry a = Operand(SchemaTypes(op, 0), !jumps);
  const bool integer = !graphgc::IsFloatingPoint(a.dtype);
  const bool divides = op == "Div" || op == "Mod";
  Domain domain = divides && integer ? Domain::kNonZero : Domain::kAny;
  std::vector<Attribute> attributes;
  if (op == "Mod" && (!integer || Chance(0.5))) attributes.push_back({"fmod", int64_t{1}});
  if (op == "Mod" && integer && attributes.empty()) domain = Domain::kNonZero;
  if (op == "Pow") domain = Domain::kSmall;
  if (op == "BitShift") {
    attributes.push_back({"direction", std::string(Chance(0.5) ? "LEFT" : "RIGHT")});
    domain = Domain::kPositive;
  }
  const Shape shape =
      op == "PRelu"
          ? Shape(a.shape.begin() +
                      (a.shape.empty() ? 0 : Uniform(0, static_cast<int>(a.shape.size()))),
                  a.shape.end())
          : BroadcastPartner(a.shape);
  const Ref b = FreshLeaf(op == "Pow" ? Pick(SchemaTypes(op, 1)) : a.dtype, shape, domain);
  TryStep(MakeStep(op, {a.ref, b}, std::move(attributes)));
}

void Generator::Variadic(const std::string& op) {
  const PoolEntry first = Operand(SchemaTypes(op, 0), true);
  std::vector<std::optional<Ref>> inputs = {first.ref};
  for (int i = Uniform(0, 2); i > 0; --i) {
    inputs.push_back(FreshLeaf(first.dtype, BroadcastPartner(first.shape)));
  }
  TryStep(MakeStep(op, std::move(inputs)));
}

void Generator::Clip() {
  const PoolEntry x = Operand(SchemaTypes("Clip", 0), true);
  std::vector<std::optional<Ref>> inputs = {x.ref};
  const bool has_min = Chance(0.7), has_max = Chance(0.7);
  inputs.push_back(has_min ? std::optional<Ref>(FreshLeaf(x.dtype, {}, Domain::kFinite))
                           : std::nullopt);
  if (has_max) inputs.push_back(FreshLeaf(x.dtype, {}, Domain::kFinite));
  TryStep(MakeStep("Clip", std::move(inputs)));
}

void Generator::Where() {
  const PoolEntry x = Operand(SchemaTypes("Where", 1), true);
  const Ref condition = FreshLeaf(DataType::kBool, BroadcastPartner(x.shape));
  const Ref y = FreshLeaf(x.dtype, BroadcastPartner(x.shape));
  TryStep(MakeStep("Where", {condition, x.ref, y}));
}

void Generator::Cast() {
  const PoolEntry x = Operand(SchemaTypes("Cast", 0), false, Domain::kFinite);
  const DataType to = Pick(SchemaTypes("Cast", 0));
  TryStep(MakeStep("Cast", {x.ref}, {{"to", static_cast<int64_t>(to)}}));
}

void Generator::Reduce(const std::string& op) {
  // ReduceLogSumExp of a lane holding NaN and +inf: NaN in ONNX (numpy), +inf in ONNX Runtime
  // (ort_difftest --graph-seed 2000578): it reads finite fresh leaves only.
  const Domain domain = op == "ReduceLogSum" || op == "ReduceL1" ? Domain::kPositive
                        : op == "ReduceLogSumExp"                ? Domain::kFinite
                                                                 : Domain::kAny;
  const bool jumps = op == "ReduceMax" || op == "ReduceMin";
  const PoolEntry x = Operand(SchemaTypes(op, 0), !jumps && domain == Domain::kAny, domain, 1);
  const int rank = static_cast<int>(x.shape.size());
  std::vector<int64_t> axes = RandomAxes(rank, true);
  std::vector<Attribute> attributes = {{"keepdims", int64_t{Uniform(0, 1)}}};
  std::vector<std::optional<Ref>> inputs = {x.ref};
  // Every reduction takes its axes as an input from opset 18 (ReduceSum from 13).
  if (!axes.empty() || Chance(0.3)) inputs.push_back(Int64Constant(axes));
  if (Chance(0.3)) attributes.push_back({"noop_with_empty_axes", int64_t{1}});
  TryStep(MakeStep(op, std::move(inputs), std::move(attributes)));
}

void Generator::AxisOp(const std::string& op, bool jumps) {
  const PoolEntry x = Operand(SchemaTypes(op, 0), !jumps, Domain::kAny, 1);
  const int rank = static_cast<int>(x.shape.size());
  std::vector<Attribute> attributes = {{"axis", int64_t{Uniform(-rank, rank - 1)}}};
  if (op == "ArgMax" || op == "ArgMin") {
    attributes.push_back({"keepdims", int64_t{Uniform(0, 1)}});
    attributes.push_back({"select_last_index", int64_t{Uniform(0, 1)}});
  }
  if (op == "LpNormalization") attributes.push_back({"p", int64_t{Uniform(1, 2)}});
  TryStep(MakeStep(op, {x.ref}, std::move(attributes)));
}

void Generator::CumSum() {
  const PoolEntry x = Operand(SchemaTypes("CumSum", 0), true, Domain::kAny, 1);
  const int rank = static_cast<int>(x.shape.size());
  const Ref axis = Leaf(Tensor::scalar<int64_t>(Uniform(-rank, rank - 1)), true);
  TryStep(MakeStep("CumSum", {x.ref, axis},
                   {{"exclusive", int64_t{Uniform(0, 1)}}, {"reverse", int64_t{Uniform(0, 1)}}}));
}

void Generator::TopK() {
  const PoolEntry x = Operand(SchemaTypes("TopK", 0), false, Domain::kFinite, 1);
  const int rank = static_cast<int>(x.shape.size());
  const int axis = Uniform(0, rank - 1);
  const Ref k = Int64Constant({Uniform(0, static_cast<int>(x.shape[static_cast<size_t>(axis)]))});
  TryStep(MakeStep(
      "TopK", {x.ref, k},
      {{"axis", int64_t{axis - (Chance(0.3) ? rank : 0)}}, {"largest", int64_t{Uniform(0, 1)}}},
      2));
}

// Contractions have K >= 1: ONNX Runtime leaves MatMul's output uninitialized for K = 0 (a
// [4,2,0] by [0] product gave 1.87 and then 1.98 where every runtime should give 0).
void Generator::MatMul() {
  const PoolEntry a = Operand(SchemaTypes("MatMul", 0), true, Domain::kFinite, 1, 3);
  if (a.shape.back() == 0) return;
  Shape b_shape;
  if (a.shape.size() >= 2 && Chance(0.5)) b_shape.assign(a.shape.begin(), a.shape.end() - 2);
  b_shape.push_back(a.shape.back());
  if (Chance(0.8)) b_shape.push_back(Uniform(0, 4));
  TryStep(MakeStep("MatMul", {a.ref, FreshLeaf(a.dtype, b_shape, Domain::kFinite)}));
}

void Generator::Gemm() {
  const DataType dtype = Pick(SchemaTypes("Gemm", 0));
  const int64_t m = Uniform(0, 4), k = Uniform(1, 4), n = Uniform(0, 4);
  const int64_t trans_a = Uniform(0, 1), trans_b = Uniform(0, 1);
  const Ref a = FreshLeaf(dtype, trans_a ? Shape{k, m} : Shape{m, k}, Domain::kFinite);
  const Ref b = FreshLeaf(dtype, trans_b ? Shape{n, k} : Shape{k, n}, Domain::kFinite);
  std::vector<std::optional<Ref>> inputs = {a, b};
  if (Chance(0.7))
    inputs.push_back(FreshLeaf(dtype, BroadcastPartner(Shape{m, n}), Domain::kFinite));
  TryStep(MakeStep("Gemm", std::move(inputs),
                   {{"transA", trans_a},
                    {"transB", trans_b},
                    {"alpha", static_cast<float>(Real(-2, 2))},
                    {"beta", static_cast<float>(Real(-2, 2))}}));
}
void Generator::AddElementwiseRecipes(Recipes& recipes) {
  auto unary = [&](const char* op, Domain domain, bool jumps = false) {
    recipes.push_back({op, [=](Generator& g) { g.Unary(op, domain, jumps); }});
  };
  for (const char* op : {"Abs", "Neg", "Relu", "Sigmoid", "Tanh", "Atan", "Erf", "Asinh",
                         "Softplus", "Softsign", "Elu", "Selu", "Celu", "LeakyRelu", "HardSigmoid",
                         "HardSwish", "ThresholdedRelu", "Shrink", "Identity"}) {
    unary(op, Domain::kAny);
  }
  unary("Exp", Domain::kSmall);
  // Periodic functions turn a rounding difference upstream in a large argument into any value:
  // they read fresh leaves only.
  unary("Sin", Domain::kAny, true);
  unary("Cos", Domain::kAny, true);
  unary("Tan", Domain::kSmall, true);
  unary("Sinh", Domain::kSmall);
  unary("Cosh", Domain::kSmall);
  unary("Log", Domain::kPositive);
  unary("Sqrt", Domain::kPositive);
  unary("Asin", Domain::kUnit);
  unary("Acos", Domain::kUnit);
  unary("Atanh", Domain::kOpenUnit);
  unary("Acosh", Domain::kGeOne);
  unary("Reciprocal", Domain::kNonZero);
  for (const char* op : {"Ceil", "Floor", "Sign", "IsNaN", "IsInf", "Not"})
    unary(op, Domain::kAny, true);
  unary("Round", Domain::kHalves, true);
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "PRelu"}) {
    recipes.push_back({op, [=](Generator& g) { g.Binary(op, false); }});
  }
  // Mod jumps by the divisor where the dividend crosses a multiple of it: a float16 dividend one
  // rounding apart upstream gave 0.324 against 0.328 (ort_difftest --graph-seed 12000611).
  for (const char* op : {"Mod", "And", "Or", "Xor", "Equal", "Greater", "Less", "GreaterOrEqual",
                         "LessOrEqual", "BitShift"}) {
    recipes.push_back({op, [=](Generator& g) { g.Binary(op, true); }});
  }
  for (const char* op : {"Max", "Min", "Mean", "Sum"}) {
    recipes.push_back({op, [=](Generator& g) { g.Variadic(op); }});
  }
  recipes.push_back({"Clip", [](Generator& g) { g.Clip(); }});
  recipes.push_back({"Where", [](Generator& g) { g.Where(); }});
  recipes.push_back({"Cast", [](Generator& g) { g.Cast(); }});
  for (const char* op : {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                         "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare"}) {
    recipes.push_back({op, [=](Generator& g) { g.Reduce(op); }});
  }
  for (const char* op : {"Softmax", "LogSoftmax", "LpNormalization"}) {
    recipes.push_back({op, [=](Generator& g) { g.AxisOp(op, false); }});
  }
  for (const char* op : {"ArgMax", "ArgMin", "Hardmax"}) {
    recipes.push_back({op, [=](Generator& g) { g.AxisOp(op, true); }});
  }
  recipes.push_back({"CumSum", [](Generator& g) { g.CumSum(); }});
  recipes.push_back({"TopK", [](Generator& g) { g.TopK(); }});
  recipes.push_back({"MatMul", [](Generator& g) { g.MatMul(); }});
  recipes.push_back({"Gemm", [](Generator& g) { g.Gemm(); }});
}

}  // namespace difftest
