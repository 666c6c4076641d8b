// The shapes and attributes RNN, GRU and LSTM share, read and checked once per node.
#include "graphgc/opset/kernels/recurrent/recurrent_plan.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::recurrent {
namespace {

// Reads `direction` into the plan.
absl::Status ReadDirection(const KernelContext& ctx, RecurrentPlan& plan) {
  const std::string direction = ctx.string_attribute("direction", "forward");
  if (direction == "bidirectional") {
    plan.directions = 2;
  } else if (direction == "reverse") {
    plan.reverse = true;
  } else if (direction != "forward") {
    return absl::InvalidArgumentError(absl::StrCat("attribute direction is '", direction,
                                                   "', not forward, reverse or bidirectional"));
  }
  return absl::OkStatus();
}

// Reads sequence_lens (int32 [batch], each in [0, seq_length]) into the plan.
absl::Status ReadLengths(const KernelContext& ctx, RecurrentPlan& plan) {
  plan.lengths.assign(static_cast<size_t>(plan.batch), plan.seq_length);
  plan.max_length = plan.batch > 0 ? plan.seq_length : 0;
  const Tensor* lens = ctx.optional_input(kInputSequenceLens);
  if (lens == nullptr) return absl::OkStatus();
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputSequenceLens, {plan.batch}));
  if (lens->dtype() != DataType::kInt32) return Decline("sequence_lens that is not int32");
  const absl::Span<const int32_t> values = lens->data<int32_t>();
  plan.max_length = 0;
  for (size_t b = 0; b < values.size(); ++b) {
    if (values[b] < 0 || values[b] > plan.seq_length) {
      return ctx.input_error(kInputSequenceLens,
                             absl::StrCat("length ", values[b], " of batch row ", b,
                                          " is outside [0, ", plan.seq_length, "]"));
    }
    // ONNX leaves an empty sequence's final state unsaid; ONNX Runtime gives zeros for GRU and
    // LSTM and reads out of bounds for RNN.
    if (values[b] == 0) return Decline("a sequence of length 0");
    plan.lengths[b] = values[b];
    plan.max_length = std::max<int64_t>(plan.max_length, values[b]);
  }
  return absl::OkStatus();
}

}  // namespace

Shape RecurrentPlan::y_shape() const {
  return batch_major ? Shape{batch, seq_length, directions, hidden}
                     : Shape{seq_length, directions, batch, hidden};
}

Shape RecurrentPlan::state_shape() const {
  return batch_major ? Shape{batch, directions, hidden} : Shape{directions, batch, hidden};
}

absl::Status CheckShape(const KernelContext& ctx, int index, absl::Span<const int64_t> expected) {
  const Tensor* input = ctx.optional_input(index);
  if (input == nullptr || input->shape() == expected) return absl::OkStatus();
  return ctx.input_error(index, absl::StrCat("has shape ", ShapeToString(input->shape()),
                                             ", expected ", ShapeToString(expected)));
}

absl::StatusOr<RecurrentPlan> PlanRecurrent(const KernelContext& ctx, int64_t gates) {
  RecurrentPlan plan;
  plan.gates = gates;
  GRAPHGC_RETURN_IF_ERROR(ReadDirection(ctx, plan));
  // ONNX Runtime requires hidden_size (> 0); ONNX only implies it through W and R.
  if (!ctx.has_attribute("hidden_size")) return Decline("no hidden_size attribute");
  plan.hidden = ctx.int_attribute("hidden_size");
  if (plan.hidden <= 0) return Decline(absl::StrCat("hidden_size ", plan.hidden));
  const int64_t layout = ctx.version() >= 14 ? ctx.int_attribute("layout") : 0;
  if (layout != 0 && layout != 1) {
    return absl::InvalidArgumentError(absl::StrCat("attribute layout is ", layout, ", not 0 or 1"));
  }
  plan.batch_major = layout == 1;
  if (ctx.has_attribute("clip")) {
    const float clip = ctx.float_attribute("clip");
    // ONNX Runtime rejects clip <= 0 for GRU and LSTM and ignores a negative one for RNN.
    if (!(clip > 0)) return Decline(absl::StrCat("clip ", clip));
    plan.clip = clip;
  }

  const Tensor& x = ctx.input(kInputX);
  if (x.rank() != 3) {
    return ctx.input_error(
        kInputX, absl::StrCat("has shape ", ShapeToString(x.shape()), ", expected rank 3"));
  }
  plan.seq_length = x.shape()[plan.batch_major ? 1 : 0];
  plan.batch = x.shape()[plan.batch_major ? 0 : 1];
  plan.input_size = x.shape()[2];
  const int64_t rows = gates * plan.hidden;
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputW, {plan.directions, rows, plan.input_size}));
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputR, {plan.directions, rows, plan.hidden}));
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputB, {plan.directions, 2 * rows}));
  GRAPHGC_RETURN_IF_ERROR(CheckShape(ctx, kInputInitialH, plan.state_shape()));
  GRAPHGC_RETURN_IF_ERROR(ReadLengths(ctx, plan));
  if (plan.seq_length == 0 && plan.batch > 0) return Decline("a sequence of length 0");
  return plan;
}

}  // namespace graphgc::kernels::recurrent
