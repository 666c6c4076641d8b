// Reshape, Flatten, Squeeze, Unsqueeze and Identity: the input's buffer, shared, viewed with the
// output's shape (inference computes it from the known inputs; the kernel copies nothing).
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {
namespace {

KernelResult ViewKernel(const KernelContext& ctx) {
  const OutputSpec& out = ctx.output(0);
  if (!out.shape.has_value()) return Decline("the output's shape is not known");
  for (int64_t dim : *out.shape) {
    if (dim < 0) return Decline("the output's shape is not known");
  }
  const Tensor& data = ctx.input(0);
  if (Product(*out.shape) != data.size()) {
    return ctx.input_error(0, absl::StrCat("its ", data.size(), " elements cannot be viewed as ",
                                           ShapeToString(*out.shape)));
  }
  return KernelOutputs{data.reshaped(*out.shape)};
}

KernelResult IdentityKernel(const KernelContext& ctx) { return KernelOutputs{ctx.input(0)}; }

}  // namespace

void RegisterViewKernels(KernelTable& table) {
  using data_types::kMovable;
  // The kernels never look at the elements: every type, the narrow ones too.
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}) {
    table.add("", op, 1, KernelTable::kLatest, {{"T", kMovable}}, ViewKernel);
  }
  // Identity's type parameter is T until 13 and V (tensors, sequences, optionals) from 14.
  table.add("", "Identity", 1, 13, {{"T", kMovable}}, IdentityKernel);
  table.add("", "Identity", 14, KernelTable::kLatest, {{"V", kMovable}}, IdentityKernel);
}

}  // namespace graphgc::kernels
