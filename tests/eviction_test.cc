// Values on demand (GraphOptions::on_budget = OnBudget::kEvictAndRecompute): under a live-value
// cap, values of live vars are evicted instead of new ones being forgotten, and reading one
// computes it again. Every value read here is compared bit for bit with a graph that kept them all.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kFloatsPerMiB = kMiB / 4;

GraphOptions Evicting(int64_t cap, CollectPolicy policy = CollectPolicy::kAdaptive) {
  GraphOptions options;
  options.max_live_value_bytes = cap;
  options.on_budget = OnBudget::kEvictAndRecompute;
  options.collect_policy = policy;
  return options;
}

// Values that differ from element to element, so that a value computed from the wrong input shows.
Tensor Ramp(int64_t n, float scale, float offset) {
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = scale * (i % 251) + offset;
  return Tensor::from_vector(std::move(values), {n});
}

// `layers` layers of y = Tanh(y * w + b) over 1 MiB vectors, every intermediate kept: 3 MiB a
// layer, and 2 MiB of constants (x, w).
std::vector<Var> Layers(Graph& g, int layers) {
  const Var w = g.constant(Ramp(kFloatsPerMiB, 0.001f, 0.5f));
  const Var b = g.constant(Tensor::scalar<float>(0.25f));
  Var y = g.constant(Ramp(kFloatsPerMiB, 0.01f, -1.0f));
  std::vector<Var> kept;
  for (int i = 0; i < layers; ++i) {
    kept.push_back(op::Mul(y, w));
    kept.push_back(op::Add(kept.back(), b));
    kept.push_back(op::Tanh(kept.back()));
    y = kept.back();
  }
  return kept;
}

void ExpectSameValues(const std::vector<Var>& got, const std::vector<Var>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const std::optional<Tensor> value = got[i].value();
    ASSERT_TRUE(value.has_value()) << "value " << i << ": " << got[i].value_status();
    ASSERT_TRUE(want[i].value().has_value());
    EXPECT_TRUE(*value == *want[i].value()) << "value " << i << " differs";
  }
}

TEST(EvictionTest, EveryValueReadsAsInAGraphThatKeptThemAll) {
  Graph unbounded;
  const std::vector<Var> want = Layers(unbounded, 12);
  constexpr int64_t kCap = 8 * kMiB;  // 2 MiB of constants and 6 of values; 36 would be made
  Graph g(Evicting(kCap));
  const std::vector<Var> got = Layers(g, 12);
  GraphStats stats = g.stats();
  EXPECT_GT(stats.values_evicted, 0);
  EXPECT_EQ(stats.values_skipped_for_budget, 0);
  EXPECT_LE(stats.peak_value_bytes, kCap - 2 * kMiB);
  const absl::Status first = got[0].value_status();
  EXPECT_EQ(first.code(), absl::StatusCode::kUnavailable) << first;
  EXPECT_THAT(first.message(), HasSubstr("evicted to keep live values under"));
  EXPECT_THAT(first.message(), HasSubstr("value() computes it again"));

  ExpectSameValues(got, want);  // in the order they were made
  std::vector<Var> reversed(got.rbegin(), got.rend());
  std::vector<Var> want_reversed(want.rbegin(), want.rend());
  ExpectSameValues(reversed, want_reversed);  // and back
  stats = g.stats();
  EXPECT_GT(stats.values_recomputed, 0);
  EXPECT_GT(stats.recomputed_bytes, 0);
  EXPECT_GT(stats.recompute_ns, 0);
  EXPECT_LE(stats.peak_value_bytes, kCap - 2 * kMiB);
  EXPECT_TRUE(got.front().value_status().ok());  // the last one read is held
}

TEST(EvictionTest, OperandsThatWereEvictedAreReadAgainByLaterOps) {
  Graph unbounded;
  const std::vector<Var> want = Layers(unbounded, 6);
  Graph g(Evicting(6 * kMiB));
  const std::vector<Var> got = Layers(g, 6);
  ASSERT_FALSE(got[0].value_status().ok());  // evicted
  const Var sum = op::Add(got[0], got[4]);
  const Var want_sum = op::Add(want[0], want[4]);
  ASSERT_TRUE(sum.value().has_value()) << sum.value_status();
  EXPECT_TRUE(*sum.value() == *want_sum.value());
  EXPECT_EQ(sum.shape(), want_sum.shape());
  EXPECT_LE(g.stats().peak_value_bytes, 4 * kMiB);
}

TEST(EvictionTest, PinnedValuesAreNeverEvicted) {
  Graph g(Evicting(8 * kMiB));
  const Var w = g.constant(Ramp(kFloatsPerMiB, 0.001f, 0.5f));
  const Var first = op::Neg(w);
  ASSERT_TRUE(first.pin().ok());
  EXPECT_TRUE(first.pinned());
  std::vector<Var> kept;
  for (int i = 0; i < 12; ++i) kept.push_back(op::Add(w, g.constant(Tensor::scalar<float>(i))));
  EXPECT_TRUE(first.value_status().ok()) << first.value_status();
  EXPECT_GT(g.stats().values_evicted, 0);
  ASSERT_TRUE(first.unpin().ok());
  EXPECT_FALSE(first.pinned());
  EXPECT_EQ(first.unpin().code(), absl::StatusCode::kFailedPrecondition);
  for (int i = 0; i < 12; ++i) kept.push_back(op::Sub(w, g.constant(Tensor::scalar<float>(i))));
  EXPECT_EQ(first.value_status().code(), absl::StatusCode::kUnavailable);
  // Pinning an evicted value computes it again and keeps it.
  ASSERT_TRUE(first.pin().ok());
  EXPECT_TRUE(first.value_status().ok());
  for (int i = 0; i < 12; ++i) kept.push_back(op::Mul(w, g.constant(Tensor::scalar<float>(i))));
  EXPECT_TRUE(first.value_status().ok());
  EXPECT_TRUE(*first.value() == *op::Neg(w).value());
}

// 150 000 nodes between an evicted value and the constant it comes from: the recomputation plans
// with a worklist and runs in a loop, so its depth costs memory for the plan, not stack.
TEST(EvictionTest, AChainOfAHundredAndFiftyThousandNodesIsComputedAgain) {
  constexpr int kDepth = 150'000;
  Graph g(Evicting(16 * 1024, CollectPolicy::kAdaptive));
  const Tensor start = Ramp(1024, 0.5f, -3.0f);  // 4 KiB
  const Var c = g.constant(start);
  Var y = c;
  for (int i = 0; i < kDepth; ++i) y = op::Neg(y);  // each earlier value is garbage at once
  ASSERT_TRUE(y.value_status().ok()) << y.value_status();
  const Var other1 = op::Abs(c);
  const Var other2 = op::Sqrt(op::Abs(c));
  ASSERT_EQ(y.value_status().code(), absl::StatusCode::kUnavailable) << y.value_status();
  const int64_t recomputed_before = g.stats().values_recomputed;
  const std::optional<Tensor> value = y.value();
  ASSERT_TRUE(value.has_value()) << y.value_status();
  EXPECT_TRUE(*value == start);  // an even number of negations
  EXPECT_GE(g.stats().values_recomputed - recomputed_before, kDepth);
  EXPECT_LE(g.stats().peak_value_bytes, 16 * 1024);
}

CustomOp ScaleOp(const std::string& name, bool deterministic) {
  CustomOp op;
  op.domain = "com.graphgc.eviction_test";
  op.op_type = name;
  op.min_inputs = op.max_inputs = 1;
  op.deterministic = deterministic;
  op.infer = [](const CustomOpContext& c) -> absl::StatusOr<std::vector<TensorType>> {
    return std::vector<TensorType>{c.inputs[0]};
  };
  op.kernel = [](const CustomOpContext& c) -> std::optional<std::vector<Tensor>> {
    std::vector<float> out;
    for (float v : c.values[0]->data<float>()) out.push_back(3 * v);
    return std::vector<Tensor>{Tensor::from_vector<float>(out, c.values[0]->shape())};
  };
  return op;
}

TEST(EvictionTest, OnlyValuesThatCanBeComputedAgainAreEvicted) {
  ASSERT_TRUE(register_op(ScaleOp("Scale", /*deterministic=*/false)).ok());
  ASSERT_TRUE(register_op(ScaleOp("ScaleAgain", /*deterministic=*/true)).ok());
  Graph g(Evicting(7 * kMiB));
  const Var w = g.constant(Ramp(kFloatsPerMiB, 0.001f, 0.5f));  // 1 MiB
  const NodeOptions custom{.domain = "com.graphgc.eviction_test"};
  const Var fixed = make_node("Scale", {w}, {}, custom)[0];       // cannot be computed again
  const Var from_fixed = op::Neg(fixed);                          // nor can this
  const Var again = make_node("ScaleAgain", {w}, {}, custom)[0];  // can
  const Var from_again = op::Neg(again);                          // and so can this
  ASSERT_TRUE(from_again.value_status().ok());
  std::vector<Var> kept;
  for (int i = 0; i < 3; ++i) kept.push_back(op::Add(w, g.constant(Tensor::scalar<float>(i))));
  EXPECT_TRUE(fixed.value_status().ok());
  EXPECT_TRUE(from_fixed.value_status().ok());
  EXPECT_EQ(again.value_status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(from_again.value_status().code(), absl::StatusCode::kUnavailable);
  const std::optional<Tensor> recomputed = from_again.value();
  ASSERT_TRUE(recomputed.has_value()) << from_again.value_status();
  const Var expected = op::Neg(op::Mul(w, g.constant(Tensor::scalar(3.0f))));
  ASSERT_TRUE(expected.value().has_value()) << expected.value_status();
  EXPECT_TRUE(*recomputed == *expected.value());
  // With the values that must stay, the cap leaves room for no more than a few: a node that
  // cannot fit is dropped, and says so.
  const Var big = op::Concat(std::vector<Var>{w, w, w, w, w}, {.axis = 0});
  const absl::Status why = big.value_status();
  EXPECT_EQ(why.code(), absl::StatusCode::kResourceExhausted) << why;
  EXPECT_THAT(why.message(), HasSubstr("dropped to keep live values under"));
  EXPECT_THAT(why.message(), HasSubstr("of them constants"));
  EXPECT_GE(g.stats().values_skipped_for_budget, 1);
  EXPECT_LE(g.stats().peak_value_bytes, 6 * kMiB);
}

TEST(EvictionTest, ABudgetSmallerThanTheConstantsIsAClearStatus) {
  Graph g(Evicting(kMiB));
  const Var w = g.constant(Ramp(2 * kFloatsPerMiB, 0.001f, 0.5f));  // 2 MiB of constants
  const Var y = op::Neg(op::Slice(w, g.constant(Tensor::from_vector<int64_t>({0})),
                                  g.constant(Tensor::from_vector<int64_t>({4}))));
  const absl::Status why = y.value_status();
  EXPECT_FALSE(why.ok());
  EXPECT_THAT(why.message(), HasSubstr("max_live_value_bytes (1048576)")) << why;
}

// Under kManual nothing collects by itself: the values of dropped handles wait in the store, and
// eviction takes them first like any other; an explicit collection afterwards changes nothing
// for what is read.
TEST(EvictionTest, UnderManualCollectionGarbageIsEvictedToo) {
  Graph unbounded;
  const std::vector<Var> want = Layers(unbounded, 8);
  Graph g(Evicting(8 * kMiB, CollectPolicy::kManual));
  std::vector<Var> got = Layers(g, 8);
  EXPECT_LE(g.stats().peak_value_bytes, 6 * kMiB);
  got[1] = Var();  // a handle dropped: its value is garbage now
  g.collect(CollectMode::kEveryVar);
  std::vector<Var> kept_want = want;
  kept_want[1] = Var();
  for (size_t i = 0; i < got.size(); ++i) {
    if (i == 1) continue;
    ASSERT_TRUE(got[i].value().has_value()) << i << ": " << got[i].value_status();
    EXPECT_TRUE(*got[i].value() == *want[i].value()) << i;
  }
}

TEST(EvictionTest, EveryOutputOfANodeAndShapesOnlyOpsOfEvictedValues) {
  Graph unbounded;
  Graph g(Evicting(7 * kMiB));
  auto build = [](Graph& graph) {
    const Var w = graph.constant(Ramp(2 * kFloatsPerMiB, 0.001f, 0.5f));
    std::vector<Var> parts = op::Split(op::Neg(w), Var(), {.axis = 0, .num_outputs_ = 2}, 2);
    std::vector<Var> fill;
    for (int i = 0; i < 4; ++i)
      fill.push_back(op::Add(w, graph.constant(Tensor::scalar<float>(i))));
    parts.push_back(op::Shape(parts[0]));
    return parts;
  };
  const std::vector<Var> want = build(unbounded);
  const std::vector<Var> got = build(g);
  EXPECT_GT(g.stats().values_evicted, 0);
  ExpectSameValues(got, want);
}

TEST(EvictionTest, PrintingAnEvictedVarDoesNotComputeIt) {
  Graph g(Evicting(6 * kMiB));
  const std::vector<Var> got = Layers(g, 3);
  ASSERT_EQ(got[0].value_status().code(), absl::StatusCode::kUnavailable);
  const int64_t recomputed = g.stats().values_recomputed;
  std::ostringstream printed;
  printed << got[0];
  EXPECT_THAT(printed.str(), HasSubstr("(value evicted)"));
  EXPECT_EQ(g.stats().values_recomputed, recomputed);
}

TEST(EvictionTest, WithoutEvictionPinsOnlyCount) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, 2}));
  const Var y = op::Neg(x);
  ASSERT_TRUE(y.pin().ok());
  ASSERT_TRUE(y.pin().ok());
  EXPECT_TRUE(y.pinned());
  ASSERT_TRUE(y.unpin().ok());
  EXPECT_TRUE(y.pinned());
  ASSERT_TRUE(y.unpin().ok());
  EXPECT_FALSE(y.pinned());
  EXPECT_EQ(y.unpin().code(), absl::StatusCode::kFailedPrecondition);
  const Var arg = g.argument("a", DataType::kFloat, std::vector<int64_t>{2});
  EXPECT_EQ(arg.pin().code(), absl::StatusCode::kFailedPrecondition);  // no value to keep
  EXPECT_FALSE(Var().pin().ok());
  EXPECT_EQ(g.stats().values_evicted, 0);
}

// One value whose kernel is slow (a 1 GFLOP MatMul giving 1 MiB) made first, then cheap ones of
// the same size (Adds of 1 MiB), all kept, under a cap that holds four values: the least recently
// used value is the product, the cheapest to compute again per byte is any sum.
struct CostlyThenCheap {
  Var product;
  std::vector<Var> sums;
};

Tensor Matrix(int64_t rows, int64_t columns, float scale, float offset) {
  const Tensor ramp = Ramp(rows * columns, scale, offset);
  const absl::Span<const float> values = ramp.data<float>();
  return Tensor::from_vector(std::vector<float>(values.begin(), values.end()), {rows, columns});
}

CostlyThenCheap MakeCostlyThenCheap(Graph& g) {
  const Var a = g.constant(Matrix(256, 2048, 0.001f, -0.1f));   // 2 MiB
  const Var b = g.constant(Matrix(2048, 1024, 0.002f, -0.2f));  // 8 MiB
  const Var c = g.constant(Ramp(kFloatsPerMiB, 0.01f, 1.0f));   // 1 MiB
  CostlyThenCheap made;
  made.product = op::MatMul(a, b);
  for (int i = 0; i < 8; ++i) {
    made.sums.push_back(op::Add(c, g.constant(Tensor::scalar<float>(static_cast<float>(i)))));
  }
  return made;
}

GraphOptions EvictingWith(EvictionPolicy policy) {
  // 11 MiB of constants and 4 of values (and the scalars).
  GraphOptions options = Evicting(15 * kMiB + 64 * 1024);
  options.eviction_policy = policy;
  return options;
}

TEST(EvictionPolicyTest, LeastRecentlyUsedEvictsTheOldestValueHoweverCostly) {
  Graph g(EvictingWith(EvictionPolicy::kLeastRecentlyUsed));
  const CostlyThenCheap made = MakeCostlyThenCheap(g);
  EXPECT_GT(g.stats().values_evicted, 0);
  EXPECT_EQ(made.product.value_status().code(), absl::StatusCode::kUnavailable)
      << made.product.value_status();
  EXPECT_TRUE(made.sums.back().value_status().ok()) << made.sums.back().value_status();
}

TEST(EvictionPolicyTest, CheapestToRecomputePerByteKeepsTheCostlyValue) {
  Graph unbounded;
  const CostlyThenCheap want = MakeCostlyThenCheap(unbounded);
  Graph g(EvictingWith(EvictionPolicy::kCheapestToRecomputePerByte));
  const CostlyThenCheap got = MakeCostlyThenCheap(g);
  const GraphStats stats = g.stats();
  EXPECT_GE(stats.values_evicted, 5);  // 9 values of 1 MiB, 4 fit
  EXPECT_TRUE(got.product.value_status().ok()) << got.product.value_status();
  // Which sums went depends on their measured times (a first Add pays for fresh pages): five did.
  int evicted_sums = 0;
  for (const Var& sum : got.sums) {
    evicted_sums += sum.value_status().code() == absl::StatusCode::kUnavailable ? 1 : 0;
  }
  EXPECT_EQ(evicted_sums, 5);
  EXPECT_EQ(g.stats().values_recomputed, 0);
  ExpectSameValues(got.sums, want.sums);
  ExpectSameValues({got.product}, {want.product});
}

NamedVars Named(const std::vector<Var>& vars) {
  NamedVars named;
  for (size_t i = 0; i < vars.size(); ++i) named.emplace_back(absl::StrCat("v", i), vars[i]);
  return named;
}

TEST(EvictionTest, AnExportWritesEvictedValuesComputedAgainUnderTheCap) {
  Graph unbounded;
  const std::vector<Var> want = Layers(unbounded, 12);
  constexpr int64_t kCap = 8 * kMiB;
  Graph g(Evicting(kCap));
  const std::vector<Var> got = Layers(g, 12);
  ASSERT_GT(g.stats().values_evicted, 0);
  const int64_t recomputed_before = g.stats().values_recomputed;
  ExportOptions options;
  options.values_as_initializers = true;
  const absl::StatusOr<onnx::ModelProto> expected = to_onnx(unbounded, Named(want), options);
  const absl::StatusOr<onnx::ModelProto> exported = to_onnx(g, Named(got), options);
  ASSERT_TRUE(expected.ok()) << expected.status();
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_GE(exported->graph().initializer_size(), 36);  // every value, and the constants
  EXPECT_EQ(exported->SerializeAsString(), expected->SerializeAsString());
  const GraphStats stats = g.stats();
  EXPECT_GT(stats.values_recomputed, recomputed_before);
  EXPECT_LE(stats.peak_value_bytes, kCap - 2 * kMiB);

  // write_var chooses without the values: only the Tanh outputs, the rest made by their nodes.
  std::vector<VarId> tanh_outputs;
  for (size_t i = 2; i < got.size(); i += 3) tanh_outputs.push_back(got[i].id());
  options.write_var = [&tanh_outputs](VarId var) {
    return std::find(tanh_outputs.begin(), tanh_outputs.end(), var) != tanh_outputs.end();
  };
  const absl::StatusOr<onnx::ModelProto> chosen = to_onnx(g, Named(got), options);
  ASSERT_TRUE(chosen.ok()) << chosen.status();
  EXPECT_EQ(chosen->graph().initializer_size(), 12);
}

// Six 1 MiB sums beside 9 MiB of constants under a 4 MiB cap: with the constants counted nothing
// fits; left out (as graphgc-fold leaves the model's weights out), the sums are evicted and read.
std::vector<Var> SumsBesideLargeConstants(Graph& g) {
  const Var unread = g.constant(Ramp(8 * kFloatsPerMiB, 0.001f, 0.0f));
  const Var c = g.constant(Ramp(kFloatsPerMiB, 0.01f, 1.0f));
  std::vector<Var> sums;
  for (int i = 0; i < 6; ++i) {
    sums.push_back(op::Add(c, g.constant(Tensor::scalar<float>(static_cast<float>(i)))));
  }
  return sums;
}

TEST(EvictionTest, ConstantsCanBeLeftOutOfTheBudget) {
  Graph unbounded;
  const std::vector<Var> want = SumsBesideLargeConstants(unbounded);
  Graph counted(Evicting(4 * kMiB));
  const std::vector<Var> dropped = SumsBesideLargeConstants(counted);
  EXPECT_EQ(dropped[0].value_status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(dropped[0].value_status().message()), HasSubstr("constants"));

  GraphOptions options = Evicting(4 * kMiB);
  options.budget_counts_constants = false;
  Graph g(options);
  const std::vector<Var> got = SumsBesideLargeConstants(g);
  EXPECT_GT(g.stats().values_evicted, 0);
  EXPECT_LE(g.stats().peak_value_bytes, 4 * kMiB);
  ExpectSameValues(got, want);
}

}  // namespace
}  // namespace graphgc
