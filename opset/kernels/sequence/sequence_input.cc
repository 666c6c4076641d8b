#include "graphgc/opset/kernels/sequence/sequence_input.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {

absl::StatusOr<const std::vector<Value>*> SequenceElements(const KernelContext& ctx, int index) {
  const Value* value = ctx.value_input(index);
  if (value == nullptr || value->kind() != Value::Kind::kSequence) {
    return Decline(absl::StrCat(ctx.input_label(index), " is not a known sequence"));
  }
  return &value->elements();
}

absl::StatusOr<int64_t> ReadPosition(const KernelContext& ctx, int index, int64_t count,
                                     int64_t extra) {
  const Tensor& tensor = ctx.input(index);
  if (tensor.size() != 1 ||
      (tensor.dtype() != DataType::kInt64 && tensor.dtype() != DataType::kInt32)) {
    return ctx.input_error(index, "must be one int32 or int64 position");
  }
  const int64_t given = ReadInt64s(tensor)[0];
  const int64_t position = given < 0 ? given + count : given;
  if (position < 0 || position >= count + extra) {
    return ctx.input_error(index, absl::StrCat("position ", given,
                                               " is out of range for a "
                                               "sequence of ",
                                               count, " tensor(s)"));
  }
  return position;
}

}  // namespace graphgc::kernels
