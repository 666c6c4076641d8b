// graphgc.Function and define_function: functions defined from Python. The body is a Python
// callable, traced once in a graph of its own that is the thread's current graph while it runs
// (so op.const in the body builds there); a call builds the function's node in the graph
// of its inputs.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/functions.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "py_binding.h"
#include "py_body.h"
#include "py_errors.h"
#include "py_function_attributes.h"
#include "py_graph.h"
#include "py_var.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

std::vector<FunctionInput> InputsFromPython(py::handle inputs) {
  std::vector<FunctionInput> converted;
  for (py::handle pair : py::iter(inputs)) {
    py::tuple item = py::reinterpret_borrow<py::tuple>(pair);
    converted.push_back({item[0].cast<std::string>(), VarTypeFromPython(item[1])});
  }
  return converted;
}

// Attributes from (name, value) pairs or keyword arguments, their kinds from the values. A
// graphgc.attr(name) value (a call in a function's body passing the function's attribute on)
// takes the traced value and, in `refs` when given, the reference.
std::vector<Attribute> AttributesFromPython(const std::string& who, py::handle pairs,
                                            CallOptions* refs = nullptr) {
  std::vector<Attribute> converted;
  std::optional<py::error_already_set> pending;
  for (py::handle pair : py::iter(pairs)) {
    py::tuple item = py::reinterpret_borrow<py::tuple>(pair);
    std::string name = item[0].cast<std::string>();
    if (PyCallable_Check(item[1].ptr())) {
      RaiseError(
          absl::StrCat(who, ": attribute '", name, "': a function's attribute is not a graph"));
    }
    if (py::isinstance<AttributeRef>(item[1])) {
      const AttributeRef& ref = item[1].cast<const AttributeRef&>();
      if (refs == nullptr) {
        RaiseError(absl::StrCat(who, ": attribute '", name,
                                "': a function's own attribute is a value, not graphgc.attr"));
      }
      converted.push_back(Attribute{name, TracedAttributeValue(who, name, ref)});
      refs->attribute_refs.emplace_back(std::move(name), ref.name);
      continue;
    }
    AttributeValue value = AttributeFromPython(who, name, "auto", item[1], pending);
    converted.push_back(Attribute{std::move(name), std::move(value)});
  }
  RaisePending(pending);
  return converted;
}

Function DefineFunction(const std::string& domain, const std::string& name, py::handle inputs,
                        const std::vector<std::string>& outputs, py::handle body,
                        py::handle attributes) {
  if (!PyCallable_Check(body.ptr())) {
    RaiseError(absl::StrCat("define_function: the body is a callable, not ", TypeName(body)));
  }
  FunctionSpec spec{.domain = domain,
                    .name = name,
                    .inputs = InputsFromPython(inputs),
                    .output_names = outputs,
                    .attributes = AttributesFromPython("define_function " + name, attributes)};
  std::optional<py::error_already_set> pending;
  py::object callable = py::reinterpret_borrow<py::object>(body);
  absl::StatusOr<Function> function =
      define_function(spec, [&](Graph& trace, absl::Span<const Var> arguments) {
        ScopedCurrentGraph current(trace);
        ScopedFunctionAttributes traced(spec.attributes);
        return RunPythonBody(callable, arguments, pending);
      });
  RaisePending(pending);
  return ValueOrRaise(std::move(function));
}

py::object Call(const Function& function, py::args inputs, py::handle graph, py::kwargs kwargs) {
  const std::string who = function.empty() ? "call" : absl::StrCat("call ", function.name());
  py::list pairs;
  for (auto [key, value] : kwargs) pairs.append(py::make_tuple(key, value));
  CallOptions options;
  const std::vector<Attribute> attributes = AttributesFromPython(who, pairs, &options);
  std::vector<Var> operands;
  for (py::handle input : inputs) {
    if (input.is_none()) {
      operands.emplace_back();
    } else if (py::isinstance<Var>(input)) {
      operands.push_back(input.cast<Var>());
    } else {
      RaiseError(absl::StrCat(function.empty() ? "call" : function.name(),
                              ": inputs are graphgc.Var or None, not ", TypeName(input)));
    }
  }
  std::shared_ptr<Graph> current;
  Graph* target = GraphToBuildIn(who, graph, operands, current);
  const std::vector<Var> outputs = target != nullptr
                                       ? call(*target, function, operands, attributes, options)
                                       : call(function, operands, attributes, options);
  for (const Var& output : outputs) UsableVar(output);
  if (outputs.size() == 1) return py::cast(outputs[0]);
  py::tuple results(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) results[i] = py::cast(outputs[i]);
  return results;
}

std::vector<py::bytes> Definitions(const Function& function) {
  std::vector<py::bytes> definitions;
  if (function.empty()) return definitions;
  for (const onnx::FunctionProto& definition : function.definitions()) {
    definitions.emplace_back(definition.SerializeAsString());
  }
  return definitions;
}

}  // namespace

void DefineFunctions(py::module_& module) {
  py::class_<Function>(module, "Function",
                       "A function defined from Python (graphgc.function): calling it with Vars "
                       "adds one node of its domain, typed and valued through its body.")
      .def_property_readonly("domain",
                             [](const Function& f) { return f.empty() ? "" : f.domain(); })
      .def_property_readonly("name", [](const Function& f) { return f.empty() ? "" : f.name(); })
      .def_property_readonly("num_inputs",
                             [](const Function& f) { return f.empty() ? 0 : f.num_inputs(); })
      .def_property_readonly("num_outputs",
                             [](const Function& f) { return f.empty() ? 0 : f.num_outputs(); })
      .def_property_readonly("definitions", &Definitions,
                             "The serialized FunctionProtos: this function's, then its callees'.")
      .def("__call__", &Call, py::kw_only(), py::arg("graph") = py::none(),
           "One node calling the function; its output Var, or a tuple of them. None omits an "
           "input; keywords set the function's attributes. The graph comes from the inputs, or "
           "`graph`, or the current graph.")
      .def("__repr__", [](const Function& f) {
        return f.empty() ? std::string("<graphgc.Function (empty)>")
                         : absl::StrCat("<graphgc.Function ", f.domain(), ".", f.name(), ": ",
                                        f.num_inputs(), " inputs, ", f.num_outputs(), " outputs>");
      });
  DefineAttributeRef(module);
  module.def("define_function", &DefineFunction, py::arg("domain"), py::arg("name"),
             py::arg("inputs"), py::arg("outputs"), py::arg("body"),
             py::arg("attributes") = py::list(),
             "Traces `body` once on arguments of the given (name, type) inputs; raises "
             "graphgc.Error with the reason when it cannot be defined.");
}

}  // namespace graphgc::python
