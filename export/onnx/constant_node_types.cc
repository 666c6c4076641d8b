#include "graphgc/export/onnx/constant_node_types.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "onnx/defs/data_type_utils.h"

namespace graphgc::internal {

bool ConstantNodeHolds(DataType dtype, int opset) {
  const onnx::OpSchema* schema = FindSchema("Constant", opset, "");
  if (schema == nullptr || schema->outputs().empty()) return false;
  const std::string type = absl::StrCat("tensor(", DataTypeName(dtype), ")");
  return schema->outputs()[0].GetTypes().count(onnx::Utils::DataTypeUtils::ToType(type)) > 0;
}

}  // namespace graphgc::internal
