// The values of Loop, Scan and SequenceMap: their bodies run trip by trip (body_runner.h) on the
// node's known inputs, as ONNX runs them.
//
//   Loop         while (no trip count M or i < M) and (no condition or cond): run the body on
//                (i, cond, state...), take (cond, state..., scan slices...) back; the scan
//                outputs stack their slices along a new first axis.
//   Scan         one trip per slice of the scan inputs along scan_input_axes (backwards where
//                scan_input_directions is 1); scan outputs stack along scan_output_axes.
//   SequenceMap  one trip per element of the sequence inputs; each output is the sequence of the
//                trips' results.
//
// Memory: a trip's temporaries die with its scratch graph, so what a loop holds is its state and
// its scan outputs so far, never the history of its trips; the graph's peak_value_bytes counts it.
// A loop that needs more than GraphOptions::max_loop_trips trips, more than max_value_bytes for a
// scan output, or a trip that cannot be computed gives every output no value (never a wrong one,
// and never a failed op). Internal to the opset module.
#ifndef GRAPHGC_OPSET_CONTROL_FLOW_VALUES_H_
#define GRAPHGC_OPSET_CONTROL_FLOW_VALUES_H_

#include <vector>

#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/ir/ids.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc::internal {

OutputValues PropagateLoop(GraphCore& core, SubgraphId body, absl::Span<const OperandInfo> operands,
                           absl::Span<const OutputType> types);

OutputValues PropagateScan(GraphCore& core, SubgraphId body, absl::Span<const OperandInfo> operands,
                           absl::Span<const OutputType> types,
                           const std::vector<Attribute>& attributes);

// Scan-8: sequence_lens, then states [batch, ...] and scan inputs [batch, sequence, ...]; each
// batch entry scans on its own. A sequence_lens shorter than the sequence gives no value.
OutputValues PropagateScan8(GraphCore& core, SubgraphId body,
                            absl::Span<const OperandInfo> operands,
                            absl::Span<const OutputType> types,
                            const std::vector<Attribute>& attributes);

OutputValues PropagateSequenceMap(GraphCore& core, SubgraphId body,
                                  absl::Span<const OperandInfo> operands,
                                  absl::Span<const OutputType> types);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_CONTROL_FLOW_VALUES_H_
