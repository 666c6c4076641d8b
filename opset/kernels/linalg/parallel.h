// ParallelFor: splits [0, count) into contiguous chunks run on up to `threads` std::threads.
//
//   ParallelFor(rows, ctx.threads(), [&](int64_t begin, int64_t end) { ... });
//
// The calling thread runs the first chunk; with threads <= 1 (the default: the library never
// starts a thread the user did not ask for) or count <= 1 everything runs on the calling thread.
// If a thread cannot be started, its chunk runs on the calling thread instead.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_PARALLEL_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_PARALLEL_H_

#include <algorithm>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace graphgc::kernels::linalg {

template <class F>
void ParallelFor(int64_t count, int threads, const F& f) {
  const int64_t chunks = std::min<int64_t>(std::max(threads, 1), count);
  if (chunks <= 1) {
    if (count > 0) f(int64_t{0}, count);
    return;
  }
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(chunks - 1));
  auto chunk_begin = [&](int64_t chunk) { return count * chunk / chunks; };
  for (int64_t chunk = 1; chunk < chunks; ++chunk) {
    const int64_t begin = chunk_begin(chunk), end = chunk_begin(chunk + 1);
    try {
      workers.emplace_back([&f, begin, end] { f(begin, end); });
    } catch (const std::system_error&) {
      f(begin, end);
    }
  }
  f(int64_t{0}, chunk_begin(1));
  for (std::thread& worker : workers) worker.join();
}

// How many threads are worth starting for `work` multiply-adds: each should get at least
// kMinWorkPerThread, or starting it costs more than it saves.
inline int UsefulThreads(int threads, double work) {
  constexpr double kMinWorkPerThread = 1 << 20;
  const double useful = work / kMinWorkPerThread;
  return useful < threads ? std::max(1, static_cast<int>(useful)) : threads;
}

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_PARALLEL_H_
