// Python numbers as graphgc takes them. Integers: what operator.index() accepts (int, bool, numpy
// integers, not the integer types themselves), within int64.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_NUMBERS_H_
#define GRAPHGC_EXPORT_PYTHON_PY_NUMBERS_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>

namespace graphgc::python {

bool IsInteger(pybind11::handle value);

// The value, or nullopt when it is not an integer or does not fit in int64.
std::optional<int64_t> Int64(pybind11::handle value);

// A real number: an int or anything with __float__ (numpy floats), but not a str or a sequence;
// nullopt otherwise.
std::optional<double> Double(pybind11::handle value);

// A real number as a float attribute holds it: nullopt also for a finite value beyond float's
// range (converting it would be undefined), not for inf and NaN.
std::optional<float> Float(pybind11::handle value);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_NUMBERS_H_
