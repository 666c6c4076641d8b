// The element types narrower than 16 bits that ONNX added in opsets 19 to 24: the 8-bit floats
// (float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz), the 4-bit float float4e2m1, the
// exponent-only scale type float8e8m0, and the 4-bit integers int4 and uint4.
//
// In memory each element takes one whole byte (ElementSize is 1): the floats hold their bit
// pattern in the byte's low bits, the 4-bit integers their value (int4 sign-extended). Two 4-bit
// elements share a byte only in a TensorProto (opset/proto/tensor_proto.cc packs and unpacks), so
// that kernels index 4-bit tensors like any other.
//
// Decoding to float is exact. Encoding rounds to nearest even, and what happens past the largest
// finite value is Cast's `saturate` rule (Cast-19 and later): Saturation::kSaturate clamps to
// the largest finite value (infinities too), kNoSaturate gives what the format has: infinity for
// float8e5m2, NaN for the formats without infinities. The "fnuz" formats have one NaN (0x80) and
// no negative zero. float4e2m1 has neither NaN nor infinity: it always clamps, and NaN becomes
// 0x8 (as ml_dtypes does, which made ONNX's test data). float8e8m0 (2^(bits-127), 0xFF NaN, no
// zero, no sign) rounds by its own rule (E8M0Rounding, Cast-24's `round_mode`); a zero-filled
// float8e8m0 tensor (Tensor::zeros) holds 2^-127.
//
// Plain value types; no ownership or threading concerns. No arithmetic: kernels convert.
#ifndef GRAPHGC_NARROW_TYPES_H_
#define GRAPHGC_NARROW_TYPES_H_

#include <cstdint>

namespace graphgc {

// Cast's `saturate` attribute, for conversions to the narrow floats.
enum class Saturation { kSaturate, kNoSaturate };

// Cast-24's `round_mode` for float8e8m0: toward +infinity, toward zero, or to the nearest power
// of two (a significand of 1.5 or more rounds up, as ONNX's reference does).
enum class E8M0Rounding { kUp, kDown, kNearest };

// How a small float format spends its bit patterns beyond sign, exponent and mantissa.
enum class SpecialValues {
  kIeee,                // all-ones exponent: infinity (zero mantissa) or NaN
  kFiniteAllOnesNan,    // "fn": no infinity; S.1111.111 is NaN
  kFiniteUnsignedZero,  // "fnuz": no infinity, no negative zero; 0x80 is the only NaN
  kFiniteNoNan,         // no infinity, no NaN (float4e2m1)
};

struct SmallFloatFormat {
  int exponent_bits;
  int mantissa_bits;
  int exponent_bias;
  SpecialValues special;
};

// Exact value of a bit pattern of `format`.
float DecodeSmallFloat(SmallFloatFormat format, uint8_t bits);
// `value` rounded to nearest even in `format`; double so that no value is rounded twice.
uint8_t EncodeSmallFloat(SmallFloatFormat format, double value, Saturation saturation);

template <SmallFloatFormat kFormat>
struct SmallFloat {
  static constexpr SmallFloatFormat kFormatSpec = kFormat;
  uint8_t bits = 0;
  static SmallFloat FromDouble(double value, Saturation saturation = Saturation::kSaturate) {
    return SmallFloat{EncodeSmallFloat(kFormat, value, saturation)};
  }
  static SmallFloat FromFloat(float value, Saturation saturation = Saturation::kSaturate) {
    return FromDouble(value, saturation);
  }
  float ToFloat() const { return DecodeSmallFloat(kFormat, bits); }
  friend bool operator==(SmallFloat a, SmallFloat b) { return a.bits == b.bits; }
};

using Float8E4M3FN = SmallFloat<SmallFloatFormat{4, 3, 7, SpecialValues::kFiniteAllOnesNan}>;
using Float8E4M3FNUZ = SmallFloat<SmallFloatFormat{4, 3, 8, SpecialValues::kFiniteUnsignedZero}>;
using Float8E5M2 = SmallFloat<SmallFloatFormat{5, 2, 15, SpecialValues::kIeee}>;
using Float8E5M2FNUZ = SmallFloat<SmallFloatFormat{5, 2, 16, SpecialValues::kFiniteUnsignedZero}>;
using Float4E2M1 = SmallFloat<SmallFloatFormat{2, 1, 1, SpecialValues::kFiniteNoNan}>;

// 2^(bits - 127); 0xFF is NaN. Unsigned, no zero, no infinity.
struct Float8E8M0 {
  uint8_t bits = 0;
  // From the float's exponent, as ONNX's reference (onnx.numpy_helper.to_float8e8m0): the sign is
  // ignored (negative values are undefined in ONNX), zero gives 0x00 and float subnormals 0x00 or,
  // rounding up, 0x01 (2^-127 itself too: the reference reads its fraction bits), NaN gives 0xFF.
  // Infinity and a value rounding past 2^127 give 0xFE with kSaturate (Cast-24's table) and NaN
  // without.
  static Float8E8M0 FromFloat(float value, Saturation saturation = Saturation::kSaturate,
                              E8M0Rounding rounding = E8M0Rounding::kUp);
  float ToFloat() const;
  friend bool operator==(Float8E8M0 a, Float8E8M0 b) { return a.bits == b.bits; }
};

// The 4-bit integers, one per byte. FromInteger wraps modulo 16 (as Cast wraps every narrowing
// integer conversion; ONNX's test data for Cast to int4 does the same).
struct Int4 {
  int8_t value = 0;  // -8 .. 7
  static constexpr int64_t kMin = -8;
  static constexpr int64_t kMax = 7;
  static Int4 FromInteger(int64_t x) {
    const auto low = static_cast<int8_t>(static_cast<uint64_t>(x) & 0xFu);
    return Int4{static_cast<int8_t>(low >= 8 ? low - 16 : low)};
  }
  // The low nibble of a packed byte, sign-extended.
  static Int4 FromNibble(uint8_t nibble) { return FromInteger(nibble); }
  uint8_t ToNibble() const { return static_cast<uint8_t>(value) & 0xFu; }
  friend bool operator==(Int4 a, Int4 b) { return a.value == b.value; }
};

struct UInt4 {
  uint8_t value = 0;  // 0 .. 15
  static constexpr int64_t kMin = 0;
  static constexpr int64_t kMax = 15;
  static UInt4 FromInteger(int64_t x) {
    return UInt4{static_cast<uint8_t>(static_cast<uint64_t>(x) & 0xFu)};
  }
  static UInt4 FromNibble(uint8_t nibble) { return FromInteger(nibble); }
  uint8_t ToNibble() const { return value & 0xFu; }
  friend bool operator==(UInt4 a, UInt4 b) { return a.value == b.value; }
};

}  // namespace graphgc

#endif  // GRAPHGC_NARROW_TYPES_H_
