#include "graphgc/opset/kernels/maps/map_entries.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace graphgc::kernels {

absl::StatusOr<const Value*> MapInput(const KernelContext& ctx, int index) {
  const Value* value = ctx.value_input(index);
  if (value == nullptr || value->kind() != Value::Kind::kMap) {
    return Decline(absl::StrCat(ctx.input_label(index), " is not a known map"));
  }
  return value;
}

absl::StatusOr<MutableTensor> ZeroRow(const KernelContext& ctx, DataType dtype, int64_t width) {
  absl::StatusOr<MutableTensor> row = ctx.allocate(dtype, {1, width});
  if (row.ok() && dtype != DataType::kString && width > 0) {
    std::memset(row->raw_mutable_data(), 0, static_cast<size_t>(width) * ElementSize(dtype));
  }
  return row;
}

}  // namespace graphgc::kernels
