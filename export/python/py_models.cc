// Models in and out: to_onnx_bytes, import_model (behind graphgc.inline_model), fold, and
// load_model/save_model (files, with external data resolved only inside the model's folder). Models
// cross the boundary as serialized ModelProto bytes (the onnx package's own form), parsed here
// with protobuf; a file path is read by graphgc itself, which resolves external data safely.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/export/fold/fold.h"
#include "graphgc/export/onnx/inline_model.h"
#include "graphgc/export/onnx/model_files.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "graphgc/ir/graph.h"
#include "onnx/onnx_pb.h"
#include "py_binding.h"
#include "py_errors.h"
#include "py_var.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

// A model given as bytes (ModelProto.SerializeToString()) or as a path to a .onnx file. For a
// path, `model_dir` becomes the file's folder unless given, so external data resolves there.
onnx::ModelProto ModelFromPython(py::handle model, std::string& model_dir) {
  if (py::isinstance<py::bytes>(model)) {
    onnx::ModelProto proto;
    std::string_view bytes = model.cast<std::string_view>();
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
        !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      RaiseError(absl::StrCat("not a serialized ONNX ModelProto (", bytes.size(), " bytes)"));
    }
    return proto;
  }
  std::string file = py::module_::import("os").attr("fspath")(model).cast<std::string>();
  if (model_dir.empty()) model_dir = model_folder(file);
  return ValueOrRaise(load_model(file));
}

py::bytes Serialized(const onnx::ModelProto& model) {
  std::string bytes;
  if (!model.SerializeToString(&bytes)) {
    RaiseError("the model does not serialize (over protobuf's 2 GB limit?)");
  }
  return py::bytes(bytes);
}

py::bytes ToOnnxBytes(const Graph& graph, const std::vector<std::pair<std::string, Var>>& outputs,
                      bool values_as_initializers, bool constants_as_initializers, bool check,
                      const std::vector<Var>& inputs, bool inline_functions) {
  ExportOptions options;
  options.inputs = inputs;
  options.inline_functions = inline_functions;
  options.values_as_initializers = values_as_initializers;
  options.constants_as_initializers = constants_as_initializers;
  options.check = check;
  return py::bytes(ValueOrRaise(to_onnx_bytes(graph, outputs, options)));
}

py::tuple ImportModel(Graph& graph, py::handle model, const std::map<std::string, Var>& inputs,
                      const std::string& prefix, int opset, std::string model_dir,
                      bool opaque_unknown_ops, bool inline_functions) {
  for (const auto& [name, var] : inputs) UsableVar(var);
  onnx::ModelProto proto = ModelFromPython(model, model_dir);
  InlineOptions options{.opaque_unknown_ops = opaque_unknown_ops,
                        .model_dir = model_dir,
                        .prefix = prefix,
                        .opset = opset,
                        .inline_functions = inline_functions};
  ImportedModel imported = ValueOrRaise(import_model(graph, proto, inputs, options));
  return py::make_tuple(imported.outputs, imported.onnx_opset, imported.warnings);
}

py::dict FoldStatsDict(const FoldStats& stats) {
  py::dict out;
  out["nodes_before"] = stats.nodes_before;
  out["nodes_after"] = stats.nodes_after;
  out["initializer_bytes_before"] = stats.initializer_bytes_before;
  out["initializer_bytes_after"] = stats.initializer_bytes_after;
  out["nodes_folded"] = stats.nodes_folded;
  out["function_nodes_folded"] = stats.function_nodes_folded;
  out["calls_specialised"] = stats.calls_specialised;
  out["functions_specialised"] = stats.functions_specialised;
  out["nodes_kept_for_size"] = stats.nodes_kept_for_size;
  out["nodes_kept_for_budget"] = stats.nodes_kept_for_budget;
  out["nodes_fused"] = stats.nodes_fused;
  out["opaque_nodes"] = stats.opaque_nodes;
  out["noop_casts_removed"] = stats.noop_casts_removed;
  out["common_subexpressions_removed"] = stats.common_subexpressions_removed;
  out["initializers_merged"] = stats.initializers_merged;
  out["peak_live_value_bytes"] = stats.peak_live_value_bytes;
  out["peak_node"] = stats.peak_node;
  out["peak_node_bytes"] = stats.peak_node_bytes;
  out["values_evicted"] = stats.values_evicted;
  out["values_recomputed"] = stats.values_recomputed;
  out["recomputed_bytes"] = stats.recomputed_bytes;
  out["recompute_seconds"] = stats.recompute_seconds;
  out["fuse_seconds"] = stats.fuse_seconds;
  out["model_bytes_before"] = stats.model_bytes_before;
  out["model_bytes_after"] = stats.model_bytes_after;
  out["kept_unchanged"] = stats.kept_unchanged;
  out["plan_seconds"] = stats.plan_seconds;
  out["import_seconds"] = stats.import_seconds;
  out["fold_seconds"] = stats.fold_seconds;
  out["export_seconds"] = stats.export_seconds;
  return out;
}

py::tuple Fold(py::handle model, std::string model_dir, int64_t max_fold_bytes, bool fold_anyway,
               int64_t memory_budget_bytes, bool unknown_ops_are_errors, bool inline_functions,
               bool fuse, int opset, bool remove_noop_casts, bool eliminate_common_subexpressions,
               bool merge_initializers) {
  onnx::ModelProto proto = ModelFromPython(model, model_dir);
  FoldOptions options;
  options.model_dir = model_dir;
  options.max_fold_bytes = max_fold_bytes;
  options.fold_anyway = fold_anyway;
  options.memory_budget_bytes = memory_budget_bytes;
  options.unknown_ops_are_errors = unknown_ops_are_errors;
  options.inline_functions = inline_functions;
  options.fuse = fuse;
  options.opset = opset;
  options.remove_noop_casts = remove_noop_casts;
  options.eliminate_common_subexpressions = eliminate_common_subexpressions;
  options.merge_initializers = merge_initializers;
  FoldResult result = ValueOrRaise(fold(std::move(proto), options));
  return py::make_tuple(Serialized(result.model), FoldStatsDict(result.stats), result.warnings);
}

py::bytes LoadModel(py::handle path, bool load_external_data) {
  const std::string file = py::module_::import("os").attr("fspath")(path).cast<std::string>();
  return Serialized(ValueOrRaise(load_model(file, {.load_external_data = load_external_data})));
}

void SaveModel(py::handle model, py::handle path, const std::string& external_data_file,
               int64_t external_data_threshold) {
  std::string unused_dir = ".";
  const onnx::ModelProto proto = ModelFromPython(model, unused_dir);
  const std::string file = py::module_::import("os").attr("fspath")(path).cast<std::string>();
  RaiseIfError(save_model(proto, file,
                          {.external_data_file = external_data_file,
                           .external_data_threshold = external_data_threshold}));
}

}  // namespace

void DefineModels(py::module_& module) {
  module.def("load_model", &LoadModel, py::arg("path"), py::kw_only(),
             py::arg("load_external_data") = true);
  module.def("save_model", &SaveModel, py::arg("model"), py::arg("path"), py::kw_only(),
             py::arg("external_data_file") = "", py::arg("external_data_threshold") = 1024);
  module.def("to_onnx_bytes", &ToOnnxBytes, py::arg("graph"), py::arg("outputs"), py::kw_only(),
             py::arg("values_as_initializers") = false,
             py::arg("constants_as_initializers") = false, py::arg("check") = false,
             py::arg("inputs") = std::vector<Var>(), py::arg("inline_functions") = false);
  module.def("import_model", &ImportModel, py::arg("graph"), py::arg("model"), py::arg("inputs"),
             py::kw_only(), py::arg("prefix") = "", py::arg("opset") = kNewestOnnxOpset,
             py::arg("model_dir") = "", py::arg("opaque_unknown_ops") = true,
             py::arg("inline_functions") = false);
  const FoldOptions defaults;
  module.def("fold", &Fold, py::arg("model"), py::kw_only(), py::arg("model_dir") = "",
             py::arg("max_fold_bytes") = defaults.max_fold_bytes,
             py::arg("fold_anyway") = defaults.fold_anyway,
             py::arg("memory_budget_bytes") = defaults.memory_budget_bytes,
             py::arg("unknown_ops_are_errors") = defaults.unknown_ops_are_errors,
             py::arg("inline_functions") = defaults.inline_functions,
             py::arg("fuse") = defaults.fuse, py::arg("opset") = defaults.opset,
             py::arg("remove_noop_casts") = defaults.remove_noop_casts,
             py::arg("eliminate_common_subexpressions") = defaults.eliminate_common_subexpressions,
             py::arg("merge_initializers") = defaults.merge_initializers);
}

}  // namespace graphgc::python
