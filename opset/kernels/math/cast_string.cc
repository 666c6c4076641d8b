#include "graphgc/opset/kernels/math/cast_string.h"

#include <charconv>
#include <cmath>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/charconv.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace graphgc::kernels {
namespace {

// The text without surrounding whitespace and a leading '+' (from_chars accepts only '-').
absl::string_view Unsigned(absl::string_view text, bool& negative) {
  text = absl::StripAsciiWhitespace(text);
  negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  return text;
}

}  // namespace

std::string FormatReal(double value, bool single) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-INF" : "INF";
  char text[64];
  const std::to_chars_result written =
      single ? std::to_chars(text, text + sizeof(text), static_cast<float>(value))
             : std::to_chars(text, text + sizeof(text), value);
  return std::string(text, written.ptr);
}

std::string FormatSigned(int64_t value) { return absl::StrCat(value); }
std::string FormatUnsigned(uint64_t value) { return absl::StrCat(value); }

std::optional<double> ParseReal(absl::string_view text) {
  bool negative = false;
  const absl::string_view digits = Unsigned(text, negative);
  // from_chars would take a sign again, and hexadecimal, which ONNX's Cast does not define.
  if (digits.empty() || digits.front() == '+' || digits.front() == '-' ||
      absl::StartsWithIgnoreCase(digits, "0x")) {
    return std::nullopt;
  }
  double value = 0;
  const absl::from_chars_result read =
      absl::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (read.ec == std::errc::invalid_argument || read.ptr != digits.data() + digits.size()) {
    return std::nullopt;
  }
  // Out of range: an overflow (from_chars gives the largest double) has no value; an underflow is
  // the zero from_chars gives.
  if (read.ec == std::errc::result_out_of_range && std::fabs(value) > 1) return std::nullopt;
  return negative ? -value : value;
}

std::optional<ParsedInteger> ParseInteger(absl::string_view text) {
  bool negative = false;
  const absl::string_view digits = Unsigned(text, negative);
  if (digits.empty()) return std::nullopt;
  uint64_t magnitude = 0;
  for (char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (UINT64_MAX - digit) / 10) return std::nullopt;  // beyond 64 bits
    magnitude = magnitude * 10 + digit;
  }
  constexpr uint64_t kSignedLimit = uint64_t{1} << 63;  // |INT64_MIN|
  ParsedInteger parsed;
  parsed.bits = negative ? 0 - magnitude : magnitude;
  parsed.fits_signed = negative ? magnitude <= kSignedLimit : magnitude < kSignedLimit;
  return parsed;
}

}  // namespace graphgc::kernels
