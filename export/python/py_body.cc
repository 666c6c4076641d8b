#include "py_body.h"

#include <exception>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "py_errors.h"

namespace py = pybind11;

namespace graphgc::python {

std::string TypeName(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

std::vector<Var> RunPythonBody(py::handle callable, absl::Span<const Var> arguments,
                               std::optional<py::error_already_set>& pending) {
  try {
    py::tuple args(arguments.size());
    for (size_t i = 0; i < arguments.size(); ++i) args[i] = py::cast(arguments[i]);
    py::object results = callable(*args);
    if (py::isinstance<Var>(results)) return {results.cast<Var>()};
    if (!py::hasattr(results, "__iter__")) {
      RaiseError(absl::StrCat("a body returns Vars, not ", TypeName(results)));
    }
    std::vector<Var> vars;
    for (py::handle result : py::iter(results)) {
      if (!py::isinstance<Var>(result)) {
        RaiseError(absl::StrCat("a body returns Vars, not ", TypeName(result)));
      }
      vars.push_back(result.cast<Var>());
    }
    return vars;
  } catch (py::error_already_set& error) {
    if (!pending.has_value()) pending.emplace(std::move(error));
  } catch (const std::exception& error) {  // pybind11's cast errors
    if (!pending.has_value()) {
      PyErr_SetString(PyExc_TypeError, error.what());
      pending.emplace();
    }
  }
  return {Var::Detached(absl::InvalidArgumentError("the body raised a Python exception"))};
}

void RaisePending(std::optional<py::error_already_set>& pending) {
  if (!pending.has_value()) return;
  pending->restore();
  pending.reset();
  throw py::error_already_set();
}

}  // namespace graphgc::python
