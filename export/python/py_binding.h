// The pieces of the Python module graphgc._graphgc, each defined in its own file and added to the
// module by module.cc. Everything runs with the GIL held: a Graph is thread-compatible, and
// holding the GIL is what keeps two Python threads from using one graph at once.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_BINDING_H_
#define GRAPHGC_EXPORT_PYTHON_PY_BINDING_H_

#include <pybind11/pybind11.h>

namespace graphgc::python {

void DefineErrors(pybind11::module_& module);     // graphgc.Error
void DefineGraph(pybind11::module_& module);      // Graph, GraphStats, CollectStats
void DefineVar(pybind11::module_& module);        // Var, VarType
void DefineNodes(pybind11::module_& module);      // make_node, has_kernel
void DefineModels(pybind11::module_& module);     // to_onnx_bytes, import_model, fold
void DefineFunctions(pybind11::module_& module);  // Function, define_function

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_BINDING_H_
