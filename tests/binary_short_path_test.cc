// Add, Sub, Mul and Div have a second way to be made (opset/build/binary_short_path.h): a short
// path makes the node, and runs the op's kernel where both operands have values, instead of
// BuildOp. Each scenario here is built twice, once as a user builds it and once with every node
// through BuildOp (ScopedGeneralBuildOnly), and the two must agree on everything a user can see:
// each result's type, failure, value_status and every byte of its value, the graph's size and
// value bytes (live and peak), and the exported model. The scenarios cover what the short path
// takes (arguments, broadcasting, unknown dims and ranks, every numeric type with and without
// values, integer wrap-around and division by zero, NaN and infinities, a constant beside an
// argument, the value budget, a chain collected as it goes, If bodies, make_node and the opset
// namespaces) and what it must leave to BuildOp (errors of every kind, named dims, a live cap).
#include "graphgc/opset/build/binary_short_path.h"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset13.h"
#include "graphgc/opset/generated/opset6.h"

namespace graphgc {
namespace {

using Scenario = std::function<std::vector<Var>(Graph&)>;

struct Seen {
  // Each result: printed, then its value_status, then its value's type and bytes.
  std::vector<std::string> results;
  GraphStats stats;
  std::string model;  // the ok results exported, serialized; or the export's error
};

Seen Build(const GraphOptions& options, const Scenario& scenario) {
  Graph g(options);
  const std::vector<Var> results = scenario(g);
  Seen seen;
  std::vector<std::pair<std::string, Var>> outputs;
  for (const Var& result : results) {
    std::ostringstream printed;
    printed << result << " / " << result.value_status();
    if (const std::optional<Tensor> value = result.value()) {
      const auto* bytes = static_cast<const char*>(value->raw_data());
      printed << " / " << DataTypeName(value->dtype()) << " "
              << std::string(bytes, bytes + value->size() * ElementSize(value->dtype()));
    }
    seen.results.push_back(printed.str());
    if (result.ok()) outputs.emplace_back("y" + std::to_string(outputs.size()), result);
  }
  seen.stats = g.stats();
  if (!outputs.empty()) {
    absl::StatusOr<onnx::ModelProto> model = to_onnx(g, outputs);
    seen.model = model.ok() ? model->SerializeAsString() : model.status().ToString();
  }
  return seen;
}

// Builds the scenario both ways; `expect_failures` is how many results must have failed, so
// that a scenario of errors cannot pass by building nothing.
void ExpectBothPathsAgree(const Scenario& scenario, int expect_failures = 0,
                          const GraphOptions& options = {}) {
  const Seen short_path = Build(options, scenario);
  Seen general;
  {
    const internal::ScopedGeneralBuildOnly general_only;
    general = Build(options, scenario);
  }
  EXPECT_EQ(short_path.results, general.results);
  EXPECT_EQ(short_path.stats.nodes, general.stats.nodes);
  EXPECT_EQ(short_path.stats.vars, general.stats.vars);
  EXPECT_EQ(short_path.stats.arena_bytes, general.stats.arena_bytes);
  EXPECT_EQ(short_path.stats.live_values, general.stats.live_values);
  EXPECT_EQ(short_path.stats.live_value_bytes, general.stats.live_value_bytes);
  EXPECT_EQ(short_path.stats.peak_value_bytes, general.stats.peak_value_bytes);
  EXPECT_EQ(short_path.stats.collections, general.stats.collections);
  EXPECT_EQ(short_path.stats.values_skipped_for_budget, general.stats.values_skipped_for_budget);
  EXPECT_TRUE(short_path.model == general.model) << "the exported models differ";
  int failures = 0;
  for (const std::string& result : short_path.results) {
    failures += result.rfind("Var(failed", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(failures, expect_failures);
}

Var Float(Graph& g, const char* name, std::vector<int64_t> shape) {
  return g.argument(name, DataType::kFloat, shape);
}

TEST(BinaryShortPathTest, ArgumentsOfOneShape) {
  ExpectBothPathsAgree([](Graph& g) {
    const Var x = Float(g, "x", {2, 3});
    const Var y = Float(g, "y", {2, 3});
    const Var sum = op::Add(x, y);
    const Var difference = op::Sub(sum, x);
    const Var product = op::Mul(difference, difference);
    return std::vector<Var>{sum, difference, product, op::Div(product, y)};
  });
}

TEST(BinaryShortPathTest, Broadcasting) {
  ExpectBothPathsAgree([](Graph& g) {
    const Var a = Float(g, "a", {3, 1, 4});
    const Var b = Float(g, "b", {5, 1});
    const Var scalar = Float(g, "s", {});
    const Var empty = Float(g, "e", {0, 4});
    return std::vector<Var>{op::Add(a, b), op::Mul(scalar, a), op::Sub(b, scalar),
                            op::Div(empty, a), op::Add(empty, Float(g, "one", {1}))};
  });
}

TEST(BinaryShortPathTest, UnknownDimsAndRanks) {
  ExpectBothPathsAgree([](Graph& g) {
    const Var batch = Float(g, "batch", {-1, 4});
    const Var column = Float(g, "column", {3, 1});
    const Var unknown = Float(g, "unknown", {-1});
    const Var unranked = g.argument("unranked", VarType::Tensor(DataType::kFloat));
    return std::vector<Var>{op::Add(batch, column), op::Mul(unknown, unknown),
                            op::Sub(unranked, batch), op::Div(unranked, unranked),
                            op::Add(batch, Float(g, "one", {1, 1}))};
  });
}

TEST(BinaryShortPathTest, EveryNumericTypeAndTheOthers) {
  // The eleven numeric types besides float take the short path; bool, string and float8 fail
  // in BuildOp, each with its own message.
  ExpectBothPathsAgree(
      [](Graph& g) {
        std::vector<Var> results;
        const DataType types[] = {DataType::kUint8,  DataType::kUint16,      DataType::kUint32,
                                  DataType::kUint64, DataType::kInt8,        DataType::kInt16,
                                  DataType::kInt32,  DataType::kInt64,       DataType::kFloat16,
                                  DataType::kDouble, DataType::kBfloat16,    DataType::kBool,
                                  DataType::kString, DataType::kFloat8E4M3FN};
        for (DataType type : types) {
          const std::string name = "x" + std::to_string(results.size());
          const Var x = g.argument(name, type, std::vector<int64_t>{2});
          results.push_back(op::Add(x, x));
        }
        return results;
      },
      /*expect_failures=*/3);
}

TEST(BinaryShortPathTest, ConstantsBesideArgumentsAndWithoutPropagation) {
  const Scenario mixed = [](Graph& g) {
    const Var x = Float(g, "x", {2});
    const Var c = g.constant(Tensor::from_vector<float>({1, 2}));
    const Var d = g.constant(Tensor::from_vector<float>({3, 4}));
    // c and d have values: with propagation on, their sum is computed (BuildOp's path).
    return std::vector<Var>{op::Add(x, c), op::Mul(c, x), op::Add(c, d), op::Div(op::Add(c, d), x)};
  };
  ExpectBothPathsAgree(mixed);
  ExpectBothPathsAgree(mixed, 0, GraphOptions{.propagate_values = false});
}

// Values of `type`: doubles cast by the Cast op (values of any numeric type, with the Cast
// kernel's own rounding, the same in both builds).
Var Typed(Graph& g, DataType type, std::vector<double> values, std::vector<int64_t> shape) {
  return op::Cast(g.constant(Tensor::from_vector<double>(std::move(values), shape)), type);
}

// Values of every numeric type, each through the four ops, broadcast against a scalar and a
// row: integer sums and products wrap, an integer division by zero gives no value, floats keep
// NaN and infinities.
TEST(BinaryShortPathTest, ValuesOfEveryNumericType) {
  ExpectBothPathsAgree([](Graph& g) {
    std::vector<Var> results;
    const DataType types[] = {DataType::kUint8,  DataType::kUint16, DataType::kUint32,
                              DataType::kUint64, DataType::kInt8,   DataType::kInt16,
                              DataType::kInt32,  DataType::kInt64,  DataType::kFloat16,
                              DataType::kFloat,  DataType::kDouble, DataType::kBfloat16};
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (DataType type : types) {
      const bool floating = type == DataType::kFloat16 || type == DataType::kFloat ||
                            type == DataType::kDouble || type == DataType::kBfloat16;
      const Var a = Typed(g, type, {0, 1, 100, 127, 120, 250, 7, 3}, {2, 4});
      const Var b =
          Typed(g, type, {3, 0, 2, 2, 10, 6, floating ? inf : 2, floating ? nan : 1}, {2, 4});
      const Var row = Typed(g, type, {2, 3, 5, 7}, {4});
      const Var scalar = Typed(g, type, {3}, {});
      for (const Var& other : {b, row, scalar}) {
        results.push_back(op::Add(a, other));
        results.push_back(op::Sub(other, a));
        results.push_back(op::Mul(a, other));
        results.push_back(op::Div(a, other));
        results.push_back(op::Div(other, a));
      }
      results.push_back(op::Mul(a, a));
    }
    return results;
  });
}

// A chain whose old values are collected as it goes (automatically, and explicitly every few
// steps): the same values freed, held and peaking.
TEST(BinaryShortPathTest, AChainCollectedAsItGoes) {
  const Scenario chain = [](Graph& g) {
    Var a = g.constant(Tensor::from_vector<double>({1.5, -2, 0.25, 3}));
    const Var half = g.constant(Tensor::scalar<double>(0.5));
    for (int step = 0; step < 200; ++step) {
      a = op::Add(op::Mul(a, a), half);
      a = op::Div(a, op::Add(a, half));
      if (step % 7 == 0) g.collect();
    }
    return std::vector<Var>{a};
  };
  ExpectBothPathsAgree(chain);
  ExpectBothPathsAgree(chain, 0, GraphOptions{.min_trigger_bytes = 64});
}

// Values over the per-value budget, or any value at all under a budget of 0 (an empty one
// included), are not computed; a live cap sends every valued node to BuildOp.
TEST(BinaryShortPathTest, ValueBudgets) {
  const Scenario scenario = [](Graph& g) {
    const Var big = g.constant(Tensor::zeros(DataType::kFloat, {64}));
    const Var small = g.constant(Tensor::from_vector<float>({1, 2}));
    const Var empty = g.constant(Tensor::zeros(DataType::kFloat, {0, 3}));
    return std::vector<Var>{op::Add(big, big), op::Mul(small, small), op::Sub(empty, empty),
                            op::Div(big, op::Add(big, big))};
  };
  ExpectBothPathsAgree(scenario, 0, GraphOptions{.max_value_bytes = 64});
  ExpectBothPathsAgree(scenario, 0, GraphOptions{.max_value_bytes = 0});
  ExpectBothPathsAgree(scenario, 0, GraphOptions{.max_live_value_bytes = 300});
}

TEST(BinaryShortPathTest, ErrorsAreBuildOpsOwn) {
  ExpectBothPathsAgree(
      [](Graph& g) {
        const Var x = Float(g, "x", {2, 3});
        const Var i = g.argument("i", DataType::kInt32, std::vector<int64_t>{2, 3});
        const Var wide = Float(g, "wide", {4});
        Graph other;
        const Var elsewhere = other.argument("z", DataType::kFloat, std::vector<int64_t>{2, 3});
        // 2^21 x 2^21 x 2^21 elements: more than a shape may count.
        const Var tall = Float(g, "tall", {int64_t{1} << 21, 1, 1});
        const Var deep = Float(g, "deep", {1, int64_t{1} << 21, int64_t{1} << 21});
        const Var failed = op::Add(x, i);
        return std::vector<Var>{failed,
                                op::Sub(x, wide),
                                op::Mul(x, elsewhere),
                                op::Div(x, Var()),
                                op::Add(failed, x),
                                op::Mul(tall, deep),
                                op::Add(x, x)};
      },
      /*expect_failures=*/6);
}

TEST(BinaryShortPathTest, NamedDimsAndSequences) {
  ExpectBothPathsAgree(
      [](Graph& g) {
        const Var named = g.argument("named", DataType::kFloat, {Dim("N"), Dim(4)});
        const Var x = Float(g, "x", {1, 4});
        const Var sequence = op::SequenceConstruct({x, x});
        return std::vector<Var>{op::Add(named, x), op::Mul(x, named), op::Add(sequence, x)};
      },
      /*expect_failures=*/1);
}

TEST(BinaryShortPathTest, InsideIfBodiesAndThroughMakeNodeAndOpsets) {
  ExpectBothPathsAgree([](Graph& g) {
    const Var condition = g.argument("condition", DataType::kBool, std::vector<int64_t>{});
    const Var x = Float(g, "x", {2});
    std::vector<Var> results = op::If(
        condition, {.else_branch = [&] { return std::vector<Var>{op::Sub(x, x)}; },
                    .then_branch = [&] { return std::vector<Var>{op::Add(x, op::Mul(x, x))}; }});
    results.push_back(make_node("Div", {x, x})[0]);
    results.push_back(opset13::Add(x, results.back()));
    const Var c = g.constant(Tensor::from_vector<float>({1, 4}));
    results.push_back(opset13::Mul(c, c));
    results.push_back(opset6::Sub(c, c));
    results.push_back(make_node("Div", {c, results.back()})[0]);
    return results;
  });
}

// The scenarios above agree even if the short path never makes a node; here it must make the
// ones it is for, and decline (the graph untouched) the ones BuildOp makes.
TEST(BinaryShortPathTest, MakesWhatItIsForAndDeclinesTheRest) {
  Graph g;
  const Var x = Float(g, "x", {2});
  const Var y = Float(g, "y", {3, 1});
  const Var c = g.constant(Tensor::from_vector<float>({1, 2}));
  const Var i = g.argument("i", DataType::kInt64, std::vector<int64_t>{2});
  const internal::OpSignature add{"Add", 14, {}};
  const int64_t nodes = g.stats().nodes;
  EXPECT_TRUE(internal::BuildBinaryShortPath(add, x, y).has_value());
  EXPECT_TRUE(internal::BuildBinaryShortPath(add, c, x).has_value());
  EXPECT_EQ(g.stats().nodes, nodes + 2);
  const std::optional<Var> sum = internal::BuildBinaryShortPath(add, c, c);
  ASSERT_TRUE(sum.has_value());
  ASSERT_TRUE(sum->value().has_value());
  EXPECT_EQ(sum->value()->data<float>()[1], 4.0f);
  EXPECT_EQ(g.stats().nodes, nodes + 3);
  EXPECT_FALSE(internal::BuildBinaryShortPath(add, x, i).has_value());  // BuildOp's error
  EXPECT_FALSE(internal::BuildBinaryShortPath(add, x, Var()).has_value());
  {
    const internal::ScopedGeneralBuildOnly general_only;
    EXPECT_FALSE(internal::BuildBinaryShortPath(add, x, y).has_value());
  }
  Graph capped(GraphOptions{.max_live_value_bytes = 1 << 20});
  const Var d = capped.constant(Tensor::from_vector<float>({1, 2}));
  EXPECT_FALSE(internal::BuildBinaryShortPath(add, d, d).has_value());  // a live cap
  EXPECT_EQ(g.stats().nodes, nodes + 3);
}

}  // namespace
}  // namespace graphgc
