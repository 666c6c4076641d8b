#include "py_function_attributes.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "py_errors.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

std::vector<const std::vector<Attribute>*>& TracedFunctions() {
  thread_local std::vector<const std::vector<Attribute>*> traced;
  return traced;
}

}  // namespace

ScopedFunctionAttributes::ScopedFunctionAttributes(const std::vector<Attribute>& attributes) {
  TracedFunctions().push_back(&attributes);
}

ScopedFunctionAttributes::~ScopedFunctionAttributes() { TracedFunctions().pop_back(); }

AttributeValue TracedAttributeValue(const std::string& op_type, const std::string& attribute,
                                    const AttributeRef& ref) {
  const auto& traced = TracedFunctions();
  if (traced.empty()) {
    RaiseError(absl::StrCat(op_type, ": attribute '", attribute, "' is graphgc.attr('", ref.name,
                            "'), which only a function's body (graphgc.function) may use"));
  }
  const std::vector<Attribute>& declared = *traced.back();
  auto found = std::find_if(declared.begin(), declared.end(),
                            [&](const Attribute& a) { return a.name == ref.name; });
  if (found == declared.end()) {
    RaiseError(absl::StrCat(op_type, ": attribute '", attribute, "' refers to '", ref.name,
                            "', which the function does not declare"));
  }
  return found->value;
}

void DefineAttributeRef(py::module_& module) {
  py::class_<AttributeRef>(module, "AttributeRef",
                           "graphgc.attr(name): the attribute `name` of the function being "
                           "defined, as an op's attribute value in its body.")
      .def_property_readonly("name", [](const AttributeRef& ref) { return ref.name; })
      .def("__repr__",
           [](const AttributeRef& ref) { return absl::StrCat("graphgc.attr('", ref.name, "')"); });
  module.def(
      "attr", [](const std::string& name) { return AttributeRef{name}; }, py::arg("name"),
      "A reference to the attribute `name` of the function being defined.");
}

}  // namespace graphgc::python
