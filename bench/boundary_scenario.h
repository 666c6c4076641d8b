// The boundary scenario: a chain of n Adds over float[64] arguments (no values) is built,
// exported with to_onnx, serialized, and imported with inline_model into a fresh graph. Beside
// each of our costs it measures the protobuf or ONNX call that bounds it, on the same model and in
// the same run: to_onnx against ModelProto::SerializeToString, inline_model against
// onnx::shape_inference::InferShapes. Everything runs in this process, one size after another.
#ifndef GRAPHGC_BENCH_BOUNDARY_SCENARIO_H_
#define GRAPHGC_BENCH_BOUNDARY_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

namespace graphgc::bench {

struct BoundaryRow {
  int64_t n = 0;
  int repetitions = 0;    // each figure is the best of these
  double build_ns = 0;    // per node: op::Add on the growing chain
  double to_onnx_ns = 0;  // per node
  // Per node, of the best to_onnx run: the time the kernel spent for the process (page faults on
  // the model's fresh memory, nearly all of it), from getrusage.
  double to_onnx_system_ns = 0;
  double serialize_ns = 0;     // per node: SerializeToString of to_onnx's model
  double to_bytes_ns = 0;      // per node: to_onnx_bytes, the same bytes without the model
  double inline_ns = 0;        // per node: inline_model of the parsed model into a fresh graph
  double infer_shapes_ns = 0;  // per node: onnx::shape_inference::InferShapes on that model
  double arena_bytes_per_node = 0;
  int64_t model_bytes = 0;
  std::string error;  // set when a step failed; the figures are then partial
};

// One row per size, in order.
std::vector<BoundaryRow> RunBoundaryScenario(const std::vector<int64_t>& sizes);

void PrintBoundaryRows(const std::vector<BoundaryRow>& rows);
// The rows as a JSON array, indented as a member of the suite's document (report.h).
std::string BoundaryRowsToJson(const std::vector<BoundaryRow>& rows);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_BOUNDARY_SCENARIO_H_
