// DataTypeSet: a set of element types, one bit per DataType code.
//
//   constexpr DataTypeSet kReals = {DataType::kFloat, DataType::kDouble};
//   kReals.contains(DataType::kFloat);   // true
//
// Plain constexpr value type; no ownership, no threading concerns. Kernels declare with it the
// element types they compute (opset/kernels/kernel_types.h).
#ifndef GRAPHGC_DATA_TYPE_SET_H_
#define GRAPHGC_DATA_TYPE_SET_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "graphgc/valuestore/data_type.h"

namespace graphgc {

class DataTypeSet {
 public:
  constexpr DataTypeSet() = default;
  constexpr DataTypeSet(std::initializer_list<DataType> types) {
    for (DataType type : types) bits_ |= Bit(type);
  }

  constexpr bool contains(DataType type) const { return (bits_ & Bit(type)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  // Whether every type of `other` is in this set.
  constexpr bool includes(DataTypeSet other) const { return (other.bits_ & ~bits_) == 0; }

  constexpr DataTypeSet operator|(DataTypeSet other) const { return FromBits(bits_ | other.bits_); }
  constexpr DataTypeSet operator&(DataTypeSet other) const { return FromBits(bits_ & other.bits_); }
  constexpr DataTypeSet without(DataTypeSet other) const { return FromBits(bits_ & ~other.bits_); }
  friend constexpr bool operator==(DataTypeSet a, DataTypeSet b) { return a.bits_ == b.bits_; }

  // The members by ascending code.
  std::vector<DataType> types() const;
  // "{float, double}", in ONNX's spellings.
  std::string ToString() const;

 private:
  static constexpr uint64_t Bit(DataType type) {
    const auto code = static_cast<uint32_t>(type);
    return code > 0 && code < 64 ? uint64_t{1} << code : 0;
  }
  static constexpr DataTypeSet FromBits(uint64_t bits) {
    DataTypeSet set;
    set.bits_ = bits;
    return set;
  }

  uint64_t bits_ = 0;
};

// The sets kernels declare most often.
namespace data_types {
inline constexpr DataTypeSet kFloatingPoint = {DataType::kFloat, DataType::kDouble,
                                               DataType::kFloat16, DataType::kBfloat16};
inline constexpr DataTypeSet kSignedIntegers = {DataType::kInt8, DataType::kInt16, DataType::kInt32,
                                                DataType::kInt64};
inline constexpr DataTypeSet kUnsignedIntegers = {DataType::kUint8, DataType::kUint16,
                                                  DataType::kUint32, DataType::kUint64};
inline constexpr DataTypeSet kIntegers = kSignedIntegers | kUnsignedIntegers;
inline constexpr DataTypeSet kNumeric = kFloatingPoint | kIntegers;
inline constexpr DataTypeSet kNumericOrBool = kNumeric | DataTypeSet{DataType::kBool};
// Every element type kernels compute with: the sets above and string. Not the narrow types, whose
// values only conversions compute (a kernel declaring kAll never sees them).
inline constexpr DataTypeSet kAll = kNumericOrBool | DataTypeSet{DataType::kString};
// The narrow types (valuestore/narrow_types.h): what IsNarrowFloat and IsInt4 accept.
inline constexpr DataTypeSet kFloat8 = {DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ,
                                        DataType::kFloat8E5M2, DataType::kFloat8E5M2FNUZ};
inline constexpr DataTypeSet kInt4 = {DataType::kInt4, DataType::kUint4};
inline constexpr DataTypeSet kNarrowFloats =
    kFloat8 | DataTypeSet{DataType::kFloat4E2M1, DataType::kFloat8E8M0};
inline constexpr DataTypeSet kNarrow = kNarrowFloats | kInt4;
// Every element type a Tensor holds: what kernels that only move elements (Identity, Reshape,
// Concat, Gather, ...) declare.
inline constexpr DataTypeSet kMovable = kAll | kNarrow;
inline constexpr DataTypeSet kIndices = {DataType::kInt32, DataType::kInt64};
}  // namespace data_types

}  // namespace graphgc

#endif  // GRAPHGC_DATA_TYPE_SET_H_
