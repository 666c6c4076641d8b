// Project-local status propagation macros (Abseil 20220623 has none public).
//
//   GRAPHGC_RETURN_IF_ERROR(expr);          // returns the status if not OK
//   GRAPHGC_ASSIGN_OR_RETURN(lhs, expr);    // lhs = value of a StatusOr, or return its status
#ifndef GRAPHGC_STATUS_MACROS_H_
#define GRAPHGC_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define GRAPHGC_RETURN_IF_ERROR(expr)                  \
  do {                                                 \
    ::absl::Status graphgc_status_ = (expr);           \
    if (!graphgc_status_.ok()) return graphgc_status_; \
  } while (false)

#define GRAPHGC_STATUS_CONCAT_INNER_(a, b) a##b
#define GRAPHGC_STATUS_CONCAT_(a, b) GRAPHGC_STATUS_CONCAT_INNER_(a, b)

#define GRAPHGC_ASSIGN_OR_RETURN(lhs, expr) \
  GRAPHGC_ASSIGN_OR_RETURN_IMPL_(GRAPHGC_STATUS_CONCAT_(graphgc_statusor_, __LINE__), lhs, expr)

#define GRAPHGC_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr) \
  auto statusor = (expr);                                   \
  if (!statusor.ok()) return std::move(statusor).status();  \
  lhs = std::move(statusor).value()

#endif  // GRAPHGC_STATUS_MACROS_H_
