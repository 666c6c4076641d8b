// The arena: append-only records, strong IDs, interning, attributes, and its measured footprint.
#include "graphgc/ir/arena.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"

namespace graphgc::internal {
namespace {

TEST(ArenaTest, NodesAndVarsGetConsecutiveIds) {
  Arena arena;
  const VarId x = arena.add_argument(arena.intern("x"), DataType::kFloat, Shape{2, 3});
  const OpKindId add = arena.intern_op("Add", "", 14);
  const VarId inputs[] = {x, x};
  const NodeId n0 = arena.add_node(add, inputs, {}, 1);
  const NodeId n1 = arena.add_node(add, inputs, {}, 2);
  EXPECT_EQ(n0.value(), 0u);
  EXPECT_EQ(n1.value(), 1u);
  EXPECT_EQ(arena.node_output(n0, 0).value(), 1u);
  EXPECT_EQ(arena.node_output(n1, 1).value(), 3u);
  EXPECT_EQ(arena.var_producer(arena.node_output(n1, 1)), n1);
  EXPECT_EQ(arena.var_output_index(arena.node_output(n1, 1)), 1);
  EXPECT_EQ(arena.node_num_inputs(n1), 2);
  EXPECT_EQ(arena.node_input(n1, 1), x);
  EXPECT_EQ(arena.var_kind(x), VarKind::kArgument);
  EXPECT_FALSE(arena.var_producer(x).valid());
  EXPECT_EQ(arena.op_kind(arena.node_op(n0)).op_type, "Add");
  EXPECT_EQ(arena.num_nodes(), 2u);
  EXPECT_EQ(arena.num_vars(), 4u);
}

TEST(ArenaTest, TypesAndUnknownDims) {
  Arena arena;
  const VarId x = arena.add_argument(arena.intern("x"), DataType::kInt64, Shape{-1, 4});
  EXPECT_EQ(arena.var_dtype(x), DataType::kInt64);
  EXPECT_EQ(*arena.var_shape(x), (Shape{-1, 4}));
  const VarId y = arena.add_argument(arena.intern("y"), DataType::kFloat, std::nullopt);
  EXPECT_FALSE(arena.var_shape(y).has_value());
  EXPECT_FALSE(arena.var_rank(y).has_value());
  const VarId s = arena.add_argument(arena.intern("s"), DataType::kFloat, Shape{});
  EXPECT_EQ(*arena.var_rank(s), 0);
}

TEST(ArenaTest, InterningIsStable) {
  Arena arena;
  const StringId a = arena.intern("alpha");
  for (int i = 0; i < 10000; ++i) arena.intern("s" + std::to_string(i));
  EXPECT_EQ(arena.intern("alpha"), a);
  EXPECT_EQ(arena.string(a), "alpha");
  EXPECT_EQ(arena.intern_op("Mul", "", 14), arena.intern_op("Mul", "", 14));
  EXPECT_NE(arena.intern_op("Mul", "", 14), arena.intern_op("Mul", "", 13));
  EXPECT_NE(arena.intern_op("Mul", "", 14), arena.intern_op("Mul", "custom", 14));
}

// The kind cache is keyed by the text's address: a buffer that held one op type and then another
// (a user's std::string, rewritten) must not give the first kind for the second text.
TEST(ArenaTest, ARewrittenBufferGivesTheKindOfItsNewText) {
  Arena arena;
  std::string op_type = "Abc";
  const OpKindId abc = arena.intern_op(op_type, "", 1);
  op_type[2] = 'd';  // same address, same length, other text
  const OpKindId abd = arena.intern_op(op_type, "", 1);
  EXPECT_NE(abc, abd);
  EXPECT_EQ(arena.op_kind(abd).op_type, "Abd");
  EXPECT_EQ(arena.intern_op(op_type, "", 2), arena.intern_op("Abd", "", 2));
  EXPECT_NE(arena.intern_op(op_type, "", 2), abd);   // the version is part of the kind
  EXPECT_NE(arena.intern_op(op_type, "x", 1), abd);  // so is the domain
  // Many literals at once: every one keeps its kind, whichever share a cache slot.
  std::vector<std::string> texts;
  for (int i = 0; i < 300; ++i) texts.push_back(absl::StrCat("Op", i));
  std::vector<OpKindId> kinds;
  for (const std::string& text : texts) kinds.push_back(arena.intern_op(text, "", 1));
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < texts.size(); ++i) {
      ASSERT_EQ(arena.intern_op(texts[i], "", 1), kinds[i]) << texts[i];
      ASSERT_EQ(arena.op_kind(kinds[i]).op_type, texts[i]);
    }
  }
}

// Interning remembers the last shape; vars typed alternately with shapes that differ in a dim, in
// rank or not at all must each read back their own.
TEST(ArenaTest, ShapesReadBackWhateverWasInternedBefore) {
  Arena arena;
  const std::vector<Shape> shapes = {{2, 3}, {3, 2}, {2, 3}, {2, 3, 1}, {2}, {}, {2, 3}, {-1, 3}};
  std::vector<VarId> vars;
  for (const Shape& shape : shapes) {
    vars.push_back(
        arena.add_argument(arena.intern(absl::StrCat("a", vars.size())), DataType::kFloat, shape));
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    ASSERT_TRUE(arena.var_shape(vars[i]).has_value());
    EXPECT_EQ(*arena.var_shape(vars[i]), shapes[i]) << i;
    std::optional<Shape> read = Shape{9, 9, 9, 9, 9};  // overwritten, not appended to
    arena.read_var_shape(vars[i], read);
    EXPECT_EQ(read, shapes[i]) << i;
  }
  const VarId unranked = arena.add_argument(arena.intern("u"), DataType::kFloat, std::nullopt);
  std::optional<Shape> read = Shape{1};
  arena.read_var_shape(unranked, read);
  EXPECT_FALSE(read.has_value());
}

TEST(ArenaTest, OpKindsStopAtTheLimitWithoutAborting) {
  Arena arena;
  for (size_t i = 0; i < kMaxOpKinds; ++i) {
    ASSERT_TRUE(arena.intern_op("Op" + std::to_string(i), "d", 1).valid()) << i;
  }
  EXPECT_FALSE(arena.intern_op("OneMore", "d", 1).valid());
  EXPECT_TRUE(arena.intern_op("Op7", "d", 1).valid());  // an existing kind still resolves
}

TEST(ArenaTest, AttributesRoundTrip) {
  Arena arena;
  const Tensor t = Tensor::from_vector<int32_t>({1, 2});
  const std::vector<Attribute> attrs = {
      {"i", int64_t{-5}},
      {"f", 1.5f},
      {"s", std::string("text")},
      {"t", t},
      {"ints", std::vector<int64_t>{1, 2, 3}},
      {"floats", std::vector<float>{0.5f}},
      {"strings", std::vector<std::string>{"a", "b"}},
  };
  const NodeId node = arena.add_node(arena.intern_op("Custom", "my", 1), {}, attrs, 1);
  const std::vector<Attribute> back = arena.node_attributes(node);
  ASSERT_EQ(back.size(), attrs.size());
  for (size_t i = 0; i < attrs.size(); ++i) {
    EXPECT_EQ(back[i].name, attrs[i].name);
    EXPECT_EQ(back[i].value.index(), attrs[i].value.index());
  }
  EXPECT_EQ(std::get<int64_t>(*arena.node_attribute(node, "i")), -5);
  EXPECT_EQ(std::get<float>(*arena.node_attribute(node, "f")), 1.5f);
  EXPECT_EQ(std::get<std::string>(*arena.node_attribute(node, "s")), "text");
  EXPECT_EQ(std::get<Tensor>(*arena.node_attribute(node, "t")).buffer(), t.buffer());
  EXPECT_EQ(std::get<std::vector<int64_t>>(*arena.node_attribute(node, "ints")),
            (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(std::get<std::vector<std::string>>(*arena.node_attribute(node, "strings"))[1], "b");
  EXPECT_FALSE(arena.node_attribute(node, "missing").has_value());
}

TEST(ArenaTest, ConstantBytesAreCountedOnce) {
  Arena arena;
  const int64_t empty = arena.bytes();
  const Tensor t = Tensor::zeros(DataType::kDouble, {10000});
  const Attribute value{"value", t};
  const OpKindId constant = arena.intern_op("Constant", "", 13);
  arena.add_node(constant, {}, absl::Span<const Attribute>(&value, 1), 1);
  const int64_t one = arena.bytes();
  EXPECT_GE(one - empty, 80000);
  arena.add_node(constant, {}, absl::Span<const Attribute>(&value, 1), 1);
  EXPECT_LT(arena.bytes() - one, 80000);  // the same buffer again
}

// The target: under 64 bytes of arena per binary elementwise node, measured.
TEST(ArenaTest, BinaryNodeCostsUnder64Bytes) {
  GraphOptions options;
  options.propagate_values = false;
  Graph g(options);
  Var x = g.argument("x", DataType::kFloat, {64, 64});
  Var a = x;
  const int64_t n = 200000;
  for (int64_t i = 0; i < n; ++i) a = op::Add(a, x);
  const GraphStats stats = g.stats();
  EXPECT_EQ(stats.nodes, n);
  const double per_node = static_cast<double>(stats.arena_bytes) / static_cast<double>(stats.nodes);
  RecordProperty("arena_bytes_per_node", std::to_string(per_node));
  std::printf("arena bytes per binary node: %.2f\n", per_node);
  EXPECT_LT(per_node, 64.0);
}

}  // namespace
}  // namespace graphgc::internal
