// Functions defined from code: an ONNX model-local function (FunctionProto) whose body is traced
// once from a C++ callable, called like an op, and exported once per model.
//
//   absl::StatusOr<gg::Function> act = gg::define_function(
//       {.domain = "local", .name = "Act", .inputs = {{"x",
//       gg::VarType::Tensor(gg::DataType::kFloat, {{-1}})}}},
//       [](absl::Span<const gg::Var> x) { return std::vector<gg::Var>{gg::op::Relu(x[0])}; });
//   std::vector<gg::Var> y = gg::call(*act, {x});        // a node "local.Act"
//
// define_function runs `body` once, in a graph of its own (which it gets, for constants), on
// arguments of the given types, and
// records the nodes it makes (constants become Constant nodes) as the function's body; the types
// serve the tracing only. A body may call functions defined before it (they become the new
// function's callees); a function cannot call itself, since it does not exist until its body has
// been traced. At each call the body is built again in the caller's graph on the call's inputs,
// as ONNX's function semantics have it: the outputs' types are what the body gives for the call's
// types, their values are computed when every input has one, and the body's intermediate values
// are collected like any others (only the call node stays reachable). to_onnx writes each
// function a model calls once into ModelProto.functions, with its callees; the calls are nodes of
// the function's domain (declared at opset 1).
//
// Errors (statuses, nothing half-made): define_function — an empty name, a domain that is empty
// or one of ONNX's, two inputs or attributes of one name, a graph-valued attribute, a body that
// returns no Var, a failed Var, or a Var of another graph, a body that throws, a node or call
// referring to an attribute the function does not declare; call — an empty Function, more inputs
// than the function takes, inputs of different graphs, an attribute the function does not declare,
// a reference (CallOptions) to an attribute the call is not given, a graph that already holds
// another function of that name (the outputs are then failed Vars); a failed input fails the
// outputs, as for any op. Threading: a Function is immutable and may be shared between threads;
// calls follow the threading of the graph they build in.
#ifndef GRAPHGC_FUNCTIONS_H_
#define GRAPHGC_FUNCTIONS_H_

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

struct FunctionInput {
  std::string name;
  VarType type;  // what the body is traced with
};

struct FunctionSpec {
  std::string domain;  // a domain of your own: not "", "ai.onnx" or "ai.onnx.ml"
  std::string name;
  std::vector<FunctionInput> inputs;
  // The outputs' names in the FunctionProto; empty: "output_0", "output_1", ...
  std::vector<std::string> output_names;
  // The function's attributes, each with the value the body is traced with, which is also the
  // default a call that leaves it out gets. A node of the body takes one by reference with
  // make_node(..., NodeOptions{.attribute_refs = {{"alpha", "alpha"}}}), given that value.
  std::vector<Attribute> attributes = {};
};

// How a call is made.
struct CallOptions {
  // Only in the body of a function being defined (a function passing its attribute on to a
  // function it calls): the call's attributes that take the enclosing function's attributes, as
  // {callee's attribute, enclosing function's attribute}. The attribute is still given, with the
  // value the body is traced with; the export writes the reference (ref_attr_name), as
  // NodeOptions::attribute_refs does for an op.
  std::vector<std::pair<std::string, std::string>> attribute_refs = {};
};

class Function {
 public:
  Function() = default;  // empty: calling it is an error
  bool empty() const { return definitions_ == nullptr; }
  const std::string& domain() const;
  const std::string& name() const;
  int num_inputs() const;
  int num_outputs() const;
  // The function's FunctionProto, then those of the functions it calls (each once).
  const google::protobuf::RepeatedPtrField<onnx::FunctionProto>& definitions() const;

 private:
  friend absl::StatusOr<Function> define_function(
      const FunctionSpec& spec,
      const std::function<std::vector<Var>(Graph&, absl::Span<const Var>)>& body);
  friend std::vector<Var> call(Graph& graph, const Function& function, absl::Span<const Var> inputs,
                               const std::vector<Attribute>& attributes,
                               const CallOptions& options);
  struct Definitions;
  explicit Function(std::shared_ptr<const Definitions> definitions)
      : definitions_(std::move(definitions)) {}

  // The function and its callees, as a model holding only them and their opset imports, indexed
  // for calls.
  std::shared_ptr<const Definitions> definitions_;
};

// The body gets the graph it is traced in (for constants: graph.constant(t)) and the arguments.
using FunctionBody = std::function<std::vector<Var>(Graph& graph, absl::Span<const Var> inputs)>;
absl::StatusOr<Function> define_function(const FunctionSpec& spec, const FunctionBody& body);

// A body of the arguments alone.
template <class Body>
requires(std::is_invocable_r_v<std::vector<Var>, Body&, absl::Span<const Var>> &&
         !std::is_invocable_v<Body&, Graph&, absl::Span<const Var>>)
    absl::StatusOr<Function> define_function(const FunctionSpec& spec, Body body) {
  return define_function(
      spec, FunctionBody([body = std::move(body)](Graph&, absl::Span<const Var> inputs) mutable {
        return body(inputs);
      }));
}

// A call of `function` on `inputs` (the graph comes from them; an empty Var omits an input),
// one Var per output of the function.
// `attributes`: values of the function's attributes (the others take their defaults).
std::vector<Var> call(const Function& function, absl::Span<const Var> inputs,
                      const std::vector<Attribute>& attributes = {},
                      const CallOptions& options = {});
// The same in `graph`, for a function without inputs or calls given only constants of it.
std::vector<Var> call(Graph& graph, const Function& function, absl::Span<const Var> inputs,
                      const std::vector<Attribute>& attributes = {},
                      const CallOptions& options = {});

}  // namespace graphgc

#endif  // GRAPHGC_FUNCTIONS_H_
