// The bitwise ops of opset 18 on integers under broadcasting: BitwiseAnd, BitwiseOr, BitwiseXor
// and BitwiseNot, bit for bit in the operands' own width (two's complement for the signed types).
#include <cstdint>

#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

using IntegerTypes =
    internal::TypeList<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;

}  // namespace

void RegisterBitwiseKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes integers = {{"T", IntegerTypes::kSet}};
  // The operations promote the narrow types to int; the cast back keeps the low bits, which
  // are the result's.
  table.add("", "BitwiseAnd", 18, kLatest, integers,
            BinaryKernel<IntegerTypes>([](auto a, auto b) { return decltype(a)(a & b); }));
  table.add("", "BitwiseOr", 18, kLatest, integers,
            BinaryKernel<IntegerTypes>([](auto a, auto b) { return decltype(a)(a | b); }));
  table.add("", "BitwiseXor", 18, kLatest, integers,
            BinaryKernel<IntegerTypes>([](auto a, auto b) { return decltype(a)(a ^ b); }));
  table.add("", "BitwiseNot", 18, kLatest, integers,
            UnaryKernel<IntegerTypes>([](auto x) { return decltype(x)(~x); }));
}

}  // namespace graphgc::kernels
