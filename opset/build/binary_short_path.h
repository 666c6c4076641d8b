// Add, Sub, Mul and Div the short way: the most common nodes of a graph, made with only what
// such a node needs. Two operands of one graph and one numeric element type, a broadcast shape,
// one node with one typed output; and where both operands have values, the op's own kernel run
// on them (the registered one BuildOp runs, so the values are the same) and the result stored.
// Everything else goes through BuildOp as before (op_builder.h): any error (BuildOp words it),
// dim names, a full arena, a live value cap, a kernel that declines or fails. Both paths make the
// same node and the same value; binary_short_path_test holds them equal. Internal to the opset
// module; same threading as BuildOp (the operands' graph, one thread at a time).
#ifndef GRAPHGC_BINARY_SHORT_PATH_H_
#define GRAPHGC_BINARY_SHORT_PATH_H_

#include <optional>

#include "graphgc/ir/var.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc::internal {

// The node Binary (elementwise_ops.cc) makes, if this path can make it: `signature` is that of
// an elementwise op of two inputs that broadcast and share one numeric element type. nullopt
// (and the graph untouched) when the op needs anything more.
std::optional<Var> BuildBinaryShortPath(const OpSignature& signature, const Var& a, const Var& b);

// While alive, BuildBinaryShortPath makes nothing on this thread, so every node takes BuildOp:
// for the test that compares the two.
class ScopedGeneralBuildOnly {
 public:
  ScopedGeneralBuildOnly();
  ~ScopedGeneralBuildOnly();
  ScopedGeneralBuildOnly(const ScopedGeneralBuildOnly&) = delete;
  ScopedGeneralBuildOnly& operator=(const ScopedGeneralBuildOnly&) = delete;

 private:
  bool was_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_BINARY_SHORT_PATH_H_
