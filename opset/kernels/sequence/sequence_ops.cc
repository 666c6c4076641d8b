// SequenceEmpty, SequenceConstruct, SequenceAt, SequenceInsert, SequenceErase, SequenceLength, and
// Identity of a sequence or an optional: values made of the input values, never copied.
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/sequence/sequence_input.h"
#include "graphgc/opset/kernels/sequence/sequence_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

ValueKernelResult SequenceEmpty(const KernelContext&) { return ValueOutputs{Value::Sequence({})}; }

ValueKernelResult SequenceConstruct(const KernelContext& ctx) {
  std::vector<Value> elements;
  for (int i = 0; i < ctx.num_inputs(); ++i) elements.emplace_back(ctx.input(i));
  return ValueOutputs{Value::Sequence(std::move(elements))};
}

ValueKernelResult SequenceAt(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Value>* elements, SequenceElements(ctx, 0));
  const auto count = static_cast<int64_t>(elements->size());
  GRAPHGC_ASSIGN_OR_RETURN(int64_t position, ReadPosition(ctx, 1, count, 0));
  return ValueOutputs{(*elements)[static_cast<size_t>(position)]};
}

ValueKernelResult SequenceInsert(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Value>* elements, SequenceElements(ctx, 0));
  const auto count = static_cast<int64_t>(elements->size());
  int64_t position = count;
  if (ctx.has_input(2)) {
    GRAPHGC_ASSIGN_OR_RETURN(position, ReadPosition(ctx, 2, count, 1));
  }
  std::vector<Value> inserted = *elements;
  inserted.insert(inserted.begin() + position, Value(ctx.input(1)));
  return ValueOutputs{Value::Sequence(std::move(inserted))};
}

ValueKernelResult SequenceErase(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Value>* elements, SequenceElements(ctx, 0));
  const auto count = static_cast<int64_t>(elements->size());
  if (count == 0) return ctx.input_error(0, "is empty: there is nothing to erase");
  int64_t position = count - 1;
  if (ctx.has_input(1)) {
    GRAPHGC_ASSIGN_OR_RETURN(position, ReadPosition(ctx, 1, count, 0));
  }
  std::vector<Value> erased = *elements;
  erased.erase(erased.begin() + position);
  return ValueOutputs{Value::Sequence(std::move(erased))};
}

ValueKernelResult SequenceLength(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<Value>* elements, SequenceElements(ctx, 0));
  return ValueOutputs{Tensor::scalar<int64_t>(static_cast<int64_t>(elements->size()))};
}

ValueKernelResult IdentityOfAny(const KernelContext& ctx) {
  const Value* value = ctx.value_input(0);
  if (value == nullptr) return Decline("Identity of an unknown value");
  return ValueOutputs{*value};
}

}  // namespace

void RegisterSequenceOpKernels(KernelTable& table) {
  // Values of every kind and element type, moved whole.
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes any = KernelTypes::Unconstrained();
  table.add_value_kernel("", "SequenceEmpty", 11, kLatest, any, SequenceEmpty);
  table.add_value_kernel("", "SequenceConstruct", 11, kLatest, any, SequenceConstruct);
  table.add_value_kernel("", "SequenceAt", 11, kLatest, any, SequenceAt);
  table.add_value_kernel("", "SequenceInsert", 11, kLatest, any, SequenceInsert);
  table.add_value_kernel("", "SequenceErase", 11, kLatest, any, SequenceErase);
  table.add_value_kernel("", "SequenceLength", 11, kLatest, any, SequenceLength);
  table.add_value_kernel("", "Identity", 14, kLatest, any,
                         IdentityOfAny);  // 14: sequences, 16: optionals
}

}  // namespace graphgc::kernels
