// RNN: Ht = f(Xt·Wi^T + Ht-1·Ri^T + Wbi + Rbi), the simplest cell of the shared driver.
//
// Versions 7 and 14 (layout). Version 1 is not registered: its output_sequence attribute leaves
// which outputs exist ambiguous (ONNX's own inference says so) and ONNX Runtime starts at 7.
#include <algorithm>
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/recurrent/recurrent_driver.h"
#include "graphgc/opset/kernels/recurrent/recurrent_kernels.h"

namespace graphgc::kernels {
namespace recurrent {
namespace {

template <class W>
class RnnCell {
 public:
  static constexpr int kStates = 1;

  static absl::StatusOr<RnnCell> Make(const KernelContext& ctx, const RecurrentPlan& plan) {
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> gates,
                             linalg::Scratch<W>(ctx, plan.batch * plan.hidden));
    GRAPHGC_ASSIGN_OR_RETURN(auto product,
                             RecurrenceProduct<W>::Make(ctx, plan.batch, plan.hidden));
    return RnnCell(plan, std::move(product), std::move(gates));
  }

  void Start(const DirectionWeights<W>& weights) { weights_ = weights; }

  void InputBias(const W* b, W* out) const {
    for (int64_t j = 0; j < plan_.hidden; ++j) out[j] = b[j] + b[plan_.hidden + j];
  }

  void Step(absl::Span<const ActiveRow<W>> rows, W* const* states) {
    const int64_t hidden = plan_.hidden;
    W* h = states[0];
    product_(h, hidden, weights_.r, hidden, gates_.data());
    for (const ActiveRow<W>& row : rows) {
      W* g = gates_.data() + row.row * hidden;
      for (int64_t j = 0; j < hidden; ++j) g[j] += row.x_gates[j];
      Clip(plan_.clip, g, hidden);
      Activate(weights_.activations[0], g, hidden);
      std::copy(g, g + hidden, h + row.row * hidden);
    }
  }

 private:
  RnnCell(const RecurrentPlan& plan, RecurrenceProduct<W> product, std::vector<W> gates)
      : plan_(plan), product_(std::move(product)), gates_(std::move(gates)) {}

  const RecurrentPlan& plan_;
  RecurrenceProduct<W> product_;
  DirectionWeights<W> weights_;
  std::vector<W> gates_;  // H·R^T, [batch, hidden]
};

KernelResult RnnKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const RecurrentPlan plan, PlanRecurrent(ctx, 1));
  GRAPHGC_ASSIGN_OR_RETURN(
      const std::vector<Activation> activations,
      ReadActivations(ctx, ActivationRule::kRnn, 1, plan.directions, {"Tanh"}));
  return DispatchRecurrent(ctx, [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(auto cell, RnnCell<linalg::WorkType<T>>::Make(ctx, plan));
    return RunRecurrent<T>(ctx, plan, cell, activations, 1);
  });
}

}  // namespace
}  // namespace recurrent

void RegisterRnnKernels(KernelTable& table) {
  // sequence_lens (T1) is read as int32.
  table.add("", "RNN", 7, KernelTable::kLatest,
            {{"T", recurrent::RecurrentTypes::kSet}, {"T1", {DataType::kInt32}}},
            recurrent::RnnKernel);
}

}  // namespace graphgc::kernels
