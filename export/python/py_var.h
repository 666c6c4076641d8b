// Python's view of vars: graphgc.Var wraps a graphgc::Var, so a Python Var object is a root of the
// collector for as long as Python keeps it; graphgc.VarType wraps a VarType.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_VAR_H_
#define GRAPHGC_EXPORT_PYTHON_PY_VAR_H_

#include <pybind11/pybind11.h>

#include <vector>

#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"

namespace graphgc::python {

// The var itself when it can be used; raises graphgc.Error with its status otherwise (a failed
// var, or one whose Graph is gone).
const Var& UsableVar(const Var& var);

// A VarType from a graphgc.VarType or a numpy dtype-like (a tensor of unknown shape). Anything
// else, a type of another library with a shape among them, raises graphgc.Error rather than
// losing what it says.
VarType VarTypeFromPython(pybind11::handle type_like);

// A shape's dims from a sequence of ints (sizes), strs (names of symbolic dims) and None
// (unknown); raises graphgc.Error for anything else.
std::vector<Dim> DimsFromPython(pybind11::handle shape);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_VAR_H_
