// make_node from Python: the one entry every generated op function (graphgc.opset13 ...
// graphgc.ml) and graphgc.make_node call. Attributes come as (name, kind, value) triples; the kind
// is the ONNX attribute type the schema gives ("int", "floats", "graph", ...), or "auto" to take
// it from the Python value. A value of None is an attribute left out (the schema's default).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/proto/sparse_tensor_proto.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "py_arrays.h"
#include "py_binding.h"
#include "py_body.h"
#include "py_errors.h"
#include "py_function_attributes.h"
#include "py_graph.h"
#include "py_numbers.h"
#include "py_var.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

[[noreturn]] void RaiseAttributeError(const std::string& op_type, const std::string& name,
                                      const char* expected, py::handle value) {
  RaiseError(absl::StrCat(op_type, ": attribute '", name, "' takes ", expected, ", not ",
                          TypeName(value), " ", std::string(py::repr(value))));
}

bool IsNumber(py::handle value) { return Double(value).has_value(); }

bool IsText(py::handle value) {
  return py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value);
}

std::string Text(py::handle value) {
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  return std::string(value.cast<py::bytes>());
}

// An INT attribute also takes an element type (Cast's `to`: numpy.float32 or "float32").
bool IsElementType(py::handle value) {
  return py::isinstance<py::type>(value) || py::isinstance<py::dtype>(value);
}

// The items of a list attribute, each converted; raises naming the attribute when `value` is not
// a sequence (a str is not one here) or `convert` refuses an item.
template <class T, class Convert>
std::vector<T> List(const std::string& op_type, const std::string& name, const char* expected,
                    py::handle value, Convert convert) {
  if (IsText(value) || !py::isinstance<py::iterable>(value)) {
    RaiseAttributeError(op_type, name, expected, value);
  }
  std::vector<T> items;
  for (py::handle item : py::iter(value)) items.push_back(convert(item));
  return items;
}

// A graph attribute: the Python callable builds the body from its arguments; a Python exception
// is kept in `pending` (py_body.h), and make_node's caller raises it.
Subgraph BodyFromPython(py::handle callable, std::optional<py::error_already_set>& pending) {
  py::object function = py::reinterpret_borrow<py::object>(callable);
  return Subgraph([function, &pending](absl::Span<const Var> arguments) {
    return RunPythonBody(function, arguments, pending);
  });
}

AttributeValue AutoValue(const std::string& op_type, const std::string& name, py::handle value,
                         std::optional<py::error_already_set>& pending);

bool IsSparseTensorProto(py::handle value) {
  return py::hasattr(value, "SerializeToString") &&
         py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>() ==
             "SparseTensorProto";
}

// An onnx.SparseTensorProto as the dense tensor it stands for (sparse_tensor_proto.h).
Tensor SparseTensorFromPython(const std::string& op_type, const std::string& name,
                              py::handle value) {
  if (!IsSparseTensorProto(value)) {
    RaiseAttributeError(op_type, name, "an onnx.SparseTensorProto", value);
  }
  const std::string bytes = value.attr("SerializeToString")().cast<std::string>();
  onnx::SparseTensorProto proto;
  if (!proto.ParseFromString(bytes)) {
    RaiseError(absl::StrCat(op_type, ": attribute '", name, "' is not a valid SparseTensorProto"));
  }
  absl::StatusOr<Tensor> dense = internal::DenseFromSparseTensorProto(
      proto, absl::StrCat(op_type, ": attribute '", name, "'"));
  if (!dense.ok()) RaiseError(dense.status().message());
  return *std::move(dense);
}

AttributeValue ValueOfKind(const std::string& op_type, const std::string& name,
                           const std::string& kind, py::handle value,
                           std::optional<py::error_already_set>& pending) {
  if (kind == "int") {
    if (IsInteger(value)) {
      std::optional<int64_t> integer = Int64(value);
      if (!integer.has_value()) RaiseAttributeError(op_type, name, "an int64", value);
      return *integer;
    }
    std::optional<DataType> dtype;
    if (IsElementType(value) || py::isinstance<py::str>(value)) dtype = FindDataType(value);
    if (!dtype.has_value()) {
      RaiseAttributeError(op_type, name, "an int (or an element type graphgc has)", value);
    }
    return int64_t{static_cast<int32_t>(*dtype)};
  }
  if (kind == "float") {
    std::optional<float> real = Float(value);
    if (!real.has_value()) RaiseAttributeError(op_type, name, "a float", value);
    return *real;
  }
  if (kind == "string") {
    if (!IsText(value)) RaiseAttributeError(op_type, name, "a str", value);
    return Text(value);
  }
  if (kind == "ints") {
    return List<int64_t>(op_type, name, "a sequence of int64", value, [&](py::handle item) {
      std::optional<int64_t> integer = Int64(item);
      if (!integer.has_value()) RaiseAttributeError(op_type, name, "a sequence of int64", value);
      return *integer;
    });
  }
  if (kind == "floats") {
    return List<float>(op_type, name, "a sequence of floats", value, [&](py::handle item) {
      std::optional<float> real = Float(item);
      if (!real.has_value()) RaiseAttributeError(op_type, name, "a sequence of floats", value);
      return *real;
    });
  }
  if (kind == "strings") {
    return List<std::string>(op_type, name, "a sequence of str", value, [&](py::handle item) {
      if (!IsText(item)) RaiseAttributeError(op_type, name, "a sequence of str", value);
      return Text(item);
    });
  }
  if (kind == "tensor") {
    try {
      return TensorFromPython(value);
    } catch (py::error_already_set& error) {
      // numpy's refusal (a ragged list); graphgc's own errors (an unsupported dtype) name it.
      if (!error.matches(PyExc_ValueError) && !error.matches(PyExc_TypeError)) throw;
      RaiseAttributeError(op_type, name, "a tensor (a numpy array or what numpy makes one of)",
                          value);
    }
  }
  if (kind == "sparse_tensor") return SparseTensorFromPython(op_type, name, value);
  if (kind == "graph") {
    if (!PyCallable_Check(value.ptr())) RaiseAttributeError(op_type, name, "a callable", value);
    return BodyFromPython(value, pending);
  }
  if (kind == "type") return VarTypeFromPython(value);
  if (kind == "auto") return AutoValue(op_type, name, value, pending);
  RaiseError(absl::StrCat(op_type, ": unknown attribute kind '", kind, "' for '", name, "'"));
}

// The kind a plain Python value has: bool and int are "int", a str "string", a list of ints
// "ints", a numpy array "tensor", a callable "graph", a VarType "type".
AttributeValue AutoValue(const std::string& op_type, const std::string& name, py::handle value,
                         std::optional<py::error_already_set>& pending) {
  auto of = [&](const char* kind) { return ValueOfKind(op_type, name, kind, value, pending); };
  if (py::isinstance<VarType>(value)) return of("type");
  if (IsSparseTensorProto(value)) return of("sparse_tensor");
  if (IsText(value)) return of("string");
  // Before the int test: every ndarray has __index__ (for its 0-d integer case).
  if (py::isinstance<py::array>(value)) return of("tensor");
  if (IsInteger(value)) return of("int");
  if (py::isinstance<py::float_>(value)) return of("float");
  if (PyCallable_Check(value.ptr())) return of("graph");
  if (py::isinstance<py::sequence>(value)) {
    py::sequence items = py::reinterpret_borrow<py::sequence>(value);
    bool all_integers = true, all_numbers = true, all_text = true;
    for (py::handle item : items) {
      if (py::isinstance<py::array>(item) || IsSparseTensorProto(item) ||
          py::isinstance<VarType>(item) || PyCallable_Check(item.ptr())) {
        RaiseError(absl::StrCat(op_type, ": attribute '", name, "' is a list of ", TypeName(item),
                                ": lists of tensors, graphs and types (ONNX's TENSORS, GRAPHS, "
                                "TYPE_PROTOS) are attributes no ONNX operator takes, which "
                                "graphgc does not hold"));
      }
      all_integers = all_integers && IsInteger(item);
      all_numbers = all_numbers && IsNumber(item);
      all_text = all_text && IsText(item);
    }
    if (items.size() > 0 && all_integers) return of("ints");
    if (items.size() > 0 && all_numbers) return of("floats");
    if (items.size() > 0 && all_text) return of("strings");
  }
  RaiseError(absl::StrCat(op_type, ": cannot tell the ONNX type of attribute '", name, "' from ",
                          TypeName(value), " ", std::string(py::repr(value)),
                          "; give it as an int, float, str, a non-empty list of them, a numpy "
                          "array, an onnx.SparseTensorProto, a callable or a VarType"));
}

std::vector<Var> InputsFromPython(const std::string& op_type, py::handle inputs) {
  std::vector<Var> vars;
  for (py::handle input : py::iter(inputs)) {
    if (input.is_none()) {
      vars.emplace_back();  // an omitted optional input
    } else if (py::isinstance<Var>(input)) {
      vars.push_back(input.cast<Var>());
    } else {
      RaiseError(absl::StrCat(op_type, ": input ", vars.size(), " is a ", TypeName(input),
                              ", not a graphgc.Var (make constants with Graph.constant)"));
    }
  }
  return vars;
}

// The kind of attribute `name` in the op's schema, where the schema declares it: make_node's
// values then take the kind the op wants (np.float32(2) a TENSOR for Constant's value, 1 a FLOAT
// for LeakyRelu's alpha). "auto" for an op without a schema (a custom op) or an undeclared name.
std::string SchemaKind(const std::string& op_type, const std::string& domain, int version,
                       const std::string& name) {
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      op_type, version > 0 ? version : std::numeric_limits<int>::max(),
      domain == "ai.onnx" ? "" : domain);
  if (schema == nullptr) return "auto";
  auto it = schema->attributes().find(name);
  if (it == schema->attributes().end()) return "auto";
  switch (it->second.type) {
    case onnx::AttributeProto::INT:
      return "int";
    case onnx::AttributeProto::FLOAT:
      return "float";
    case onnx::AttributeProto::STRING:
      return "string";
    case onnx::AttributeProto::TENSOR:
      return "tensor";
    case onnx::AttributeProto::INTS:
      return "ints";
    case onnx::AttributeProto::FLOATS:
      return "floats";
    case onnx::AttributeProto::STRINGS:
      return "strings";
    case onnx::AttributeProto::GRAPH:
      return "graph";
    case onnx::AttributeProto::TYPE_PROTO:
      return "type";
    case onnx::AttributeProto::SPARSE_TENSOR:
      return "sparse_tensor";
    default:
      return "auto";
  }
}

// num_outputs as make_node takes it: -1 (the default count) or a count.
int OutputCount(const std::string& op_type, py::handle num_outputs) {
  std::optional<int64_t> count = Int64(num_outputs);
  if (!count.has_value() || *count < -1 || *count > std::numeric_limits<int>::max()) {
    RaiseError(absl::StrCat(op_type, ": num_outputs is a count (or -1), not ",
                            std::string(py::repr(num_outputs))));
  }
  return static_cast<int>(*count);
}

std::vector<Var> MakeNode(const std::string& op_type, const std::string& domain, int version,
                          py::handle inputs, py::handle attributes, py::handle num_outputs,
                          py::handle graph) {
  const int output_count = OutputCount(op_type, num_outputs);
  std::vector<Var> operands = InputsFromPython(op_type, inputs);
  std::optional<py::error_already_set> pending;
  std::vector<Attribute> converted;
  std::vector<std::pair<std::string, std::string>> refs;
  bool has_body = false;
  for (py::handle triple : py::iter(attributes)) {
    py::tuple item = py::reinterpret_borrow<py::tuple>(triple);
    if (item[2].is_none()) continue;
    std::string name = item[0].cast<std::string>();
    if (py::isinstance<AttributeRef>(item[2])) {
      const AttributeRef& ref = item[2].cast<const AttributeRef&>();
      converted.push_back(Attribute{name, TracedAttributeValue(op_type, name, ref)});
      refs.emplace_back(std::move(name), ref.name);
      continue;
    }
    std::string kind = item[1].cast<std::string>();
    if (kind == "auto") kind = SchemaKind(op_type, domain, version, name);
    AttributeValue value = ValueOfKind(op_type, name, kind, item[2], pending);
    // Constant(sparse_value = S) is Constant(value = the dense tensor S stands for); the
    // schema gives sparse_value that kind, and the value converted it to the dense tensor.
    const bool onnx_domain = domain.empty() || domain == "ai.onnx";
    if (onnx_domain && op_type == "Constant" && kind == "sparse_tensor") name = "value";
    has_body = has_body || std::holds_alternative<Subgraph>(value);
    converted.push_back(Attribute{std::move(name), std::move(value)});
  }
  // A body runs Python code in the middle of make_node, which might drop the last reference to
  // an operand's graph; holding them keeps them alive until make_node has returned. Without a
  // body no Python code runs, and a graph given as `graph` is held by the caller's argument.
  std::vector<std::shared_ptr<Graph>> held;
  if (has_body) {
    for (const Var& operand : operands) held.push_back(HoldGraphOf(operand));
  }
  NodeOptions options{.domain = domain,
                      .version = version,
                      .num_outputs = output_count,
                      .attribute_refs = std::move(refs)};
  std::shared_ptr<Graph> current;
  Graph* target = GraphToBuildIn(op_type, graph, operands, current);
  std::vector<Var> outputs = target != nullptr
                                 ? make_node(*target, op_type, operands, converted, options)
                                 : make_node(op_type, operands, converted, options);
  RaisePending(pending);
  for (const Var& output : outputs) UsableVar(output);
  return outputs;
}

}  // namespace

AttributeValue AttributeFromPython(const std::string& op_type, const std::string& name,
                                   const std::string& kind, py::handle value,
                                   std::optional<py::error_already_set>& pending) {
  if (kind == "auto") return AutoValue(op_type, name, value, pending);
  return ValueOfKind(op_type, name, kind, value, pending);
}

void DefineNodes(py::module_& module) {
  module.def("make_node", &MakeNode, py::arg("op_type"), py::arg("domain"), py::arg("version"),
             py::arg("inputs"), py::arg("attributes"), py::arg("num_outputs"),
             py::arg("graph") = py::none(),
             "Appends one node; returns its outputs. Raises graphgc.Error when the op refuses "
             "its inputs or attributes (the graph is then unchanged).");
  module.def(
      "has_kernel",
      [](const std::string& op_type, const std::string& domain, int version, py::handle dtype) {
        const NodeOptions options{.domain = domain, .version = version};
        if (dtype.is_none()) return has_kernel(op_type, options);
        return has_kernel(op_type, options, DataTypeFromPython(dtype));
      },
      py::arg("op_type"), py::arg("domain") = "", py::arg("version") = 0,
      py::arg("dtype") = py::none(),
      "Whether the op computes values (with dtype: for that element type of its primary type "
      "parameter).");
  module.def(
      "supported_opset_version",
      [](const std::string& domain) { return SupportedOpsetVersion(domain); },
      py::arg("domain") = "");
}

}  // namespace graphgc::python
