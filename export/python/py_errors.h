// graphgc.Error: the one exception type of the Python API. Every absl::Status a call returns
// becomes an Error carrying the status text; C++ never throws through graphgc itself.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_ERRORS_H_
#define GRAPHGC_EXPORT_PYTHON_PY_ERRORS_H_

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace graphgc::python {

// Raises graphgc.Error with `message` (throws pybind11::error_already_set).
[[noreturn]] void RaiseError(absl::string_view message);

// Raises graphgc.Error with the status's message unless it is OK.
void RaiseIfError(const absl::Status& status);

template <class T>
T ValueOrRaise(absl::StatusOr<T> result) {
  RaiseIfError(result.status());
  return *std::move(result);
}

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_ERRORS_H_
