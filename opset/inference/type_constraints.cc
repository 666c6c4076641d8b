#include "graphgc/opset/inference/type_constraints.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc::internal {

const TypeSet kAllNumeric = {DataType::kUint8,  DataType::kUint16, DataType::kUint32,
                             DataType::kUint64, DataType::kInt8,   DataType::kInt16,
                             DataType::kInt32,  DataType::kInt64,  DataType::kFloat16,
                             DataType::kFloat,  DataType::kDouble, DataType::kBfloat16};
const TypeSet kSignedNumeric = {DataType::kFloat,  DataType::kInt32,   DataType::kInt8,
                                DataType::kInt16,  DataType::kInt64,   DataType::kFloat16,
                                DataType::kDouble, DataType::kBfloat16};
const TypeSet kMatMulTypes = {DataType::kFloat16, DataType::kFloat,   DataType::kDouble,
                              DataType::kUint32,  DataType::kUint64,  DataType::kInt32,
                              DataType::kInt64,   DataType::kBfloat16};
const TypeSet kAllTypes = {
    DataType::kUint8,  DataType::kUint16,   DataType::kUint32, DataType::kUint64,  DataType::kInt8,
    DataType::kInt16,  DataType::kInt32,    DataType::kInt64,  DataType::kFloat16, DataType::kFloat,
    DataType::kDouble, DataType::kBfloat16, DataType::kBool,   DataType::kString};

absl::Status CheckElementType(const OpSignature& signature, size_t index, DataType dtype,
                              TypeSet allowed) {
  if (std::find(allowed.begin(), allowed.end(), dtype) != allowed.end()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      InputLabel(signature, index), " has element type ", DataTypeName(dtype), ", not one of ",
      absl::StrJoin(allowed, ", ", [](std::string* out, DataType type) {
        absl::StrAppend(out, DataTypeName(type));
      })));
}

absl::Status CheckSameElementType(const OpSignature& signature,
                                  absl::Span<const OperandInfo> inputs) {
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (inputs[i].dtype != inputs[0].dtype) {
      return absl::InvalidArgumentError(absl::StrCat(
          InputLabel(signature, i), " has element type ", DataTypeName(inputs[i].dtype), " but ",
          InputLabel(signature, 0), " has ", DataTypeName(inputs[0].dtype), "; they must match"));
    }
  }
  return absl::OkStatus();
}

}  // namespace graphgc::internal
