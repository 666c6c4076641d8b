// Between NumPy and graphgc: element types (numpy dtypes, ml_dtypes.bfloat16 for bfloat16) and
// tensors. A Tensor given to Python becomes a read-only ndarray over the tensor's own buffer, not a
// copy: the array holds a copy of the Tensor (a reference to its buffer), so the elements stay
// alive and unchanged for as long as the array or any view of it lives, whatever happens to the
// Var or the Graph. Strings are the exception: they are copied into an array of Python str.
// An ndarray given to graphgc is copied into a new tensor (graphgc never keeps a reference into
// memory Python can still write).
#ifndef GRAPHGC_EXPORT_PYTHON_PY_ARRAYS_H_
#define GRAPHGC_EXPORT_PYTHON_PY_ARRAYS_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>

#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::python {

// The element type of anything numpy.dtype() accepts (numpy.float32, "int64", a dtype,
// ml_dtypes.bfloat16) but None. Raises graphgc.Error for anything else and for types graphgc has
// no element type for (complex).
DataType DataTypeFromPython(pybind11::handle dtype_like);

// The same, without raising: nullopt where DataTypeFromPython raises.
std::optional<DataType> FindDataType(pybind11::handle dtype_like);

// The numpy dtype of an element type; None for kUndefined.
pybind11::object NumpyDtype(DataType dtype);

// A new tensor holding a copy of numpy.asarray(array_like). Raises graphgc.Error for an
// unsupported element type or a string element that is neither str nor bytes.
Tensor TensorFromPython(pybind11::handle array_like);

// A read-only ndarray over the tensor's buffer (see above).
pybind11::object ArrayFromTensor(const Tensor& tensor);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_ARRAYS_H_
