// graphgc.Graph, GraphStats and CollectStats.
#include "py_graph.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "graphgc/ir/dim.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "py_arrays.h"
#include "py_binding.h"
#include "py_body.h"
#include "py_errors.h"
#include "py_numbers.h"
#include "py_var.h"

namespace py = pybind11;

namespace graphgc::python {
namespace {

CollectPolicy PolicyFromName(const std::string& name) {
  if (name == "adaptive") return CollectPolicy::kAdaptive;
  if (name == "fixed") return CollectPolicy::kFixedThreshold;
  if (name == "manual") return CollectPolicy::kManual;
  RaiseError(absl::StrCat("collect_policy is 'adaptive', 'fixed' or 'manual', not '", name, "'"));
}

OnBudget OnBudgetFromName(const std::string& name) {
  if (name == "drop") return OnBudget::kDropValues;
  if (name == "evict") return OnBudget::kEvictAndRecompute;
  RaiseError(absl::StrCat("on_budget is 'drop' or 'evict', not '", name, "'"));
}

EvictionPolicy EvictionPolicyFromName(const std::string& name) {
  if (name == "lru") return EvictionPolicy::kLeastRecentlyUsed;
  if (name == "cheapest") return EvictionPolicy::kCheapestToRecomputePerByte;
  RaiseError(absl::StrCat("eviction_policy is 'lru' or 'cheapest', not '", name, "'"));
}

// Every live Python Graph by its core; an entry leaves with its Graph. Guarded by the GIL.
std::unordered_map<const internal::GraphCore*, std::weak_ptr<Graph>>& LiveGraphs() {
  static auto* const graphs =
      new std::unordered_map<const internal::GraphCore*, std::weak_ptr<Graph>>();
  return *graphs;
}

std::shared_ptr<Graph> NewGraph(bool propagate_values, bool keep_all_values,
                                const std::string& collect_policy, double growth_factor,
                                std::optional<int64_t> min_trigger_bytes, int64_t threshold_bytes,
                                int64_t max_value_bytes, int64_t max_live_value_bytes,
                                int64_t max_loop_trips, const std::string& on_budget,
                                const std::string& eviction_policy) {
  GraphOptions options;
  options.propagate_values = propagate_values;
  options.keep_all_values = keep_all_values;
  options.collect_policy = PolicyFromName(collect_policy);
  options.growth_factor = growth_factor;
  if (min_trigger_bytes.has_value()) options.min_trigger_bytes = *min_trigger_bytes;
  options.threshold_bytes = threshold_bytes;
  options.max_value_bytes = max_value_bytes;
  options.max_live_value_bytes = max_live_value_bytes;
  options.max_loop_trips = max_loop_trips;
  options.on_budget = OnBudgetFromName(on_budget);
  options.eviction_policy = EvictionPolicyFromName(eviction_policy);
  auto* graph = new Graph(options);
  const internal::GraphCore* core = graph->core();
  std::shared_ptr<Graph> owner(graph, [core](Graph* dying) {
    LiveGraphs().erase(core);
    delete dying;
  });
  LiveGraphs()[core] = owner;
  return owner;
}

// A dim of Graph.argument's shape: a size, a name (a symbolic dim) or None (unknown).
Var Checked(Var var) {
  UsableVar(var);
  return var;
}

Var Argument(Graph& graph, const std::string& name, py::handle dtype, py::handle shape) {
  const DataType element = DataTypeFromPython(dtype);
  if (shape.is_none()) return Checked(graph.argument_unranked(name, element));
  const std::vector<Dim> dims = DimsFromPython(shape);
  return Checked(graph.argument(name, element, absl::Span<const Dim>(dims)));
}

std::string CollectStatsText(const CollectStats& s) {
  return absl::StrFormat(
      "CollectStats(freed_values=%d, freed_bytes=%d, live_values=%d, live_bytes=%d, scanned=%d)",
      s.freed_values, s.freed_bytes, s.live_values, s.live_bytes, s.scanned);
}

std::string GraphStatsText(const GraphStats& s) {
  return absl::StrFormat(
      "GraphStats(nodes=%d, vars=%d, arena_bytes=%d, live_value_bytes=%d, peak_value_bytes=%d, "
      "live_values=%d, collections=%d, values_skipped_for_budget=%d, values_evicted=%d, "
      "evicted_bytes=%d, values_recomputed=%d, recomputed_bytes=%d, recompute_ns=%d)",
      s.nodes, s.vars, s.arena_bytes, s.live_value_bytes, s.peak_value_bytes, s.live_values,
      s.collections, s.values_skipped_for_budget, s.values_evicted, s.evicted_bytes,
      s.values_recomputed, s.recomputed_bytes, s.recompute_ns);
}

void DefineStats(py::module_& module) {
  py::class_<CollectStats>(module, "CollectStats", "What one collection freed and kept.")
      .def_readonly("freed_values", &CollectStats::freed_values)
      .def_readonly("freed_bytes", &CollectStats::freed_bytes)
      .def_readonly("live_values", &CollectStats::live_values)
      .def_readonly("live_bytes", &CollectStats::live_bytes)
      .def_readonly("scanned", &CollectStats::scanned)
      .def("__repr__", &CollectStatsText);
  py::class_<GraphStats>(module, "GraphStats", "The sizes of a graph's arena and value store.")
      .def_readonly("nodes", &GraphStats::nodes)
      .def_readonly("vars", &GraphStats::vars)
      .def_readonly("arena_bytes", &GraphStats::arena_bytes)
      .def_readonly("live_value_bytes", &GraphStats::live_value_bytes)
      .def_readonly("peak_value_bytes", &GraphStats::peak_value_bytes)
      .def_readonly("live_values", &GraphStats::live_values)
      .def_readonly("collections", &GraphStats::collections)
      .def_readonly("values_skipped_for_budget", &GraphStats::values_skipped_for_budget)
      .def_readonly("values_evicted", &GraphStats::values_evicted)
      .def_readonly("evicted_bytes", &GraphStats::evicted_bytes)
      .def_readonly("values_recomputed", &GraphStats::values_recomputed)
      .def_readonly("recomputed_bytes", &GraphStats::recomputed_bytes)
      .def_readonly("recompute_ns", &GraphStats::recompute_ns)
      .def("__repr__", &GraphStatsText);
}

}  // namespace

std::shared_ptr<Graph> HoldGraphOf(const Var& var) {
  if (!var.ok() || var.core() == nullptr) return nullptr;
  auto found = LiveGraphs().find(var.core());
  return found == LiveGraphs().end() ? nullptr : found->second.lock();
}

// The graphs of the `with` blocks running on this thread, innermost last. Only touched with the
// GIL held, so per thread is all the isolation needed.
static std::vector<std::shared_ptr<Graph>>& CurrentGraphs() {
  thread_local std::vector<std::shared_ptr<Graph>> graphs;
  return graphs;
}

std::shared_ptr<Graph> CurrentGraph() {
  const std::vector<std::shared_ptr<Graph>>& graphs = CurrentGraphs();
  return graphs.empty() ? nullptr : graphs.back();
}

Graph* GraphToBuildIn(const std::string& who, py::handle graph, absl::Span<const Var> operands,
                      std::shared_ptr<Graph>& held) {
  if (!graph.is_none()) {
    if (!py::isinstance<Graph>(graph)) {
      RaiseError(absl::StrCat(who, ": graph is a graphgc.Graph, not ", TypeName(graph)));
    }
    return &graph.cast<Graph&>();
  }
  for (const Var& operand : operands) {
    if (!operand.empty()) return nullptr;
  }
  held = CurrentGraph();
  if (held == nullptr) {
    RaiseError(absl::StrCat(who,
                            " has no input to take the graph from: pass graph=g, or make it "
                            "inside `with graphgc.Graph() as g:`"));
  }
  return held.get();
}

ScopedCurrentGraph::ScopedCurrentGraph(Graph& graph)
    : graph_(&graph, [](Graph*) {}) {  // not owned: the guard lives shorter than the graph
  CurrentGraphs().push_back(graph_);
}

ScopedCurrentGraph::~ScopedCurrentGraph() {
  // A body may have left a `with` block open: this guard's entry goes, whatever is above it.
  std::vector<std::shared_ptr<Graph>>& graphs = CurrentGraphs();
  auto mine = std::find(graphs.rbegin(), graphs.rend(), graph_);
  if (mine != graphs.rend()) graphs.erase(std::next(mine).base());
}

void DefineGraph(py::module_& module) {
  DefineStats(module);
  const GraphOptions defaults;
  py::class_<Graph, std::shared_ptr<Graph>>(
      module, "Graph",
      "Owns the arena (nodes, vars, constants; it only grows, export needs it) and "
      "the value store (propagated values, collected once no Var reaches them).")
      .def(py::init(&NewGraph), py::kw_only(),
           py::arg("propagate_values") = defaults.propagate_values,
           py::arg("keep_all_values") = defaults.keep_all_values,
           py::arg("collect_policy") = "adaptive",
           py::arg("growth_factor") = defaults.growth_factor,
           py::arg("min_trigger_bytes") = py::none(),
           py::arg("threshold_bytes") = defaults.threshold_bytes,
           py::arg("max_value_bytes") = defaults.max_value_bytes,
           py::arg("max_live_value_bytes") = defaults.max_live_value_bytes,
           py::arg("max_loop_trips") = defaults.max_loop_trips, py::arg("on_budget") = "drop",
           py::arg("eviction_policy") = "lru")
      .def(
          "__enter__",
          [](std::shared_ptr<Graph> graph) {
            CurrentGraphs().push_back(graph);
            return graph;
          },
          "Makes this the current graph of the thread until the block ends: an op with no input "
          "to take its graph from (op.constant(value=...), op.const(...)) is built in it.")
      .def(
          "__exit__",
          [](const std::shared_ptr<Graph>& graph, py::handle, py::handle, py::handle) {
            std::vector<std::shared_ptr<Graph>>& graphs = CurrentGraphs();
            if (graphs.empty() || graphs.back() != graph) {
              RaiseError("Graph.__exit__: this graph is not the current one of the thread");
            }
            graphs.pop_back();
            return false;
          },
          py::arg("exc_type"), py::arg("exc_value"), py::arg("traceback"))
      .def("argument", &Argument, py::arg("name"), py::arg("dtype"), py::arg("shape") = py::none(),
           "A graph input. shape: a sequence of sizes, names (symbolic dims) and None "
           "(unknown), or None for an unknown rank.")
      .def(
          "argument_of_type",
          [](Graph& graph, const std::string& name, py::handle type) {
            return Checked(graph.argument(name, VarTypeFromPython(type)));
          },
          py::arg("name"), py::arg("type"), "A graph input of any VarType (sequence, map, ...).")
      .def(
          "constant",
          [](Graph& graph, py::handle value) {
            return Checked(graph.constant(TensorFromPython(value)));
          },
          py::arg("value"), "A Constant node holding a copy of numpy.asarray(value).")
      .def(
          "collect",
          [](Graph& graph, bool full) {
            return graph.collect(full ? CollectMode::kEveryVar : CollectMode::kChangedSinceLast);
          },
          py::kw_only(), py::arg("full") = false,
          "Frees every value no live Var reaches; returns what it freed and kept.")
      .def("stats", &Graph::stats);
}

}  // namespace graphgc::python
