// Dropout outside training: output = data (shared). Training with a non-zero ratio is random:
// declined. Per version:
//   1, 6:  training unless the is_test attribute is set; the mask is left without a value.
//   7-11:  the runtime runs in test mode: output = data; ONNX does not say what the mask holds
//          then (ONNX Runtime fills zeros), so it gets no value.
//   12 on: ratio and training_mode are optional inputs (0.5, false); the mask is all true.
#include <algorithm>

#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The output alone, or with a mask of no value when the node asks for one.
KernelOutputs DataOnly(const KernelContext& ctx) {
  KernelOutputs outputs = {ctx.input(0)};
  outputs.resize(static_cast<size_t>(ctx.num_outputs()));
  return outputs;
}

KernelResult DropoutKernel(const KernelContext& ctx) {
  if (ctx.version() < 7) {
    const bool training = ctx.int_attribute("is_test", 0) == 0;
    if (training && ctx.float_attribute("ratio", 0.5f) != 0.0f) {
      return Decline("Dropout in training mode is random");
    }
    return DataOnly(ctx);
  }
  if (ctx.version() < 12) return DataOnly(ctx);
  for (int i : {1, 2}) {
    if (ctx.has_input(i) && ctx.input(i).size() != 1) {
      return ctx.input_error(i, "must hold one element");
    }
  }
  const double ratio = ctx.has_input(1) ? ScalarAsDouble(ctx.input(1)) : 0.5;
  const bool training = ctx.has_input(2) && ctx.input(2).data<bool>()[0];
  if (training && ratio != 0.0) return Decline("Dropout in training mode is random");
  KernelOutputs outputs = {ctx.input(0)};
  if (ctx.num_outputs() > 1) {
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor mask,
                             ctx.allocate(DataType::kBool, ctx.input(0).shape()));
    std::fill_n(mask.mutable_data<bool>().data(), mask.size(), true);
    outputs.push_back(std::move(mask).freeze());
  }
  return outputs;
}

}  // namespace

void RegisterDropoutKernels(KernelTable& table) {
  // The output is the data itself: every type (ratio and mask are handled whole).
  // From 12 the ratio is an input of its own type (T1), read as a double whatever it is.
  table.add("", "Dropout", 1, 11, {{"T", data_types::kAll}}, DropoutKernel);
  table.add("", "Dropout", 12, KernelTable::kLatest,
            {{"T", data_types::kAll}, {"T1", data_types::kFloatingPoint}}, DropoutKernel);
}

}  // namespace graphgc::kernels
