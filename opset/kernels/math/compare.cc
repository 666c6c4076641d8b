// Comparisons and logical ops under broadcasting, all with bool outputs: Equal, Greater,
// GreaterOrEqual, Less, LessOrEqual, And, Or, Xor (opset 1 broadcasts by the legacy rules).
//
// The 16-bit floats compare as floats (exactly); NaN compares false (and unequal to itself).
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {

void RegisterCompareKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes numeric = {{"T", NumericTypes::kSet}};
  table.add("", "Equal", 1, kLatest, {{"T", AnyTypes::kSet}},
            BinaryKernel<AnyTypes, bool>([](const auto& a, const auto& b) { return a == b; }));
  table.add("", "Greater", 1, kLatest, numeric,
            BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a > b; }));
  table.add("", "GreaterOrEqual", 12, kLatest, numeric,
            BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a >= b; }));
  table.add("", "Less", 1, kLatest, numeric,
            BinaryKernel<NumericTypes, bool>([](auto a, auto b) { return a < b; }));
  table.add("", "LessOrEqual", 12, kLatest, numeric,
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
