// Cast's conversions between numbers and strings.
//
// To string: integers in decimal, bool as "1" / "0", floating point in the shortest form that reads
// back as the same number of its type (the 16-bit floats through float) — "0.6048455", "1e+20",
// "1e-05" — and "NaN", "INF", "-INF", as ONNX's reference and test data have them. (ONNX Runtime
// prints "%.8g", "0.60484552", which does not read back as the same float for every float, and
// cuts doubles to 8 digits.)
// From string: the text must be one number and nothing else (surrounding ASCII whitespace aside);
// anything else is the undefined behaviour of ONNX's Cast and gives nullopt. Reals: decimal or
// scientific notation, or INF, INFINITY, NAN in any case, optionally signed; they are read as
// double, then rounded once to the target. Integers and bool: optionally signed decimal digits
// ("2.718" is undefined for an integer target); a value is read in 64 bits and then wraps to the
// target like an integer cast, a negative one for an unsigned target too, as ONNX Runtime's
// stoull gives; bool is "!= 0".
#ifndef GRAPHGC_OPSET_KERNELS_MATH_CAST_STRING_H_
#define GRAPHGC_OPSET_KERNELS_MATH_CAST_STRING_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace graphgc::kernels {

// `single`: the shortest form that reads back as the same float; otherwise as the same double.
std::string FormatReal(double value, bool single);
std::string FormatSigned(int64_t value);
std::string FormatUnsigned(uint64_t value);

// nullopt: not a real number, or one beyond double's range.
std::optional<double> ParseReal(absl::string_view text);

// An optionally signed decimal integer of at most 64 bits: its value modulo 2^64 (negative ones
// wrap, as stoull gives), and whether it fits int64 (stoll's range).
struct ParsedInteger {
  uint64_t bits = 0;
  bool fits_signed = false;
};
std::optional<ParsedInteger> ParseInteger(absl::string_view text);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_CAST_STRING_H_
