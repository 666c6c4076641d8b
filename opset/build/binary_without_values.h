// Add, Sub, Mul and Div made where no value is computed (value propagation off, or an input
// without a value): the most common node of a graph built from arguments, made with only what
// such a node needs — two operands of one graph, one element type, a broadcast shape, one node
// with one typed output. Everything else goes through BuildOp as before (op_builder.h): a value
// to compute, any error (BuildOp words it), dim names, a full arena. Both paths make the same
// node; binary_without_values_test holds them equal. Internal to the opset module; same
// threading as BuildOp (the operands' graph, one thread at a time).
#ifndef GRAPHGC_BINARY_WITHOUT_VALUES_H_
#define GRAPHGC_BINARY_WITHOUT_VALUES_H_

#include <optional>

#include "graphgc/ir/var.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc::internal {

// The node Binary (elementwise_ops.cc) makes, if this path can make it: `signature` is that of
// an elementwise op of two inputs that broadcast and share one numeric element type. nullopt
// (and the graph untouched) when the op needs anything more.
std::optional<Var> BuildBinaryWithoutValues(const OpSignature& signature, const Var& a,
                                            const Var& b);

// While alive, BuildBinaryWithoutValues makes nothing on this thread, so every node takes
// BuildOp: for the test that compares the two.
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

#endif  // GRAPHGC_BINARY_WITHOUT_VALUES_H_
