// ReverseSequence: for each batch entry b, the first sequence_lens[b] steps along the time axis
// reversed and the rest copied. batch_axis and time_axis are 0 and 1 in either order.
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult ReverseSequenceKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  const int64_t batch_axis = ctx.int_attribute("batch_axis", 1);
  const int64_t time_axis = ctx.int_attribute("time_axis", 0);
  if (input.rank() < 2) return ctx.input_error(0, "must have rank 2 or more");
  if (batch_axis + time_axis != 1 || batch_axis * time_axis != 0) {
    return absl::InvalidArgumentError(absl::StrCat("attributes batch_axis ", batch_axis,
                                                   " and time_axis ", time_axis,
                                                   " must be 0 and 1 in some order"));
  }
  const Shape strides = ContiguousStrides(input.shape());
  const int64_t batches = input.shape()[static_cast<size_t>(batch_axis)];
  const int64_t steps = input.shape()[static_cast<size_t>(time_axis)];
  const int64_t batch_stride = strides[static_cast<size_t>(batch_axis)];
  const int64_t time_stride = strides[static_cast<size_t>(time_axis)];
  const int64_t inner = strides[1];  // the elements of one (batch, time) entry
  const std::vector<int64_t> lengths = ReadInt64s(ctx.input(1));
  if (static_cast<int64_t>(lengths.size()) != batches) {
    return ctx.input_error(
        1, absl::StrCat("has ", lengths.size(), " lengths for ", batches, " batch entries"));
  }
  for (int64_t length : lengths) {
    if (length < 0 || length > steps) {
      return ctx.input_error(1, absl::StrCat("length ", length, " is outside [0, ", steps, "]"));
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(input.dtype(), input.shape()));
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t length = lengths[static_cast<size_t>(b)];
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t from = t < length ? length - 1 - t : t;
      CopyElements(input, b * batch_stride + from * time_stride, out,
                   b * batch_stride + t * time_stride, inner);
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterReverseSequenceKernels(KernelTable& table) {
  table.add("", "ReverseSequence", 10, KernelTable::kLatest, {{"T", data_types::kAll}},
            ReverseSequenceKernel);
}

}  // namespace graphgc::kernels
