#include "py_numbers.h"

#include <cmath>
#include <limits>

namespace py = pybind11;

namespace graphgc::python {

bool IsInteger(py::handle value) { return PyIndex_Check(value.ptr()) != 0; }

std::optional<int64_t> Int64(py::handle value) {
  if (!IsInteger(value)) return std::nullopt;
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index) {
    PyErr_Clear();
    return std::nullopt;
  }
  int overflow = 0;
  const long long result = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0 || (result == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return std::nullopt;
  }
  return static_cast<int64_t>(result);
}

std::optional<double> Double(py::handle value) {
  if (!IsInteger(value) && !PyFloat_Check(value.ptr()) &&
      (PyUnicode_Check(value.ptr()) || PySequence_Check(value.ptr()) ||
       !PyNumber_Check(value.ptr()))) {
    return std::nullopt;
  }
  const double result = PyFloat_AsDouble(value.ptr());
  if (result == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    return std::nullopt;
  }
  return result;
}

std::optional<float> Float(py::handle value) {
  std::optional<double> real = Double(value);
  if (!real.has_value()) return std::nullopt;
  if (std::isfinite(*real) && std::fabs(*real) > std::numeric_limits<float>::max()) {
    return std::nullopt;
  }
  return static_cast<float>(*real);
}

}  // namespace graphgc::python
