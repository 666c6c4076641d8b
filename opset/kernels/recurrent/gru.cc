// GRU: the cell with update, reset and hidden gates (W, R, B in that order: z, r, h).
//
//   zt = f(Xt·Wz^T + Ht-1·Rz^T + Wbz + Rbz)
//   rt = f(Xt·Wr^T + Ht-1·Rr^T + Wbr + Rbr)
//   ht = g(Xt·Wh^T + (rt (.) Ht-1)·Rh^T + Rbh + Wbh)      linear_before_reset = 0
//   ht = g(Xt·Wh^T + rt (.) (Ht-1·Rh^T + Rbh) + Wbh)      linear_before_reset != 0
//   Ht = (1 - zt) (.) ht + zt (.) Ht-1
// clip bounds each gate's input to its activation. Without linear_before_reset the hidden gate
// needs rt first, so a step takes two GEMMs: Ht-1·R[zr]^T, then (rt (.) Ht-1)·Rh^T.
// Versions 7 and 14 (layout). Versions 1 and 3 are not registered: output_sequence (see rnn.cc),
// and version 1's schema defaults direction to the misspelt "foward".
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/recurrent/recurrent_driver.h"
#include "graphgc/opset/kernels/recurrent/recurrent_kernels.h"

namespace graphgc::kernels {
namespace recurrent {
namespace {

template <class W>
class GruCell {
 public:
  static constexpr int kStates = 1;

  static absl::StatusOr<GruCell> Make(const KernelContext& ctx, const RecurrentPlan& plan) {
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> gates,
                             linalg::Scratch<W>(ctx, plan.batch * 3 * plan.hidden));
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> reset_hidden,
                             linalg::Scratch<W>(ctx, plan.batch * plan.hidden));
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> hidden_gate,
                             linalg::Scratch<W>(ctx, plan.batch * plan.hidden));
    GRAPHGC_ASSIGN_OR_RETURN(auto product,
                             RecurrenceProduct<W>::Make(ctx, plan.batch, 3 * plan.hidden));
    return GruCell(plan, std::move(product), ctx.int_attribute("linear_before_reset") != 0,
                   std::move(gates), std::move(reset_hidden), std::move(hidden_gate));
  }

  void Start(const DirectionWeights<W>& weights) {
    weights_ = weights;
    recurrence_bias_h_ = weights.b == nullptr ? nullptr : weights.b + 5 * plan_.hidden;
  }

  // Rbh joins the input part unless it is added before the reset gate multiplies.
  void InputBias(const W* b, W* out) const {
    const int64_t width = 3 * plan_.hidden;
    const int64_t folded = linear_before_reset_ ? 2 * plan_.hidden : width;
    for (int64_t j = 0; j < width; ++j) out[j] = b[j] + (j < folded ? b[width + j] : W{0});
  }

  void Step(absl::Span<const ActiveRow<W>> rows, W* const* states) {
    const int64_t n = plan_.hidden;
    W* h = states[0];
    // With linear_before_reset one product gives all three gates; otherwise z and r first.
    const int64_t recurrent_gates = linear_before_reset_ ? 3 : 2;
    product_(h, n, weights_.r, recurrent_gates * n, gates_.data());
    const int64_t stride = recurrent_gates * n;
    for (const ActiveRow<W>& row : rows) {
      W* g = gates_.data() + row.row * stride;
      for (int64_t j = 0; j < 2 * n; ++j) g[j] += row.x_gates[j];
      Clip(plan_.clip, g, 2 * n);
      Activate(weights_.activations[0], g, 2 * n);  // z and r
      const W* reset = g + n;
      const W* h_prev = h + row.row * n;
      W* reset_hidden = reset_hidden_.data() + row.row * n;
      if (linear_before_reset_) {
        const W* linear = g + 2 * n;
        for (int64_t j = 0; j < n; ++j) {
          const W rbh = recurrence_bias_h_ == nullptr ? W{0} : recurrence_bias_h_[j];
          reset_hidden[j] = row.x_gates[2 * n + j] + reset[j] * (linear[j] + rbh);
        }
      } else {
        for (int64_t j = 0; j < n; ++j) reset_hidden[j] = reset[j] * h_prev[j];
      }
    }
    if (!linear_before_reset_) {
      // reset_hidden's rows of finished sequences hold stale values; their results go unused.
      product_(reset_hidden_.data(), n, weights_.r + 2 * n * n, n, hidden_gate_.data());
      for (const ActiveRow<W>& row : rows) {
        W* pre = reset_hidden_.data() + row.row * n;
        const W* product = hidden_gate_.data() + row.row * n;
        for (int64_t j = 0; j < n; ++j) pre[j] = row.x_gates[2 * n + j] + product[j];
      }
    }
    for (const ActiveRow<W>& row : rows) {
      const W* update = gates_.data() + row.row * stride;
      W* candidate = reset_hidden_.data() + row.row * n;
      W* h_row = h + row.row * n;
      Clip(plan_.clip, candidate, n);
      Activate(weights_.activations[1], candidate, n);
      for (int64_t j = 0; j < n; ++j)
        h_row[j] = (W{1} - update[j]) * candidate[j] + update[j] * h_row[j];
    }
  }

 private:
  GruCell(const RecurrentPlan& plan, RecurrenceProduct<W> product, bool linear_before_reset,
          std::vector<W> gates, std::vector<W> reset_hidden, std::vector<W> hidden_gate)
      : plan_(plan),
        product_(std::move(product)),
        linear_before_reset_(linear_before_reset),
        gates_(std::move(gates)),
        reset_hidden_(std::move(reset_hidden)),
        hidden_gate_(std::move(hidden_gate)) {}

  const RecurrentPlan& plan_;
  RecurrenceProduct<W> product_;
  bool linear_before_reset_;
  DirectionWeights<W> weights_;
  const W* recurrence_bias_h_ = nullptr;  // Rbh, added inside the reset with linear_before_reset
  std::vector<W> gates_;         // Ht-1·R^T (+ X·W^T + bias for z and r), [batch, 2 or 3 hidden]
  std::vector<W> reset_hidden_;  // rt (.) Ht-1, then the hidden gate's input, [batch, hidden]
  std::vector<W> hidden_gate_;   // (rt (.) Ht-1)·Rh^T, [batch, hidden]
};

KernelResult GruKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const RecurrentPlan plan, PlanRecurrent(ctx, 3));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Activation> activations,
                           ReadActivations(ctx, ActivationRule::kConsumedInOrder, 2,
                                           plan.directions, {"Sigmoid", "Tanh"}));
  return DispatchRecurrent(ctx, [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(auto cell, GruCell<linalg::WorkType<T>>::Make(ctx, plan));
    return RunRecurrent<T>(ctx, plan, cell, activations, 2);
  });
}

}  // namespace
}  // namespace recurrent

void RegisterGruKernels(KernelTable& table) {
  // sequence_lens (T1) is read as int32.
  table.add("", "GRU", 7, KernelTable::kLatest,
            {{"T", recurrent::RecurrentTypes::kSet}, {"T1", {DataType::kInt32}}},
            recurrent::GruKernel);
}

}  // namespace graphgc::kernels
