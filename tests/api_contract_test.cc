// The promises of the README's "The contract", as a user writes them, through the umbrella
// header only.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>

#include "graphgc/graphgc.h"

namespace gg = graphgc;

namespace {

TEST(ApiContractTest, TheDocumentedExampleWorks) {
  gg::Tensor t = gg::Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  gg::Tensor z = gg::Tensor::zeros(gg::DataType::kDouble, {10000});
  EXPECT_EQ(t.dtype(), gg::DataType::kFloat);
  EXPECT_EQ(t.shape().size(), 2u);
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.nbytes(), 24u);
  EXPECT_EQ(t.data<float>()[0], 1.0f);
  EXPECT_EQ(z.nbytes(), 80000u);

  gg::Graph g;
  gg::Var x = g.argument("x", gg::DataType::kFloat, {2, -1});
  gg::Var c = g.constant(t);
  gg::Var y = gg::op::Relu(gg::op::Add(x, c));
  gg::Var e;
  EXPECT_FALSE(e.ok());
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_TRUE(y.status().ok());
  EXPECT_EQ(y.dtype(), gg::DataType::kFloat);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_FALSE(y.value().has_value());  // x has no value

  gg::Var k = gg::op::Relu(gg::op::Neg(c));
  ASSERT_TRUE(k.value().has_value());
  EXPECT_EQ(k.value()->data<float>()[0], 0.0f);

  gg::CollectStats cs = g.collect();
  EXPECT_GE(cs.freed_values, 1);  // Neg(c) is unreachable
  EXPECT_EQ(cs.live_values, 1);
  EXPECT_EQ(cs.live_bytes, 24);
  EXPECT_GE(cs.freed_bytes, 24);

  gg::GraphStats s = g.stats();
  EXPECT_EQ(s.nodes, 5);
  EXPECT_EQ(s.vars, 6);
  EXPECT_GT(s.arena_bytes, 0);
  EXPECT_EQ(s.live_value_bytes, 24);
  EXPECT_EQ(s.peak_value_bytes, 48);

  gg::Var zc = g.constant(z);
  absl::StatusOr<onnx::ModelProto> m = gg::to_onnx(g, {{"y", y}, {"z", zc}});
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->ir_version(), 12);  // op:: builds at opset 24, which came with IR 12
  EXPECT_EQ(m->opset_import(0).version(), 24);
  EXPECT_EQ(m->graph().input(0).name(), "x");
  EXPECT_EQ(m->graph().output(0).name(), "y");
  EXPECT_EQ(m->graph().output(1).name(), "z");
}

TEST(ApiContractTest, ExportTakesAnyRangeOfNamedVars) {
  gg::Graph g;
  gg::Var x = g.argument("x", gg::DataType::kFloat, {3});
  std::map<std::string, gg::Var> outputs = {{"b", gg::op::Neg(x)}, {"a", gg::op::Relu(x)}};
  absl::StatusOr<onnx::ModelProto> m = gg::to_onnx(g, outputs);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->graph().output_size(), 2);
  EXPECT_EQ(m->graph().output(0).name(), "a");
  gg::NamedVars named = {{"n", gg::op::Neg(x)}};
  EXPECT_TRUE(gg::to_onnx(g, named).ok());
}

TEST(ApiContractTest, ErrorsNameTheOpAndTheTypes) {
  gg::Graph g;
  gg::Var f = g.argument("f", gg::DataType::kFloat, {2});
  gg::Var d = g.argument("d", gg::DataType::kDouble, {2});
  const gg::GraphStats before = g.stats();
  gg::Var bad = gg::op::Add(f, d);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(g.stats().nodes, before.nodes);  // the graph is exactly as it was
  EXPECT_EQ(g.stats().vars, before.vars);
  const std::string message(bad.status().message());
  EXPECT_NE(message.find("Add"), std::string::npos) << message;
  EXPECT_NE(message.find("float"), std::string::npos) << message;
  EXPECT_NE(message.find("double"), std::string::npos) << message;
  EXPECT_EQ(bad.dtype(), gg::DataType::kUndefined);
  // Nothing else is affected, and an output depending on the failure reports it.
  gg::Var good = gg::op::Neg(f);
  EXPECT_TRUE(gg::to_onnx(g, {{"good", good}}).ok());
  absl::StatusOr<onnx::ModelProto> failed = gg::to_onnx(g, {{"bad", gg::op::Relu(bad)}});
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("Add"), std::string::npos);
}

TEST(ApiContractTest, OptionsAreDesignatedInitializable) {
  gg::Graph g(gg::GraphOptions{.propagate_values = true,
                               .keep_all_values = false,
                               .collect_policy = gg::CollectPolicy::kAdaptive});
  gg::Var v = gg::op::Cast(g.constant(gg::Tensor::from_vector<int32_t>({1, 2})),
                           {.to = gg::DataType::kFloat});
  EXPECT_EQ(v.value()->data<float>()[1], 2.0f);
}

TEST(ApiContractTest, ValuesOnDemandKeepTheRootsContract) {
  gg::Graph g(gg::GraphOptions{.max_live_value_bytes = 1 << 20,
                               .on_budget = gg::OnBudget::kEvictAndRecompute});
  gg::Var c = g.constant(gg::Tensor::zeros(gg::DataType::kFloat, {1 << 16}));  // 256 KiB
  std::vector<gg::Var> kept;
  for (int i = 0; i < 8; ++i) kept.push_back(gg::op::Add(c, g.constant(gg::Tensor::scalar(1.0f))));
  g.collect();
  const gg::GraphStats stats = g.stats();
  EXPECT_GT(stats.values_evicted, 0);
  // Exact accounting holds for the values held; the evicted ones are held by nobody.
  EXPECT_EQ(stats.live_value_bytes, stats.live_values * (256 << 10));
  for (const gg::Var& v : kept) ASSERT_TRUE(v.value().has_value()) << v.value_status();
  ASSERT_TRUE(kept[0].pin().ok());
  EXPECT_TRUE(kept[0].unpin().ok());
}

TEST(ApiContractTest, ThreadsBuildIndependentGraphs) {
  auto build = [](double* result) {
    gg::Graph g;
    gg::Var a = g.constant(gg::Tensor::from_vector<double>({1.5}));
    for (int i = 0; i < 2000; ++i) a = gg::op::Add(a, g.constant(gg::Tensor::scalar<double>(1)));
    *result = a.value()->data<double>()[0];
  };
  double r1 = 0, r2 = 0;
  std::thread t1(build, &r1);
  std::thread t2(build, &r2);
  t1.join();
  t2.join();
  EXPECT_EQ(r1, 2001.5);
  EXPECT_EQ(r2, 2001.5);
}

}  // namespace
