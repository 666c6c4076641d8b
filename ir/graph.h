// Graph: owns one ONNX graph under construction — its arena and its value store.
//
// Vars are made by argument() and constant() here, and by the ops in graphgc::op, which find the
// graph through their operands. collect() frees the propagated values no Var can reach any more;
// collection also runs automatically per GraphOptions::collect_policy. The arena (nodes, vars,
// constants) is never collected, so any Var can be exported at any time.
//
// Ownership: a Graph is movable, not copyable. Destroying it frees the arena and all values, even
// while Vars remain (they then report an error). Threading: thread-compatible — one thread at a
// time per Graph (and its Vars); distinct graphs are independent.
#ifndef GRAPHGC_GRAPH_H_
#define GRAPHGC_GRAPH_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/dim.h"
#include "graphgc/ir/graph_options.h"
#include "graphgc/ir/graph_stats.h"
#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {

// The newest ai.onnx opset this library implements (ONNX 1.19); nodes record the opset they were
// made at, this one unless the caller pinned an older one.
inline constexpr int kNewestOnnxOpset = 24;

class Graph;
namespace internal {
class GraphCore;
// A Graph handle on the graph `core` belongs to, for the library's own modules that build into a
// graph they were given only Vars of (graphgc::call): its destruction leaves the graph as it is.
Graph BorrowGraph(GraphCore* core);
}  // namespace internal

class Graph {
 public:
  Graph();
  explicit Graph(const GraphOptions& options);
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph();

  // A graph input. `shape` uses -1 for an unknown dim. Errors (a failed Var): an empty or reused
  // name, an undefined element type, a dim below -1.
  Var argument(absl::string_view name, DataType dtype, absl::Span<const int64_t> shape);
  // A graph input with named (symbolic) dims: {"batch", 16}. A braced list of sizes comes here
  // too and means what it means above (an empty name is an unknown dim). Errors as above.
  Var argument(absl::string_view name, DataType dtype, std::initializer_list<Dim> shape);
  Var argument(absl::string_view name, DataType dtype, absl::Span<const Dim> shape);
  // A graph input of unknown rank.
  Var argument_unranked(absl::string_view name, DataType dtype);
  // A graph input of any type, e.g. VarType::Sequence(VarType::Tensor(DataType::kFloat, {{-1}})).
  // Errors as above, for every tensor inside the type; map keys must be integers or strings.
  Var argument(absl::string_view name, const VarType& type);
  // A Constant node holding `tensor`; its value is known. The tensor's buffer belongs to the arena.
  Var constant(const Tensor& tensor);

  // Names `var` in every export of it (Var::set_name).
  absl::Status name(const Var& var, absl::string_view name);

  CollectStats collect();
  CollectStats collect(CollectMode mode);
  GraphStats stats() const;
  const GraphOptions& options() const;

  // For the library's own modules; nullptr for a moved-from Graph.
  internal::GraphCore* core() const { return core_; }

 private:
  friend Graph internal::BorrowGraph(internal::GraphCore* core);
  struct Borrowed {};
  Graph(internal::GraphCore* core, Borrowed);

  Var add_argument(absl::string_view name, DataType dtype,
                   std::optional<absl::Span<const int64_t>> shape);
  absl::Status CheckArgumentType(const VarType& type) const;

  internal::GraphCore* core_;
  bool owns_core_ = true;  // false for BorrowGraph's handles
};

}  // namespace graphgc

#endif  // GRAPHGC_GRAPH_H_
