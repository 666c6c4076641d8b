#include "py_arrays.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "graphgc/valuestore/narrow_types.h"
#include "py_errors.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

py::module_ Numpy() { return py::module_::import("numpy"); }

// The element types numpy has only through ml_dtypes, by the ml_dtypes name of their dtype. Each
// takes the bytes graphgc does (one element per byte for the 8-bit and 4-bit types; the 4-bit
// ones in the low nibble), except that ml_dtypes keeps int4's high nibble zero where graphgc
// sign-extends (FromMlDtypesBytes, ToMlDtypesBytes).
struct MlDtype {
  const char* name;
  DataType dtype;
};
constexpr MlDtype kMlDtypes[] = {
    {"bfloat16", DataType::kBfloat16},
    {"float8_e4m3fn", DataType::kFloat8E4M3FN},
    {"float8_e4m3fnuz", DataType::kFloat8E4M3FNUZ},
    {"float8_e5m2", DataType::kFloat8E5M2},
    {"float8_e5m2fnuz", DataType::kFloat8E5M2FNUZ},
    {"int4", DataType::kInt4},
    {"uint4", DataType::kUint4},
    {"float4_e2m1fn", DataType::kFloat4E2M1},
    {"float8_e8m0fnu", DataType::kFloat8E8M0},
};

std::optional<DataType> MlDtypeDataType(const py::dtype& dtype) {
  const std::string name = py::str(dtype.attr("name")).cast<std::string>();
  for (const MlDtype& known : kMlDtypes) {
    if (name == known.name) return known.dtype;
  }
  return std::nullopt;
}

const char* MlDtypeName(DataType dtype) {
  for (const MlDtype& known : kMlDtypes) {
    if (known.dtype == dtype) return known.name;
  }
  return nullptr;
}

// ml_dtypes' 4-bit elements in graphgc's form, in place: the low nibble, int4 sign-extended
// (ml_dtypes ignores the high nibble too).
void FromMlDtypesBytes(DataType dtype, absl::Span<uint8_t> bytes) {
  if (dtype == DataType::kInt4) {
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(Int4::FromNibble(byte & 0xFu).value);
  } else if (dtype == DataType::kUint4 || dtype == DataType::kFloat4E2M1) {
    for (uint8_t& byte : bytes) byte &= 0xFu;
  }
}

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
  // ml_dtypes registers its types as void-kind dtypes, but float8_e5m2 as a one-byte float.
  if (kind == 'V' || (kind == 'f' && size < 2)) return MlDtypeDataType(dtype);
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
  FromMlDtypesBytes(dtype, absl::MakeSpan(static_cast<uint8_t*>(tensor.raw_mutable_data()), bytes));
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
  if (const char* name = MlDtypeName(dtype)) {
    return py::dtype::from_args(py::module_::import("ml_dtypes").attr(name));
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
  } else if (tensor.dtype() == DataType::kInt4) {
    // A copy: ml_dtypes keeps int4's high nibble zero, graphgc sign-extends.
    array = py::array(dtype, shape);
    auto* bytes = static_cast<uint8_t*>(array.mutable_data());
    const absl::Span<const Int4> elements = tensor.data<Int4>();
    for (size_t i = 0; i < elements.size(); ++i) bytes[i] = elements[i].ToNibble();
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
