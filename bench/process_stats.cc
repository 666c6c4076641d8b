#include "process_stats.h"

#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace graphgc::bench {
namespace {

// Parses the "  12345 kB" that follows a "VmXXX:" key; -1 if it is not a number.
int64_t ParseKib(absl::string_view rest) {
  rest = absl::StripAsciiWhitespace(rest);
  absl::ConsumeSuffix(&rest, "kB");
  int64_t kib = -1;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(rest), &kib)) return -1;
  return kib;
}

}  // namespace

ProcessMemory ReadProcessMemory() {
  ProcessMemory memory;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    absl::string_view view = line;
    if (absl::ConsumePrefix(&view, "VmRSS:")) memory.rss_kib = ParseKib(view);
    if (absl::ConsumePrefix(&view, "VmHWM:")) memory.peak_rss_kib = ParseKib(view);
  }
  return memory;
}

}  // namespace graphgc::bench
