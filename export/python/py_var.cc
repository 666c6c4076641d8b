#include "py_var.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/data_type.h"
#include "py_arrays.h"
#include "py_binding.h"
#include "py_errors.h"
#include "py_numbers.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

// ONNX's unknown dim (-1) is None in Python, a named dim its name; an unknown rank is a shape of
// None.
py::object ShapeTuple(const std::optional<std::vector<Dim>>& shape) {
  if (!shape.has_value()) return py::none();
  py::tuple dims(shape->size());
  for (size_t i = 0; i < shape->size(); ++i) {
    const Dim& dim = (*shape)[i];
    dims[i] = !dim.name().empty() ? py::object(py::str(dim.name()))
              : dim.size() < 0    ? py::object(py::none())
                                  : py::object(py::int_(dim.size()));
  }
  return dims;
}

Dim DimFromPython(py::handle dim) {
  if (dim.is_none()) return Dim(-1);
  if (py::isinstance<py::str>(dim)) {
    const std::string name = dim.cast<std::string>();
    if (name.empty()) RaiseError("a named dim's name is not empty (None is an unknown dim)");
    return Dim(name);
  }
  std::optional<int64_t> size;
  if (!py::isinstance<py::bool_>(dim)) size = Int64(dim);
  if (!size.has_value()) {
    RaiseError(absl::StrCat("a dim is an int64, a str (a named dim) or None, not ",
                            std::string(py::repr(dim))));
  }
  if (*size < 0) RaiseError(absl::StrCat("a dim is not negative (None is unknown), got ", *size));
  return Dim(*size);
}

const char* KindName(VarType::Kind kind) {
  switch (kind) {
    case VarType::Kind::kTensor:
      return "tensor";
    case VarType::Kind::kSequence:
      return "sequence";
    case VarType::Kind::kOptional:
      return "optional";
    case VarType::Kind::kMap:
      return "map";
  }
  return "tensor";
}

template <class T>
std::string Printed(const T& printable) {
  std::ostringstream out;
  out << printable;
  return out.str();
}

void DefineVarType(py::module_& module) {
  py::class_<VarType>(module, "VarType",
                      "The ONNX type of a var: a tensor (dtype and shape), or a sequence, an "
                      "optional or a map of other types.")
      .def_static(
          "tensor",
          [](py::handle dtype, py::handle shape) {
            const DataType element = DataTypeFromPython(dtype);
            if (shape.is_none()) return VarType::Tensor(element);
            return VarType::TensorOfDims(element, DimsFromPython(shape));
          },
          py::arg("dtype"), py::arg("shape") = py::none())
      .def_static("sequence", &VarType::Sequence, py::arg("element"))
      .def_static("optional", &VarType::Optional, py::arg("element"))
      .def_static(
          "map",
          [](py::handle key, const VarType& value) {
            return VarType::Map(DataTypeFromPython(key), value);
          },
          py::arg("key"), py::arg("value"))
      .def_property_readonly("kind", [](const VarType& type) { return KindName(type.kind()); })
      .def_property_readonly("dtype", [](const VarType& type) { return NumpyDtype(type.dtype()); })
      .def_property_readonly("shape", [](const VarType& type) { return ShapeTuple(type.dims()); })
      .def_property_readonly("element",
                             [](const VarType& type) -> py::object {
                               if (type.is_tensor()) return py::none();
                               return py::cast(type.element());
                             })
      .def_property_readonly("key", [](const VarType& type) { return NumpyDtype(type.key()); })
      .def("__eq__", [](const VarType& a, const VarType& b) { return a == b; })
      .def("__hash__", [](const VarType& type) { return py::hash(py::str(type.Key())); })
      .def("__str__", [](const VarType& type) { return Printed(type); })
      .def("__repr__", [](const VarType& type) { return "VarType(" + Printed(type) + ")"; });
}

void DefineVarClass(py::module_& module) {
  py::class_<Var>(module, "Var",
                  "A handle to one var of a Graph. While Python holds it, the var's value stays "
                  "alive; once no Var refers to the var, Graph.collect() (or the automatic "
                  "collector) frees the value. A Var may outlive its Graph: using it then raises "
                  "graphgc.Error.")
      .def_property_readonly("dtype",
                             [](const Var& var) { return NumpyDtype(UsableVar(var).dtype()); })
      .def_property_readonly("shape",
                             [](const Var& var) { return ShapeTuple(UsableVar(var).dims()); })
      .def_property_readonly("type", [](const Var& var) { return UsableVar(var).type(); })
      .def_property_readonly("value",
                             [](const Var& var) -> py::object {
                               std::optional<Tensor> value = UsableVar(var).value();
                               if (!value.has_value()) return py::none();
                               return ArrayFromTensor(*value);
                             })
      .def_property_readonly("value_status",
                             [](const Var& var) -> py::object {
                               absl::Status status = UsableVar(var).value_status();
                               if (status.ok()) return py::none();
                               return py::str(std::string(status.message()));
                             })
      .def_property(
          "name", [](const Var& var) { return UsableVar(var).name(); },
          [](Var& var, const std::string& name) {
            UsableVar(var);
            RaiseIfError(var.set_name(name));
          })
      .def(
          "pin", [](const Var& var) { RaiseIfError(UsableVar(var).pin()); },
          "Keeps the value from being evicted (on_budget='evict') until unpin(); computes it "
          "again first if it was. Raises graphgc.Error when the var has no value.")
      .def(
          "unpin", [](const Var& var) { RaiseIfError(UsableVar(var).unpin()); },
          "Undoes one pin(); raises graphgc.Error if the var is not pinned.")
      .def_property_readonly("pinned", [](const Var& var) { return UsableVar(var).pinned(); })
      .def("__repr__", [](const Var& var) { return Printed(var); });
}

}  // namespace

const Var& UsableVar(const Var& var) {
  if (!var.ok()) RaiseError(var.status().message());
  return var;
}

VarType VarTypeFromPython(py::handle type_like) {
  if (py::isinstance<VarType>(type_like)) return type_like.cast<VarType>();
  // numpy takes any object with a `dtype` attribute as that dtype: a type of another library
  // (spox's Tensor(float32, ('N', 4))) would lose its shape without a word.
  const bool dtype_like = py::isinstance<py::dtype>(type_like) ||
                          py::isinstance<py::str>(type_like) || PyType_Check(type_like.ptr());
  if (!dtype_like) {
    RaiseError(absl::StrCat("a type is a graphgc.VarType or an element type (a numpy dtype, ",
                            "scalar type or name), not ", std::string(py::repr(type_like)),
                            "; a tensor with a shape is VarType.tensor(dtype, shape)"));
  }
  return VarType::Tensor(DataTypeFromPython(type_like));
}

std::vector<Dim> DimsFromPython(py::handle shape) {
  if (py::isinstance<py::str>(shape)) RaiseError("a shape is a sequence of dims, not a str");
  if (!py::hasattr(shape, "__iter__")) {
    RaiseError(absl::StrCat("a shape is a sequence of dims, not ", std::string(py::repr(shape))));
  }
  std::vector<Dim> dims;
  for (py::handle dim : py::iter(shape)) dims.push_back(DimFromPython(dim));
  return dims;
}

void DefineVar(py::module_& module) {
  DefineVarType(module);
  DefineVarClass(module);
}

}  // namespace graphgc::python
