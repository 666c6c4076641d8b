#include "py_errors.h"

#include <pybind11/pybind11.h>

#include <string>

#include "py_binding.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

// Created once with the module and never freed: the interpreter owns it through the module.
PyObject* error_type = nullptr;

}  // namespace

void RaiseError(absl::string_view message) {
  PyErr_SetString(error_type, std::string(message).c_str());
  throw py::error_already_set();
}

void RaiseIfError(const absl::Status& status) {
  if (!status.ok()) RaiseError(status.message());
}

void DefineErrors(py::module_& module) {
  error_type = PyErr_NewExceptionWithDoc(
      "graphgc.Error",
      "An error of graphgc: an op given bad input, a malformed model, a failed export. The "
      "message names the op, the input and the types.",
      PyExc_Exception, nullptr);
  module.add_object("Error", py::handle(error_type));
}

}  // namespace graphgc::python
