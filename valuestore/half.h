// Float16 and BFloat16: 16-bit floating-point element types, stored as their bit patterns.
//
// Arithmetic converts to float and back (round to nearest even), as ONNX Runtime does on CPU.
// Plain value types; no ownership or threading concerns.
#ifndef GRAPHGC_HALF_H_
#define GRAPHGC_HALF_H_

#include <cstdint>

namespace graphgc {

struct Float16 {
  uint16_t bits = 0;
  static Float16 FromFloat(float value);
  static Float16 FromDouble(double value);  // rounded once, not through float
  float ToFloat() const;
  friend bool operator==(Float16 a, Float16 b) { return a.bits == b.bits; }
};

struct BFloat16 {
  uint16_t bits = 0;
  static BFloat16 FromFloat(float value);
  static BFloat16 FromDouble(double value);  // rounded once, not through float
  float ToFloat() const;
  friend bool operator==(BFloat16 a, BFloat16 b) { return a.bits == b.bits; }
};

}  // namespace graphgc

#endif  // GRAPHGC_HALF_H_
