// The math family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/math/cast.h"
#include "graphgc/opset/kernels/math/elementwise.h"

namespace graphgc::kernels {
namespace {

KernelResult Optional(std::optional<Tensor> value) {
  if (!value.has_value()) return Decline("not computed for these inputs");
  return KernelOutputs{std::move(value)};
}

Kernel BinaryKernel(internal::BinaryOp op) {
  return [op](const KernelContext& ctx) {
    return Optional(internal::ComputeBinary(op, ctx.input(0), ctx.input(1), *ctx.output(0).shape));
  };
}

Kernel UnaryKernel(internal::UnaryOp op) {
  return [op](const KernelContext& ctx) { return Optional(internal::ComputeUnary(op, ctx.input(0))); };
}

}  // namespace

void RegisterMathKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  table.add("", "Add", 7, kLatest, BinaryKernel(internal::BinaryOp::kAdd));
  table.add("", "Sub", 7, kLatest, BinaryKernel(internal::BinaryOp::kSub));
  table.add("", "Mul", 7, kLatest, BinaryKernel(internal::BinaryOp::kMul));
  table.add("", "Div", 7, kLatest, BinaryKernel(internal::BinaryOp::kDiv));
  table.add("", "Neg", 6, kLatest, UnaryKernel(internal::UnaryOp::kNeg));
  table.add("", "Relu", 6, kLatest, UnaryKernel(internal::UnaryOp::kRelu));
  table.add("", "Cast", 6, kLatest, [](const KernelContext& ctx) {
    return Optional(internal::ComputeCast(ctx.input(0), ctx.output(0).dtype));
  });
}

}  // namespace graphgc::kernels
