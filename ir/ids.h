// Strong integer IDs for the arena: NodeId, VarId, SubgraphId and the interned kinds.
//
// An ID is an index into the append-only arena of one Graph; it is never reused and stays valid for
// the life of that graph. Distinct types keep a node index from being passed as a var index.
#ifndef GRAPHGC_IDS_H_
#define GRAPHGC_IDS_H_

#include <cstdint>
#include <limits>
#include <utility>

namespace graphgc {

template <class Tag>
class Id {
 public:
  static constexpr uint32_t kInvalidValue = std::numeric_limits<uint32_t>::max();

  constexpr Id() = default;
  constexpr explicit Id(uint32_t value) : value_(value) {}

  constexpr uint32_t value() const { return value_; }
  constexpr bool valid() const { return value_ != kInvalidValue; }

  friend constexpr bool operator==(Id a, Id b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(Id a, Id b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(Id a, Id b) { return a.value_ < b.value_; }
  template <typename H>
  friend H AbslHashValue(H h, Id id) {
    return H::combine(std::move(h), id.value_);
  }

 private:
  uint32_t value_ = kInvalidValue;
};

using NodeId = Id<struct NodeIdTag>;
using VarId = Id<struct VarIdTag>;
using StringId = Id<struct StringIdTag>;
using OpKindId = Id<struct OpKindIdTag>;
// A subgraph (the body of an If, Loop or Scan) of one graph; SubgraphId() is the main graph.
using SubgraphId = Id<struct SubgraphIdTag>;

}  // namespace graphgc

#endif  // GRAPHGC_IDS_H_
