#include "graphgc/ir/graph_options.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "absl/strings/numbers.h"

namespace graphgc {
namespace {

// sysfs writes the L2 size as "1024K" (or "2M").
int64_t L2FromSysfs() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index2/size");
  std::string text;
  if (!(in >> text) || text.empty()) return 0;
  int64_t unit = 1;
  if (text.back() == 'K') unit = int64_t{1} << 10;
  if (text.back() == 'M') unit = int64_t{1} << 20;
  if (unit != 1) text.pop_back();
  int64_t count = 0;
  return absl::SimpleAtoi(text, &count) && count > 0 ? count * unit : 0;
}

int64_t L2Bytes() {
#ifdef _SC_LEVEL2_CACHE_SIZE
  const long reported = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (reported > 0) return reported;
#endif
  return L2FromSysfs();
}

}  // namespace

int64_t DefaultMinTriggerBytes() {
  static const int64_t bytes = [] {
    const int64_t l2 = L2Bytes();
    const int64_t cache = l2 > 0 ? l2 : int64_t{1} << 20;
    return std::clamp<int64_t>(cache / 4, int64_t{64} << 10, int64_t{4} << 20);
  }();
  return bytes;
}

}  // namespace graphgc
