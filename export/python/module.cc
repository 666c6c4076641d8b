// graphgc._graphgc: the compiled half of the Python package graphgc (export/python/graphgc/).
#include <pybind11/pybind11.h>

#include "py_binding.h"

PYBIND11_MODULE(_graphgc, module) {
  module.doc() = "graphgc's C++ core; use the graphgc package, which wraps it.";
  graphgc::python::DefineErrors(module);
  graphgc::python::DefineVar(module);
  graphgc::python::DefineGraph(module);
  graphgc::python::DefineNodes(module);
  graphgc::python::DefineModels(module);
  graphgc::python::DefineFunctions(module);
}
