// Value propagation of the recurrent kernels (RNN, GRU, LSTM) through the public API: values
// checked against ONNX Runtime for bidirectional nodes with sequence_lens, initial states, bias,
// peepholes, clip and non-default activations (expected values computed by ONNX Runtime 1.x
// with tests/ort_run.js); the element types against each other; layout 1 against layout 0;
// reverse against forward on reversed sequences; fewer outputs; the versions registered; failing
// inputs and attributes; the cases that get no value; the value budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Names = std::vector<std::string>;
using Floats = std::vector<float>;

// ((i * 7 + seed) % 11 - 5) / 10: small values of every sign, the same in each element type.
template <class T>
Var Sequence(Graph& g, const Dims& shape, int seed) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<T> values;
  for (int64_t i = 0; i < count; ++i) {
    const float v = static_cast<float>((i * 7 + seed) % 11 - 5) * 0.1f;
    if constexpr (kIsHalf<T>) {
      values.push_back(T::FromFloat(v));
    } else {
      values.push_back(static_cast<T>(v));
    }
  }
  return Const<T>(g, std::move(values), shape);
}

Var Lengths(Graph& g, std::vector<int32_t> lengths) {
  const int64_t batch = static_cast<int64_t>(lengths.size());
  return Const<int32_t>(g, std::move(lengths), {batch});
}

// One node's description: X [seq, batch, input] (layout 0), `gates` blocks of `hidden`.
struct Node {
  std::string op = "LSTM";
  int64_t seq = 3, batch = 2, input = 2, hidden = 2;
  int64_t directions = 2;
  bool reverse = false;  // with directions == 1
  bool bias = true, initial = true, peepholes = true;
  std::vector<int32_t> lengths = {3, 2};
  std::vector<Attribute> attributes;
  int num_outputs = 3;
  int version = 0;

  int64_t gates() const { return op == "LSTM" ? 4 : op == "GRU" ? 3 : 1; }
  std::string direction() const {
    return directions == 2 ? "bidirectional" : reverse ? "reverse" : "forward";
  }
};

// The node's inputs of element type T (seeds 1..7 as in the ONNX Runtime runs).
template <class T>
std::vector<Var> Inputs(Graph& g, const Node& n) {
  const int64_t rows = n.gates() * n.hidden;
  std::vector<Var> in = {Sequence<T>(g, {n.seq, n.batch, n.input}, 1),
                         Sequence<T>(g, {n.directions, rows, n.input}, 2),
                         Sequence<T>(g, {n.directions, rows, n.hidden}, 3)};
  in.push_back(n.bias ? Sequence<T>(g, {n.directions, 2 * rows}, 4) : Var());
  in.push_back(n.lengths.empty() ? Var() : Lengths(g, n.lengths));
  in.push_back(n.initial ? Sequence<T>(g, {n.directions, n.batch, n.hidden}, 5) : Var());
  if (n.op == "LSTM") {
    in.push_back(n.initial ? Sequence<T>(g, {n.directions, n.batch, n.hidden}, 6) : Var());
    in.push_back(n.peepholes ? Sequence<T>(g, {n.directions, 3 * n.hidden}, 7) : Var());
  }
  while (!in.empty() && in.back().empty()) in.pop_back();
  return in;
}

std::vector<Var> Build(const Node& n, const std::vector<Var>& inputs) {
  std::vector<Attribute> attributes = {{"hidden_size", n.hidden}, {"direction", n.direction()}};
  attributes.insert(attributes.end(), n.attributes.begin(), n.attributes.end());
  return gg::make_node(n.op, inputs, attributes,
                       {.version = n.version, .num_outputs = n.num_outputs});
}

template <class T = float>
std::vector<Var> MakeNode(Graph& g, const Node& n) {
  return Build(n, Inputs<T>(g, n));
}

// The var's value (Var::value() returns a copy: keep it alive while reading it).
Tensor ValueOf(const Var& var) { return var.value().value(); }

Dims ShapeOf(const Var& var) {
  const Tensor t = ValueOf(var);
  return Dims(t.shape().begin(), t.shape().end());
}

std::vector<double> Values(const Var& var) {
  std::vector<double> out;
  const Tensor t = ValueOf(var);
  if (t.dtype() == DataType::kFloat) {
    for (float v : t.data<float>()) out.push_back(v);
  } else if (t.dtype() == DataType::kDouble) {
    for (double v : t.data<double>()) out.push_back(v);
  } else {
    for (Float16 v : t.data<Float16>()) out.push_back(v.ToFloat());
  }
  return out;
}

void ExpectNear(const Var& var, const Dims& shape, const std::vector<double>& expected,
                double tolerance) {
  ASSERT_TRUE(var.ok()) << var.status();
  ASSERT_TRUE(var.value().has_value());
  EXPECT_EQ(ShapeOf(var), shape);
  const std::vector<double> got = Values(var);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], expected[i], tolerance * (1 + std::fabs(expected[i]))) << "at " << i;
  }
}

// Both have values of the same shape and elements within `tolerance`.
void ExpectSame(const Var& got, const Var& expected, double tolerance = 0) {
  ASSERT_TRUE(expected.value().has_value());
  ExpectNear(got, ShapeOf(expected), Values(expected), tolerance);
}

// ---------------------------------------------------------------------------------------------
// Against ONNX Runtime.

Node LstmWithEverything() {
  Node n;
  n.attributes = {{"clip", 0.9f},
                  {"activations",
                   Names{"HardSigmoid", "LeakyRelu", "Softsign", "Sigmoid", "Elu", "ScaledTanh"}},
                  {"activation_alpha", Floats{0.3f, 0.2f, 0.9f, 1.1f}},
                  {"activation_beta", Floats{0.4f, 0.8f}}};
  return n;
}

Node GruWithEverything() {
  Node n;
  n.op = "GRU";
  n.lengths = {2, 3};
  n.num_outputs = 2;
  n.attributes = {{"linear_before_reset", int64_t{1}},
                  {"activations", Names{"Sigmoid", "Softsign", "HardSigmoid", "Tanh"}},
                  {"activation_alpha", Floats{0.25f}},
                  {"activation_beta", Floats{0.45f}}};
  return n;
}

Node RnnWithEverything() {
  Node n;
  n.op = "RNN";
  n.lengths = {1, 3};
  n.num_outputs = 2;
  n.attributes = {{"activations", Names{"Relu", "Softplus"}}};
  return n;
}

TEST(RecurrentKernels, LstmMatchesOnnxRuntime) {
  Graph g;
  const std::vector<Var> out = MakeNode(g, LstmWithEverything());
  ExpectNear(out[0], {3, 2, 2, 2}, {-0.001168088, 0.000527275, 0.05290809,  0.03067439,
                                    0.03564375,   -0.1310749,  -0.08436262, -0.2283943,
                                    -0.01573987,  0.02862812,  0.009912711, 0.0343199,
                                    -0.05779963,  -0.07560855, -0.04534338, -0.2665699,
                                    -0.03245567,  0.05667619,  0,           0,
                                    0.04579559,   0.02900126,  0,           0},
             1e-5);
  ExpectNear(out[1], {2, 2, 2},
             {-0.03245567, 0.05667619, 0.009912711, 0.0343199, 0.03564375, -0.1310749, -0.08436262,
              -0.2283943},
             1e-5);
  ExpectNear(
      out[2], {2, 2, 2},
      {-0.06961551, 0.1707568, 0.01677413, 0.1649671, 0.05946095, -0.258635, -0.142846, -0.5982595},
      1e-5);
}

TEST(RecurrentKernels, GruMatchesOnnxRuntime) {
  Graph g;
  const std::vector<Var> out = MakeNode(g, GruWithEverything());
  ExpectNear(out[0], {3, 2, 2, 2},
             {0.2924812,   -0.2091004, 0.309047,  0.03319259,  -0.08201707, -0.2638899,
              0.01177725,  -0.5632969, 0.3435636, -0.03475258, 0.3521875,   0.0670022,
              -0.05124566, -0.161394,  0.1579134, -0.3274716,  0,           0,
              0.3213018,   0.1171862,  0,         0,           -0.02976731, 0.01945572},
             1e-5);
  ExpectNear(out[1], {2, 2, 2},
             {0.3435636, -0.03475258, 0.3213018, 0.1171862, -0.08201707, -0.2638899, 0.01177725,
              -0.5632969},
             1e-5);
}

TEST(RecurrentKernels, RnnMatchesOnnxRuntime) {
  Graph g;
  const std::vector<Var> out = MakeNode(g, RnnWithEverything());
  ExpectNear(out[0], {3, 2, 2, 2}, {0.14, 0, 0, 0, 0.6209571, 1.327922, 1.068849,  0.8399531,
                                    0,    0, 0, 0, 0,         0,        1.070408,  0.8431882,
                                    0,    0, 0, 0, 0,         0,        0.7763438, 1.070055},
             1e-5);
  ExpectNear(out[1], {2, 2, 2}, {0.14, 0, 0, 0, 0.6209571, 1.327922, 1.068849, 0.8399531}, 1e-5);
}

// ---------------------------------------------------------------------------------------------
// Element types, layouts, directions, outputs.

TEST(RecurrentKernels, DoubleAndFloat16AgreeWithFloat) {
  for (const Node& n : {LstmWithEverything(), GruWithEverything(), RnnWithEverything()}) {
    Graph g;
    const std::vector<Var> f = MakeNode<float>(g, n);
    const std::vector<Var> d = MakeNode<double>(g, n);
    const std::vector<Var> h = MakeNode<Float16>(g, n);
    for (size_t i = 0; i < f.size(); ++i) {
      SCOPED_TRACE(n.op + " output " + std::to_string(i));
      const Dims shape = ShapeOf(f[i]);
      EXPECT_EQ(ValueOf(d[i]).dtype(), DataType::kDouble);
      EXPECT_EQ(ValueOf(h[i]).dtype(), DataType::kFloat16);
      ExpectNear(d[i], shape, Values(f[i]), 1e-5);
      ExpectNear(h[i], shape, Values(f[i]), 2e-2);
    }
  }
}

// Element (a, b, c, ...) of `t` with its first two dims swapped, flattened.
std::vector<double> SwapFirstDims(const Var& var) {
  const Tensor t = ValueOf(var);
  const std::vector<double> v = Values(var);
  const int64_t d0 = t.shape()[0], d1 = t.shape()[1];
  const int64_t inner = static_cast<int64_t>(v.size()) / (d0 * d1);
  std::vector<double> out;
  for (int64_t j = 0; j < d1; ++j) {
    for (int64_t i = 0; i < d0; ++i) {
      for (int64_t k = 0; k < inner; ++k)
        out.push_back(v[static_cast<size_t>((i * d1 + j) * inner + k)]);
    }
  }
  return out;
}

// Y [seq, dirs, batch, hidden] as [batch, seq, dirs, hidden].
std::vector<double> BatchMajorY(const Var& y) {
  const Tensor t = ValueOf(y);
  const std::vector<double> v = Values(y);
  const int64_t seq = t.shape()[0], dirs = t.shape()[1], batch = t.shape()[2],
                hidden = t.shape()[3];
  std::vector<double> out;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      for (int64_t d = 0; d < dirs; ++d) {
        for (int64_t k = 0; k < hidden; ++k) {
          out.push_back(v[static_cast<size_t>(((s * dirs + d) * batch + b) * hidden + k)]);
        }
      }
    }
  }
  return out;
}

TEST(RecurrentKernels, Layout1IsLayout0BatchMajor) {
  for (Node n : {LstmWithEverything(), GruWithEverything(), RnnWithEverything()}) {
    SCOPED_TRACE(n.op);
    Graph g;
    const std::vector<Var> inputs = Inputs<float>(g, n);
    const std::vector<Var> time_major = Build(n, inputs);
    std::vector<Var> swapped = inputs;
    // X, initial_h and initial_c are batch-major under layout 1.
    for (size_t i : {size_t{0}, size_t{5}, size_t{6}}) {
      if (i >= swapped.size()) continue;
      const Tensor t = ValueOf(inputs[i]);
      const std::vector<double> v = SwapFirstDims(inputs[i]);
      const Dims shape = {t.shape()[1], t.shape()[0], t.shape()[2]};
      swapped[i] = Const<float>(g, std::vector<float>(v.begin(), v.end()), shape);
    }
    n.attributes.push_back({"layout", int64_t{1}});
    n.version = 14;
    const std::vector<Var> batch_major = Build(n, swapped);
    ExpectNear(batch_major[0], {n.batch, n.seq, n.directions, n.hidden}, BatchMajorY(time_major[0]),
               1e-6);
    for (size_t i = 1; i < time_major.size(); ++i) {
      ExpectNear(batch_major[i], {n.batch, n.directions, n.hidden}, SwapFirstDims(time_major[i]),
                 1e-6);
    }
  }
}

// X with each batch row's first lengths[b] steps in reverse order.
Var ReverseValidSteps(Graph& g, const Var& x, const std::vector<int32_t>& lengths) {
  const Tensor t = ValueOf(x);
  const int64_t batch = t.shape()[1], input = t.shape()[2];
  std::vector<float> v(t.data<float>().begin(), t.data<float>().end());
  std::vector<float> out = v;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < lengths[b]; ++s) {
      for (int64_t k = 0; k < input; ++k) {
        out[static_cast<size_t>((s * batch + b) * input + k)] =
            v[static_cast<size_t>(((lengths[b] - 1 - s) * batch + b) * input + k)];
      }
    }
  }
  return Const<float>(g, std::move(out), Dims(t.shape().begin(), t.shape().end()));
}

// One direction's worth of each op's attributes above.
std::vector<Node> OneDirection() {
  Node lstm;
  lstm.directions = 1;
  lstm.attributes = {{"clip", 0.9f},
                     {"activations", Names{"HardSigmoid", "LeakyRelu", "Softsign"}},
                     {"activation_alpha", Floats{0.3f, 0.2f}},
                     {"activation_beta", Floats{0.4f}}};
  Node gru = GruWithEverything();
  gru.directions = 1;
  gru.attributes = {{"linear_before_reset", int64_t{1}},
                    {"activations", Names{"Sigmoid", "Softsign"}}};
  Node gru_reset_first = gru;
  gru_reset_first.attributes[0] = {"linear_before_reset", int64_t{0}};
  Node rnn = RnnWithEverything();
  rnn.directions = 1;
  rnn.attributes = {{"activations", Names{"Relu"}}};
  return {lstm, gru, gru_reset_first, rnn};
}

TEST(RecurrentKernels, ReverseIsForwardOverReversedSequences) {
  for (Node n : OneDirection()) {
    SCOPED_TRACE(n.op);
    n.num_outputs = 2;
    Graph g;
    std::vector<Var> inputs = Inputs<float>(g, n);
    n.reverse = true;
    const std::vector<Var> reverse = Build(n, inputs);
    n.reverse = false;
    inputs[0] = ReverseValidSteps(g, inputs[0], n.lengths);
    const std::vector<Var> forward = Build(n, inputs);
    // Y_h: the state after the whole (reversed) sequence, the same both ways.
    ExpectSame(reverse[1], forward[1], 1e-6);
    // Y at time t of the reverse walk is Y at time length-1-t of the forward one.
    const std::vector<double> f = Values(forward[0]);
    std::vector<double> expected(f.size(), 0.0);
    for (int64_t b = 0; b < n.batch; ++b) {
      for (int64_t s = 0; s < n.lengths[b]; ++s) {
        for (int64_t k = 0; k < n.hidden; ++k) {
          expected[static_cast<size_t>((s * n.batch + b) * n.hidden + k)] =
              f[static_cast<size_t>(((n.lengths[b] - 1 - s) * n.batch + b) * n.hidden + k)];
        }
      }
    }
    ExpectNear(reverse[0], {n.seq, 1, n.batch, n.hidden}, expected, 1e-6);
  }
}

// Bidirectional is forward and reverse side by side, each with its half of the weights.
TEST(RecurrentKernels, BidirectionalIsForwardAndReverse) {
  for (Node n : {LstmWithEverything(), GruWithEverything(), RnnWithEverything()}) {
    SCOPED_TRACE(n.op);
    n.num_outputs = n.op == "LSTM" ? 3 : 2;
    Graph g;
    const std::vector<Var> inputs = Inputs<float>(g, n);
    const std::vector<Var> both = Build(n, inputs);
    // Each direction's half: one-direction attributes are the lists' halves in order, which
    // the nodes above are written to allow.
    for (int64_t d = 0; d < 2; ++d) {
      std::vector<Var> half = inputs;
      for (size_t i = 1; i < half.size(); ++i) {
        if (i == 4) continue;  // sequence_lens
        const Tensor t = ValueOf(inputs[i]);
        const int64_t size = t.size() / 2;
        std::vector<float> v(t.data<float>().begin() + d * size,
                             t.data<float>().begin() + (d + 1) * size);
        Dims shape(t.shape().begin(), t.shape().end());
        shape[0] = 1;
        half[i] = Const<float>(g, std::move(v), shape);
      }
      Node one = n;
      one.directions = 1;
      one.reverse = d == 1;
      one.attributes.clear();
      for (const Attribute& a : n.attributes) {
        if (a.name == "activations") {
          const auto& names = std::get<Names>(a.value);
          const size_t per = names.size() / 2;
          one.attributes.push_back(
              {a.name, Names(names.begin() + d * per, names.begin() + (d + 1) * per)});
        } else if (a.name != "activation_alpha" && a.name != "activation_beta") {
          one.attributes.push_back(a);
        }
      }
      if (n.op == "LSTM") {  // LSTM's alphas: 0.3, 0.2 | 0.9, 1.1; betas 0.4 | 0.8
        one.attributes.push_back(
            {"activation_alpha", d == 0 ? Floats{0.3f, 0.2f} : Floats{0.9f, 1.1f}});
        one.attributes.push_back({"activation_beta", d == 0 ? Floats{0.4f} : Floats{0.8f}});
      } else if (n.op == "GRU" && d == 1) {  // HardSigmoid 0.25, 0.45
        one.attributes.push_back({"activation_alpha", Floats{0.25f}});
        one.attributes.push_back({"activation_beta", Floats{0.45f}});
      }
      const std::vector<Var> single = Build(one, half);
      // Y: [seq, 2, batch, hidden] -> direction d.
      const std::vector<double> y = Values(both[0]);
      std::vector<double> expected;
      const int64_t frame = n.batch * n.hidden;
      for (int64_t s = 0; s < n.seq; ++s) {
        expected.insert(expected.end(), y.begin() + (s * 2 + d) * frame,
                        y.begin() + (s * 2 + d + 1) * frame);
      }
      ExpectNear(single[0], {n.seq, 1, n.batch, n.hidden}, expected, 1e-6);
      for (size_t i = 1; i < both.size(); ++i) {
        const std::vector<double> state = Values(both[i]);
        ExpectNear(single[i], {1, n.batch, n.hidden},
                   std::vector<double>(state.begin() + d * frame, state.begin() + (d + 1) * frame),
                   1e-6);
      }
    }
  }
}

TEST(RecurrentKernels, FewerOutputsAndOmittedInputs) {
  Node n;
  n.directions = 1;
  n.bias = n.initial = n.peepholes = false;
  n.lengths.clear();
  n.num_outputs = 1;
  Graph g;
  const std::vector<Var> y_only = MakeNode(g, n);
  ASSERT_EQ(y_only.size(), 1u);
  n.num_outputs = 3;
  const std::vector<Var> all = MakeNode(g, n);
  ExpectSame(y_only[0], all[0]);
  // Without initial states or lengths, forward, Y_h is Y's last step.
  const std::vector<double> y = Values(all[0]);
  ExpectNear(all[1], {1, 2, 2}, std::vector<double>(y.end() - 4, y.end()), 0);
}

TEST(RecurrentKernels, VersionsWithKernels) {
  for (const char* op : {"RNN", "GRU", "LSTM"}) {
    SCOPED_TRACE(op);
    EXPECT_FALSE(gg::has_kernel(op, {.version = 6}));  // output_sequence: not registered
    EXPECT_TRUE(gg::has_kernel(op, {.version = 7}));
    EXPECT_TRUE(gg::has_kernel(op, {.version = 14}));
    EXPECT_TRUE(gg::has_kernel(op, {.version = 17}));
  }
  Node n = RnnWithEverything();
  n.version = 7;
  Graph g;
  EXPECT_TRUE(MakeNode(g, n)[0].value().has_value());
}

// Each activation on its own: an RNN with hidden_size 1, W = [[1]] and R = [[0]] gives f(x).
// (RNN takes no default alphas: ONNX Runtime's differ from ONNX's there.)
template <class T>
std::vector<Var> ActivationOf(Graph& g, const std::string& name, const std::vector<double>& x,
                              Floats alpha, Floats beta) {
  const int64_t count = static_cast<int64_t>(x.size());
  std::vector<Attribute> attributes = {{"hidden_size", int64_t{1}}, {"activations", Names{name}}};
  if (!alpha.empty()) attributes.push_back({"activation_alpha", alpha});
  if (!beta.empty()) attributes.push_back({"activation_beta", beta});
  return gg::make_node("RNN",
                       {Const<T>(g, std::vector<T>(x.begin(), x.end()), {1, count, 1}),
                        Const<T>(g, {T{1}}, {1, 1, 1}), Const<T>(g, {T{0}}, {1, 1, 1})},
                       attributes, {.num_outputs = 1});
}

TEST(RecurrentKernels, EachActivationAgainstItsFormula) {
  std::vector<double> x = {0, 0.5, 0.8, -0.8, 1e-6, -1e-6, 1e-30, 20, -20, 85, -85, 0.625, -0.625};
  for (double v = -12; v <= 12; v += 0.0137) x.push_back(v);
  struct Case {
    std::string name;
    Floats alpha, beta;
    std::function<double(double)> f;
  };
  const std::vector<Case> cases = {
      {"Relu", {}, {}, [](double v) { return std::max(v, 0.0); }},
      {"Tanh", {}, {}, [](double v) { return std::tanh(v); }},
      {"Sigmoid", {}, {}, [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"Affine", {0.5f}, {-0.25f}, [](double v) { return 0.5 * v - 0.25; }},
      {"LeakyRelu", {0.1f}, {}, [](double v) { return v >= 0 ? v : 0.1 * v; }},
      {"ThresholdedRelu", {0.5f}, {}, [](double v) { return v > 0.5 ? v : 0; }},
      {"ScaledTanh", {1.5f}, {0.5f}, [](double v) { return 1.5 * std::tanh(0.5 * v); }},
      {"HardSigmoid",
       {0.25f},
       {0.4f},
       [](double v) { return std::min(1.0, std::max(0.0, 0.25 * v + 0.4)); }},
      {"Elu", {0.7f}, {}, [](double v) { return v >= 0 ? v : 0.7 * (std::exp(v) - 1); }},
      {"Softsign", {}, {}, [](double v) { return v / (1 + std::fabs(v)); }},
      {"Softplus", {}, {}, [](double v) { return std::log1p(std::exp(v)); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Graph g;
    std::vector<double> expected;
    std::vector<double> x_float;
    for (double v : x) {
      x_float.push_back(static_cast<float>(v));
      expected.push_back(c.f(static_cast<float>(v)));
    }
    const int64_t count = static_cast<int64_t>(x.size());
    // float: a few ulp (tanh and sigmoid are computed four lanes at a time, not by libm).
    ExpectNear(ActivationOf<float>(g, c.name, x_float, c.alpha, c.beta)[0], {1, 1, count, 1},
               expected, 3e-7);
    ExpectNear(ActivationOf<double>(g, c.name, x_float, c.alpha, c.beta)[0], {1, 1, count, 1},
               expected, 1e-7);
  }
}

// ---------------------------------------------------------------------------------------------
// Failures, no values, the budget.

TEST(RecurrentKernels, BadInputsFail) {
  {
    Graph g;
    Node n;
    std::vector<Var> in = Inputs<float>(g, n);
    in[1] = Sequence<float>(g, {2, 8, 3}, 2);  // input_size 3, X has 2
    EXPECT_TRUE(FailsWith(Build(n, in)[0], {"LSTM", "input 1 (W)", "[2,8,3]", "[2,8,2]"}));
  }
  {
    Graph g;
    Node n;
    n.lengths = {3, 4};
    EXPECT_TRUE(FailsWith(MakeNode(g, n)[0], {"input 4 (sequence_lens)", "length 4", "[0, 3]"}));
  }
  {
    Graph g;
    Node n;
    n.lengths = {-1, 2};
    EXPECT_TRUE(FailsWith(MakeNode(g, n)[0], {"input 4 (sequence_lens)", "length -1"}));
  }
  {
    Graph g;
    Node n;
    n.op = "GRU";
    n.num_outputs = 2;
    n.attributes = {{"activations", Names{"Sigmoid", "Tanh", "Sigmoid", "Mystery"}}};
    EXPECT_TRUE(FailsWith(MakeNode(g, n)[0], {"GRU", "Mystery"}));
  }
  {
    Graph g;
    Node n;
    n.attributes = {{"activations", Names{"Sigmoid", "Tanh", "Tanh"}}};  // 3 for 2 directions
    EXPECT_TRUE(FailsWith(MakeNode(g, n)[0], {"activations", "expected 6"}));
  }
}

TEST(RecurrentKernels, NoValueWhereOnnxRuntimeDiffersOrTheResultIsUnsaid) {
  const auto no_value = [](Node n) {
    Graph g;
    return HasNoValue(MakeNode(g, n)[0]);
  };
  Node empty_sequence;
  empty_sequence.lengths = {3, 0};
  EXPECT_TRUE(no_value(empty_sequence));
  Node affine;  // ONNX's Affine alpha defaults to 1, ONNX Runtime's to 0
  affine.attributes = {
      {"activations", Names{"Sigmoid", "Affine", "Tanh", "Sigmoid", "Tanh", "Tanh"}}};
  EXPECT_TRUE(no_value(affine));
  Node rnn_alpha = RnnWithEverything();  // LeakyRelu's alpha: 0.5 in order, 0.7 by direction
  rnn_alpha.attributes = {{"activations", Names{"Tanh", "LeakyRelu"}},
                          {"activation_alpha", Floats{0.5f, 0.7f}}};
  EXPECT_TRUE(no_value(rnn_alpha));
  Node rnn_default_alpha = RnnWithEverything();  // ONNX Runtime's RNN takes 0 for LeakyRelu
  rnn_default_alpha.attributes = {{"activations", Names{"LeakyRelu", "Tanh"}}};
  EXPECT_TRUE(no_value(rnn_default_alpha));
  Node clip_zero;
  clip_zero.attributes = {{"clip", 0.0f}};
  EXPECT_TRUE(no_value(clip_zero));

  Graph g;
  Node n;
  std::vector<Var> in = Inputs<float>(g, n);
  std::vector<float> x(12, 0.5f);
  x[3] = std::numeric_limits<float>::quiet_NaN();
  in[0] = Const<float>(g, x, {3, 2, 2});
  EXPECT_TRUE(HasNoValue(Build(n, in)[0]));
  // Non-finite values anywhere, past the four-lane groups too.
  for (double bad : {std::numeric_limits<double>::infinity(), std::nan("")}) {
    EXPECT_TRUE(HasNoValue(ActivationOf<float>(g, "Tanh", {0, 1, 2, 3, bad}, {}, {})[0]));
    EXPECT_TRUE(HasNoValue(ActivationOf<double>(g, "Tanh", {bad, 1, 2, 3, 4}, {}, {})[0]));
  }
  // Without hidden_size ONNX Runtime fails; ONNX only implies it.
  std::vector<Var> no_hidden_size =
      gg::make_node("LSTM", Inputs<float>(g, n), {}, {.num_outputs = 1});
  EXPECT_TRUE(HasNoValue(no_hidden_size[0]));
}

TEST(RecurrentKernels, DefaultActivationAlphasFollowTheOperators) {
  // LeakyRelu 0.01, HardSigmoid 0.2 and 0.5, Elu 1: explicit values equal to them change nothing.
  Node implicit = LstmWithEverything();
  implicit.attributes = {
      {"activations", Names{"HardSigmoid", "LeakyRelu", "Elu", "HardSigmoid", "LeakyRelu", "Elu"}}};
  Node explicit_ = implicit;
  explicit_.attributes.push_back(
      {"activation_alpha", Floats{0.2f, 0.01f, 1.0f, 0.2f, 0.01f, 1.0f}});
  explicit_.attributes.push_back({"activation_beta", Floats{0.5f, 0.5f}});
  Graph g;
  const std::vector<Var> a = MakeNode(g, implicit);
  const std::vector<Var> b = MakeNode(g, explicit_);
  for (size_t i = 0; i < a.size(); ++i) ExpectSame(a[i], b[i]);
}

TEST(RecurrentKernels, EmptyBatch) {
  Node n;
  n.batch = 0;
  n.lengths.clear();
  Graph g;
  const std::vector<Var> out = MakeNode(g, n);
  ExpectNear(out[0], {3, 2, 0, 2}, {}, 0);
  ExpectNear(out[2], {2, 0, 2}, {}, 0);
}

TEST(RecurrentKernels, ValueBudget) {
  // Y (64 floats) fits 512 bytes; X·W^T for all steps (64 x 4 floats) does not.
  Graph g(gg::GraphOptions{.max_value_bytes = 512});
  Node n;
  n.seq = 64;
  n.batch = 1;
  n.input = 1;
  n.hidden = 1;
  n.directions = 1;
  n.lengths.clear();
  n.initial = n.bias = n.peepholes = false;
  n.num_outputs = 1;
  EXPECT_TRUE(HasNoValue(MakeNode(g, n)[0]));
  Graph roomy(gg::GraphOptions{.max_value_bytes = 4096});
  EXPECT_TRUE(MakeNode(roomy, n)[0].value().has_value());
}

}  // namespace
