// The gate activations of RNN, GRU and LSTM (the `activations`, `activation_alpha` and
// `activation_beta` attributes), parsed once per node and applied to whole rows of a gate.
//
// How alpha and beta are read follows ONNX Runtime, the oracle where ONNX's text is loose:
//   - GRU and LSTM: the lists are consumed in order by the activations that take the parameter
//     (LeakyRelu, ThresholdedRelu, Elu take alpha; Affine, ScaledTanh, HardSigmoid take both);
//     once a list runs out, LeakyRelu's alpha is 0.01, HardSigmoid's 0.2 and 0.5, Elu's 1.0 (the
//     defaults of the ONNX operators). Affine, ThresholdedRelu and ScaledTanh have no such default
//     in ONNX Runtime (it uses 0, ONNX the operators' 1.0): those cases get no value.
//   - RNN: ONNX Runtime reads the lists by direction index, ONNX says "consumed in order"; a value
//     is computed only where both readings give the same number.
// Names are case-insensitive for GRU and LSTM (ONNX Runtime lowercases them); RNN takes ONNX's
// spelling only, as ONNX Runtime silently replaces a name it does not know by Tanh there.
#ifndef GRAPHGC_OPSET_KERNELS_RECURRENT_ACTIVATION_H_
#define GRAPHGC_OPSET_KERNELS_RECURRENT_ACTIVATION_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/recurrent/fast_math.h"

namespace graphgc::kernels::recurrent {

enum class ActivationKind {
  kRelu,
  kTanh,
  kSigmoid,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus,
};

struct Activation {
  ActivationKind kind = ActivationKind::kTanh;
  float alpha = 0;
  float beta = 0;
};

// How the node's attributes are read (see the file comment).
enum class ActivationRule {
  kConsumedInOrder,  // GRU, LSTM
  kRnn,              // RNN
};

// The node's activations, `per_direction` for each of `directions` (defaults: `defaults`, one
// direction's worth, repeated). InvalidArgument for an unknown name or a list of the wrong
// length; Decline where ONNX and ONNX Runtime would compute different functions.
absl::StatusOr<std::vector<Activation>> ReadActivations(const KernelContext& ctx,
                                                        ActivationRule rule, int per_direction,
                                                        int directions,
                                                        const std::vector<std::string>& defaults);

// x[i] = f(x[i]) for i < n. The switch is outside the loops, so each loop is a plain one; float's
// Tanh, Sigmoid and ScaledTanh (most of a step's time) run four lanes at a time (fast_math.h).
template <class W>
void Activate(const Activation& f, W* x, int64_t n) {
  const W alpha = static_cast<W>(f.alpha);
  const W beta = static_cast<W>(f.beta);
  if constexpr (std::is_same_v<W, float>) {
    switch (f.kind) {
      case ActivationKind::kTanh:
        return Map4(x, n, [](Float4 v) { return Tanh4(v); });
      case ActivationKind::kSigmoid:
        return Map4(x, n, [](Float4 v) { return Sigmoid4(v); });
      case ActivationKind::kScaledTanh:
        return Map4(x, n, [=](Float4 v) { return alpha * Tanh4(beta * v); });
      default:
        break;
    }
  }
  switch (f.kind) {
    case ActivationKind::kRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = std::max(x[i], W{0});
      return;
    case ActivationKind::kTanh:
      for (int64_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
      return;
    case ActivationKind::kSigmoid:
      for (int64_t i = 0; i < n; ++i) x[i] = W{1} / (W{1} + std::exp(-x[i]));
      return;
    case ActivationKind::kAffine:
      for (int64_t i = 0; i < n; ++i) x[i] = alpha * x[i] + beta;
      return;
    case ActivationKind::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] >= W{0} ? x[i] : alpha * x[i];
      return;
    case ActivationKind::kThresholdedRelu:  // ONNX Runtime (and the ThresholdedRelu op): x > alpha
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] > alpha ? x[i] : W{0};
      return;
    case ActivationKind::kScaledTanh:
      for (int64_t i = 0; i < n; ++i) x[i] = alpha * std::tanh(beta * x[i]);
      return;
    case ActivationKind::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) x[i] = std::min(W{1}, std::max(W{0}, alpha * x[i] + beta));
      return;
    case ActivationKind::kElu:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] >= W{0} ? x[i] : alpha * (std::exp(x[i]) - W{1});
      return;
    case ActivationKind::kSoftsign:
      for (int64_t i = 0; i < n; ++i) x[i] = x[i] / (W{1} + std::fabs(x[i]));
      return;
    case ActivationKind::kSoftplus:
      for (int64_t i = 0; i < n; ++i) x[i] = std::log(W{1} + std::exp(x[i]));
      return;
  }
}

}  // namespace graphgc::kernels::recurrent

#endif  // GRAPHGC_OPSET_KERNELS_RECURRENT_ACTIVATION_H_
