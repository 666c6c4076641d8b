// LSTM: the cell with input, output, forget and cell gates (W, R, B in that order: i, o, f, c),
// peepholes P (i, o, f) and the cell state C as a second state.
//
//   it = f(Xt·Wi^T + Ht-1·Ri^T + Pi (.) Ct-1 + Wbi + Rbi)
//   ft = f(Xt·Wf^T + Ht-1·Rf^T + Pf (.) Ct-1 + Wbf + Rbf)     input_forget: ft = 1 - it
//   ct = g(Xt·Wc^T + Ht-1·Rc^T + Wbc + Rbc)
//   Ct = ft (.) Ct-1 + it (.) ct
//   ot = f(Xt·Wo^T + Ht-1·Ro^T + Po (.) Ct + Wbo + Rbo)
//   Ht = ot (.) h(Ct)
// clip bounds each gate's input to its activation (as ONNX Runtime does; Ct itself is not
// clipped). input_forget follows ONNX Runtime (ft = 1 - it), ONNX says only "couple".
// Versions 7 and 14 (layout). Version 1 is not registered (output_sequence, as for RNN).
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/recurrent/recurrent_driver.h"
#include "graphgc/opset/kernels/recurrent/recurrent_kernels.h"

namespace graphgc::kernels {
namespace recurrent {
namespace {

constexpr int kInputInitialC = 6;
constexpr int kInputP = 7;

template <class W>
class LstmCell {
 public:
  static constexpr int kStates = 2;

  static absl::StatusOr<LstmCell> Make(const KernelContext& ctx, const RecurrentPlan& plan) {
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> gates,
                             linalg::Scratch<W>(ctx, plan.batch * 4 * plan.hidden));
    GRAPHGC_ASSIGN_OR_RETURN(auto product,
                             RecurrenceProduct<W>::Make(ctx, plan.batch, 4 * plan.hidden));
    return LstmCell(plan, std::move(product), ctx.int_attribute("input_forget") != 0,
                    std::move(gates));
  }

  void Start(const DirectionWeights<W>& weights) { weights_ = weights; }

  void InputBias(const W* b, W* out) const {
    const int64_t width = 4 * plan_.hidden;
    for (int64_t j = 0; j < width; ++j) out[j] = b[j] + b[width + j];
  }

  void Step(absl::Span<const ActiveRow<W>> rows, W* const* states) {
    const int64_t hidden = plan_.hidden;
    const int64_t width = 4 * hidden;
    product_(states[0], hidden, weights_.r, width, gates_.data());
    for (const ActiveRow<W>& row : rows) {
      W* g = gates_.data() + row.row * width;
      for (int64_t j = 0; j < width; ++j) g[j] += row.x_gates[j];
      Update(g, states[0] + row.row * hidden, states[1] + row.row * hidden);
    }
  }

 private:
  LstmCell(const RecurrentPlan& plan, RecurrenceProduct<W> product, bool input_forget,
           std::vector<W> gates)
      : plan_(plan),
        product_(std::move(product)),
        input_forget_(input_forget),
        gates_(std::move(gates)) {}

  // One row: g holds the gate inputs (i, o, f, c) without peepholes; h and c are updated.
  void Update(W* g, W* h, W* c) const {
    const int64_t n = plan_.hidden;
    W* in = g;
    W* out = g + n;
    W* forget = g + 2 * n;
    W* cell = g + 3 * n;
    const W* p = weights_.p;
    const Activation& f = weights_.activations[0];
    if (p != nullptr) AddProduct(p, c, in);
    Clip(plan_.clip, in, n);
    Activate(f, in, n);
    if (input_forget_) {
      for (int64_t j = 0; j < n; ++j) forget[j] = W{1} - in[j];
    } else {
      if (p != nullptr) AddProduct(p + 2 * n, c, forget);
      Clip(plan_.clip, forget, n);
      Activate(f, forget, n);
    }
    Clip(plan_.clip, cell, n);
    Activate(weights_.activations[1], cell, n);
    for (int64_t j = 0; j < n; ++j) c[j] = forget[j] * c[j] + in[j] * cell[j];
    if (p != nullptr) AddProduct(p + n, c, out);
    Clip(plan_.clip, out, n);
    Activate(f, out, n);
    std::copy(c, c + n, cell);  // the cell gate's slot now holds h(Ct)
    Activate(weights_.activations[2], cell, n);
    for (int64_t j = 0; j < n; ++j) h[j] = out[j] * cell[j];
  }

  // x += a (.) b over one row.
  void AddProduct(const W* a, const W* b, W* x) const {
    for (int64_t j = 0; j < plan_.hidden; ++j) x[j] += a[j] * b[j];
  }

  const RecurrentPlan& plan_;
  RecurrenceProduct<W> product_;
  bool input_forget_;
  DirectionWeights<W> weights_;
  std::vector<W> gates_;  // H·R^T + X·W^T + bias, [batch, 4 * hidden]
};

KernelResult LstmKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const RecurrentPlan plan, PlanRecurrent(ctx, 4));
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputInitialC, plan.state_shape()));
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputP, {plan.directions, 3 * plan.hidden}));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Activation> activations,
                           ReadActivations(ctx, ActivationRule::kConsumedInOrder, 3,
                                           plan.directions, {"Sigmoid", "Tanh", "Tanh"}));
  return DispatchRecurrent(ctx, [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(auto cell, LstmCell<linalg::WorkType<T>>::Make(ctx, plan));
    return RunRecurrent<T>(ctx, plan, cell, activations, 3, kInputP);
  });
}

}  // namespace
}  // namespace recurrent

void RegisterLstmKernels(KernelTable& table) {
  // sequence_lens (T1) is read as int32.
  table.add("", "LSTM", 7, KernelTable::kLatest,
            {{"T", recurrent::RecurrentTypes::kSet}, {"T1", {DataType::kInt32}}},
            recurrent::LstmKernel);
}

}  // namespace graphgc::kernels
