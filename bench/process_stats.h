// Memory figures of the calling process, read from /proc/self/status (Linux).
//
// The benchmark runs each scenario in a forked child so that these figures, the peak above all,
// belong to that scenario alone.
#ifndef GRAPHGC_BENCH_PROCESS_STATS_H_
#define GRAPHGC_BENCH_PROCESS_STATS_H_

#include <cstdint>

namespace graphgc::bench {

struct ProcessMemory {
  int64_t rss_kib = -1;       // VmRSS: resident now; -1 if unreadable
  int64_t peak_rss_kib = -1;  // VmHWM: the resident high-water mark; -1 if unreadable
};

ProcessMemory ReadProcessMemory();

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_PROCESS_STATS_H_
