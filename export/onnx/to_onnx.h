// to_onnx: turns chosen Vars of a Graph into a checker-valid ONNX ModelProto.
//
// The model holds only the nodes the outputs depend on, in arena (creation) order; its inputs are
// the arguments those nodes use, in creation order; every var gets a unique, stable name (arguments
// and outputs keep theirs). Its ai.onnx opset is the newest its nodes were built at (op:: builds at
// 24, opset17:: at 17), and its ir_version the lowest that opset and its element types need, never
// below 8 (export/onnx/ir_version.h), so an opset-17 export loads where IR 8 does. The result is
// valid by construction:
// every node was checked against its schema when it was made, and the test suite runs
// onnx::checker::check_model on every model it exports (ExportOptions::check does it here too).
// Errors: an output that is failed or depends on a failed Var (its
// status), a Var of another graph, empty or duplicate output names, a name clash with an argument.
// Threading: reads the graph; call it from the graph's thread.
#ifndef GRAPHGC_TO_ONNX_H_
#define GRAPHGC_TO_ONNX_H_

#include <concepts>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/model_files.h"  // save_model, load_model
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

using NamedVars = std::vector<std::pair<std::string, Var>>;

// The lowest IR version an export declares (an opset-17 one declares exactly this).
inline constexpr int64_t kOnnxIrVersion = 8;
inline constexpr int64_t kOnnxOpsetVersion = kNewestOnnxOpset;

absl::StatusOr<onnx::ModelProto> to_onnx(const Graph& graph, const NamedVars& outputs);

struct ExportOptions {
  // Write every var whose value the graph still holds (and constants) as an initializer instead
  // of the nodes that made it — the export of a constant-folded graph. Values inside the bodies of
  // If, Loop and Scan, and values that are not tensors, are not written this way.
  bool values_as_initializers = false;
  // Write the tensors of constants (Graph::constant, op::Constant) as initializers instead of
  // Constant nodes, as exporters usually write weights. values_as_initializers implies it.
  bool constants_as_initializers = false;
  // With values_as_initializers or constants_as_initializers: which to write (default: all); a
  // var left out is made by its nodes as usual.
  std::function<bool(VarId, const Tensor&)> write_value;
  // The same choice made without the value, which takes precedence over write_value: in a graph
  // that evicts (OnBudget::kEvictAndRecompute) a value evicted is then computed again only as it
  // is written, one at a time, rather than to be looked at. (Every value written is read as it is
  // written and let go before the next, so an export never holds all of them at once.)
  std::function<bool(VarId)> write_var;
  // Called for each initializer with its name, dims and data_type already set; returning true
  // means it stored the elements elsewhere (ONNX external data) and set the proto's external
  // fields; false, that the elements go into the proto. An error aborts the export.
  std::function<absl::StatusOr<bool>(const Tensor&, onnx::TensorProto*)> store_elements;
  // With values_as_initializers: vars whose elements were stored already (ONNX external data
  // written as a fold went): the proto to write for such a var (data_type, dims and where its
  // elements are; the export names it), or nullptr. Such a var is written as an initializer
  // without its value being read, which the graph may have let go.
  std::function<const onnx::TensorProto*(VarId)> stored_initializer;
  // The name a var should have in the model (e.g. the one it had in an imported model); empty or
  // no function: "_v<id>". Clashes are resolved by suffixes; arguments and outputs keep theirs.
  std::function<std::string(VarId)> name_of;
  // Node outputs to write as "" (omitted, as ONNX writes an optional output nobody reads), with
  // no value_info: only for vars nothing in the exported model reads, such as the outputs an
  // imported model left unnamed. No function: every output is named.
  std::function<bool(VarId)> omit_output;
  // The name a node should have (e.g. the one it had in an imported model, possibly none); no
  // function: "<op_type>_<id>".
  std::function<std::string(NodeId)> node_name_of;
  // The model's inputs, in this order: arguments of the graph, each written as an input even if
  // no output needs it. Empty: the arguments the outputs need, in the order they were made. An
  // argument an output needs must be listed (an error names it); an initializer never overrides
  // a listed input.
  std::vector<Var> inputs;
  // Run onnx::checker::check_model on the result (a model with external data is checked from its
  // file instead, once saved). Off by default: it costs more than writing the model, which is
  // valid by construction.
  bool check = false;
  // With named dims (Graph::argument with Dims): run ONNX's shape inference once on a copy of the
  // model to write the dim_params it derives in outputs and value_info. false writes the names of
  // the inputs only (a fold, which keeps the model's own declarations, skips the copy).
  bool carry_symbolic_dims = true;
  // Write each call of a function (functions.h, or a model's own, kept by inline_model) as the
  // nodes of its body, transitively: the model then has no ModelProto.functions.
  bool inline_functions = false;
};

absl::StatusOr<onnx::ModelProto> to_onnx(const Graph& graph, const NamedVars& outputs,
                                         const ExportOptions& options);

// Any other range of {name, Var} pairs, e.g. a std::map<std::string, Var>.
template <class Outputs>
requires(!std::is_same_v<Outputs, NamedVars> && requires(const Outputs& outputs) {
  { std::begin(outputs)->first } -> std::convertible_to<std::string>;
  { std::begin(outputs)->second } -> std::convertible_to<Var>;
}) absl::StatusOr<onnx::ModelProto> to_onnx(const Graph& graph, const Outputs& outputs) {
  return to_onnx(graph, NamedVars(std::begin(outputs), std::end(outputs)));
}

// The serialized model to_onnx would return — byte for byte what its SerializeToString gives —
// written without building the ModelProto (except for a graph with named dims, Graph::argument
// with Dims, whose dim_params are carried by ONNX's shape inference on the built model): nodes
// without attributes and value_infos are written as bytes directly, other nodes serialized through
// one reused message as soon as they are written, so the export costs about what serializing does
// and holds only the bytes. The way to a file or a socket for large models.
absl::StatusOr<std::string> to_onnx_bytes(const Graph& graph, const NamedVars& outputs,
                                          const ExportOptions& options = ExportOptions());

// to_onnx_bytes, written to `path`.
absl::Status save_onnx(const Graph& graph, const NamedVars& outputs, const std::string& path);

namespace internal {
// onnx::checker::check_model as a status whose message starts with `who` (to_onnx, fold).
absl::Status CheckWithOnnxChecker(const onnx::ModelProto& model, absl::string_view who);
// For test suites: from now on every to_onnx in the process runs the checker, as if
// ExportOptions::check were set, but for exports with a store_elements hook (their external data
// is checked from the saved file). tests/test_main.cc turns it on for every test.
void CheckEveryExport(bool on);
// to_onnx for the body of a function defined from code (functions.h): the graph's inputs and
// outputs may have unknown ranks (a FunctionProto's carry no types), and the checker does not
// run (the model is only the carrier of the body's nodes).
absl::StatusOr<onnx::ModelProto> ExportFunctionBody(const Graph& graph, const NamedVars& outputs,
                                                    const ExportOptions& options);
}  // namespace internal

}  // namespace graphgc

#endif  // GRAPHGC_TO_ONNX_H_
