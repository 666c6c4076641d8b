// BatchNormalization: y = (x - mean) / sqrt(var + epsilon) * scale + B per channel (dim 1).
//
// Inference mode uses the given mean and var. Training mode uses the batch's own statistics
// (mean and population variance over every dim but 1) and also outputs the running statistics
// input * momentum + batch * (1 - momentum). Which mode a node is in:
//   - opsets 1 and 6: inference when is_test = 1; otherwise no value (the optional outputs' meaning
//     there is not settled by any runtime: ONNX Runtime has no kernel before 7);
//   - opsets 7 and 9: training when the node has optional outputs (as in ONNX Runtime). Its
//     saved_mean is the batch mean; saved_var gets no value, since ONNX calls it the variance and
//     ONNX Runtime writes the inverse standard deviation there;
//   - opsets 14 and 15: training_mode. A node whose outputs disagree with it (training_mode = 1
//     with no running outputs, or 0 with them) gets no value: ONNX Runtime decides the mode by the
//     outputs, ONNX by the attribute.
// spatial = 0 (opsets 1 to 7) normalizes each (c, d1, ..) element separately; its parameters have
// shape [C, d1, ..]; training is only defined for spatial = 1 (ONNX Runtime refuses the rest).
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/normalization/channel_stats.h"
#include "graphgc/opset/kernels/normalization/normalization_kernels.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class Mode { kInference, kTraining, kUndecided };

Mode ModeOf(const KernelContext& ctx) {
  const bool has_optional_outputs = ctx.num_outputs() > 1;
  if (ctx.version() < 7) {
    return ctx.int_attribute("is_test") == 1 ? Mode::kInference : Mode::kUndecided;
  }
  if (ctx.version() < 14) return has_optional_outputs ? Mode::kTraining : Mode::kInference;
  const bool training = ctx.int_attribute("training_mode") != 0;
  if (training != has_optional_outputs) return Mode::kUndecided;
  return training ? Mode::kTraining : Mode::kInference;
}

// Inputs 1..4 (scale, B, mean, var) must each have `shape`, read as double.
absl::StatusOr<std::vector<std::vector<double>>> ReadParameters(const KernelContext& ctx,
                                                                absl::Span<const int64_t> shape) {
  std::vector<std::vector<double>> parameters;
  for (int i = 1; i <= 4; ++i) {
    const Tensor& p = ctx.input(i);
    if (p.shape() != shape) {
      return ctx.input_error(
          i, absl::StrCat("shape ", ShapeToString(p.shape()), " is not ", ShapeToString(shape)));
    }
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<double> values, ReadAsDoubles(ctx, p));
    parameters.push_back(std::move(values));
  }
  return parameters;
}

KernelResult BatchNormalization(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Mode mode = ModeOf(ctx);
  if (mode == Mode::kUndecided) return Decline("the node's mode of operation is ambiguous");
  if (x.rank() < 2) return ctx.input_error(0, "has rank < 2; there is no channel dim");
  const bool spatial = ctx.version() >= 9 || ctx.int_attribute("spatial", 1) == 1;
  if (!spatial && mode == Mode::kTraining) return Decline("non-spatial training");
  const absl::Span<const int64_t> dims = x.shape();
  ChannelLayout layout{dims[0], dims[1], 1};
  for (size_t d = 2; d < dims.size(); ++d) layout.inner *= dims[d];
  Shape parameter_shape{dims[1]};
  if (!spatial) {
    parameter_shape.assign(dims.begin() + 1, dims.end());
    layout = {dims[0], layout.channels * layout.inner, 1};
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<std::vector<double>> p,
                           ReadParameters(ctx, parameter_shape));
  const std::vector<double>& scale = p[0];
  const std::vector<double>& bias = p[1];
  const double epsilon = ctx.float_attribute("epsilon", 1e-5f);
  const double momentum = ctx.float_attribute("momentum", 0.9f);

  return DispatchFloatingKernel(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    const T* px = x.data<T>().data();
    Moments used{p[2], p[3]};
    if (mode == Mode::kTraining) used = ChannelMoments(px, layout);
    std::vector<double> a(scale.size());
    std::vector<double> b(scale.size());
    for (size_t c = 0; c < a.size(); ++c) {
      a[c] = scale[c] / std::sqrt(used.variance[c] + epsilon);
      b[c] = bias[c] - used.mean[c] * a[c];
    }
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), x.shape()));
    ApplyChannelAffine(px, y.mutable_data<T>().data(), layout, a, b);
    KernelOutputs outputs(static_cast<size_t>(ctx.num_outputs()));
    outputs[0] = std::move(y).freeze();
    if (mode != Mode::kTraining) return outputs;
    // The running statistics, then (opsets 7 and 9) the batch mean.
    std::vector<std::vector<double>> statistics(2, std::vector<double>(a.size()));
    for (size_t c = 0; c < a.size(); ++c) {
      statistics[0][c] = p[2][c] * momentum + used.mean[c] * (1 - momentum);
      statistics[1][c] = p[3][c] * momentum + used.variance[c] * (1 - momentum);
    }
    statistics.push_back(used.mean);
    for (size_t i = 1; i < outputs.size() && i <= statistics.size(); ++i) {
      GRAPHGC_ASSIGN_OR_RETURN(
          outputs[i], TensorFromDoubles(ctx, ctx.output(static_cast<int>(i)).dtype, parameter_shape,
                                        statistics[i - 1]));
    }
    return outputs;
  });
}

}  // namespace

void RegisterBatchNormalizationKernels(KernelTable& table) {
  // Every tensor is read and written as floating point (DispatchFloatingKernel). The schema's
  // parameters: T for all up to 9; 14 gives the statistics U; 15 gives scale and B T1, the
  // statistics T2.
  using data_types::kFloatingPoint;
  table.add("", "BatchNormalization", 1, 13, {{"T", kFloatingPoint}}, BatchNormalization);
  table.add("", "BatchNormalization", 14, 14, {{"T", kFloatingPoint}, {"U", kFloatingPoint}},
            BatchNormalization);
  table.add("", "BatchNormalization", 15, 15,
            {{"T", kFloatingPoint}, {"T1", kFloatingPoint}, {"T2", kFloatingPoint}},
            BatchNormalization);
}

}  // namespace graphgc::kernels
