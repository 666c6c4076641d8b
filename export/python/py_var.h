// Python's view of vars: graphgc.Var wraps a graphgc::Var, so a Python Var object is a root of the
// collector for as long as Python keeps it; graphgc.VarType wraps a VarType.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_VAR_H_
#define GRAPHGC_EXPORT_PYTHON_PY_VAR_H_

#include <pybind11/pybind11.h>

#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"

namespace graphgc::python {

// The var itself when it can be used; raises graphgc.Error with its status otherwise (a failed
// var, or one whose Graph is gone).
const Var& UsableVar(const Var& var);

// A VarType from a graphgc.VarType or a numpy dtype-like (a tensor of unknown shape).
VarType VarTypeFromPython(pybind11::handle type_like);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_VAR_H_
