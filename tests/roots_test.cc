// Var handles as RAII roots: copy adds a root, move transfers it, destruction removes it.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/ir/graph_core.h"

namespace graphgc {
namespace {

int32_t Roots(const Var& var) { return var.core()->root_count(var.id()); }

TEST(RootsTest, CopyAddsARoot) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  EXPECT_EQ(Roots(x), 1);
  Var y = x;
  EXPECT_EQ(Roots(x), 2);
  {
    Var z(y);
    EXPECT_EQ(Roots(x), 3);
  }
  EXPECT_EQ(Roots(x), 2);
}

TEST(RootsTest, MoveTransfersTheRoot) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  const VarId id = x.id();
  internal::GraphCore* core = x.core();
  Var y = std::move(x);
  EXPECT_EQ(core->root_count(id), 1);
  EXPECT_TRUE(x.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  EXPECT_FALSE(x.ok());
  Var z;
  z = std::move(y);
  EXPECT_EQ(core->root_count(id), 1);
  EXPECT_TRUE(y.empty());  // NOLINT(bugprone-use-after-move)
}

TEST(RootsTest, AssignmentMovesRootsBetweenVars) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  Var y = g.argument("y", DataType::kFloat, {2});
  const VarId x_id = x.id();
  internal::GraphCore* core = x.core();
  Var handle = x;
  EXPECT_EQ(core->root_count(x_id), 2);
  handle = y;
  EXPECT_EQ(core->root_count(x_id), 1);
  EXPECT_EQ(Roots(y), 2);
  handle = handle;  // self-assignment keeps the count
  EXPECT_EQ(Roots(y), 2);
}

TEST(RootsTest, ContainersOfVarsKeepCountsExact) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2});
  std::vector<Var> many(100, x);
  EXPECT_EQ(Roots(x), 101);
  many.resize(10);
  EXPECT_EQ(Roots(x), 11);
  many.reserve(1000);  // reallocation moves, adds no roots
  EXPECT_EQ(Roots(x), 11);
  many.clear();
  EXPECT_EQ(Roots(x), 1);
}

TEST(RootsTest, DefaultVarIsEmpty) {
  Var v;
  EXPECT_TRUE(v.empty());
  EXPECT_FALSE(v.ok());
  EXPECT_FALSE(v.status().ok());
  EXPECT_EQ(v.dtype(), DataType::kUndefined);
  EXPECT_FALSE(v.shape().has_value());
  EXPECT_FALSE(v.value().has_value());
}

TEST(RootsTest, VarOutlivesItsGraph) {
  Var survivor;
  Var copy;
  {
    Graph g;
    survivor = g.constant(Tensor::from_vector<float>({1, 2}));
    copy = op::Add(survivor, survivor);
    ASSERT_TRUE(copy.value().has_value());
  }
  EXPECT_FALSE(survivor.ok());
  EXPECT_EQ(survivor.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(survivor.dtype(), DataType::kUndefined);
  EXPECT_FALSE(survivor.value().has_value());
  EXPECT_FALSE(survivor.shape().has_value());
  Var more = survivor;  // copying and destroying handles of a dead graph stays defined
  Var sum = op::Add(more, copy);
  EXPECT_FALSE(sum.ok());
  EXPECT_NE(sum.status().message().find("Add"), std::string::npos);
  EXPECT_NE(sum.status().message().find("destroyed"), std::string::npos);
}

TEST(RootsTest, MovedGraphKeepsItsVars) {
  Graph g;
  Var x = g.constant(Tensor::from_vector<float>({1, 2}));
  Graph moved = std::move(g);
  Var y = op::Neg(x);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y.value()->data<float>()[1], -2.0f);
  EXPECT_EQ(moved.stats().nodes, 2);
  EXPECT_EQ(g.stats().nodes, 0);  // NOLINT(bugprone-use-after-move): moved-from graph is inert
  EXPECT_FALSE(g.argument("z", DataType::kFloat, {1}).ok());
  g = std::move(moved);
  EXPECT_TRUE(op::Neg(y).ok());
}

}  // namespace
}  // namespace graphgc
