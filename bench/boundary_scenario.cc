#include "boundary_scenario.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "comparisons.h"
#include "graphgc/graphgc.h"
#include "json_text.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kArgumentLength = 64;

// Large sizes take seconds per step and vary less; small ones are repeated more.
int RepetitionsFor(int64_t n) { return n <= 10000 ? 5 : n <= 100000 ? 3 : 1; }

// Nanoseconds `step` took, per node; the step's own failure is recorded in `error`.
double NsPerNode(int64_t n, const std::function<void()>& step) {
  const Clock::time_point start = Clock::now();
  step();
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  return ns / static_cast<double>(n);
}

void KeepBest(double& best, double candidate) { best = std::min(best, candidate); }

// System (kernel) CPU time of this process so far, in seconds.
double SystemSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_stime.tv_usec) * 1e-6;
}

// One repetition of every step; figures improve `row` where they are better.
void MeasureOnce(int64_t n, BoundaryRow& row) {
  Graph graph;
  const Var x = graph.argument("x", DataType::kFloat, {kArgumentLength});
  Var y = x;
  KeepBest(row.build_ns, NsPerNode(n, [&] {
             for (int64_t i = 0; i < n; ++i) y = op::Add(y, x);
           }));
  row.arena_bytes_per_node =
      static_cast<double>(graph.stats().arena_bytes) / static_cast<double>(graph.stats().nodes);

  absl::StatusOr<onnx::ModelProto> model;
  const double system_before = SystemSeconds();
  const double to_onnx_ns = NsPerNode(n, [&] { model = to_onnx(graph, {{"y", y}}); });
  if (to_onnx_ns < row.to_onnx_ns) {
    row.to_onnx_ns = to_onnx_ns;
    row.to_onnx_system_ns = (SystemSeconds() - system_before) * 1e9 / static_cast<double>(n);
  }
  if (!model.ok()) {
    row.error = absl::StrCat("to_onnx: ", model.status().message());
    return;
  }
  std::string bytes;
  KeepBest(row.serialize_ns, NsPerNode(n, [&] { model->SerializeToString(&bytes); }));
  row.model_bytes = static_cast<int64_t>(bytes.size());
  absl::StatusOr<std::string> streamed;
  KeepBest(row.to_bytes_ns, NsPerNode(n, [&] { streamed = to_onnx_bytes(graph, {{"y", y}}); }));
  if (!streamed.ok() || *streamed != bytes) {
    row.error = streamed.ok() ? "to_onnx_bytes: not the bytes of to_onnx's model"
                              : absl::StrCat("to_onnx_bytes: ", streamed.status().message());
    return;
  }

  Graph imported;
  absl::StatusOr<std::map<std::string, Var>> outputs;
  KeepBest(row.inline_ns, NsPerNode(n, [&] { outputs = inline_model(imported, *model); }));
  if (!outputs.ok()) {
    row.error = absl::StrCat("inline_model: ", outputs.status().message());
    return;
  }
  onnx::ModelProto inferred = *model;  // InferShapes writes into its model; copied untimed
  KeepBest(row.infer_shapes_ns, NsPerNode(n, [&] {
             try {
               onnx::shape_inference::InferShapes(inferred);
             } catch (const std::exception& e) {
               row.error = absl::StrCat("InferShapes: ", e.what());
             }
           }));
}

}  // namespace

std::vector<BoundaryRow> RunBoundaryScenario(const std::vector<int64_t>& sizes) {
  std::vector<BoundaryRow> rows;
  for (int64_t n : sizes) {
    BoundaryRow row;
    row.n = n;
    row.repetitions = RepetitionsFor(n);
    constexpr double kNone = std::numeric_limits<double>::infinity();
    row.build_ns = row.to_onnx_ns = row.serialize_ns = row.to_bytes_ns = row.inline_ns =
        row.infer_shapes_ns = kNone;
    for (int i = 0; i < row.repetitions && row.error.empty() && n > 0; ++i) MeasureOnce(n, row);
    for (double* figure : {&row.build_ns, &row.to_onnx_ns, &row.serialize_ns, &row.to_bytes_ns,
                           &row.inline_ns, &row.infer_shapes_ns}) {
      if (*figure == kNone) *figure = 0;
    }
    rows.push_back(row);
  }
  return rows;
}

void PrintBoundaryRows(const std::vector<BoundaryRow>& rows) {
  std::printf(
      "\nboundary: a chain of n Adds over float[%lld] arguments, built, exported, serialized and "
      "imported in this process\n(ns per node, best of the runs shown; to_bytes is to_onnx_bytes, "
      "the serialized model written without the ModelProto; of to_onnx, sys is the part the "
      "kernel spent, on page faults for the model's memory; each ratio compares a figure with "
      "serialize, or inline with InferShapes, both of the same row)\n",
      static_cast<long long>(kArgumentLength));
  std::printf("%9s %5s %8s %9s %6s %10s %8s %9s %8s %9s %12s %8s %11s %12s\n", "n", "runs", "build",
              "to_onnx", "(sys)", "serialize", "ratio", "to_bytes", "ratio", "inline",
              "InferShapes", "ratio", "arena B/node", "model bytes");
  for (const BoundaryRow& row : rows) {
    std::printf(
        "%9lld %5d %8.0f %9.0f %6.0f %10.0f %7.2fx %9.0f %7.2fx %9.0f %12.0f %7.2fx %11.1f "
        "%12lld\n",
        static_cast<long long>(row.n), row.repetitions, row.build_ns, row.to_onnx_ns,
        row.to_onnx_system_ns, row.serialize_ns, Ratio(row.to_onnx_ns, row.serialize_ns),
        row.to_bytes_ns, Ratio(row.to_bytes_ns, row.serialize_ns), row.inline_ns,
        row.infer_shapes_ns, Ratio(row.inline_ns, row.infer_shapes_ns), row.arena_bytes_per_node,
        static_cast<long long>(row.model_bytes));
    if (!row.error.empty()) std::printf("          failed: %s\n", row.error.c_str());
  }
}

std::string BoundaryRowsToJson(const std::vector<BoundaryRow>& rows) {
  std::string json = "[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BoundaryRow& row = rows[i];
    absl::StrAppend(
        &json, i == 0 ? "" : ",",
        absl::StrFormat(
            "\n    {\"n\": %d, \"runs\": %d, \"build_ns_per_node\": %.1f, \"to_onnx_ns_per_node\": "
            "%.1f, \"to_onnx_system_ns_per_node\": %.1f, \"serialize_ns_per_node\": %.1f, "
            "\"to_onnx_over_serialize\": %.3f, "
            "\"to_onnx_bytes_ns_per_node\": %.1f, \"to_onnx_bytes_over_serialize\": %.3f, "
            "\"inline_ns_per_node\": %.1f, \"infer_shapes_ns_per_node\": %.1f, "
            "\"inline_over_infer_shapes\": %.3f, \"arena_bytes_per_node\": %.1f, "
            "\"model_bytes\": %d, \"error\": %s}",
            row.n, row.repetitions, row.build_ns, row.to_onnx_ns, row.to_onnx_system_ns,
            row.serialize_ns, Ratio(row.to_onnx_ns, row.serialize_ns), row.to_bytes_ns,
            Ratio(row.to_bytes_ns, row.serialize_ns), row.inline_ns, row.infer_shapes_ns,
            Ratio(row.inline_ns, row.infer_shapes_ns), row.arena_bytes_per_node, row.model_bytes,
            JsonQuote(row.error)));
  }
  absl::StrAppend(&json, "\n  ]");
  return json;
}

}  // namespace graphgc::bench
