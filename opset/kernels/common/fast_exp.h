// exp(x) for float without branches, so that a loop over it vectorizes (the softmax in
// Attention): x = n ln 2 + r with |r| <= ln 2 / 2 (Cody and Waite's two-part ln 2), exp(r) by
// Cephes' degree-6 polynomial, 2^n put into the exponent bits. Within 2 ulp of std::exp for x in
// [-87.3, 88.7]; below that it gives 0 (exp underflows to denormals there: at most 1.2e-38
// off) and above it exp(88.7). For finite x: a NaN gives an unspecified result (callers discard
// it or keep NaN away), never undefined behaviour.
// Header-only; no state.
#ifndef GRAPHGC_OPSET_KERNELS_COMMON_FAST_EXP_H_
#define GRAPHGC_OPSET_KERNELS_COMMON_FAST_EXP_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace graphgc::kernels {

inline float FastExp(float x) {
  constexpr float kLowest = -87.3f, kHighest = 88.7f;
  // Arithmetic instead of branches and conversions of comparisons, so that loops over FastExp
  // vectorize: `kept` is 0 below kLowest and 1 from just above it.
  const float kept = std::min(std::max((x - kLowest) * 1e30f, 0.0f), 1.0f);
  x = std::min(std::max(x, kLowest), kHighest);
  // n = round(x / ln 2): adding and removing 1.5 * 2^23 rounds to the nearest integer. The sum
  // holds n in its low mantissa bits too, which give the integer n without a conversion (a
  // conversion of a NaN, which the vectorized callers compute in lanes they discard, would be
  // undefined).
  constexpr float kRound = 12582912.0f;
  constexpr int32_t kRoundBits = 0x4B400000;
  const float shifted = x * 1.44269504088896341f + kRound;
  const float n = shifted - kRound;
  const float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float e = p * r * r + r + 1.0f;
  int32_t shifted_bits;
  std::memcpy(&shifted_bits, &shifted, sizeof(shifted_bits));
  // Unsigned: a NaN's lanes give garbage here, never undefined behaviour.
  const uint32_t bits = (static_cast<uint32_t>(shifted_bits) - uint32_t{kRoundBits} + 127u) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof(scale));
  return kept * (e * scale);
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_COMMON_FAST_EXP_H_
