#include "graphgc/valuestore/half.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace graphgc {
namespace {

uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

float BitsToFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// `value` rounded to float by round-to-odd: truncate, then set the last bit if anything was lost.
// Rounding that float to nearest-even at 16 bits then equals rounding `value` directly, because
// float keeps more than 2 * 11 + 1 significant bits (a classic result on double rounding).
float RoundToOddFloat(double value) {
  if (!std::isfinite(value)) return static_cast<float>(value);
  const double largest = static_cast<double>(std::numeric_limits<float>::max());
  if (std::fabs(value) > largest)
    return value > 0 ? std::numeric_limits<float>::infinity()
                     : -std::numeric_limits<float>::infinity();
  float rounded = static_cast<float>(value);
  if (static_cast<double>(rounded) == value) return rounded;
  uint32_t bits = FloatBits(rounded);
  if (std::fabs(static_cast<double>(rounded)) > std::fabs(value)) --bits;  // toward zero
  return BitsToFloat(bits | 1u);
}

}  // namespace

Float16 Float16::FromDouble(double value) { return FromFloat(RoundToOddFloat(value)); }
BFloat16 BFloat16::FromDouble(double value) { return FromFloat(RoundToOddFloat(value)); }

// IEEE binary16: 1 sign bit, 5 exponent bits (bias 15), 10 mantissa bits.
Float16 Float16::FromFloat(float value) {
  const uint32_t f = FloatBits(value);
  const uint32_t sign = (f >> 16) & 0x8000u;
  const uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or nan: keep nan-ness with a quiet mantissa bit
    return Float16{static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u))};
  }
  if (abs >= 0x477ff000u) {  // rounds to a value beyond the largest finite half
    return Float16{static_cast<uint16_t>(sign | 0x7c00u)};
  }
  if (abs < 0x38800000u) {  // subnormal half (or zero): add 0.5 to let the FPU round
    const float rounded = BitsToFloat(abs) + 0.5f;
    return Float16{static_cast<uint16_t>(sign | (FloatBits(rounded) - FloatBits(0.5f)))};
  }
  const uint32_t mantissa_odd = (abs >> 13) & 1u;
  uint32_t rebiased = abs + (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + mantissa_odd;
  return Float16{static_cast<uint16_t>(sign | (rebiased >> 13))};
}

float Float16::ToFloat() const {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return BitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Subnormal or zero: mantissa * 2^-24.
  const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
  return sign ? -magnitude : magnitude;
}

// bfloat16 is the upper half of a float32.
BFloat16 BFloat16::FromFloat(float value) {
  const uint32_t f = FloatBits(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return BFloat16{static_cast<uint16_t>((f >> 16) | 0x40u)};
  const uint32_t rounding = 0x7fffu + ((f >> 16) & 1u);
  return BFloat16{static_cast<uint16_t>((f + rounding) >> 16)};
}

float BFloat16::ToFloat() const { return BitsToFloat(static_cast<uint32_t>(bits) << 16); }

}  // namespace graphgc
