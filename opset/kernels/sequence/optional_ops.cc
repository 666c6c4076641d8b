// Optional, OptionalHasElement and OptionalGetElement (opset 15).
#include "graphgc/opset/kernels/sequence/sequence_kernels.h"

namespace graphgc::kernels {
namespace {

ValueKernelResult MakeOptional(const KernelContext& ctx) {
  const Value* element = ctx.value_input(0);
  return ValueOutputs{element == nullptr ? Value::EmptyOptional() : Value::Optional(*element)};
}

absl::StatusOr<const Value*> OptionalInput(const KernelContext& ctx) {
  const Value* value = ctx.value_input(0);
  if (value == nullptr || value->kind() != Value::Kind::kOptional) {
    return Decline("the input is not a known optional");
  }
  return value;
}

ValueKernelResult OptionalHasElement(const KernelContext& ctx) {
  absl::StatusOr<const Value*> optional = OptionalInput(ctx);
  if (!optional.ok()) return optional.status();
  return ValueOutputs{Tensor::scalar<bool>((*optional)->has_element())};
}

ValueKernelResult OptionalGetElement(const KernelContext& ctx) {
  absl::StatusOr<const Value*> optional = OptionalInput(ctx);
  if (!optional.ok()) return optional.status();
  if (!(*optional)->has_element()) return ctx.input_error(0, "is an empty optional");
  return ValueOutputs{(*optional)->elements()[0]};
}

}  // namespace

void RegisterOptionalKernels(KernelTable& table) {
  // Opset 18 lets the Has/Get ops take plain tensors and sequences too; ONNX 1.12 stops at 17.
  const KernelTypes any = KernelTypes::Unconstrained();  // values moved whole
  table.add_value_kernel("", "Optional", 15, KernelTable::kLatest, any, MakeOptional);
  table.add_value_kernel("", "OptionalHasElement", 15, 17, any, OptionalHasElement);
  table.add_value_kernel("", "OptionalGetElement", 15, 17, any, OptionalGetElement);
}

}  // namespace graphgc::kernels
