#include "micro.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "collect_cost.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/ops.h"
#include "graphgc/opset/generated/onnx_ops.h"
#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/valuestore/tensor.h"
#include "hand_loop.h"
#include "seed_scenario.h"

namespace graphgc::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Wall nanoseconds since `start` per iteration. Measured here rather than derived from an inverted
// rate counter, which Google Benchmark would print in seconds ("2.2ks").
benchmark::Counter NsPerIteration(Clock::time_point start) {
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  return benchmark::Counter(ns, benchmark::Counter::kAvgIterations);
}

double ArenaBytesPerNode(const GraphStats& stats) {
  return stats.nodes > 0 ? static_cast<double>(stats.arena_bytes) / static_cast<double>(stats.nodes)
                         : 0.0;
}

// One step of the seed chain: a Mul of an 80 kB value with itself, then collect().
void BM_SeedChainStep(benchmark::State& state) {
  Graph graph(SeedModeOptions(SeedMode::kCollectEachStep));
  Var a = graph.constant(Tensor::zeros(DataType::kDouble, {kSeedElements}));
  const Clock::time_point start = Clock::now();
  for (auto _ : state) {
    a = op::Mul(a, a);
    graph.collect();
  }
  state.counters["ns/op"] = NsPerIteration(start);
  if (!a.ok()) state.SkipWithError("Mul failed");
  const GraphStats stats = graph.stats();
  state.counters["live_bytes"] = benchmark::Counter(static_cast<double>(stats.live_value_bytes));
  state.counters["arena_B/node"] = benchmark::Counter(ArenaBytesPerNode(stats));
}
BENCHMARK(BM_SeedChainStep);

void BM_HandLoopStep(benchmark::State& state) {
  HandSquareChain chain;
  const Clock::time_point start = Clock::now();
  for (auto _ : state) chain.Step();
  state.counters["ns/op"] = NsPerIteration(start);
  double checksum = chain.Checksum();
  benchmark::DoNotOptimize(checksum);
}
BENCHMARK(BM_HandLoopStep);

// Google Benchmark calls a benchmark function several times while it sizes the iteration count;
// building a million-node graph each time would dominate the run, so chains are kept per size.
// Each iteration adds a node, so a chain is rebuilt once it has doubled: the graph stays within
// [M, 2M) nodes and the label stays true.
ScalarChain& ChainOfSize(int64_t nodes) {
  static auto* chains = new std::map<int64_t, std::unique_ptr<ScalarChain>>();
  std::unique_ptr<ScalarChain>& chain = (*chains)[nodes];
  if (chain == nullptr || chain->nodes() >= 2 * nodes) {
    chain.reset();  // free the old graph before building the new one
    chain = std::make_unique<ScalarChain>(nodes);
  }
  return *chain;
}

// Only collect() is timed (manual time): one op's worth of work in a graph of Arg nodes.
void BM_CollectAfterOneOp(benchmark::State& state) {
  const int64_t nodes = state.range(0);
  int64_t scanned = 0;
  for (auto _ : state) {
    ScalarChain& chain = ChainOfSize(nodes);
    chain.AddOne();
    const Clock::time_point start = Clock::now();
    const CollectStats stats = chain.Collect();
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    scanned += stats.scanned;
  }
  if (!ChainOfSize(nodes).ok()) state.SkipWithError("Add failed");
  state.counters["scanned"] =
      benchmark::Counter(static_cast<double>(scanned), benchmark::Counter::kAvgIterations);
  state.counters["graph_nodes"] =
      benchmark::Counter(static_cast<double>(ChainOfSize(nodes).nodes()));
}
BENCHMARK(BM_CollectAfterOneOp)->Arg(1000)->Arg(1000000)->UseManualTime();

// Construction cost of one node: inference and arena append, no value to compute.
void BM_AddConstruct(benchmark::State& state) {
  Graph graph(GraphOptions{.propagate_values = false});
  const int64_t shape[] = {64, 64};
  const Var x = graph.argument("x", DataType::kFloat, shape);
  const Var y = graph.argument("y", DataType::kFloat, shape);
  if (!op::Add(x, y).ok()) {
    state.SkipWithError("Add of two {64,64} float arguments failed");
    return;
  }
  for (auto _ : state) {
    Var sum = op::Add(x, y);
    benchmark::DoNotOptimize(sum);
  }
  const GraphStats stats = graph.stats();
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["arena_B/node"] = benchmark::Counter(ArenaBytesPerNode(stats));
}
BENCHMARK(BM_AddConstruct);

// Construction through the schema path: ONNX's own inference behind make_node (Conv), and the
// hand-written Reshape whose shape input is a known constant.
void ReportConstruction(benchmark::State& state, const Graph& graph) {
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["arena_B/node"] = benchmark::Counter(ArenaBytesPerNode(graph.stats()));
}

void BM_ConvConstruct(benchmark::State& state) {
  Graph graph(GraphOptions{.propagate_values = false});
  const Var x = graph.argument("x", DataType::kFloat, {1, 64, 56, 56});
  const Var w = graph.argument("w", DataType::kFloat, {64, 64, 3, 3});
  const std::vector<Attribute> attributes = {{"pads", std::vector<int64_t>{1, 1, 1, 1}}};
  if (!make_node("Conv", {x, w}, attributes)[0].ok()) {
    state.SkipWithError("Conv construction failed");
    return;
  }
  for (auto _ : state) {
    std::vector<Var> y = make_node("Conv", {x, w}, attributes);
    benchmark::DoNotOptimize(y);
  }
  ReportConstruction(state, graph);
}
BENCHMARK(BM_ConvConstruct);

void BM_ReshapeConstruct(benchmark::State& state) {
  Graph graph(GraphOptions{.propagate_values = false});
  const Var x = graph.argument("x", DataType::kFloat, {64, 64});
  const Var shape = graph.constant(Tensor::from_vector<int64_t>({-1, 16}));
  if (op::Reshape(x, shape).shape() != std::vector<int64_t>{256, 16}) {
    state.SkipWithError("Reshape did not infer [256,16]");
    return;
  }
  for (auto _ : state) {
    Var y = op::Reshape(x, shape);
    benchmark::DoNotOptimize(y);
  }
  ReportConstruction(state, graph);
}
BENCHMARK(BM_ReshapeConstruct);

// Slice of a known shape by constant bounds, with its native rule and, beside it, with ONNX's
// inference and data propagation functions (the ratio of the two is what the rule saves).
void SliceConstruct(benchmark::State& state) {
  Graph graph(GraphOptions{.propagate_values = false});
  const Var x = graph.argument("x", DataType::kFloat, {1, 64, 56, 56});
  const Var starts = graph.constant(Tensor::from_vector<int64_t>({1, 0}));
  const Var ends = graph.constant(Tensor::from_vector<int64_t>({-1, 28}));
  const Var axes = graph.constant(Tensor::from_vector<int64_t>({2, 3}));
  if (make_node("Slice", {x, starts, ends, axes})[0].shape() !=
      std::vector<int64_t>{1, 64, 54, 28}) {
    state.SkipWithError("Slice did not infer [1,64,54,28]");
    return;
  }
  for (auto _ : state) {
    std::vector<Var> y = make_node("Slice", {x, starts, ends, axes});
    benchmark::DoNotOptimize(y);
  }
  ReportConstruction(state, graph);
}

void BM_SliceConstruct(benchmark::State& state) { SliceConstruct(state); }
BENCHMARK(BM_SliceConstruct);

void BM_SliceConstructOnnxInference(benchmark::State& state) {
  const internal::ScopedSchemaInferenceOnly onnx_functions;
  SliceConstruct(state);
}
BENCHMARK(BM_SliceConstructOnnxInference);

// Control flow: an If whose branches hold one node each — two bodies built, typed through ONNX's
// If inference and its GraphInferencer (three nodes per iteration).
void BM_IfConstruct(benchmark::State& state) {
  Graph graph(GraphOptions{.propagate_values = false});
  const Var cond = graph.argument("cond", DataType::kBool, {});
  const Var x = graph.argument("x", DataType::kFloat, {64, 64});
  using Vars = std::vector<Var>;
  auto make_if = [&] {
    return op::If(cond, {.else_branch = [&] { return Vars{op::Neg(x)}; },
                         .then_branch = [&] { return Vars{op::Relu(x)}; }});
  };
  if (!make_if()[0].ok()) {
    state.SkipWithError("If construction failed");
    return;
  }
  for (auto _ : state) {
    Vars y = make_if();
    benchmark::DoNotOptimize(y);
  }
  ReportConstruction(state, graph);
}
BENCHMARK(BM_IfConstruct);

}  // namespace

int RunMicroBenchmarks(std::vector<char*> args) {
  int argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(argc, args.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace graphgc::bench
