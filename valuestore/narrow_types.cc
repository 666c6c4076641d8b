#include "graphgc/valuestore/narrow_types.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace graphgc {
namespace {

struct Layout {
  uint8_t sign_bit;
  int mantissa_bits;
  int min_quantum_exponent;  // exponent of the subnormals' spacing: 1 - bias - mantissa_bits
  uint8_t largest_finite;    // bit pattern of the largest finite magnitude
};

Layout LayoutOf(SmallFloatFormat format) {
  const int magnitude_bits = format.exponent_bits + format.mantissa_bits;
  const auto all_ones = static_cast<uint8_t>((1u << magnitude_bits) - 1u);
  uint8_t largest = all_ones;  // fnuz and float4e2m1 spend no pattern on specials there
  if (format.special == SpecialValues::kIeee) {
    largest = static_cast<uint8_t>(all_ones - (1u << format.mantissa_bits));  // below S.1..1.0..0
  } else if (format.special == SpecialValues::kFiniteAllOnesNan) {
    largest = static_cast<uint8_t>(all_ones - 1u);
  }
  return Layout{static_cast<uint8_t>(1u << magnitude_bits), format.mantissa_bits,
                1 - format.exponent_bias - format.mantissa_bits, largest};
}

uint8_t NanBits(SmallFloatFormat format, const Layout& layout, bool negative) {
  const uint8_t sign = negative ? layout.sign_bit : 0;
  switch (format.special) {
    case SpecialValues::kIeee:  // a quiet NaN: the mantissa's top bit
      return static_cast<uint8_t>(sign |
                                  ((layout.sign_bit - 1u) & ~((1u << layout.mantissa_bits) - 1u)) |
                                  (1u << (layout.mantissa_bits - 1)));
    case SpecialValues::kFiniteAllOnesNan:
      return static_cast<uint8_t>(sign | (layout.sign_bit - 1u));
    case SpecialValues::kFiniteUnsignedZero:
      return layout.sign_bit;
    case SpecialValues::kFiniteNoNan:
      return layout.sign_bit;  // negative zero, as ml_dtypes
  }
  return layout.sign_bit;
}

// The pattern for a magnitude past the largest finite one, without saturation.
uint8_t OverflowBits(SmallFloatFormat format, const Layout& layout, bool negative) {
  const uint8_t sign = negative ? layout.sign_bit : 0;
  switch (format.special) {
    case SpecialValues::kIeee:  // infinity: the pattern after the largest finite one
      return static_cast<uint8_t>(sign | (layout.largest_finite + 1u));
    case SpecialValues::kFiniteNoNan:
      return static_cast<uint8_t>(sign | layout.largest_finite);
    case SpecialValues::kFiniteAllOnesNan:
    case SpecialValues::kFiniteUnsignedZero:
      return NanBits(format, layout, negative);
  }
  return NanBits(format, layout, negative);
}

}  // namespace

float DecodeSmallFloat(SmallFloatFormat format, uint8_t bits) {
  const Layout layout = LayoutOf(format);
  const bool negative = (bits & layout.sign_bit) != 0;
  const unsigned magnitude = bits & (layout.sign_bit - 1u);
  const unsigned exponent_field = magnitude >> format.mantissa_bits;
  const unsigned mantissa = magnitude & ((1u << format.mantissa_bits) - 1u);
  const unsigned all_ones_exponent = (1u << format.exponent_bits) - 1u;
  // NaNs keep the pattern's sign bit, as ml_dtypes decodes them (fnuz's 0x80 is a negative NaN).
  const float nan =
      negative ? -std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::quiet_NaN();
  switch (format.special) {
    case SpecialValues::kIeee:
      if (exponent_field == all_ones_exponent) {
        if (mantissa != 0) return nan;
        return negative ? -std::numeric_limits<float>::infinity()
                        : std::numeric_limits<float>::infinity();
      }
      break;
    case SpecialValues::kFiniteAllOnesNan:
      if (magnitude == layout.sign_bit - 1u) return nan;
      break;
    case SpecialValues::kFiniteUnsignedZero:
      if (bits == layout.sign_bit) return nan;
      break;
    case SpecialValues::kFiniteNoNan:
      break;
  }
  // A pattern counts quanta of 2^min_quantum_exponent below the first normal binade; each binade
  // above doubles the quantum. Every value is exact in float.
  const float value =
      exponent_field == 0
          ? std::ldexp(static_cast<float>(mantissa), layout.min_quantum_exponent)
          : std::ldexp(static_cast<float>(mantissa + (1u << format.mantissa_bits)),
                       layout.min_quantum_exponent + static_cast<int>(exponent_field) - 1);
  return negative ? -value : value;
}

uint8_t EncodeSmallFloat(SmallFloatFormat format, double value, Saturation saturation) {
  const Layout layout = LayoutOf(format);
  const bool negative = std::signbit(value);
  if (std::isnan(value)) return NanBits(format, layout, negative);
  const uint8_t sign = negative ? layout.sign_bit : 0;
  const uint8_t saturated = static_cast<uint8_t>(sign | layout.largest_finite);
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return format.special == SpecialValues::kFiniteUnsignedZero ? 0 : sign;
  const double largest = DecodeSmallFloat(format, layout.largest_finite);
  if (magnitude > 2 * largest) {  // infinity included; far enough that no rounding matters
    return saturation == Saturation::kSaturate ? saturated : OverflowBits(format, layout, negative);
  }
  // The spacing of representable values at `magnitude`: the subnormal quantum up to the first
  // normal binade, then 2^(exponent - mantissa_bits).
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude = f * 2^exponent, f in [0.5, 1)
  const int quantum_exponent =
      std::max(exponent - 1 - format.mantissa_bits, layout.min_quantum_exponent);
  // Scaling by a power of two is exact; nearbyint rounds half to even (the default mode).
  const double quanta = std::nearbyint(std::ldexp(magnitude, -quantum_exponent));
  // Patterns grow with magnitude: (binades above the first) << mantissa_bits, plus the quanta
  // (whose leading bit, in a normal binade, carries into the exponent field; a round-up to the
  // next binade's 2^(mantissa_bits + 1) quanta carries once more).
  const double pattern =
      std::ldexp(static_cast<double>(quantum_exponent - layout.min_quantum_exponent),
                 format.mantissa_bits) +
      quanta;
  if (pattern > layout.largest_finite) {
    return saturation == Saturation::kSaturate ? saturated : OverflowBits(format, layout, negative);
  }
  if (pattern == 0 && format.special == SpecialValues::kFiniteUnsignedZero) return 0;
  return static_cast<uint8_t>(sign | static_cast<uint8_t>(pattern));
}

float Float8E8M0::ToFloat() const {
  if (bits == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);
}

Float8E8M0 Float8E8M0::FromFloat(float value, Saturation saturation, E8M0Rounding rounding) {
  uint32_t f;
  std::memcpy(&f, &value, sizeof f);
  const uint32_t exponent = (f >> 23) & 0xFFu;
  const uint32_t mantissa = f & 0x7FFFFFu;
  constexpr uint8_t kNan = 0xFF;
  constexpr uint8_t kLargest = 0xFE;
  if (exponent == 0xFF) {
    if (mantissa != 0) return Float8E8M0{kNan};
    return Float8E8M0{saturation == Saturation::kSaturate ? kLargest : kNan};  // infinity
  }
  bool round_up = false;
  switch (rounding) {
    case E8M0Rounding::kUp:
      round_up = mantissa != 0;
      break;
    case E8M0Rounding::kDown:
      break;
    case E8M0Rounding::kNearest: {
      // ONNX's reference: the first fraction bit set, and anything else set or a normal float
      // (a subnormal float's exact half stays down).
      const bool half = (mantissa & 0x400000u) != 0;
      round_up = half && ((mantissa & 0x3FFFFFu) != 0 || exponent > 0);
      break;
    }
  }
  if (!round_up) return Float8E8M0{static_cast<uint8_t>(exponent)};
  if (exponent == kLargest) {
    return Float8E8M0{saturation == Saturation::kSaturate ? kLargest : kNan};
  }
  return Float8E8M0{static_cast<uint8_t>(exponent + 1)};
}

}  // namespace graphgc
