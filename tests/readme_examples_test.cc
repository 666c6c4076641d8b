// The README's "Calling ops" examples, compiled and run as written there.
#include <gtest/gtest.h>

#include <iostream>

#include "graphgc/graphgc.h"
#include "graphgc/opset/build/custom_op.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/generated/opset13.h"

namespace gg = graphgc;

namespace {

TEST(ReadmeExamplesTest, CallingOps) {
  namespace op = graphgc::op;
  gg::Graph g;
  gg::Var x = g.argument("x", gg::DataType::kFloat, {1, 3, 8, 8});
  gg::Var w = g.argument("w", gg::DataType::kFloat, {4, 3, 3, 3});
  gg::Var k = g.constant(gg::Tensor::from_vector<int64_t>({2}));
  gg::Var a = g.argument("a", gg::DataType::kFloat, {2, 3});
  gg::Var b = g.argument("b", gg::DataType::kFloat, {1, 3});
  gg::Var d = g.argument("d", gg::DataType::kFloat, {4, 3});

  gg::Var y = op::Conv(x, w, gg::Var(), {.pads = {1, 1, 1, 1}, .strides = {1, 1}});  // B omitted
  auto [values, indices] = op::TopK(x, k, {.axis = -1});      // several outputs: a struct
  gg::Var c = op::Concat({a, b, d}, {.axis = 0});             // variadic input: a braced list
  gg::Var t = g.argument("t", gg::DataType::kFloat, {6, 2});  // a tensor that splits three ways
  std::vector<gg::Var> parts = op::Split(t, gg::Var(), {.axis = 0, .num_outputs_ = 3}, 3);
  gg::Var n = op::RandomNormal(g, {.shape = {2, 3}});  // no inputs: the graph comes first
  gg::Var old = gg::opset13::Softmax(x);               // pinned to opset 13
  gg::Var m = gg::ml::Normalizer(a, {.norm = "L2"});   // ai.onnx.ml

  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 4, 8, 8}));
  EXPECT_EQ(values.shape(), (std::vector<int64_t>{1, 3, 8, 2}));
  EXPECT_EQ(indices.dtype(), gg::DataType::kInt64);
  EXPECT_EQ(c.shape(), (std::vector<int64_t>{7, 3}));
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(n.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(old.ok()) << old.status();
  EXPECT_TRUE(m.ok()) << m.status();

  std::vector<gg::Var> top =
      gg::make_node("TopK", {x, k}, {{"axis", int64_t{-1}}}, {.num_outputs = 2});
  EXPECT_EQ(top[0].shape(), values.shape());
}

TEST(ReadmeExamplesTest, TheSeedChain) {
  gg::Graph g;
  gg::Var a = g.constant(gg::Tensor::zeros(gg::DataType::kDouble, {10000}));
  for (int i = 0; i < 100000; ++i) a = gg::op::Mul(a, a);  // live values: never 100 000 of them
  absl::StatusOr<onnx::ModelProto> model = gg::to_onnx(g, {{"a", a}});
  ASSERT_TRUE(model.ok()) << model.status();
  // At most the trigger plus the newest value (and the one being made from it).
  EXPECT_LE(g.stats().peak_value_bytes, g.options().min_trigger_bytes + 2 * 80000);
  EXPECT_EQ(g.collect().live_bytes, 80000);

  gg::Graph collected;
  gg::Var b = collected.constant(gg::Tensor::zeros(gg::DataType::kDouble, {10000}));
  for (int i = 0; i < 1000; ++i) {
    b = gg::op::Mul(b, b);
    collected.collect();
  }
  // One value held, the one being made from it at the peak.
  EXPECT_LE(collected.stats().peak_value_bytes, 2 * 80000);
  EXPECT_EQ(collected.stats().live_value_bytes, 80000);
}

TEST(ReadmeExamplesTest, ImportingModelsNamingFiles) {
  const std::string dir = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d/";
  const std::string out = ::testing::TempDir() + "readme_out.onnx";
  gg::Graph g;
  absl::StatusOr<gg::Tensor> loaded_image = gg::load_tensor(dir + "test_data_set_0/input_0.pb");
  ASSERT_TRUE(loaded_image.ok()) << loaded_image.status();
  gg::Var image = g.constant(*loaded_image);

  absl::StatusOr<onnx::ModelProto> conv = gg::load_model(dir + "model.onnx");  // external data too
  ASSERT_TRUE(conv.ok()) << conv.status();
  const std::string input = conv->graph().input(0).name();
  const std::string output = conv->graph().output(0).name();
  absl::StatusOr<gg::ImportedModel> imported = gg::import_model(g, *conv, {{input, image}});
  ASSERT_TRUE(imported.ok()) << imported.status();
  gg::Var logits = gg::op::Relu(imported->outputs.at(output));  // opset 6 model + an op of today
  ASSERT_TRUE(logits.set_name("logits").ok());                  // its name in every export
  gg::Var batch = g.argument("x", gg::DataType::kFloat, {"batch", 16});  // dim_param "batch"
  auto two = gg::inline_model(g, *conv, {}, {.prefix = "second/"});      // inputs "second/<name>"
  if (!logits.value()) std::cerr << logits.value_status() << "\n";       // why there is no value
  ASSERT_TRUE(gg::save_model(*gg::to_onnx(g, {{"y", logits}}, {.constants_as_initializers = true}),
                             out, {.external_data_file = "readme_out.onnx.data"})
                  .ok());

  EXPECT_TRUE(logits.value_status().ok());
  EXPECT_EQ(batch.shape(), (std::vector<int64_t>{-1, 16}));
  ASSERT_TRUE(two.ok()) << two.status();
  absl::StatusOr<onnx::ModelProto> saved = gg::load_model(out);
  ASSERT_TRUE(saved.ok()) << saved.status();
  EXPECT_EQ(saved->graph().node_size(), 2);  // Conv and Relu; the weights are initializers
  EXPECT_EQ(saved->opset_import(0).version(), 24);
}

TEST(ReadmeExamplesTest, ControlFlowAndSequences) {
  namespace op = graphgc::op;
  gg::Graph g;
  gg::Var cond = g.argument("cond", gg::DataType::kBool, {});
  gg::Var x = g.argument("x", gg::DataType::kFloat, {3});
  gg::Var trips = g.constant(gg::Tensor::scalar<int64_t>(4));
  gg::Var zeros = g.constant(gg::Tensor::zeros(gg::DataType::kFloat, {3}));
  gg::Var rows = g.argument("rows", gg::DataType::kFloat, {5, 3});

  using Vars = std::vector<gg::Var>;
  Vars r = op::If(cond, {.else_branch = [&] { return Vars{op::Neg(x)}; },
                         .then_branch = [&] { return Vars{op::Relu(x)}; }});
  // Loop body: (iteration, condition, carried...) -> (condition, carried..., scan outputs...)
  Vars sum = op::Loop(trips, gg::Var(), {zeros}, {.body = [&](absl::Span<const gg::Var> a) {
                        return Vars{a[1], op::Add(a[2], x)};
                      }});
  // Scan body: (state..., one slice of each scan input) -> (state..., scan outputs...)
  Vars scan = op::Scan({zeros, rows}, {.body =
                                           [&](absl::Span<const gg::Var> a) {
                                             return Vars{op::Add(a[0], a[1]), op::Mul(a[1], a[1])};
                                           },
                                       .num_scan_inputs = 1});

  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(sum[0].shape(), (std::vector<int64_t>{3}));
  EXPECT_EQ(scan[1].shape(), (std::vector<int64_t>{5, 3}));

  using gg::VarType;
  gg::Var seq = g.argument("seq", VarType::Sequence(VarType::Tensor(gg::DataType::kFloat, {{-1}})));
  gg::Var first = op::SequenceAt(seq, g.constant(gg::Tensor::scalar<int64_t>(0)));
  EXPECT_EQ(first.shape(), (std::vector<int64_t>{-1}));
  EXPECT_EQ(seq.type().ToString(), "seq(tensor(float))");
  auto model =
      gg::to_onnx(g, {{"r", r[0]}, {"sum", sum[0]}, {"squares", scan[1]}, {"first", first}});
  EXPECT_TRUE(model.ok()) << model.status();
}

TEST(ReadmeExamplesTest, SequencesAndLoopsCarryValues) {
  namespace op = graphgc::op;
  gg::Graph g;
  gg::Var x = g.constant(gg::Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2}));
  gg::Var pieces = op::SplitToSequence(x, gg::Var(), {.axis = 0});  // one value per row
  std::optional<gg::Value> v = pieces.any_value();                  // v->elements().size()
  gg::Var back = op::ConcatFromSequence(pieces, {.axis = 0});       // a tensor value again
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->elements().size(), 2u);
  ASSERT_TRUE(back.value().has_value());
  EXPECT_EQ(back.value()->data<float>()[3], 4.0f);

  using Vars = std::vector<gg::Var>;
  gg::Var trips = g.constant(gg::Tensor::scalar<int64_t>(10000));
  gg::Var state = g.constant(gg::Tensor::zeros(gg::DataType::kFloat, {1000}));
  gg::Var one = g.constant(gg::Tensor::scalar<float>(1));
  Vars sum = op::Loop(trips, gg::Var(), {state}, {.body = [&](absl::Span<const gg::Var> a) {
                        return Vars{a[1], op::Add(a[2], one)};
                      }});
  ASSERT_TRUE(sum[0].value().has_value());
  EXPECT_EQ(sum[0].value()->data<float>()[999], 10000.0f);
  EXPECT_LT(g.stats().peak_value_bytes, int64_t{1} << 20);
}

TEST(ReadmeExamplesTest, Functions) {
  gg::Graph g;
  gg::Var x = g.argument("x", gg::DataType::kFloat, {3});
  const gg::Tensor w = gg::Tensor::from_vector<float>({1, -2, 3}, {3});
  // As the README's "Functions" has it:
  absl::StatusOr<gg::Function> act =
      gg::define_function({.domain = "local",
                           .name = "Act",
                           .inputs = {{"x", gg::VarType::Tensor(gg::DataType::kFloat)}}},
                          [](absl::Span<const gg::Var> x) {
                            return std::vector<gg::Var>{gg::op::Mul(x[0], gg::op::Sigmoid(x[0]))};
                          });
  absl::StatusOr<gg::Function> layer = gg::define_function(
      {.domain = "local",
       .name = "Layer",
       .inputs = {{"x", gg::VarType::Tensor(gg::DataType::kFloat)}}},
      [&](gg::Graph& body, absl::Span<const gg::Var> x) {  // body: the graph it is traced in
        return gg::call(*act, {gg::op::Mul(x[0], body.constant(w))});
      });
  gg::Var y = gg::call(*layer, {gg::call(*layer, {x})[0]})[0];  // two nodes "local.Layer"
  auto model = gg::to_onnx(g, {{"y", y}});                      // ModelProto.functions: Layer, Act

  ASSERT_TRUE(act.ok()) << act.status();
  ASSERT_TRUE(layer.ok()) << layer.status();
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->functions_size(), 2);
  EXPECT_EQ(model->functions(0).name(), "Layer");
  EXPECT_EQ(model->functions(1).name(), "Act");
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{3}));
}

// The README's "Values on demand" example, as written there.
TEST(ReadmeExamplesTest, ValuesOnDemand) {
  namespace op = graphgc::op;
  gg::Graph g({.max_live_value_bytes = 64 << 20, .on_budget = gg::OnBudget::kEvictAndRecompute});
  gg::Var x = g.constant(gg::Tensor::zeros(gg::DataType::kFloat, {1024, 1024}));  // 4 MiB
  std::vector<gg::Var> layers;  // 100 values of 4 MiB, all kept: 400 MiB under a 64 MiB cap
  for (int i = 0; i < 100; ++i) layers.push_back(op::Relu(op::Add(i ? layers.back() : x, x)));
  absl::Status s =
      layers[0].value_status();  // Unavailable: "evicted ...; value() computes it again"
  std::optional<gg::Tensor> first = layers[0].value();  // computed again, the same bits
  absl::Status pinned = layers[1].pin();                // computed again, and kept until unpin()

  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  ASSERT_TRUE(first.has_value());
  EXPECT_TRUE(*first == gg::Tensor::zeros(gg::DataType::kFloat, {1024, 1024}));
  EXPECT_TRUE(pinned.ok()) << pinned;
  EXPECT_TRUE(layers[1].pinned());
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(layers[i].value().has_value()) << i;
  EXPECT_TRUE(layers[1].value_status().ok());
  EXPECT_LE(g.stats().peak_value_bytes, int64_t{60} << 20);  // the cap less the 4 MiB constant
}

}  // namespace
