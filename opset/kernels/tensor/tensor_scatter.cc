// TensorScatter (opset 24): a key-value cache updated in place of a copy. past_cache is
// [B, ..., max_sequence, ...] with the sequence at `axis` (default -2); update has the same
// dims but `sequence` <= max_sequence there; write_indices [B] (zeros when absent) says where
// each batch's update starts. Mode linear writes at write_index + i, which must stay inside the
// cache; circular wraps it modulo max_sequence.
//
// ONNX's reference also wraps the indices of the axes before the sequence in circular mode (a
// quirk that matters only where such an axis is longer than the sequence): those get no value.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult TensorScatterKernel(const KernelContext& ctx) {
  const Tensor& cache = ctx.input(0);
  const Tensor& update = ctx.input(1);
  const Tensor* write_indices = ctx.optional_input(2);
  const int64_t rank = cache.rank();
  if (rank < 2 || update.rank() != rank) {
    return ctx.input_error(
        1, absl::StrCat("has rank ", update.rank(), "; past_cache has ", rank, " (at least 2)"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", -2), rank));
  if (axis == 0) return Decline("TensorScatter along the batch axis");
  GRAPHGC_ASSIGN_OR_RETURN(const size_t mode,
                           ChooseAttribute(ctx, "mode", "linear", {"linear", "circular"}));
  const bool circular = mode == 1;
  const auto dims = cache.shape();
  int64_t outer = 1;  // positions of the axes before the sequence
  int64_t inner = 1;  // elements after it
  for (int64_t d = 0; d < rank; ++d) {
    const size_t i = static_cast<size_t>(d);
    if (d != axis && update.shape()[i] != dims[i]) {
      return ctx.input_error(
          1, absl::StrCat("has dim ", d, " of ", update.shape()[i], "; past_cache has ", dims[i]));
    }
    if (d < axis) outer *= dims[i];
    if (d > axis) inner *= dims[i];
    if (circular && d > 0 && d < axis && dims[i] > dims[static_cast<size_t>(axis)]) {
      return Decline("circular TensorScatter with an axis before the sequence longer than it");
    }
  }
  const int64_t batch = dims[0];
  const int64_t max_sequence = dims[static_cast<size_t>(axis)];
  const int64_t sequence = update.shape()[static_cast<size_t>(axis)];
  if (sequence > max_sequence) {
    return ctx.input_error(
        1, absl::StrCat("holds ", sequence, " steps; past_cache has room for ", max_sequence));
  }
  std::vector<int64_t> starts(static_cast<size_t>(batch), 0);
  if (write_indices != nullptr) {
    starts = ReadInt64s(*write_indices);
    if (static_cast<int64_t>(starts.size()) != batch) {
      return ctx.input_error(
          2, absl::StrCat("has ", starts.size(), " entries for a batch of ", batch));
    }
  }
  for (int64_t start : starts) {
    const bool fits = circular ? start >= 0 : start >= 0 && start <= max_sequence - sequence;
    if (!fits) {
      return ctx.input_error(2, absl::StrCat("starts a write at ", start, " in a sequence of ",
                                             max_sequence, " (", sequence, " steps to write)"));
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(cache.dtype(), dims));
  CopyElements(cache, 0, out, 0, cache.size());
  const int64_t per_batch = batch == 0 ? 0 : outer / batch;
  for (int64_t o = 0; o < outer; ++o) {
    const int64_t start = starts[static_cast<size_t>(o / per_batch)];
    for (int64_t s = 0; s < sequence; ++s) {
      const int64_t position = circular ? (start + s) % max_sequence : start + s;
      CopyElements(update, (o * sequence + s) * inner, out, (o * max_sequence + position) * inner,
                   inner);
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterTensorScatterKernels(KernelTable& table) {
  table.add("", "TensorScatter", 24, KernelTable::kLatest, {{"T", data_types::kMovable}},
            TensorScatterKernel);
}

}  // namespace graphgc::kernels
