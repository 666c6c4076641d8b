// What RNN, GRU and LSTM share before any arithmetic: the attributes (direction, hidden_size,
// layout, clip), the inputs' shapes checked against them, and where each (time, direction,
// batch row) lives in X, Y and the state tensors for either layout.
//
// Inputs: X 0, W 1, R 2, B 3, sequence_lens 4, initial_h 5 (LSTM: initial_c 6, P 7).
// layout 0 (and every version before 14): X [seq, batch, input], Y [seq, dirs, batch, hidden],
// states [dirs, batch, hidden]. layout 1: X [batch, seq, input], Y [batch, seq, dirs, hidden],
// states [batch, dirs, hidden].
#ifndef GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_PLAN_H_
#define GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_PLAN_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::recurrent {

inline constexpr int kInputX = 0;
inline constexpr int kInputW = 1;
inline constexpr int kInputR = 2;
inline constexpr int kInputB = 3;
inline constexpr int kInputSequenceLens = 4;
inline constexpr int kInputInitialH = 5;

struct RecurrentPlan {
  int64_t seq_length = 0;
  int64_t batch = 0;
  int64_t input_size = 0;
  int64_t hidden = 0;
  int64_t gates = 0;  // blocks of `hidden` rows in W and R: RNN 1, GRU 3, LSTM 4
  int directions = 1;
  bool reverse = false;      // direction "reverse"
  bool batch_major = false;  // layout 1
  std::optional<float> clip;
  std::vector<int64_t> lengths;  // per batch row; seq_length where sequence_lens is absent
  int64_t max_length = 0;

  // Whether `direction` (0 or 1) walks its sequences from their last valid step to the first.
  bool reversed(int direction) const { return reverse || direction == 1; }
  // The row of X (and of X·W^T) holding step `t` of batch row `b`.
  int64_t x_row(int64_t t, int64_t b) const {
    return batch_major ? b * seq_length + t : t * batch + b;
  }
  // Offset of the `hidden` values of (t, direction, b) in Y.
  int64_t y_offset(int64_t t, int direction, int64_t b) const {
    const int64_t row = batch_major ? (b * seq_length + t) * directions + direction
                                    : (t * directions + direction) * batch + b;
    return row * hidden;
  }
  // Offset of the `hidden` values of (direction, b) in initial_h, initial_c, Y_h and Y_c.
  int64_t state_offset(int direction, int64_t b) const {
    return (batch_major ? b * directions + direction : direction * batch + b) * hidden;
  }
  Shape y_shape() const;
  Shape state_shape() const;
};

// The plan of a node whose W and R hold `gates` blocks. InvalidArgument (naming the input) where
// a shape or a sequence length breaks ONNX's rules, or an attribute has no meaning; Decline
// where the result is not defined the same way by ONNX and ONNX Runtime.
absl::StatusOr<RecurrentPlan> PlanRecurrent(const KernelContext& ctx, int64_t gates);

// Checks input `index` (when present) has the shape `expected`.
absl::Status CheckShape(const KernelContext& ctx, int index, absl::Span<const int64_t> expected);

}  // namespace graphgc::kernels::recurrent

#endif  // GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_PLAN_H_
