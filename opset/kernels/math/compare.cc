// Comparisons and logical ops under broadcasting, all with bool outputs: Equal, Greater,
// GreaterOrEqual, Less, LessOrEqual, And, Or, Xor (opset 1 broadcasts by the legacy rules).
//
// The 16-bit floats compare as floats (exactly); NaN compares false (and unequal to itself).
#include "graphgc/opset/kernels/common/registration.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {

void RegisterCompareKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  using data_types::kNumeric;
  const KernelTypes numeric = {{"T", NumericTypes::kSet}};
  AddVersioned(table, "", "Equal", {{"T", AnyTypes::kSet}},
               {{1, {DataType::kInt32, DataType::kInt64, DataType::kBool}},
                {11, kNumericButBfloat16 | kBoolType},
                {13, data_types::kNumericOrBool}},
               kLatest,
               BinaryKernel<AnyTypes, bool>([](const auto& a, const auto& b) { return a == b; }));
  const Admitted kGreaterLess[] = {
      {1, kFloat16FloatDouble}, {9, kNumericButBfloat16}, {13, kNumeric}};
  AddVersioned(table, "", "Greater", numeric, kGreaterLess, kLatest,
               BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a > b; }));
  AddVersioned(table, "", "Less", numeric, kGreaterLess, kLatest,
               BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a < b; }));
  const Admitted kOrEqual[] = {{12, kNumericButBfloat16}, {16, kNumeric}};
  AddVersioned(table, "", "GreaterOrEqual", numeric, kOrEqual, kLatest,
               BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a >= b; }));
  AddVersioned(table, "", "LessOrEqual", numeric, kOrEqual, kLatest,
               BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a <= b; }));
  const KernelTypes logical = {{"T", BoolType::kSet}};
  table.add("", "And", 1, kLatest, logical,
            BinaryKernel<BoolType>([](bool a, bool b) { return a && b; }));
  table.add("", "Or", 1, kLatest, logical,
            BinaryKernel<BoolType>([](bool a, bool b) { return a || b; }));
  table.add("", "Xor", 1, kLatest, logical,
            BinaryKernel<BoolType>([](bool a, bool b) { return a != b; }));
}

}  // namespace graphgc::kernels
