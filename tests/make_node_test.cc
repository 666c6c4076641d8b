// make_node: any ONNX operator by name, checked against its schema and inferred by ONNX's own
// inference functions; values propagate through the native kernels, shape computations included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graphgc/graphgc.h"
#include "graphgc/opset/build/node.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Dims = std::vector<int64_t>;

std::string Message(const Var& var) { return std::string(var.status().message()); }

TEST(MakeNodeTest, InfersWithTheSchema) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {1, 3, 32, 32});
  Var w = g.argument("w", DataType::kFloat, {8, 3, 3, 3});
  std::vector<Var> y = make_node("Conv", {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
  ASSERT_EQ(y.size(), 1u);
  ASSERT_TRUE(y[0].ok()) << y[0].status();
  EXPECT_EQ(y[0].dtype(), DataType::kFloat);
  EXPECT_EQ(y[0].shape(), (Dims{1, 8, 32, 32}));
}

TEST(MakeNodeTest, SeveralOutputs) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {4, 10});
  Var k = g.constant(Tensor::from_vector<int64_t>({3}));
  std::vector<Var> out = make_node("TopK", {x, k}, {}, {.num_outputs = 2});
  ASSERT_EQ(out.size(), 2u);
  ASSERT_TRUE(out[1].ok()) << out[1].status();
  EXPECT_EQ(out[0].shape(), (Dims{4, 3}));
  EXPECT_EQ(out[1].dtype(), DataType::kInt64);
  EXPECT_EQ(make_node("TopK", {x, k}).size(), 2u);  // default: the schema's required outputs
}

TEST(MakeNodeTest, OmittedOptionalInputs) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {5});
  Var max = g.constant(Tensor::scalar<float>(1));
  std::vector<Var> clipped = make_node("Clip", {x, Var(), max});
  ASSERT_TRUE(clipped[0].ok()) << clipped[0].status();
  EXPECT_EQ(clipped[0].shape(), (Dims{5}));
  auto model = to_onnx(g, {{"c", clipped[0]}});
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_THAT(model->graph().node(1).input(), ElementsAre("x", "", ::testing::_));
}

TEST(MakeNodeTest, ShapeComputationsYieldStaticShapes) {
  Graph g(GraphOptions{.propagate_values = true});
  Var x = g.argument("x", DataType::kFloat, {2, 3, 4});  // no value: only its shape is known
  Var shape = make_node("Shape", {x})[0];
  ASSERT_TRUE(shape.value().has_value());
  Var batch = make_node("Gather", {shape, g.constant(Tensor::from_vector<int64_t>({0}))})[0];
  Var rest = g.constant(Tensor::from_vector<int64_t>({-1}));
  Var target = make_node("Concat", {batch, rest}, {{"axis", int64_t{0}}})[0];
  ASSERT_TRUE(target.value().has_value()) << target.status();
  EXPECT_THAT(target.value()->data<int64_t>(), ElementsAre(2, -1));
  Var flat = op::Reshape(x, target);
  EXPECT_EQ(flat.shape(), (Dims{2, 12}));
  Var size = make_node("Size", {x})[0];
  EXPECT_EQ(size.value()->data<int64_t>()[0], 24);
}

// ONNX's data propagation: the known dims of a partly known shape flow through Shape, Gather,
// Concat and arithmetic; what becomes fully known is a value, the rest sharpens inference.
TEST(MakeNodeTest, PartlyKnownShapesFlowThroughShapeComputations) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {-1, 3, 4});
  Var shape = make_node("Shape", {x})[0];
  EXPECT_FALSE(shape.value().has_value());  // the batch dim is unknown
  Var channels = make_node("Gather", {shape, g.constant(Tensor::scalar<int64_t>(1))})[0];
  ASSERT_TRUE(channels.value().has_value()) << "fully known: a value";
  EXPECT_EQ(channels.value()->data<int64_t>()[0], 3);
  Var last_two = make_node("Slice", {shape, g.constant(Tensor::from_vector<int64_t>({1})),
                                     g.constant(Tensor::from_vector<int64_t>({3}))})[0];
  ASSERT_TRUE(last_two.value().has_value()) << last_two.status();
  EXPECT_THAT(last_two.value()->data<int64_t>(), ElementsAre(3, 4));
  Var features =
      op::Mul(make_node("Gather", {last_two, g.constant(Tensor::from_vector<int64_t>({0}))})[0],
              make_node("Gather", {last_two, g.constant(Tensor::from_vector<int64_t>({1}))})[0]);
  ASSERT_TRUE(features.value().has_value());
  Var batch = make_node("Gather", {shape, g.constant(Tensor::from_vector<int64_t>({0}))})[0];
  EXPECT_FALSE(batch.value().has_value());
  // [batch, 12]: the batch stays unknown, 12 is known through the value of `features`.
  Var target = make_node("Concat", {batch, features}, {{"axis", int64_t{0}}})[0];
  ASSERT_TRUE(target.ok()) << target.status();
  EXPECT_FALSE(target.value().has_value());
  EXPECT_EQ(op::Reshape(x, target).shape(), (Dims{-1, 12}));                    // native inference
  EXPECT_EQ(make_node("Reshape", {x, target}, {}, {.version = 14})[0].shape(),  // ONNX's
            (Dims{-1, 12}));
  auto model = to_onnx(g, {{"y", op::Reshape(x, target)}});
  ASSERT_TRUE(model.ok()) << model.status();
}

// Shape data becomes a value once it is complete, so it must never stand for a value the ops do not
// give: a dim past int32 cast to int32 wraps (ONNX's propagation passes it through unchanged), and
// a Gather index past int is out of range (ONNX's propagation truncates it to an int).
TEST(MakeNodeTest, ShapeDataNeverBecomesAWrongValue) {
  Graph g;
  const int64_t big = int64_t{3} << 30;  // past int32
  Var x = g.argument("x", DataType::kFloat, {-1, big});
  Var shape = make_node("Shape", {x})[0];
  ASSERT_FALSE(shape.value().has_value());
  auto second = [&](const Var& of) {
    return make_node("Gather", {of, g.constant(Tensor::from_vector<int64_t>({1}))})[0];
  };
  const int64_t int32 = static_cast<int64_t>(DataType::kInt32);
  const int64_t int64 = static_cast<int64_t>(DataType::kInt64);
  Var wide = make_node("Cast", {second(make_node("Cast", {shape}, {{"to", int32}})[0])},
                       {{"to", int64}})[0];
  ASSERT_TRUE(wide.ok()) << wide.status();
  if (wide.value().has_value()) {
    EXPECT_EQ(wide.value()->data<int64_t>()[0], static_cast<int32_t>(big)) << "not the cast";
  }
  // A dim that the cast keeps flows on to a value.
  Var y = g.argument("y", DataType::kFloat, {-1, 7});
  Var kept = make_node(
      "Cast", {second(make_node("Cast", {make_node("Shape", {y})[0]}, {{"to", int32}})[0])},
      {{"to", int64}})[0];
  ASSERT_TRUE(kept.value().has_value()) << kept.status();
  EXPECT_EQ(kept.value()->data<int64_t>()[0], 7);
  // int32 arithmetic wraps; ONNX's data propagation adds and multiplies in int64.
  Var z = g.argument("z", DataType::kFloat, {-1, 2147483647});
  Var dim32 = second(make_node("Cast", {make_node("Shape", {z})[0]}, {{"to", int32}})[0]);
  for (const char* op : {"Add", "Mul"}) {
    for (const int version : {14, 13}) {
      Var sum = make_node(op, {dim32, g.constant(Tensor::from_vector<int32_t>({2}))}, {},
                          {.version = version})[0];
      ASSERT_TRUE(sum.ok()) << sum.status();
      Var widened = make_node("Cast", {sum}, {{"to", int64}})[0];
      if (widened.value().has_value()) {
        const int32_t wrapped = op == std::string("Add") ? static_cast<int32_t>(2147483647u + 2u)
                                                         : static_cast<int32_t>(4294967294u);
        EXPECT_EQ(widened.value()->data<int64_t>()[0], wrapped) << op << "-" << version;
      }
    }
  }
  // Index 2^32 + 1 is out of range, not index 1.
  Var far = make_node(
      "Gather", {shape, g.constant(Tensor::from_vector<int64_t>({(int64_t{1} << 32) + 1}))})[0];
  EXPECT_FALSE(far.ok() && far.value().has_value())
      << "gathered " << far.value()->data<int64_t>()[0];
}

// ONNX's Slice inference (10 to 24) takes an axes or steps input that has neither a value nor a
// shape as left out, and slices the leading axes: [10, 20] by [0:5] on axes [1] would be [5, 20],
// and Shape of it the wrong value [5, 20]. No dim is known there.
TEST(MakeNodeTest, SliceNeverGuessesAxesItDoesNotKnow) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {10, 20});
  Var starts = g.constant(Tensor::from_vector<int64_t>({0}));
  Var ends = g.constant(Tensor::from_vector<int64_t>({5}));
  Var axes = g.argument_unranked("axes", DataType::kInt64);
  Var steps = g.argument_unranked("steps", DataType::kInt64);
  Var one = g.constant(Tensor::from_vector<int64_t>({1}));
  Var zero = g.constant(Tensor::from_vector<int64_t>({0}));
  for (const int version : {10, 11, 13, 24}) {
    for (const std::vector<Var>& in :
         {std::vector<Var>{x, starts, ends, axes}, std::vector<Var>{x, starts, ends, axes, one},
          std::vector<Var>{x, starts, ends, zero, steps}}) {
      Var y = make_node("Slice", in, {}, {.version = version})[0];
      ASSERT_TRUE(y.ok()) << y.status();
      ASSERT_TRUE(y.shape().has_value()) << "Slice-" << version;
      EXPECT_EQ(*y.shape(), (Dims{-1, -1})) << "Slice-" << version << " of " << in.size();
      EXPECT_FALSE(make_node("Shape", {y})[0].value().has_value()) << "Slice-" << version;
    }
  }
}

// Pad (18 to 24) likewise: ONNX's inference pads every axis in order when its axes input has
// neither a value nor a shape, so pads for axes [1, 0] would go to [0, 1]. No dim is known.
TEST(MakeNodeTest, PadNeverGuessesAxesItDoesNotKnow) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {10, 20});
  Var pads = g.constant(Tensor::from_vector<int64_t>({1, 0, 1, 0}));
  Var axes = g.argument_unranked("axes", DataType::kInt64);
  for (const int version : {18, 19, 21, 23, 24}) {
    Var y = make_node("Pad", {x, pads, Var(), axes}, {}, {.version = version})[0];
    ASSERT_TRUE(y.ok()) << y.status();
    if (y.shape().has_value()) EXPECT_EQ(*y.shape(), (Dims{-1, -1})) << "Pad-" << version;
    EXPECT_FALSE(make_node("Shape", {y})[0].value().has_value()) << "Pad-" << version;
  }
}

// ONNX's Split inference reads the split dim into an int: [2^32 + 4] came out as two parts of 2.
TEST(MakeNodeTest, SplitNeverTruncatesTheDimItSplits) {
  Graph g;
  const int64_t big = (int64_t{1} << 32) + 4;
  Var x = g.argument("x", DataType::kFloat, {3, big});
  Var halves = g.constant(Tensor::from_vector<int64_t>({big / 2, big / 2}));
  for (const int version : {1, 2, 11, 13, 18, 24}) {
    for (const int64_t axis : {1, -1}) {
      std::vector<Attribute> attributes = {{"axis", axis}};
      std::vector<Var> in = {x};
      if (version >= 18) {
        attributes.push_back({"num_outputs", int64_t{2}});
      } else if (version >= 13) {
        in.push_back(halves);
      } else {
        attributes.push_back({"split", std::vector<int64_t>{big / 2, big / 2}});
      }
      std::vector<Var> parts =
          make_node("Split", in, attributes, {.version = version, .num_outputs = 2});
      for (const Var& part : parts) {
        ASSERT_TRUE(part.ok()) << "Split-" << version << ": " << part.status();
        if (!part.shape().has_value()) continue;
        ASSERT_EQ(part.shape()->size(), 2u);
        EXPECT_EQ((*part.shape())[0], 3) << "Split-" << version;
        EXPECT_TRUE((*part.shape())[1] == -1 || (*part.shape())[1] == big / 2)
            << "Split-" << version << " axis " << axis << ": " << (*part.shape())[1];
        // 13 and 18 have native rules, which count the dim exactly.
        if (version >= 13) EXPECT_EQ((*part.shape())[1], big / 2) << "Split-" << version;
      }
    }
  }
}

// ONNX's inference reads `axis` into an int: 2^32 was axis 0 there (Gather of [3, 4] by two
// indices came out [2, 4]), where every runtime fails. An axis past 32 bits is refused by every op.
TEST(MakeNodeTest, AnAxisPast32BitsIsRefused) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3, 4});
  Var indices = g.constant(Tensor::from_vector<int64_t>({1, 2}));
  Var positions = g.constant(Tensor::from_vector<int64_t>({0, 1, 2, 0}, {1, 4}));
  const std::vector<std::pair<const char*, std::vector<Var>>> calls = {
      {"Gather", {x, indices}}, {"GatherElements", {x, positions}},
      {"Concat", {x, x}},       {"Softmax", {x}},
      {"LogSoftmax", {x}},      {"Hardmax", {x}},
      {"Flatten", {x}},         {"Unique", {x}},
      {"ArgMax", {x}}};
  for (const int64_t axis : {int64_t{1} << 32, (int64_t{1} << 32) + 1, -(int64_t{1} << 32)}) {
    for (const auto& [op, in] : calls) {
      const GraphStats before = g.stats();
      Var y = make_node(op, in, {{"axis", axis}})[0];
      EXPECT_THAT(Message(y), HasSubstr("attribute 'axis' is")) << op << " axis " << axis;
      EXPECT_EQ(g.stats().nodes, before.nodes) << op;
    }
  }
  EXPECT_TRUE(make_node("Gather", {x, indices}, {{"axis", int64_t{1}}})[0].ok());
}

// ONNX's Split inference takes sizes that add up to the dim even where one is negative (a part of
// 5 out of 4); every runtime refuses them, and so does graphgc, at every version.
TEST(MakeNodeTest, SplitRefusesNegativeSizes) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {4});
  Var sizes = g.constant(Tensor::from_vector<int64_t>({-1, 5}));
  for (const int version : {2, 11}) {
    std::vector<Var> parts = make_node("Split", {x}, {{"split", std::vector<int64_t>{-1, 5}}},
                                       {.version = version, .num_outputs = 2});
    EXPECT_THAT(Message(parts[0]), HasSubstr("split has the size -1")) << "Split-" << version;
  }
  for (const int version : {13, 18, 24}) {
    std::vector<Var> parts =
        make_node("Split", {x, sizes}, {}, {.version = version, .num_outputs = 2});
    EXPECT_THAT(Message(parts[0]), HasSubstr("split has the size -1")) << "Split-" << version;
  }
}

// ONNX's Slice inference counts a sliced dim in double: [2^53 + 3] sliced whole came out
// [2^53 + 4]. The dim is exact (13 on, native) or unknown (10, 11), never rounded.
TEST(MakeNodeTest, SliceNeverRoundsADim) {
  Graph g;
  const int64_t huge = (int64_t{1} << 53) + 3;
  Var x = g.argument("x", DataType::kFloat, {huge, 2});
  Var starts = g.constant(Tensor::from_vector<int64_t>({0}));
  Var ends = g.constant(Tensor::from_vector<int64_t>({INT64_MAX}));
  Var axes = g.constant(Tensor::from_vector<int64_t>({0}));
  for (const int version : {10, 11, 13, 24}) {
    Var y = make_node("Slice", {x, starts, ends, axes}, {}, {.version = version})[0];
    ASSERT_TRUE(y.ok()) << y.status();
    ASSERT_TRUE(y.shape().has_value());
    EXPECT_TRUE((*y.shape())[0] == huge || (*y.shape())[0] == -1)
        << "Slice-" << version << ": " << (*y.shape())[0];
    if (version >= 13) EXPECT_EQ((*y.shape())[0], huge) << "Slice-" << version;
    EXPECT_EQ((*y.shape())[1], 2);
  }
}

// The pools before opset 22 count ceil_mode's windows through a float division, which rounds a
// dim past 2^24. The output dim is exact or unknown, never rounded.
TEST(MakeNodeTest, PoolsNeverRoundADim) {
  Graph g;
  const int64_t long_dim = (int64_t{1} << 24) + 3;
  Var x = g.argument("x", DataType::kFloat, {1, 1, long_dim});
  const int64_t exact = (long_dim - 2 + 1) / 2 + 1;  // ceil((long_dim - 2) / 2) + 1
  for (const char* op : {"MaxPool", "AveragePool"}) {
    for (const int version : {12, 19, 21, 22}) {
      for (const bool padded : {false, true}) {
        std::vector<Attribute> attributes = {{"kernel_shape", std::vector<int64_t>{2}},
                                             {"strides", std::vector<int64_t>{2}},
                                             {"ceil_mode", int64_t{1}}};
        if (padded) attributes.push_back({"pads", std::vector<int64_t>{0, 0}});
        Var y = make_node(op, {x}, attributes, {.version = version})[0];
        ASSERT_TRUE(y.ok()) << op << "-" << version << ": " << y.status();
        ASSERT_TRUE(y.shape().has_value());
        EXPECT_TRUE((*y.shape())[2] == exact || (*y.shape())[2] == -1)
            << op << " at opset " << version << ": " << (*y.shape())[2] << ", not " << exact;
      }
    }
  }
}

TEST(MakeNodeTest, HandWrittenOpsKeepTheirFastPath) {
  Graph g;
  Var a = g.constant(Tensor::from_vector<float>({1, 2}));
  std::vector<Var> sum = make_node("Add", {a, a});
  EXPECT_THAT(sum[0].value()->data<float>(), ElementsAre(2, 4));
  std::vector<Var> pinned = make_node("Add", {a, a}, {}, {.version = 13});
  ASSERT_TRUE(pinned[0].ok()) << pinned[0].status();
  EXPECT_THAT(pinned[0].value()->data<float>(), ElementsAre(2, 4));  // native kernel, schema path
}

TEST(MakeNodeTest, OpsWithoutInputsTakeTheGraph) {
  Graph g;
  std::vector<Var> r = make_node(g, "RandomNormal", {}, {{"shape", std::vector<int64_t>{2, 5}}});
  ASSERT_TRUE(r[0].ok()) << r[0].status();
  EXPECT_EQ(r[0].shape(), (Dims{2, 5}));
  EXPECT_EQ(r[0].dtype(), DataType::kFloat);
  EXPECT_FALSE(make_node("RandomNormal", {}, {{"shape", std::vector<int64_t>{2}}})[0].ok());
}

TEST(MakeNodeTest, SchemaErrorsNameTheOpAndTheProblem) {
  Graph g;
  Var f = g.argument("f", DataType::kFloat, {2, 2});
  Var s = g.argument("s", DataType::kString, {2});
  const GraphStats before = g.stats();
  EXPECT_THAT(Message(make_node("Sqrt", {s})[0]),
              HasSubstr("Sqrt: input 0 (X) has type tensor(string)"));
  EXPECT_THAT(Message(make_node("Cast", {f})[0]), HasSubstr("missing required attribute 'to'"));
  EXPECT_THAT(Message(make_node("Softmax", {f}, {{"axis", 1.5f}})[0]),
              HasSubstr("attribute 'axis' must be INT, not FLOAT"));
  EXPECT_THAT(Message(make_node("Relu", {f}, {{"alpha", 1.0f}})[0]),
              HasSubstr("unknown attribute 'alpha'"));
  EXPECT_THAT(Message(make_node("NoSuchOp", {f})[0]), HasSubstr("NoSuchOp: no such operator"));
  EXPECT_THAT(Message(make_node("Relu", {f}, {}, {.version = 25})[0]), HasSubstr("opset 25"));
  EXPECT_THAT(Message(make_node("Relu", {f}, {}, {.domain = "my.domain"})[0]),
              HasSubstr("unknown domain"));
  EXPECT_THAT(Message(make_node("Gemm", {f})[0]), HasSubstr("1 inputs given"));
  EXPECT_THAT(Message(make_node("Gemm", {f, Var(), f})[0]),
              HasSubstr("input 1 (B) is an empty Var"));
  EXPECT_THAT(Message(make_node("Concat", {f, g.argument("d", DataType::kDouble, {2, 2})},
                                {{"axis", int64_t{0}}})[0]),
              HasSubstr("has type tensor(double) but input 0 (inputs) has tensor(float)"));
  EXPECT_THAT(Message(make_node("MatMul", {f, g.argument("v", DataType::kFloat, {3, 2})})[0]),
              HasSubstr("MatMul"));
  std::vector<Var> bad = make_node("TopK", {f}, {}, {.num_outputs = 2});
  ASSERT_EQ(bad.size(), 2u);
  EXPECT_FALSE(bad[1].ok());
  EXPECT_EQ(g.stats().nodes, before.nodes);
}

TEST(MakeNodeTest, InferenceErrorsBecomeStatuses) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {2, 3});
  Var y = g.argument("y", DataType::kFloat, {4});
  std::vector<Var> bad = make_node("Concat", {x, y}, {{"axis", int64_t{0}}});
  ASSERT_FALSE(bad[0].ok());
  EXPECT_THAT(Message(bad[0]), HasSubstr("Concat: inference failed"));
}

TEST(MakeNodeTest, MlDomain) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {3, 4});
  std::vector<Var> y =
      make_node("Normalizer", {x}, {{"norm", std::string("L2")}}, {.domain = "ai.onnx.ml"});
  ASSERT_TRUE(y[0].ok()) << y[0].status();
  EXPECT_EQ(y[0].dtype(), DataType::kFloat);  // no inference function: typed by its constraint
  Var ranked = op::Reshape(y[0], g.constant(Tensor::from_vector<int64_t>({3, 4})));
  auto model = to_onnx(g, {{"y", ranked}});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->opset_import_size(), 2);
  EXPECT_EQ(model->opset_import(1).domain(), "ai.onnx.ml");
  EXPECT_EQ(model->opset_import(1).version(), 5);
}

TEST(MakeNodeTest, ExportDeclaresThePinnedOpsetOrRefusesAMix) {
  Graph g;
  Var x = g.argument("x", DataType::kFloat, {4});
  Var old_relu = make_node("Relu", {x}, {}, {.version = 13})[0];
  auto pinned = to_onnx(g, {{"r", old_relu}});
  ASSERT_TRUE(pinned.ok()) << pinned.status();
  EXPECT_EQ(pinned->opset_import(0).version(), 13);
  // Relu changed at opset 14: a model that also needs opset 24 cannot hold the opset-13 node.
  Var mixed = op::Neg(old_relu);
  auto refused = to_onnx(g, {{"m", mixed}});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("Relu was made at opset 13"));
  // Softmax did not change between 13 and 24: it joins an opset-24 model.
  Var softmax = make_node("Softmax", {x}, {}, {.version = 13})[0];
  EXPECT_TRUE(to_onnx(g, {{"s", op::Neg(softmax)}}).ok());
}

}  // namespace
}  // namespace graphgc

namespace graphgc {
namespace {

TEST(MakeNodeConstantTest, ValueAttributesGiveValuesAndExport) {
  Graph g;
  Var f = make_node(g, "Constant", {}, {{"value_float", 2.5f}})[0];
  Var ints = make_node(g, "Constant", {}, {{"value_ints", std::vector<int64_t>{1, 2, 3}}})[0];
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f.value().has_value());
  EXPECT_EQ(f.value()->data<float>()[0], 2.5f);
  EXPECT_EQ(ints.shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(ints.value()->data<int64_t>()[2], 3);
  // Pinned to an old opset, the exporter must not assume a `value` tensor attribute.
  Var old = make_node(g, "Constant", {}, {{"value_float", 1.0f}}, {.version = 12})[0];
  auto model = to_onnx(g, {{"f", f}, {"old", old}});
  ASSERT_TRUE(model.ok()) << model.status();
}

// A value_* Constant's value lives in the value store: once no Var holds it, it is collected, and
// an export that writes values as initializers writes the Constant node instead.
TEST(MakeNodeConstantTest, ACollectedValueAttributeConstantExportsAsItsNode) {
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {1});
  Var y = op::Add(x, make_node(g, "Constant", {}, {{"value_float", 2.5f}})[0]);
  g.collect();
  ExportOptions options;
  options.values_as_initializers = true;
  auto model = to_onnx(g, {{"y", y}}, options);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->graph().node_size(), 2);
  EXPECT_EQ(model->graph().node(0).op_type(), "Constant");
  EXPECT_EQ(model->graph().initializer_size(), 0);
}

}  // namespace
}  // namespace graphgc
