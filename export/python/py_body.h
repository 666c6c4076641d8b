// Python callables that build graphs (the bodies of If/Loop/Scan attributes and of functions):
// run with Vars, they return a Var or an iterable of Vars. A Python exception must not unwind
// through graphgc's C++ (which does not expect one), so it is caught and kept in `pending`; the
// body returns a failed Var, the C++ caller fails with a status, and the binding then raises the
// kept exception. Runs with the GIL held.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_BODY_H_
#define GRAPHGC_EXPORT_PYTHON_PY_BODY_H_

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/ir/var.h"

namespace graphgc::python {

std::vector<Var> RunPythonBody(pybind11::handle callable, absl::Span<const Var> arguments,
                               std::optional<pybind11::error_already_set>& pending);

// Raises the exception `pending` holds, if any.
void RaisePending(std::optional<pybind11::error_already_set>& pending);

// The Python type's name of `value`, for messages.
std::string TypeName(pybind11::handle value);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_BODY_H_
