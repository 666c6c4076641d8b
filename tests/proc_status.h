// One field of /proc/self/status (Linux), for tests that measure the process's memory.
// Header-only; each call reads the file afresh.
#ifndef GRAPHGC_TESTS_PROC_STATUS_H_
#define GRAPHGC_TESTS_PROC_STATUS_H_

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace graphgc_tests {

// The field's value in KiB ("VmHWM": the peak resident set, "RssFile": resident pages of mapped
// files), or -1 if the file or the field is missing.
inline int64_t ProcStatusKib(std::string_view field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.size() > field.size() && line.compare(0, field.size(), field) == 0 &&
        line[field.size()] == ':') {
      return std::strtoll(line.c_str() + field.size() + 1, nullptr, 10);
    }
  }
  return -1;
}

}  // namespace graphgc_tests

#endif  // GRAPHGC_TESTS_PROC_STATUS_H_
