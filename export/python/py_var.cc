#include "py_var.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "graphgc/valuestore/data_type.h"
#include "py_arrays.h"
#include "py_binding.h"
#include "py_errors.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

// ONNX's unknown dim (-1) is None in Python; an unknown rank is a shape of None.
py::object ShapeTuple(const std::optional<std::vector<int64_t>>& shape) {
  if (!shape.has_value()) return py::none();
  py::tuple dims(shape->size());
  for (size_t i = 0; i < shape->size(); ++i) {
    dims[i] = (*shape)[i] < 0 ? py::object(py::none()) : py::object(py::int_((*shape)[i]));
  }
  return dims;
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
          [](py::handle dtype, std::optional<std::vector<std::optional<int64_t>>> shape) {
            std::optional<std::vector<int64_t>> dims;
            if (shape.has_value()) {
              dims.emplace();
              for (const std::optional<int64_t>& dim : *shape) dims->push_back(dim.value_or(-1));
            }
            return VarType::Tensor(DataTypeFromPython(dtype), dims);
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
      .def_property_readonly("shape", [](const VarType& type) { return ShapeTuple(type.shape()); })
      .def_property_readonly("element",
                             [](const VarType& type) -> py::object {
                               if (type.is_tensor()) return py::none();
                               return py::cast(type.element());
                             })
      .def_property_readonly("key", [](const VarType& type) { return NumpyDtype(type.key()); })
      .def("__eq__", [](const VarType& a, const VarType& b) { return a == b; })
      .def("__hash__", [](const VarType& type) { return py::hash(py::str(type.Key())); })
      .def("__str__", &VarType::Key)
      .def("__repr__", [](const VarType& type) { return "VarType(" + type.Key() + ")"; });
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
                             [](const Var& var) { return ShapeTuple(UsableVar(var).shape()); })
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
      .def("__repr__", [](const Var& var) { return Printed(var); });
}

}  // namespace

const Var& UsableVar(const Var& var) {
  if (!var.ok()) RaiseError(var.status().message());
  return var;
}

VarType VarTypeFromPython(py::handle type_like) {
  if (py::isinstance<VarType>(type_like)) return type_like.cast<VarType>();
  return VarType::Tensor(DataTypeFromPython(type_like));
}

void DefineVar(py::module_& module) {
  DefineVarType(module);
  DefineVarClass(module);
}

}  // namespace graphgc::python
