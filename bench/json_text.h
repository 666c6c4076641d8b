// The few pieces of JSON text the benchmark writes by hand: strings, booleans and numbers.
//
// Numbers that JSON cannot hold (NaN, infinities) are written as null, so that every document the
// benchmark prints parses.
#ifndef GRAPHGC_BENCH_JSON_TEXT_H_
#define GRAPHGC_BENCH_JSON_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace graphgc::bench {

// `text` as a JSON string literal, quotes included.
std::string JsonQuote(absl::string_view text);
std::string JsonBool(bool value);
std::string JsonNumber(int64_t value);
// One decimal: the benchmark's figures are nanoseconds and bytes, not finer.
std::string JsonNumber(double value);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_JSON_TEXT_H_
