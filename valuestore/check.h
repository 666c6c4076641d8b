// GRAPHGC_CHECK: invariant checks that abort with a message.
//
// Only for conditions that no sequence of public API calls can violate; user mistakes are reported
// through absl::Status instead. Active in every build type.
#ifndef GRAPHGC_CHECK_H_
#define GRAPHGC_CHECK_H_

#include <cstdio>
#include <cstdlib>

#define GRAPHGC_CHECK(condition, message)                                                         \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      std::fprintf(stderr, "graphgc: invariant violated at %s:%d: %s (%s)\n", __FILE__, __LINE__, \
                   message, #condition);                                                          \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)

#endif  // GRAPHGC_CHECK_H_
