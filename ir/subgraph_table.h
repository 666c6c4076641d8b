// SubgraphTable: the nesting of subgraphs (the bodies of If, Loop and Scan) within one arena.
//
// A body is built eagerly, like everything else: its op constructor opens a subgraph, creates the
// body's arguments, runs the caller's builder, and closes the subgraph with the builder's results.
// Every node appended while a subgraph is open belongs to it (to the innermost open one), so
// membership is kept as a short list of transitions ("from node N on, nodes belong to S") rather
// than a field per node: graphs without control flow pay nothing. A var belongs where its
// producer does; a body argument belongs to its body. SubgraphId() (invalid) is the main graph.
// Owned by the Arena; thread-compatible.
#ifndef GRAPHGC_SUBGRAPH_TABLE_H_
#define GRAPHGC_SUBGRAPH_TABLE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "graphgc/ir/ids.h"

namespace graphgc::internal {

class SubgraphTable {
 public:
  using VarIds = std::vector<VarId>;

  // Opens a subgraph nested in the current one; nodes from `next_node` on belong to it.
  SubgraphId open(uint32_t next_node);
  // Closes `subgraph`, which must be the innermost open one, and records its results.
  void close(SubgraphId subgraph, uint32_t next_node, absl::Span<const VarId> results);
  void add_argument(SubgraphId subgraph, VarId argument);

  // The innermost open subgraph, SubgraphId() when none is open.
  SubgraphId current() const { return open_.empty() ? SubgraphId() : open_.back(); }
  bool empty() const { return records_.empty(); }
  size_t size() const { return records_.size(); }

  SubgraphId of_node(NodeId node) const;
  // SubgraphId() for a main-graph argument.
  SubgraphId of_argument(VarId argument) const;
  SubgraphId parent(SubgraphId subgraph) const { return record(subgraph).parent; }
  // Whether code in `inner` sees the vars of `outer`: the same subgraph, or one enclosing it.
  bool encloses(SubgraphId outer, SubgraphId inner) const;
  VarIds arguments(SubgraphId subgraph) const { return record(subgraph).arguments; }
  VarIds results(SubgraphId subgraph) const { return record(subgraph).results; }
  bool closed(SubgraphId subgraph) const { return record(subgraph).closed; }
  // The nodes appended while `subgraph` was open: [first, end). Those of nested subgraphs are
  // among them (of_node tells them apart); a body's own nodes are in the order they were made.
  std::pair<uint32_t, uint32_t> node_range(SubgraphId subgraph) const {
    return {record(subgraph).first_node, record(subgraph).end_node};
  }

  int64_t bytes() const;

 private:
  struct Record {
    SubgraphId parent;
    VarIds arguments;
    VarIds results;
    bool closed = false;
    uint32_t first_node = 0;
    uint32_t end_node = 0;  // set when closed
  };
  const Record& record(SubgraphId subgraph) const;
  Record& record(SubgraphId subgraph);

  std::vector<Record> records_;
  // (first node index, subgraph of the nodes from there on), in node order.
  std::vector<std::pair<uint32_t, SubgraphId>> transitions_;
  std::vector<SubgraphId> open_;
  absl::flat_hash_map<VarId, SubgraphId> argument_subgraph_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_SUBGRAPH_TABLE_H_
