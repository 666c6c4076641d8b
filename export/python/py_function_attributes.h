// The attributes of the function whose body is being traced (graphgc.define_function), and the
// references to them a body's ops take (graphgc.attr("alpha") as an attribute's value). The
// traced values live in a per-thread stack for as long as a ScopedFunctionAttributes guard does;
// touched with the GIL held only.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_FUNCTION_ATTRIBUTES_H_
#define GRAPHGC_EXPORT_PYTHON_PY_FUNCTION_ATTRIBUTES_H_

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "graphgc/ir/attribute.h"

namespace graphgc::python {

// graphgc.attr(name): stands for the traced function's attribute `name`.
struct AttributeRef {
  std::string name;
};

class ScopedFunctionAttributes {
 public:
  explicit ScopedFunctionAttributes(const std::vector<Attribute>& attributes);
  ~ScopedFunctionAttributes();
  ScopedFunctionAttributes(const ScopedFunctionAttributes&) = delete;
  ScopedFunctionAttributes& operator=(const ScopedFunctionAttributes&) = delete;
};

// The value the innermost traced function's attribute `ref` is traced with; raises
// graphgc.Error (naming `op_type` and `attribute`) outside a function's body or for an attribute
// the function does not declare.
AttributeValue TracedAttributeValue(const std::string& op_type, const std::string& attribute,
                                    const AttributeRef& ref);

// A Python value as an attribute of `op_type` whose kind is "auto" (from the value) or an ONNX
// attribute kind ("int", "floats", ...). Defined in py_nodes.cc.
AttributeValue AttributeFromPython(const std::string& op_type, const std::string& name,
                                   const std::string& kind, pybind11::handle value,
                                   std::optional<pybind11::error_already_set>& pending);

void DefineAttributeRef(pybind11::module_& module);

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_FUNCTION_ATTRIBUTES_H_
