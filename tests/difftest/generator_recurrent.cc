// The generator's recurrent recipes: RNN, GRU and LSTM, forward, reverse or bidirectional, with
// or without bias, sequence_lens (int32, 1 to the sequence's length), initial states, LSTM's
// peepholes and input_forget, GRU's linear_before_reset, clip, and activations other than the
// defaults.
//
// Kept to what ONNX Runtime computes as ONNX does: layout 0 (ONNX Runtime has no batch-major
// kernel); every activation that takes alpha or beta is given one explicitly (ONNX Runtime's
// defaults for Affine, ScaledTanh and ThresholdedRelu are not ONNX's), and a bidirectional RNN
// uses one activation for both directions (ONNX Runtime reads RNN's alphas by direction, ONNX in
// order).
#include <string>
#include <vector>

#include "generator_core.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;

namespace {

struct Activation {
  const char* name;
  bool alpha, beta;  // whether it takes them
};

const std::vector<Activation> kActivations = {
    {"Sigmoid", false, false},  {"Tanh", false, false},           {"Relu", false, false},
    {"Softsign", false, false}, {"Softplus", false, false},       {"LeakyRelu", true, false},
    {"Elu", true, false},       {"ThresholdedRelu", true, false}, {"HardSigmoid", true, true},
    {"Affine", true, true},     {"ScaledTanh", true, true},
};

}  // namespace

void Generator::Recurrent(const std::string& op) {
  const int gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const int per_direction = op == "LSTM" ? 3 : op == "GRU" ? 2 : 1;  // activations
  const std::string direction =
      Pick(std::vector<std::string>{"forward", "reverse", "bidirectional"});
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  const int64_t seq = Uniform(1, 4), batch = Uniform(1, 3), input = Uniform(1, 3);
  const int64_t hidden = Uniform(1, 3);
  const DataType f = DataType::kFloat;
  std::vector<std::optional<Ref>> inputs = {
      FreshLeaf(f, {seq, batch, input}, Domain::kSmall),
      FreshLeaf(f, {dirs, gates * hidden, input}, Domain::kUnit),
      FreshLeaf(f, {dirs, gates * hidden, hidden}, Domain::kUnit)};
  const int last = op == "LSTM" ? 7 : 5;  // the last input to draw: P for LSTM, initial_h else
  for (int i = 3; i <= last; ++i) {
    std::optional<Ref> ref;
    if (Chance(0.6)) {
      if (i == 3) {
        ref = FreshLeaf(f, {dirs, 2 * gates * hidden}, Domain::kUnit);  // B
      } else if (i == 4) {                                              // sequence_lens
        std::vector<int32_t> lens;
        for (int64_t b = 0; b < batch; ++b) lens.push_back(Uniform(1, static_cast<int>(seq)));
        ref = Leaf(graphgc::Tensor::from_vector<int32_t>(lens, {batch}));
      } else if (i == 7) {
        ref = FreshLeaf(f, {dirs, 3 * hidden}, Domain::kUnit);  // P
      } else {
        ref = FreshLeaf(f, {dirs, batch, hidden}, Domain::kUnit);  // initial_h, initial_c
      }
    }
    inputs.push_back(ref);
  }
  while (!inputs.back().has_value()) inputs.pop_back();

  std::vector<Attribute> attributes = {{"hidden_size", hidden}};
  if (direction != "forward" || Chance(0.5)) attributes.push_back({"direction", direction});
  if (Chance(0.3)) attributes.push_back({"clip", static_cast<float>(Real(0.5, 3))});
  if (op == "LSTM" && Chance(0.3)) attributes.push_back({"input_forget", int64_t{1}});
  if (op == "GRU" && Chance(0.5)) attributes.push_back({"linear_before_reset", int64_t{1}});
  if (Chance(0.5)) {
    std::vector<std::string> names;
    std::vector<float> alphas, betas;
    const Activation& shared = Pick(kActivations);
    for (int64_t d = 0; d < dirs; ++d) {
      for (int a = 0; a < per_direction; ++a) {
        const Activation& chosen = op == "RNN" ? shared : Pick(kActivations);
        names.push_back(chosen.name);
        if (chosen.alpha) alphas.push_back(static_cast<float>(Real(0.1, 1.5)));
        if (chosen.beta) betas.push_back(static_cast<float>(Real(0, 0.8)));
      }
    }
    attributes.push_back({"activations", names});
    if (!alphas.empty()) attributes.push_back({"activation_alpha", alphas});
    if (!betas.empty()) attributes.push_back({"activation_beta", betas});
  }
  TryStep(MakeStep(op, std::move(inputs), std::move(attributes), Uniform(1, op == "LSTM" ? 3 : 2)));
}

void Generator::AddRecurrentRecipes(Recipes& recipes) {
  for (const char* op : {"RNN", "GRU", "LSTM"}) {
    recipes.push_back({op, [=](Generator& g) { g.Recurrent(op); }});
  }
}

}  // namespace difftest
