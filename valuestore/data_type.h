// DataType: the element types of tensors, numbered as ONNX's TensorProto.DataType.
//
// Plain value type; no ownership, no threading concerns. Also maps C++ element types to DataTypes
// (DataTypeOf<T>) so that typed accessors can check what they are given.
#ifndef GRAPHGC_DATA_TYPE_H_
#define GRAPHGC_DATA_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "graphgc/valuestore/half.h"
#include "graphgc/valuestore/narrow_types.h"

namespace graphgc {

enum class DataType : int32_t {
  kUndefined = 0,
  kFloat = 1,
  kUint8 = 2,
  kInt8 = 3,
  kUint16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kDouble = 11,
  kUint32 = 12,
  kUint64 = 13,
  kBfloat16 = 16,
  // The narrow types (valuestore/narrow_types.h), one element per byte in memory.
  kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18,
  kFloat8E5M2 = 19,
  kFloat8E5M2FNUZ = 20,
  kUint4 = 21,
  kInt4 = 22,
  kFloat4E2M1 = 23,
  kFloat8E8M0 = 24,
};

// True for the codes listed above except kUndefined (ONNX's complex types are not supported).
bool IsSupportedDataType(int32_t code);

// Bytes per element in a tensor buffer; sizeof(std::string) for kString, 0 for kUndefined. The
// 4-bit types take a byte each: they are packed two to a byte only in TensorProtos.
size_t ElementSize(DataType type);

// ONNX's spelling: "float", "double", "int64", "bfloat16", ... ("undefined" for kUndefined).
absl::string_view DataTypeName(DataType type);

// The predicates below leave out the narrow types on purpose: kernels that compute in float or in
// integers dispatch on them, and the narrow types have no arithmetic (they are converted).
bool IsFloatingPoint(DataType type);    // float16, bfloat16, float, double
bool IsSignedInteger(DataType type);    // int8 .. int64
bool IsUnsignedInteger(DataType type);  // uint8 .. uint64
// Numeric: integers and floating point (not bool, not string, not the narrow types).
bool IsNumeric(DataType type);
// The 8-bit and 4-bit floats: float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz,
// float4e2m1 and float8e8m0.
bool IsNarrowFloat(DataType type);
bool IsInt4(DataType type);  // int4, uint4
// IsNarrowFloat or IsInt4: the types stored one per byte that only conversions compute.
bool IsNarrow(DataType type);

template <class T>
struct DataTypeOf;  // undefined for unsupported element types: a compile error, by design
template <>
struct DataTypeOf<float> {
  static constexpr DataType value = DataType::kFloat;
};
template <>
struct DataTypeOf<double> {
  static constexpr DataType value = DataType::kDouble;
};
template <>
struct DataTypeOf<uint8_t> {
  static constexpr DataType value = DataType::kUint8;
};
template <>
struct DataTypeOf<int8_t> {
  static constexpr DataType value = DataType::kInt8;
};
template <>
struct DataTypeOf<uint16_t> {
  static constexpr DataType value = DataType::kUint16;
};
template <>
struct DataTypeOf<int16_t> {
  static constexpr DataType value = DataType::kInt16;
};
template <>
struct DataTypeOf<int32_t> {
  static constexpr DataType value = DataType::kInt32;
};
template <>
struct DataTypeOf<int64_t> {
  static constexpr DataType value = DataType::kInt64;
};
template <>
struct DataTypeOf<uint32_t> {
  static constexpr DataType value = DataType::kUint32;
};
template <>
struct DataTypeOf<uint64_t> {
  static constexpr DataType value = DataType::kUint64;
};
template <>
struct DataTypeOf<bool> {
  static constexpr DataType value = DataType::kBool;
};
template <>
struct DataTypeOf<std::string> {
  static constexpr DataType value = DataType::kString;
};
template <>
struct DataTypeOf<Float16> {
  static constexpr DataType value = DataType::kFloat16;
};
template <>
struct DataTypeOf<BFloat16> {
  static constexpr DataType value = DataType::kBfloat16;
};

template <>
struct DataTypeOf<Float8E4M3FN> {
  static constexpr DataType value = DataType::kFloat8E4M3FN;
};
template <>
struct DataTypeOf<Float8E4M3FNUZ> {
  static constexpr DataType value = DataType::kFloat8E4M3FNUZ;
};
template <>
struct DataTypeOf<Float8E5M2> {
  static constexpr DataType value = DataType::kFloat8E5M2;
};
template <>
struct DataTypeOf<Float8E5M2FNUZ> {
  static constexpr DataType value = DataType::kFloat8E5M2FNUZ;
};
template <>
struct DataTypeOf<UInt4> {
  static constexpr DataType value = DataType::kUint4;
};
template <>
struct DataTypeOf<Int4> {
  static constexpr DataType value = DataType::kInt4;
};
template <>
struct DataTypeOf<Float4E2M1> {
  static constexpr DataType value = DataType::kFloat4E2M1;
};
template <>
struct DataTypeOf<Float8E8M0> {
  static constexpr DataType value = DataType::kFloat8E8M0;
};

}  // namespace graphgc

#endif  // GRAPHGC_DATA_TYPE_H_
