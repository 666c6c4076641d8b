// Cast: element conversion between numeric and bool types. Internal to the opset module.
//
// Conversions are total (no undefined behaviour): float to integer truncates toward zero and
// saturates at the target's range, NaN gives 0; integer to narrower integer wraps modulo 2^bits;
// anything to bool is "!= 0" (NaN is true); double to float and to the 16-bit floats rounds once,
// to nearest even (an infinity only past the largest finite value plus half an ulp).
#ifndef GRAPHGC_CAST_KERNEL_H_
#define GRAPHGC_CAST_KERNEL_H_

#include <optional>

#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// nullopt for string operands or targets (not propagated) and on allocation failure.
std::optional<Tensor> ComputeCast(const Tensor& input, DataType to);

}  // namespace graphgc::internal

#endif  // GRAPHGC_CAST_KERNEL_H_
