// The sequence walk RNN, GRU and LSTM share; only the cell differs.
//
// For each direction: X·W^T plus the bias the cell folds in, for every step at once (one GEMM);
// then step by step, each batch row walks its own valid steps (forward: 0..len-1; reverse:
// len-1..0), the cell updates the states of the rows still running (its GEMMs, H·R^T, cover the
// whole batch), and the new hidden state goes to Y at that row's time step. Y past a row's length
// stays zero; Y_h (and LSTM's Y_c) keep the state of the row's last valid step.
//
// A Cell<W> (W: the type products are computed in, linalg::WorkType) provides:
//   static constexpr int kStates;   // hidden state first (LSTM: then the cell state)
//   void Start(const DirectionWeights<W>&);
//   void InputBias(const W* b, W* out) const;  // the part of B[d] added to every row of X·W^T
//   void Step(absl::Span<const ActiveRow<W>> rows, W* const* states);
// Inputs beyond initial_h that hold initial states (LSTM's initial_c) follow it (6, ...), and the
// final states are outputs 1, 2, ... (Y_h, Y_c).
#ifndef GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_DRIVER_H_
#define GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_DRIVER_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/recurrent/activation.h"
#include "graphgc/opset/kernels/recurrent/fast_math.h"
#include "graphgc/opset/kernels/recurrent/recurrent_plan.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::recurrent {

// One direction's weights, as the cell reads them.
template <class W>
struct DirectionWeights {
  const W* r = nullptr;                      // R[d]: [gates * hidden, hidden]
  const W* b = nullptr;                      // B[d]: [2 * gates * hidden], nullptr when B is absent
  const W* p = nullptr;                      // LSTM's P[d]: [3 * hidden], nullptr when P is absent
  absl::Span<const Activation> activations;  // this direction's
};

// A batch row still running at this step, and its row of X·W^T (plus bias) at its time step.
template <class W>
struct ActiveRow {
  int64_t row = 0;
  const W* x_gates = nullptr;
};

// c = a · b^T for row-major a [m, k] and b [n, k] (R and W are stored [gates*hidden, k]).
template <class W>
void GemmTransposedB(const W* a, int64_t m, int64_t k, const W* b, int64_t n, W* c, int threads) {
  const int64_t zero = 0;
  linalg::BatchedGemm<W>({.m = m, .n = n, .k = k, .trans_b = true}, W{1}, a, {&zero, 1}, b,
                         {&zero, 1}, W{0}, c, threads);
}

// One step's H·R^T: c [batch, n] = h [batch, k] · r^T for r [n, k], computed as the weight-major
// r · h^T ([n, batch]) followed by a transpose of that small result (with OpenBLAS that was about a
// third less per step at batch 8, hidden 128; the packed product, linalg/packed_gemm.h, also
// fills its register blocks better with the n rows than with the few rows of a batch).
template <class W>
class RecurrenceProduct {
 public:
  // For products of up to `width` columns.
  static absl::StatusOr<RecurrenceProduct> Make(const KernelContext& ctx, int64_t batch,
                                                int64_t width) {
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> transposed, linalg::Scratch<W>(ctx, batch * width));
    return RecurrenceProduct(batch, ctx.threads(), std::move(transposed));
  }

  void operator()(const W* h, int64_t k, const W* r, int64_t n, W* c) {
    GemmTransposedB(r, n, k, h, batch_, transposed_.data(), threads_);
    for (int64_t j = 0; j < n; ++j) {
      const W* column = transposed_.data() + j * batch_;
      for (int64_t b = 0; b < batch_; ++b) c[b * n + j] = column[b];
    }
  }

 private:
  RecurrenceProduct(int64_t batch, int threads, std::vector<W> transposed)
      : batch_(batch), threads_(threads), transposed_(std::move(transposed)) {}

  int64_t batch_;
  int threads_;
  std::vector<W> transposed_;  // r · h^T, [n, batch]
};

// x = clamp(x, -clip, clip) where the node has a clip.
template <class W>
void Clip(const std::optional<float>& clip, W* x, int64_t n) {
  if (!clip.has_value()) return;
  const W bound = static_cast<W>(*clip);
  for (int64_t i = 0; i < n; ++i) x[i] = std::max(-bound, std::min(bound, x[i]));
}

// The activations of `direction`, `per_direction` of them each.
inline absl::Span<const Activation> ActivationsOf(const std::vector<Activation>& all,
                                                  int per_direction, int direction) {
  return absl::MakeConstSpan(all).subspan(static_cast<size_t>(per_direction * direction),
                                          static_cast<size_t>(per_direction));
}

namespace internal_driver {

// Whether every element is finite. ONNX Runtime turns a NaN gate input into FLT_MAX when B is
// given (its clip) and keeps it otherwise, so non-finite inputs get no value.
template <class W>
bool AllFinite(const W* data, int64_t n) {
  if constexpr (std::is_same_v<W, float>) return AllFinite4(data, n);
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) finite &= std::isfinite(data[i]);
  return finite;
}

// The optional input `index` as W, or nothing.
template <class T>
absl::StatusOr<std::optional<linalg::WorkView<T>>> OptionalView(const KernelContext& ctx,
                                                                int index) {
  const Tensor* input = ctx.optional_input(index);
  if (input == nullptr) return std::optional<linalg::WorkView<T>>();
  GRAPHGC_ASSIGN_OR_RETURN(linalg::WorkView<T> view, linalg::WorkView<T>::Of(ctx, *input));
  if (!AllFinite(view.data(), input->size())) return Decline("a NaN or infinite input");
  return std::optional<linalg::WorkView<T>>(std::move(view));
}

template <class T>
const linalg::WorkType<T>* DataOr(const std::optional<linalg::WorkView<T>>& view, int64_t offset) {
  return view.has_value() ? view->data() + offset : nullptr;
}

}  // namespace internal_driver

// Runs the node with `cell` (made for its plan and attributes) and returns its outputs.
// `activations` holds `per_direction` per direction; `p_index` is LSTM's P input (3 * hidden
// per direction), -1 for the others.
template <class T, class Cell>
KernelResult RunRecurrent(const KernelContext& ctx, const RecurrentPlan& plan, Cell& cell,
                          const std::vector<Activation>& activations, int per_direction,
                          int p_index = -1) {
  using W = linalg::WorkType<T>;
  using internal_driver::DataOr;
  using internal_driver::OptionalView;
  constexpr int kStates = Cell::kStates;
  const int64_t hidden = plan.hidden;
  const int64_t width = plan.gates * hidden;  // one row of X·W^T
  const int64_t frame = plan.batch * hidden;  // one state of one direction

  GRAPHGC_ASSIGN_OR_RETURN(auto x, OptionalView<T>(ctx, kInputX));
  GRAPHGC_ASSIGN_OR_RETURN(auto w, OptionalView<T>(ctx, kInputW));
  GRAPHGC_ASSIGN_OR_RETURN(auto r, OptionalView<T>(ctx, kInputR));
  GRAPHGC_ASSIGN_OR_RETURN(auto b, OptionalView<T>(ctx, kInputB));
  std::optional<linalg::WorkView<T>> p;
  if (p_index >= 0) {
    GRAPHGC_ASSIGN_OR_RETURN(p, OptionalView<T>(ctx, p_index));
  }
  std::array<std::optional<linalg::WorkView<T>>, kStates> initial;
  for (int s = 0; s < kStates; ++s) {
    GRAPHGC_ASSIGN_OR_RETURN(initial[s], OptionalView<T>(ctx, kInputInitialH + s));
  }

  // The temporaries first: past the budget, nothing else gets allocated.
  const int64_t rows = plan.seq_length * plan.batch;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> x_gates, linalg::Scratch<W>(ctx, rows * width));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> states, linalg::Scratch<W>(ctx, kStates * frame));
  // Outputs: Y, then the final states; a node may ask for fewer.
  std::vector<MutableTensor> outputs;
  for (int i = 0; i < ctx.num_outputs() && i <= kStates; ++i) {
    GRAPHGC_ASSIGN_OR_RETURN(
        MutableTensor out,
        ctx.allocate(DataTypeOf<T>::value, i == 0 ? plan.y_shape() : plan.state_shape()));
    outputs.push_back(std::move(out));
  }
  T* y = outputs.empty() ? nullptr : outputs[0].mutable_data<T>().data();
  if (y != nullptr) std::fill(y, y + outputs[0].size(), internal::Store<T>(W{0}));

  std::vector<W> bias(static_cast<size_t>(width));
  std::vector<ActiveRow<W>> active;
  active.reserve(static_cast<size_t>(plan.batch));
  std::array<W*, kStates> state;
  for (int s = 0; s < kStates; ++s) state[s] = states.data() + s * frame;
  bool finite = true;

  for (int d = 0; d < plan.directions; ++d) {
    const W* b_d = DataOr(b, d * 2 * width);
    cell.Start(DirectionWeights<W>{r->data() + d * width * hidden, b_d, DataOr(p, d * 3 * hidden),
                                   ActivationsOf(activations, per_direction, d)});
    GemmTransposedB(x->data(), rows, plan.input_size, w->data() + d * width * plan.input_size,
                    width, x_gates.data(), ctx.threads());
    if (b_d != nullptr) {
      cell.InputBias(b_d, bias.data());
      for (int64_t row = 0; row < rows; ++row) {
        W* out = x_gates.data() + row * width;
        for (int64_t j = 0; j < width; ++j) out[j] += bias[j];
      }
    }
    for (int s = 0; s < kStates; ++s) {
      for (int64_t bt = 0; bt < plan.batch; ++bt) {
        const W* from = DataOr(initial[s], plan.state_offset(d, bt));
        W* to = state[s] + bt * hidden;
        if (from == nullptr) {
          std::fill(to, to + hidden, W{0});
        } else {
          std::copy(from, from + hidden, to);
        }
      }
    }
    for (int64_t step = 0; step < plan.max_length; ++step) {
      active.clear();
      for (int64_t bt = 0; bt < plan.batch; ++bt) {
        const int64_t length = plan.lengths[bt];
        if (step >= length) continue;
        const int64_t t = plan.reversed(d) ? length - 1 - step : step;
        active.push_back({bt, x_gates.data() + plan.x_row(t, bt) * width});
      }
      cell.Step(active, state.data());
      if (y == nullptr) continue;
      for (const ActiveRow<W>& row : active) {
        const int64_t length = plan.lengths[row.row];
        const int64_t t = plan.reversed(d) ? length - 1 - step : step;
        const W* h = state[0] + row.row * hidden;
        T* out = y + plan.y_offset(t, d, row.row);
        for (int64_t j = 0; j < hidden; ++j) out[j] = internal::Store<T>(h[j]);
      }
    }
    for (int s = 0; s < kStates; ++s) {
      finite &= internal_driver::AllFinite(state[s], frame);
      if (static_cast<size_t>(s + 1) >= outputs.size()) continue;
      T* out = outputs[s + 1].mutable_data<T>().data();
      for (int64_t bt = 0; bt < plan.batch; ++bt) {
        const W* from = state[s] + bt * hidden;
        T* to = out + plan.state_offset(d, bt);
        for (int64_t j = 0; j < hidden; ++j) to[j] = internal::Store<T>(from[j]);
      }
    }
  }
  // A NaN made inside (an overflow) would meet ONNX Runtime's clip quirk as well.
  if (!finite) return Decline("a state that is not finite");
  KernelOutputs result;
  for (MutableTensor& out : outputs) result.push_back(std::move(out).freeze());
  while (static_cast<int>(result.size()) < ctx.num_outputs()) result.push_back(std::nullopt);
  return result;
}

// The element types of X the recurrent kernels compute.
using RecurrentTypes = graphgc::internal::TypeList<float, double, Float16>;

// Calls f(tag) with the element type of X.
template <class F>
KernelResult DispatchRecurrent(const KernelContext& ctx, F&& f) {
  KernelResult result = Decline("this element type");
  RecurrentTypes::Dispatch(ctx.input(kInputX).dtype(), [&](auto tag) { result = f(tag); });
  return result;
}

}  // namespace graphgc::kernels::recurrent

#endif  // GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_DRIVER_H_
