// Optional, OptionalHasElement and OptionalGetElement (opset 15; from 18 the last two also take a
// plain tensor or sequence, which is its own element, and HasElement an omitted input, which has
// none).
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

// Opset 18: an omitted input has no element; a tensor or sequence is one. (Value kernels run
// once every input given has a value, so a null one was omitted.)
ValueKernelResult OptionalHasElement18(const KernelContext& ctx) {
  const Value* value = ctx.value_input(0);
  if (value == nullptr) return ValueOutputs{Tensor::scalar<bool>(false)};
  const bool has = value->kind() != Value::Kind::kOptional || value->has_element();
  return ValueOutputs{Tensor::scalar<bool>(has)};
}

ValueKernelResult OptionalGetElement18(const KernelContext& ctx) {
  const Value* value = ctx.value_input(0);
  if (value == nullptr) return Decline("the input has no value");
  if (value->kind() != Value::Kind::kOptional) return ValueOutputs{*value};
  return OptionalGetElement(ctx);
}

}  // namespace

void RegisterOptionalKernels(KernelTable& table) {
  const KernelTypes any = KernelTypes::Unconstrained();  // values moved whole
  table.add_value_kernel("", "Optional", 15, KernelTable::kLatest, any, MakeOptional);
  table.add_value_kernel("", "OptionalHasElement", 15, 17, any, OptionalHasElement);
  table.add_value_kernel("", "OptionalGetElement", 15, 17, any, OptionalGetElement);
  table.add_value_kernel("", "OptionalHasElement", 18, KernelTable::kLatest, any,
                         OptionalHasElement18);
  table.add_value_kernel("", "OptionalGetElement", 18, KernelTable::kLatest, any,
                         OptionalGetElement18);
}

}  // namespace graphgc::kernels
