// Where: condition ? X : Y elementwise, the three broadcast together; any element type, strings
// included.
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

KernelResult Where(const KernelContext& ctx) {
  const Tensor& condition = ctx.input(0);
  const Tensor& x = ctx.input(1);
  const Tensor& y = ctx.input(2);
  return ForType<AnyTypes>(ctx, x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto choose = [](bool c, const T& a, const T& b) -> const T& { return c ? a : b; };
    return BroadcastElements<T, bool, T, T>(ctx, choose, {&condition, &x, &y});
  });
}

}  // namespace

void RegisterWhereKernels(KernelTable& table) {
  table.add("", "Where", 9, KernelTable::kLatest, {{"T", AnyTypes::kSet}}, Where);
}

}  // namespace graphgc::kernels
