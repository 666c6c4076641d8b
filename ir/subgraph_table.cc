#include "graphgc/ir/subgraph_table.h"

#include <algorithm>

#include "graphgc/valuestore/check.h"

namespace graphgc::internal {

SubgraphId SubgraphTable::open(uint32_t next_node) {
  // Arena::full() counts subgraphs, and ops refuse new nodes far below this.
  GRAPHGC_CHECK(records_.size() < SubgraphId::kInvalidValue, "too many subgraphs");
  const SubgraphId subgraph(static_cast<uint32_t>(records_.size()));
  records_.push_back(Record{current(), {}, {}, false, next_node, next_node});
  open_.push_back(subgraph);
  transitions_.emplace_back(next_node, subgraph);
  return subgraph;
}

void SubgraphTable::close(SubgraphId subgraph, uint32_t next_node,
                          absl::Span<const VarId> results) {
  // Only BuildBody opens and closes subgraphs, through a scoped OpenSubgraph.
  GRAPHGC_CHECK(!open_.empty() && open_.back() == subgraph, "subgraphs close innermost first");
  Record& closing = record(subgraph);
  closing.results.assign(results.begin(), results.end());
  closing.closed = true;
  closing.end_node = next_node;
  open_.pop_back();
  transitions_.emplace_back(next_node, current());
}

void SubgraphTable::add_argument(SubgraphId subgraph, VarId argument) {
  GRAPHGC_CHECK(!record(subgraph).closed, "arguments are added while a subgraph is open");
  record(subgraph).arguments.push_back(argument);
  argument_subgraph_.emplace(argument, subgraph);
}

SubgraphId SubgraphTable::of_node(NodeId node) const {
  // The last transition at or before the node decides; several at one index: the last one.
  auto after = std::upper_bound(
      transitions_.begin(), transitions_.end(), node.value(),
      [](uint32_t index, const std::pair<uint32_t, SubgraphId>& t) { return index < t.first; });
  return after == transitions_.begin() ? SubgraphId() : std::prev(after)->second;
}

SubgraphId SubgraphTable::of_argument(VarId argument) const {
  auto it = argument_subgraph_.find(argument);
  return it == argument_subgraph_.end() ? SubgraphId() : it->second;
}

bool SubgraphTable::encloses(SubgraphId outer, SubgraphId inner) const {
  for (SubgraphId at = inner;; at = parent(at)) {
    if (at == outer) return true;
    if (!at.valid()) return false;
  }
}

int64_t SubgraphTable::bytes() const {
  int64_t total = static_cast<int64_t>(records_.capacity() * sizeof(Record) +
                                       transitions_.capacity() * sizeof(transitions_[0]) +
                                       open_.capacity() * sizeof(SubgraphId));
  for (const Record& r : records_) {
    total += static_cast<int64_t>((r.arguments.capacity() + r.results.capacity()) * sizeof(VarId));
  }
  total += static_cast<int64_t>(argument_subgraph_.capacity() *
                                (sizeof(std::pair<VarId, SubgraphId>) + 1));
  return total;
}

const SubgraphTable::Record& SubgraphTable::record(SubgraphId subgraph) const {
  GRAPHGC_CHECK(subgraph.valid() && subgraph.value() < records_.size(), "no such subgraph");
  return records_[subgraph.value()];
}

SubgraphTable::Record& SubgraphTable::record(SubgraphId subgraph) {
  GRAPHGC_CHECK(subgraph.valid() && subgraph.value() < records_.size(), "no such subgraph");
  return records_[subgraph.value()];
}

}  // namespace graphgc::internal
