#include "graphgc/valuestore/data_type.h"

namespace graphgc {

bool IsSupportedDataType(int32_t code) {
  switch (static_cast<DataType>(code)) {
    case DataType::kFloat:
    case DataType::kUint8:
    case DataType::kInt8:
    case DataType::kUint16:
    case DataType::kInt16:
    case DataType::kInt32:
    case DataType::kInt64:
    case DataType::kString:
    case DataType::kBool:
    case DataType::kFloat16:
    case DataType::kDouble:
    case DataType::kUint32:
    case DataType::kUint64:
    case DataType::kBfloat16:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kUint4:
    case DataType::kInt4:
    case DataType::kFloat4E2M1:
    case DataType::kFloat8E8M0:
      return true;
    case DataType::kUndefined:
      return false;
  }
  return false;
}

size_t ElementSize(DataType type) {
  switch (type) {
    case DataType::kUndefined:
      return 0;
    case DataType::kBool:
    case DataType::kUint8:
    case DataType::kInt8:
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kUint4:
    case DataType::kInt4:
    case DataType::kFloat4E2M1:
    case DataType::kFloat8E8M0:
      return 1;
    case DataType::kUint16:
    case DataType::kInt16:
    case DataType::kFloat16:
    case DataType::kBfloat16:
      return 2;
    case DataType::kFloat:
    case DataType::kInt32:
    case DataType::kUint32:
      return 4;
    case DataType::kDouble:
    case DataType::kInt64:
    case DataType::kUint64:
      return 8;
    case DataType::kString:
      return sizeof(std::string);
  }
  return 0;
}

absl::string_view DataTypeName(DataType type) {
  switch (type) {
    case DataType::kUndefined:
      return "undefined";
    case DataType::kFloat:
      return "float";
    case DataType::kUint8:
      return "uint8";
    case DataType::kInt8:
      return "int8";
    case DataType::kUint16:
      return "uint16";
    case DataType::kInt16:
      return "int16";
    case DataType::kInt32:
      return "int32";
    case DataType::kInt64:
      return "int64";
    case DataType::kString:
      return "string";
    case DataType::kBool:
      return "bool";
    case DataType::kFloat16:
      return "float16";
    case DataType::kDouble:
      return "double";
    case DataType::kUint32:
      return "uint32";
    case DataType::kUint64:
      return "uint64";
    case DataType::kBfloat16:
      return "bfloat16";
    case DataType::kFloat8E4M3FN:
      return "float8e4m3fn";
    case DataType::kFloat8E4M3FNUZ:
      return "float8e4m3fnuz";
    case DataType::kFloat8E5M2:
      return "float8e5m2";
    case DataType::kFloat8E5M2FNUZ:
      return "float8e5m2fnuz";
    case DataType::kUint4:
      return "uint4";
    case DataType::kInt4:
      return "int4";
    case DataType::kFloat4E2M1:
      return "float4e2m1";
    case DataType::kFloat8E8M0:
      return "float8e8m0";
  }
  return "unknown";
}

bool IsFloatingPoint(DataType type) {
  return type == DataType::kFloat || type == DataType::kDouble || type == DataType::kFloat16 ||
         type == DataType::kBfloat16;
}

bool IsSignedInteger(DataType type) {
  return type == DataType::kInt8 || type == DataType::kInt16 || type == DataType::kInt32 ||
         type == DataType::kInt64;
}

bool IsUnsignedInteger(DataType type) {
  return type == DataType::kUint8 || type == DataType::kUint16 || type == DataType::kUint32 ||
         type == DataType::kUint64;
}

bool IsNumeric(DataType type) {
  return IsFloatingPoint(type) || IsSignedInteger(type) || IsUnsignedInteger(type);
}

bool IsNarrowFloat(DataType type) {
  return type == DataType::kFloat8E4M3FN || type == DataType::kFloat8E4M3FNUZ ||
         type == DataType::kFloat8E5M2 || type == DataType::kFloat8E5M2FNUZ ||
         type == DataType::kFloat4E2M1 || type == DataType::kFloat8E8M0;
}

bool IsInt4(DataType type) { return type == DataType::kInt4 || type == DataType::kUint4; }

bool IsNarrow(DataType type) { return IsNarrowFloat(type) || IsInt4(type); }

}  // namespace graphgc
