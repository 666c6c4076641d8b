// BodyRunner: computes the results of a recorded body (the subgraph of a Loop, Scan or
// SequenceMap node) for known argument values, one trip at a time.
//
//   BodyRunner runner(core, body);
//   absl::StatusOr<BodyResults> results = runner.Run({i, cond, state});
//
// A trip replays the body's nodes with make_node in a scratch Graph: each op infers and computes
// exactly as it did when the body was built, nested If, Loop and Scan bodies included. Vars the
// body reads from enclosing graphs take their current values. The scratch graph, and with it every
// temporary of the trip, is gone when Run returns; only the results' tensors live on. A trip that
// cannot be computed (an outer value that is unknown or was collected, a body op without a kernel
// or failing on these values) gives a Decline status: the node gets no value, never a wrong one.
//
// Ownership: borrows `core`, which must outlive the runner. Threading: as the core's Graph.
#ifndef GRAPHGC_OPSET_BODY_RUNNER_H_
#define GRAPHGC_OPSET_BODY_RUNNER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/ids.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::internal {

using BodyResults = std::vector<std::optional<Value>>;

class BodyRunner {
 public:
  BodyRunner(GraphCore& core, SubgraphId body);

  // The body's results for `arguments` (one per body argument, in order).
  absl::StatusOr<BodyResults> Run(absl::Span<const Value> arguments);

  // The most value bytes one trip held at once (its scratch graph's peak), over every Run.
  int64_t peak_trip_bytes() const { return peak_trip_bytes_; }

 private:
  GraphCore& core_;
  SubgraphId body_;
  std::vector<VarId> outer_vars_;  // read by the body, defined outside it
  int64_t peak_trip_bytes_ = 0;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BODY_RUNNER_H_
