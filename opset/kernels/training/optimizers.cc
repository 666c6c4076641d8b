// The optimizers of the ai.onnx.preview.training domain (opset 1): Adagrad, Momentum (standard
// and Nesterov) and Adam. Each takes a learning rate R and an update count T (scalars), then n
// tensors to optimize, their n gradients and their n states (Adam: two), and gives the n
// updated tensors and the updated states, each of its input's type and shape.
//
// Every step is computed in double and stored once, as ONNX's reference computes the rate's
// decay (R / (1 + T * decay_factor)) and bias corrections in float64.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

constexpr char kTrainingDomain[] = "ai.onnx.preview.training";

// The step's scalars.
struct Step {
  double rate = 0;    // R
  int64_t count = 0;  // T
};

// Each optimizer's element-wise rule, its attributes read once: the new tensor element and its
// new states from the element x, its gradient g and its states.
struct Adagrad {
  static constexpr int kStates = 1;
  explicit Adagrad(const KernelContext& ctx, const Step& step)
      : epsilon(ctx.float_attribute("epsilon", 1e-6f)),
        norm(ctx.float_attribute("norm_coefficient", 0.0f)),
        rate(step.rate /
             (1 + static_cast<double>(step.count) * ctx.float_attribute("decay_factor", 0.0f))) {}
  double operator()(double x, double g, const double* states, double* updated) const {
    const double regularized = norm * x + g;
    updated[0] = states[0] + regularized * regularized;
    return x - rate * regularized / (std::sqrt(updated[0]) + epsilon);
  }
  double epsilon, norm, rate;
};

struct Momentum {
  static constexpr int kStates = 1;
  explicit Momentum(const KernelContext& ctx, const Step& step)
      : alpha(ctx.float_attribute("alpha")),
        // The gradient's coefficient is 1 at the first update.
        beta(step.count > 0 ? ctx.float_attribute("beta") : 1.0),
        norm(ctx.float_attribute("norm_coefficient")),
        rate(step.rate),
        nesterov(ctx.string_attribute("mode") == "nesterov") {}
  double operator()(double x, double g, const double* states, double* updated) const {
    const double regularized = norm * x + g;
    updated[0] = alpha * states[0] + beta * regularized;
    return x - rate * (nesterov ? regularized + alpha * updated[0] : updated[0]);
  }
  double alpha, beta, norm, rate;
  bool nesterov;
};

struct Adam {
  static constexpr int kStates = 2;
  explicit Adam(const KernelContext& ctx, const Step& step)
      : alpha(ctx.float_attribute("alpha", 0.9f)),
        beta(ctx.float_attribute("beta", 0.999f)),
        epsilon(ctx.float_attribute("epsilon", 1e-6f)),
        norm(ctx.float_attribute("norm_coefficient", 0.0f)),
        norm_post(ctx.float_attribute("norm_coefficient_post", 0.0f)),
        rate(step.rate) {
    if (step.count > 0) {  // bias correction of the momentums
      const double t = static_cast<double>(step.count);
      rate *= std::sqrt(1 - std::pow(beta, t)) / (1 - std::pow(alpha, t));
    }
  }
  double operator()(double x, double g, const double* states, double* updated) const {
    const double regularized = norm * x + g;
    updated[0] = alpha * states[0] + (1 - alpha) * regularized;
    updated[1] = beta * states[1] + (1 - beta) * regularized * regularized;
    return (1 - norm_post) * (x - rate * (updated[0] / (std::sqrt(updated[1]) + epsilon)));
  }
  double alpha, beta, epsilon, norm, norm_post, rate;
};

// Where tensor i's operands and results are, for n tensors with `states` states each.
struct Layout {
  int tensors = 0;
  int states = 0;
  int x(int i) const { return 2 + i; }
  int g(int i) const { return 2 + tensors + i; }
  int state(int i, int s) const { return 2 + tensors * (2 + s) + i; }
  int state_output(int i, int s) const { return tensors * (1 + s) + i; }
};

absl::StatusOr<Layout> PlanLayout(const KernelContext& ctx, int states) {
  const int groups = 2 + states;  // each tensor's x, g and states
  const int operands = ctx.num_inputs() - 2;
  if (operands <= 0 || operands % groups != 0 ||
      ctx.num_outputs() != operands / groups * (1 + states)) {
    return absl::InvalidArgumentError(absl::StrCat(
        ctx.num_inputs(), " inputs and ", ctx.num_outputs(), " outputs: ", groups,
        " inputs per optimized tensor after R and T and ", 1 + states, " outputs are needed"));
  }
  Layout layout{operands / groups, states};
  for (int i = 0; i < layout.tensors; ++i) {
    const Tensor& x = ctx.input(layout.x(i));
    std::vector<int> others = {layout.g(i)};
    for (int s = 0; s < states; ++s) others.push_back(layout.state(i, s));
    for (int other : others) {
      if (ctx.input(other).dtype() != x.dtype() || ctx.input(other).shape() != x.shape()) {
        return ctx.input_error(
            other, absl::StrCat("its type and shape must be those of input ", layout.x(i), " (",
                                ShapeToString(x.shape()), ")"));
      }
    }
  }
  return layout;
}

template <class T, class Rule>
absl::Status UpdateTensor(const KernelContext& ctx, const Rule& rule, const Layout& layout, int i,
                          KernelOutputs& outputs) {
  const Tensor& x = ctx.input(layout.x(i));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor x_new, ctx.allocate(x.dtype(), x.shape()));
  std::vector<MutableTensor> states_new;
  for (int s = 0; s < layout.states; ++s) {
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor state, ctx.allocate(x.dtype(), x.shape()));
    states_new.push_back(std::move(state));
  }
  const auto xs = x.data<T>();
  const auto gs = ctx.input(layout.g(i)).data<T>();
  double states[2] = {0, 0}, updated_states[2] = {0, 0};
  for (size_t e = 0; e < xs.size(); ++e) {
    for (int s = 0; s < layout.states; ++s) states[s] = ctx.input(layout.state(i, s)).data<T>()[e];
    x_new.mutable_data<T>()[e] = static_cast<T>(rule(xs[e], gs[e], states, updated_states));
    for (int s = 0; s < layout.states; ++s)
      states_new[s].mutable_data<T>()[e] = static_cast<T>(updated_states[s]);
  }
  outputs[i] = std::move(x_new).freeze();
  for (int s = 0; s < layout.states; ++s)
    outputs[layout.state_output(i, s)] = std::move(states_new[s]).freeze();
  return absl::OkStatus();
}

template <class Rule>
KernelResult Optimize(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Layout layout, PlanLayout(ctx, Rule::kStates));
  if (ctx.input(0).size() != 1 || ctx.input(1).size() != 1) {
    return ctx.input_error(ctx.input(0).size() != 1 ? 0 : 1, "R and T must be scalars");
  }
  Step step;
  step.rate = ScalarAsDouble(ctx.input(0));
  step.count = ReadInt64s(ctx.input(1))[0];
  const Rule rule(ctx, step);
  KernelOutputs outputs(static_cast<size_t>(ctx.num_outputs()));
  for (int i = 0; i < layout.tensors; ++i) {
    absl::Status status = absl::InternalError("unreachable");
    internal::TypeList<float, double>::Dispatch(ctx.input(layout.x(i)).dtype(), [&](auto tag) {
      status = UpdateTensor<typename decltype(tag)::type>(ctx, rule, layout, i, outputs);
    });
    GRAPHGC_RETURN_IF_ERROR(status);
  }
  return outputs;
}

}  // namespace

void RegisterTrainingKernels(KernelTable& table) {
  const DataTypeSet reals = {DataType::kFloat, DataType::kDouble};
  const KernelTypes types = {{"T1", reals}, {"T2", {DataType::kInt64}}, {"T3", reals}};
  table.add(kTrainingDomain, "Adagrad", 1, KernelTable::kLatest, types, Optimize<Adagrad>);
  table.add(kTrainingDomain, "Momentum", 1, KernelTable::kLatest, types, Optimize<Momentum>);
  table.add(kTrainingDomain, "Adam", 1, KernelTable::kLatest, types, Optimize<Adam>);
}

}  // namespace graphgc::kernels
