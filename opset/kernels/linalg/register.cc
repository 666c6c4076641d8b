// The linalg family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/linalg/matmul.h"

namespace graphgc::kernels {

void RegisterLinalgKernels(KernelTable& table) {
  table.add("", "MatMul", 1, KernelTable::kLatest, [](const KernelContext& ctx) -> KernelResult {
    std::optional<Tensor> value =
        internal::ComputeMatMul(ctx.input(0), ctx.input(1), *ctx.output(0).shape);
    if (!value.has_value()) return Decline("MatMul of this element type");
    return KernelOutputs{std::move(value)};
  });
}

}  // namespace graphgc::kernels
