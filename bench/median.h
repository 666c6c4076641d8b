// The median of a benchmark's repeated timings: the upper middle value of an even count, 0 for
// none. The measurements are taken by value because finding the median reorders them.
#ifndef GRAPHGC_BENCH_MEDIAN_H_
#define GRAPHGC_BENCH_MEDIAN_H_

#include <algorithm>
#include <cstddef>
#include <vector>

namespace graphgc::bench {

inline double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_MEDIAN_H_
