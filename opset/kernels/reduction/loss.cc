// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (from 12): input [N, C, d1..dk], target
// [N, d1..dk] of class indices, optional weight [C], ignore_index, reduction none/sum/mean.
// SoftmaxCrossEntropyLoss is the NLL of LogSoftmax(scores) along axis 1, whose values it also
// gives as its optional second output (log_prob); like LogSoftmax, no value when a lane holds NaN
// or +inf (softmax_core.h).
//
//   loss[n, d] = -input[n, target[n, d], d] * weight[target[n, d]]   (0 where target is ignored)
//   mean = sum(loss) / sum(weight[target]) over the targets not ignored (NaN when that is 0).
// A target outside [-C, C) (and not ignored) makes the op fail; one in [-C, 0) counts from the
// back, as ONNX's function body (GatherElements) and ONNX Runtime do.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/reduction/axis_split.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"
#include "graphgc/opset/kernels/reduction/scratch.h"
#include "graphgc/opset/kernels/reduction/softmax_core.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

enum class LossReduction { kNone, kSum, kMean };

// Everything about a loss call but the element type.
struct LossCall {
  AxisSplit split;  // input viewed as [N, C, d1 * .. * dk]
  std::vector<int64_t> targets;
  Shape target_shape;
  const Tensor* weight = nullptr;
  std::optional<int64_t> ignore_index;
  LossReduction reduction = LossReduction::kMean;
};

absl::StatusOr<LossCall> ReadLossCall(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  const Tensor& target = ctx.input(1);
  LossCall call;
  const std::string reduction = ctx.string_attribute("reduction", "mean");
  if (reduction == "none") {
    call.reduction = LossReduction::kNone;
  } else if (reduction == "sum") {
    call.reduction = LossReduction::kSum;
  } else if (reduction != "mean") {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'reduction' is \"", reduction,
                                                   "\"; it is one of none, sum and mean"));
  }
  if (input.rank() < 2) return ctx.input_error(0, "has rank below 2; it is [N, C, d1..dk]");
  call.split = SplitAtAxis(input.shape(), 1);
  const Shape expected = WithAxisResized(input.shape(), 1, -1);
  if (!std::equal(target.shape().begin(), target.shape().end(), expected.begin(), expected.end())) {
    return ctx.input_error(1,
                           absl::StrCat("has shape ", ShapeToString(target.shape()),
                                        "; the input's [N, d1..dk] is ", ShapeToString(expected)));
  }
  call.target_shape = expected;
  call.targets = ReadInt64s(target);
  call.weight = ctx.optional_input(2);
  if (call.weight != nullptr && call.weight->size() != call.split.extent) {
    return ctx.input_error(2, absl::StrCat("has ", call.weight->size(), " weights for ",
                                           call.split.extent, " classes"));
  }
  if (ctx.has_attribute("ignore_index")) call.ignore_index = ctx.int_attribute("ignore_index");
  return call;
}

// The loss output from log-probabilities given by log_prob(offset) (the NLL's input or the
// computed LogSoftmax), in the input's element type T.
template <class T, class LogProb>
absl::StatusOr<Tensor> NegativeLogLikelihood(const KernelContext& ctx, const LossCall& call,
                                             LogProb log_prob) {
  using C = ComputeType<T>;
  const DataType dtype = DataTypeOf<T>::value;
  const int64_t classes = call.split.extent;
  const int64_t inner = call.split.inner;
  const T* weights = call.weight == nullptr ? nullptr : call.weight->data<T>().data();
  std::optional<MutableTensor> per_element;
  if (call.reduction == LossReduction::kNone) {
    GRAPHGC_ASSIGN_OR_RETURN(per_element, ctx.allocate(dtype, call.target_shape));
  }
  C loss_sum = 0, weight_sum = 0;
  for (int64_t n = 0; n < call.split.outer; ++n) {
    for (int64_t d = 0; d < inner; ++d) {
      const int64_t at = n * inner + d;
      int64_t target = call.targets[static_cast<size_t>(at)];
      C loss = 0;
      if (target != call.ignore_index) {
        if (target < -classes || target >= classes) {
          return ctx.input_error(1, absl::StrCat("target ", target, " at element ", at,
                                                 " is outside [0, ", classes, ")"));
        }
        if (target < 0) target += classes;
        const C weight = weights == nullptr ? C{1} : Load(weights[target]);
        loss = -log_prob((n * classes + target) * inner + d) * weight;
        loss_sum += loss;
        weight_sum += weight;
      }
      if (per_element.has_value()) per_element->mutable_data<T>()[at] = Store<T>(loss);
    }
  }
  if (per_element.has_value()) return std::move(*per_element).freeze();
  const C total = call.reduction == LossReduction::kSum ? loss_sum : loss_sum / weight_sum;
  return Tensor::scalar<T>(Store<T>(total));
}

KernelResult NegativeLogLikelihoodLoss(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const LossCall call, ReadLossCall(ctx));
  const Tensor& input = ctx.input(0);
  return DispatchFloatingKernel(input.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    const T* x = input.data<T>().data();
    GRAPHGC_ASSIGN_OR_RETURN(
        Tensor loss, NegativeLogLikelihood<T>(ctx, call, [x](int64_t i) { return Load(x[i]); }));
    return KernelOutputs{std::move(loss)};
  });
}

template <class T>
KernelResult SoftmaxCrossEntropyOfType(const KernelContext& ctx, const Tensor& scores,
                                       const LossCall& call) {
  using C = ComputeType<T>;
  const AxisSplit& split = call.split;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> log_prob, AllocateScratch<C>(ctx, scores.size()));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> scratch, AllocateScratch<C>(ctx, 2 * split.inner));
  const T* x = scores.data<T>().data();
  bool sums_are_numbers = true;
  for (int64_t n = 0; n < split.outer; ++n) {
    const int64_t offset = n * split.block();
    sums_are_numbers &= SoftmaxBlock(x + offset, log_prob.data() + offset, split.extent,
                                     split.inner, SoftmaxKind::kLogSoftmax, scratch.data());
  }
  if (!sums_are_numbers) {
    return Decline("the LogSoftmax of scores holding NaN or +inf, where runtimes disagree");
  }
  GRAPHGC_ASSIGN_OR_RETURN(Tensor loss, NegativeLogLikelihood<T>(ctx, call, [&log_prob](int64_t i) {
                             return log_prob[i];
                           }));
  KernelOutputs outputs{std::move(loss)};
  if (ctx.num_outputs() > 1) {
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(scores.dtype(), scores.shape()));
    T* y = out.mutable_data<T>().data();
    for (size_t i = 0; i < log_prob.size(); ++i) y[i] = Store<T>(log_prob[i]);
    outputs.push_back(std::move(out).freeze());
  }
  return outputs;
}

KernelResult SoftmaxCrossEntropyLoss(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const LossCall call, ReadLossCall(ctx));
  const Tensor& scores = ctx.input(0);
  return DispatchFloatingKernel(scores.dtype(), [&](auto tag) {
    return SoftmaxCrossEntropyOfType<typename decltype(tag)::type>(ctx, scores, call);
  });
}

}  // namespace

void RegisterLossKernels(KernelTable& table) {
  // The targets are read as int32 or int64 (Tind); the rest is floating point.
  const KernelTypes types = {{"T", data_types::kFloatingPoint}, {"Tind", data_types::kIndices}};
  table.add("", "NegativeLogLikelihoodLoss", 12, KernelTable::kLatest, types,
            NegativeLogLikelihoodLoss);
  table.add("", "SoftmaxCrossEntropyLoss", 12, kLastKnownOpset, types, SoftmaxCrossEntropyLoss);
}

}  // namespace graphgc::kernels
