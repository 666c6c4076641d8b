#include "py_arrays.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "py_errors.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

py::module_ Numpy() { return py::module_::import("numpy"); }

std::optional<py::dtype> ToDtype(py::handle dtype_like) {
  if (dtype_like.is_none()) return std::nullopt;  // numpy.dtype(None) would be float64
  try {
    return py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype_like));
  } catch (py::error_already_set&) {
    return std::nullopt;
  }
}

std::optional<DataType> DataTypeOfDtype(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const py::ssize_t size = dtype.itemsize();
  switch (kind) {
    case 'b':
      return DataType::kBool;
    case 'f':
      if (size == 2) return DataType::kFloat16;
      if (size == 4) return DataType::kFloat;
      if (size == 8) return DataType::kDouble;
      break;
    case 'i':
      if (size == 1) return DataType::kInt8;
      if (size == 2) return DataType::kInt16;
      if (size == 4) return DataType::kInt32;
      if (size == 8) return DataType::kInt64;
      break;
    case 'u':
      if (size == 1) return DataType::kUint8;
      if (size == 2) return DataType::kUint16;
      if (size == 4) return DataType::kUint32;
      if (size == 8) return DataType::kUint64;
      break;
    case 'U':
    case 'S':
    case 'O':
      return DataType::kString;
    case 'V':  // ml_dtypes registers its types as void-kind dtypes
      if (size == 2 && py::str(dtype.attr("name")).cast<std::string>() == "bfloat16") {
        return DataType::kBfloat16;
      }
      break;
  }
  return std::nullopt;
}

DataType SupportedDataType(const py::dtype& dtype) {
  std::optional<DataType> found = DataTypeOfDtype(dtype);
  if (!found.has_value()) {
    RaiseError(absl::StrCat("graphgc has no element type for numpy dtype ",
                            std::string(py::str(dtype.attr("name")))));
  }
  return *found;
}

// numpy spells graphgc's element type names (DataTypeName) the same way, but for these three.
std::string NumpyName(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat:
      return "float32";
    case DataType::kDouble:
      return "float64";
    case DataType::kString:
      return "object";  // Python str objects
    default:
      return std::string(DataTypeName(dtype));
  }
}

std::vector<int64_t> ShapeOf(const py::array& array) {
  return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

std::string StringElement(py::handle item) {
  if (py::isinstance<py::str>(item)) return item.cast<std::string>();
  if (py::isinstance<py::bytes>(item)) return std::string(item.cast<py::bytes>());
  RaiseError(absl::StrCat("a string tensor's elements are str or bytes, not ",
                          std::string(py::str(py::type::handle_of(item).attr("__name__")))));
}

Tensor StringTensor(const py::array& array) {
  std::vector<std::string> elements;
  elements.reserve(static_cast<size_t>(array.size()));
  for (py::handle item : array.attr("ravel")().attr("tolist")()) {
    elements.push_back(StringElement(item));
  }
  return ValueOrRaise(Tensor::create(std::move(elements), ShapeOf(array)));
}

Tensor PlainTensor(DataType dtype, const py::array& array) {
  // C order, native byte order: the bytes graphgc expects.
  py::dtype native = array.dtype().attr("newbyteorder")("=");
  py::array contiguous = Numpy().attr("asarray")(array, native, py::arg("order") = "C");
  MutableTensor tensor = ValueOrRaise(MutableTensor::allocate(dtype, ShapeOf(contiguous)));
  const size_t bytes = static_cast<size_t>(contiguous.nbytes());
  if (bytes > 0) std::memcpy(tensor.raw_mutable_data(), contiguous.data(), bytes);
  return std::move(tensor).freeze();
}

py::object StringArray(const Tensor& tensor) {
  py::array result(py::dtype("object"),
                   std::vector<py::ssize_t>(tensor.shape().begin(), tensor.shape().end()));
  py::object flat = result.attr("reshape")(-1);
  py::ssize_t index = 0;
  for (const std::string& element : tensor.data<std::string>()) {
    flat[py::int_(index++)] = py::str(element);
  }
  return result;
}

void MakeReadOnly(py::array& array) { array.attr("setflags")(py::arg("write") = false); }

}  // namespace

std::optional<DataType> FindDataType(py::handle dtype_like) {
  std::optional<py::dtype> dtype = ToDtype(dtype_like);
  if (!dtype.has_value()) return std::nullopt;
  return DataTypeOfDtype(*dtype);
}

DataType DataTypeFromPython(py::handle dtype_like) {
  std::optional<py::dtype> dtype = ToDtype(dtype_like);
  if (!dtype.has_value()) {
    RaiseError(absl::StrCat("not an element type: ", std::string(py::repr(dtype_like))));
  }
  return SupportedDataType(*dtype);
}

py::object NumpyDtype(DataType dtype) {
  if (dtype == DataType::kUndefined) return py::none();
  if (dtype == DataType::kBfloat16) {
    return py::dtype::from_args(py::module_::import("ml_dtypes").attr("bfloat16"));
  }
  return py::dtype(NumpyName(dtype));
}

Tensor TensorFromPython(py::handle array_like) {
  py::array array = Numpy().attr("asarray")(array_like);
  const DataType dtype = SupportedDataType(array.dtype());
  if (dtype == DataType::kString) return StringTensor(array);
  return PlainTensor(dtype, array);
}

py::object ArrayFromTensor(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kString) return StringArray(tensor);
  py::dtype dtype = NumpyDtype(tensor.dtype());
  std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
  py::array array;
  if (tensor.size() == 0) {
    array = py::array(dtype, shape);  // no buffer to share
  } else {
    // The capsule owns a Tensor copy: a reference to the buffer, dropped when numpy frees the
    // array (with the GIL held, as every numpy deallocation is).
    auto* owner = new Tensor(tensor);
    py::capsule base(owner, [](void* pointer) { delete static_cast<Tensor*>(pointer); });
    array = py::array(dtype, shape, {}, tensor.raw_data(), base);
  }
  MakeReadOnly(array);
  return array;
}

}  // namespace graphgc::python
