// Parsing the activations attributes of RNN, GRU and LSTM (see activation.h for the rules).
#include "graphgc/opset/kernels/recurrent/activation.h"

#include <optional>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc::kernels::recurrent {
namespace {

struct ActivationInfo {
  const char* name;  // ONNX's spelling
  ActivationKind kind;
  bool takes_alpha;
  bool takes_beta;
  std::optional<float> default_alpha;  // where ONNX and ONNX Runtime agree on one
  std::optional<float> default_beta;
};

const ActivationInfo kActivations[] = {
    {"Relu", ActivationKind::kRelu, false, false, std::nullopt, std::nullopt},
    {"Tanh", ActivationKind::kTanh, false, false, std::nullopt, std::nullopt},
    {"Sigmoid", ActivationKind::kSigmoid, false, false, std::nullopt, std::nullopt},
    {"Affine", ActivationKind::kAffine, true, true, std::nullopt, std::nullopt},
    {"LeakyRelu", ActivationKind::kLeakyRelu, true, false, 0.01f, std::nullopt},
    {"ThresholdedRelu", ActivationKind::kThresholdedRelu, true, false, std::nullopt, std::nullopt},
    {"ScaledTanh", ActivationKind::kScaledTanh, true, true, std::nullopt, std::nullopt},
    {"HardSigmoid", ActivationKind::kHardSigmoid, true, true, 0.2f, 0.5f},
    {"Elu", ActivationKind::kElu, true, false, 1.0f, std::nullopt},
    {"Softsign", ActivationKind::kSoftsign, false, false, std::nullopt, std::nullopt},
    {"Softplus", ActivationKind::kSoftplus, false, false, std::nullopt, std::nullopt},
};

// The activation named `name`; nullptr if none matches even ignoring case. `exact` tells whether
// the spelling is ONNX's.
const ActivationInfo* Find(const std::string& name, bool& exact) {
  for (const ActivationInfo& info : kActivations) {
    if (absl::EqualsIgnoreCase(name, info.name)) {
      exact = name == info.name;
      return &info;
    }
  }
  return nullptr;
}

// One parameter list (alpha or beta) and how far it has been consumed.
class Parameters {
 public:
  Parameters(const KernelContext& ctx, const char* attribute)
      : name_(attribute), values_(ctx.floats_attribute(attribute)) {}

  // The value for activation number `position` that takes this parameter: the next one in the
  // list (GRU, LSTM) or, for RNN, the same one read both ways (nullopt where they differ).
  std::optional<float> Take(ActivationRule rule, size_t position, std::optional<float> fallback) {
    const size_t consumed = next_++;
    const bool has_consumed = values_.has_value() && consumed < values_->size();
    if (rule == ActivationRule::kConsumedInOrder) {
      return has_consumed ? std::optional<float>((*values_)[consumed]) : fallback;
    }
    // RNN: ONNX Runtime reads values_[position] (0 when the attribute is absent).
    if (!has_consumed || consumed != position) return std::nullopt;
    return (*values_)[consumed];
  }

  const char* name() const { return name_; }

 private:
  const char* name_;
  std::optional<std::vector<float>> values_;
  size_t next_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<Activation>> ReadActivations(const KernelContext& ctx,
                                                        ActivationRule rule, int per_direction,
                                                        int directions,
                                                        const std::vector<std::string>& defaults) {
  std::vector<std::string> names;
  if (std::optional<std::vector<std::string>> given = ctx.strings_attribute("activations")) {
    names = *std::move(given);
  } else {
    for (int d = 0; d < directions; ++d)
      names.insert(names.end(), defaults.begin(), defaults.end());
  }
  const size_t expected = static_cast<size_t>(per_direction * directions);
  if (rule == ActivationRule::kRnn && directions == 1 && names.size() == 2) {
    // RNN's schema default is {"Tanh", "Tanh"} whatever the direction; ONNX Runtime then takes
    // the first. Two different names for one direction mean nothing definite.
    if (names[0] != names[1])
      return Decline("RNN with two different activations for one direction");
    names.resize(1);
  }
  if (names.size() != expected) {
    return absl::InvalidArgumentError(absl::StrCat("attribute activations has ", names.size(),
                                                   " names (", absl::StrJoin(names, ", "),
                                                   "), expected ", expected));
  }
  Parameters alphas(ctx, "activation_alpha");
  Parameters betas(ctx, "activation_beta");
  std::vector<Activation> out;
  for (size_t i = 0; i < names.size(); ++i) {
    bool exact = false;
    const ActivationInfo* info = Find(names[i], exact);
    if (info == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute activations: unknown activation '", names[i], "'"));
    }
    if (!exact && rule == ActivationRule::kRnn) {
      return Decline(absl::StrCat("RNN activation spelled '", names[i], "' (ONNX Runtime ",
                                  "computes Tanh for a name it does not know)"));
    }
    Activation activation{info->kind};
    for (auto [takes, parameters, fallback, value] :
         {std::tuple{info->takes_alpha, &alphas, info->default_alpha, &activation.alpha},
          std::tuple{info->takes_beta, &betas, info->default_beta, &activation.beta}}) {
      if (!takes) continue;
      const std::optional<float> taken = parameters->Take(rule, i, fallback);
      if (!taken.has_value()) {
        return Decline(absl::StrCat(info->name, " without a definite ", parameters->name(),
                                    " (ONNX and ONNX Runtime read it differently)"));
      }
      *value = *taken;
    }
    out.push_back(activation);
  }
  return out;
}

}  // namespace graphgc::kernels::recurrent
