// The Python Graph objects: each owns its graphgc::Graph through a shared_ptr, so that a call that
// runs Python code in the middle of building a node (a body callable) can hold the graph alive
// even if that code drops the last Python reference to it.
#ifndef GRAPHGC_EXPORT_PYTHON_PY_GRAPH_H_
#define GRAPHGC_EXPORT_PYTHON_PY_GRAPH_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "absl/types/span.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"

namespace graphgc::python {

// The Graph that `var` belongs to, held alive by the result; null when it has none (an empty or
// failed Var, or a graph already gone).
std::shared_ptr<Graph> HoldGraphOf(const Var& var);

// The graph of the innermost `with graphgc.Graph() as g:` block running on this thread (ops with
// no input to take their graph from are built there); null outside every such block.
std::shared_ptr<Graph> CurrentGraph();

// The graph a node of `who` (an op, a call) is built in: `graph` when it is given (raising
// graphgc.Error when it is not a graphgc.Graph); else nullptr when an operand is non-empty (the
// graph is taken from the operands); else the current graph, which `held` keeps alive. Raises
// graphgc.Error when there is none.
Graph* GraphToBuildIn(const std::string& who, pybind11::handle graph,
                      absl::Span<const Var> operands, std::shared_ptr<Graph>& held);

// Makes `graph`, which Python does not own (define_function's trace graph), the current graph of
// the thread while the guard lives, so that a body's ops with no input (op.const) are built
// in it. No Python object ever holds it: the current graph is reachable only by the ops built.
class ScopedCurrentGraph {
 public:
  explicit ScopedCurrentGraph(Graph& graph);
  ~ScopedCurrentGraph();
  ScopedCurrentGraph(const ScopedCurrentGraph&) = delete;
  ScopedCurrentGraph& operator=(const ScopedCurrentGraph&) = delete;

 private:
  std::shared_ptr<Graph> graph_;
};

}  // namespace graphgc::python

#endif  // GRAPHGC_EXPORT_PYTHON_PY_GRAPH_H_
