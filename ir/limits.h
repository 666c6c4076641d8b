// Limits: how large one node, one type and one graph can be.
//
// The arena keeps its records compact (a rank fits in 16 bits, a node's arity in 16, an op kind in
// 16, every pool index in 32), so these are hard limits. Every public call that could pass one
// checks it first and returns a status naming the limit; the arena's own checks then stay
// unreachable. Threading: constants and pure functions.
#ifndef GRAPHGC_IR_LIMITS_H_
#define GRAPHGC_IR_LIMITS_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace graphgc {

class VarType;
struct Attribute;

// The largest rank of a tensor type.
inline constexpr size_t kMaxRank = std::numeric_limits<int16_t>::max();
// The most inputs, outputs or attributes of one node.
inline constexpr size_t kMaxNodeArity = std::numeric_limits<uint16_t>::max();
// The most distinct (op_type, domain, version) kinds in one graph.
inline constexpr size_t kMaxOpKinds = std::numeric_limits<uint16_t>::max();
// The deepest nesting of sequence, optional and map types.
inline constexpr int kMaxTypeDepth = 64;
// Entries one table of a graph's arena may hold (nodes, vars, input lists, dims, attribute lists,
// strings): about a billion nodes. A node adds at most 2^31 entries to any table (65 535 outputs
// of rank 32 767; attribute lists are bounded by kMaxAttributeListEntries), so refusing new nodes
// at this mark keeps every 32-bit index in range.
inline constexpr size_t kMaxArenaEntries = size_t{1} << 30;
// Elements of all the list attributes (ints, floats, strings) of one node together.
inline constexpr size_t kMaxAttributeListEntries = size_t{1} << 30;

// An error if `rank` is above kMaxRank; `what` names the tensor.
absl::Status CheckRank(size_t rank, absl::string_view what);
// An error if a tensor anywhere in `type` has a rank above kMaxRank, or the type nests deeper
// than kMaxTypeDepth.
absl::Status CheckTypeLimits(const VarType& type, absl::string_view what);
// An error if every dim of `shape` is known and their product is more elements than any tensor can
// hold (see ElementCount). A shape with an unknown dim may still be empty, so it passes.
absl::Status CheckElementCount(absl::Span<const int64_t> shape, absl::string_view what);
// An error if a node would have more than kMaxNodeArity inputs, outputs or attributes, or a
// negative output count.
absl::Status CheckNodeArity(size_t inputs, size_t attributes, int64_t outputs);
// Whether CheckNodeArity would pass: the check of every node made, without a status.
inline bool NodeArityFits(size_t inputs, size_t attributes, int64_t outputs) {
  return inputs <= kMaxNodeArity && attributes <= kMaxNodeArity && outputs >= 0 &&
         static_cast<uint64_t>(outputs) <= kMaxNodeArity;
}

// The element count of a list attribute (ints, floats, strings); nullopt for any other kind.
std::optional<size_t> ListLength(const Attribute& attribute);
// An error if the list attributes of one node hold more than kMaxAttributeListEntries elements.
absl::Status CheckAttributeLists(absl::Span<const Attribute> attributes);
// The error when a graph's arena is full (Arena::full, kMaxArenaEntries); `op_type` names the op.
absl::Status ArenaFullError(absl::string_view op_type);
// The error when a graph holds kMaxOpKinds kinds already and `op_type` would be one more.
absl::Status TooManyOpKindsError(absl::string_view op_type);

}  // namespace graphgc

#endif  // GRAPHGC_IR_LIMITS_H_
