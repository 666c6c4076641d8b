// Workload: what one scenario of the suite builds, step by step, in a graph it is handed.
//
// A scenario table row runs a workload for n steps in one collection mode and measures the graph
// around it (scenario_run.h). The workload decides what one step builds and which handles it keeps:
// whatever it no longer holds after a step is garbage for the collector. Every step makes the same
// ops and the same value bytes, so that figures per op and "bytes made = steps x bytes per step"
// hold for any n (the run checks the latter against what the graph reports).
#ifndef GRAPHGC_BENCH_WORKLOAD_H_
#define GRAPHGC_BENCH_WORKLOAD_H_

#include <cstdint>

#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"

namespace graphgc::bench {

class Workload {
 public:
  virtual ~Workload() = default;

  // Makes the constants and arguments every step uses. Not timed, and its nodes are not ops.
  virtual void Prepare(Graph& graph) = 0;
  // Builds one step's ops, keeping only the handles later steps (or the output) need.
  virtual void Step() = 0;
  // The var the scenario exports at the end: the last step's result.
  virtual const Var& output() const = 0;
  // Whether output() is what `steps` steps must give: its propagated value, or its inferred type
  // where it has none. Called only on graphs that propagate values.
  virtual bool HasExpectedOutput(int64_t steps) const = 0;
};

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_WORKLOAD_H_
