// Registering one kernel across the versions of an op whose schemas admit different element types.
// ONNX widened most ops' type lists over its opsets (float16, float and double at first; integers
// at 6, 9, 12 or 14; bfloat16 at 13; ...), while a kernel computes the same types at every version.
// Each version range then declares what the kernel computes among what its schema admits there:
//
//   AddVersioned(table, "", "Abs", {{"T", NumericTypes::kSet}},
//                {{1, kFloat16FloatDouble},
//                 {6, kFloat16FloatDouble | data_types::kIntegers},
//                 {13, data_types::kNumeric}},
//                KernelTable::kLatest, abs);
//
// registers Abs 1-5 for float16, float and double, 6-12 for those and the integers, and 13 on for
// every numeric type. Also the element-type sets ONNX's schemas spell over and over.
#ifndef GRAPHGC_OPSET_KERNELS_COMMON_REGISTRATION_H_
#define GRAPHGC_OPSET_KERNELS_COMMON_REGISTRATION_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/opset/kernels/kernel_types.h"
#include "graphgc/valuestore/data_type_set.h"

namespace graphgc::kernels {

// Sets the schemas admit, beyond graphgc::data_types.
inline constexpr DataTypeSet kBfloat16 = {DataType::kBfloat16};
inline constexpr DataTypeSet kBoolType = {DataType::kBool};
inline constexpr DataTypeSet kStringType = {DataType::kString};
// The floating-point types before opset 13 added bfloat16.
inline constexpr DataTypeSet kFloat16FloatDouble = {DataType::kFloat16, DataType::kFloat,
                                                    DataType::kDouble};
// What "every type" and "every numeric type" were before opset 13 added bfloat16.
inline constexpr DataTypeSet kAllButBfloat16 = data_types::kAll.without(kBfloat16);
inline constexpr DataTypeSet kNumericButBfloat16 = data_types::kNumeric.without(kBfloat16);
// The integers of Add, Gemm, MatMul, the reductions, ... from opset 6 (or 9) until 14 or later.
inline constexpr DataTypeSet kWideIntegers = {DataType::kInt32, DataType::kInt64, DataType::kUint32,
                                              DataType::kUint64};
// The 8-bit integers of the quantized ops.
inline constexpr DataTypeSet kQuantizedIntegers = {DataType::kInt8, DataType::kUint8};

// The element types a schema admits for a type parameter from opset `since` on (until the next
// Admitted's since).
struct Admitted {
  int since;
  DataTypeSet types;
};

// Registers `kernel` for versions admitted[0].since .. last, one registration per entry of
// `admitted` (each up to the next entry's since - 1, the last through `last`). `computes` declares
// what the kernel computes at every version; in each range its first constraint's types are
// narrowed to those admitted there, and the other constraints are declared as given. Every
// narrowed set must stay non-empty (checked: an empty one would leave the range without a kernel).
void AddVersioned(KernelTable& table, absl::string_view domain, absl::string_view op_type,
                  const KernelTypes& computes, absl::Span<const Admitted> admitted, int last,
                  const Kernel& kernel);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_COMMON_REGISTRATION_H_
