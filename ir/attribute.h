// Attribute: a named ONNX attribute value, as given to a node and as read back from the arena.
//
// Plain value type. The arena stores attributes compactly (interned names, pooled lists, constant
// tensors owned by the arena) and rebuilds an Attribute on request.
//
// Graph attributes (If's branches, Loop's and Scan's body) are given as a Subgraph: a function that
// builds the body from its arguments. The op that takes it decides what the arguments are, calls
// the function once, while the node is made, and stores the built body in the arena, where the
// attribute reads back as a SubgraphId. A Subgraph never reaches the arena itself. A TYPE_PROTO
// attribute (Optional's `type`) is a VarType.
#ifndef GRAPHGC_ATTRIBUTE_H_
#define GRAPHGC_ATTRIBUTE_H_

#include <concepts>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {

class Subgraph {
 public:
  using Builder = std::function<std::vector<Var>(absl::Span<const Var> arguments)>;

  Subgraph() = default;  // empty: not a body
  // A body taking arguments: [&](absl::Span<const Var> args) { return std::vector<Var>{...}; }
  template <class F>
  requires(!std::same_as<std::decay_t<F>, Subgraph> &&
           std::is_invocable_r_v<std::vector<Var>, F&, absl::Span<const Var>>) Subgraph(F builder)
      : builder_(std::move(builder)) {}
  // A body without arguments (If's branches): [&] { return std::vector<Var>{...}; }
  template <class F>
  requires(!std::same_as<std::decay_t<F>, Subgraph> &&
           !std::is_invocable_v<F&, absl::Span<const Var>> &&
           std::is_invocable_r_v<std::vector<Var>, F&>) Subgraph(F builder)
      : builder_(
            [builder = std::move(builder)](absl::Span<const Var>) mutable { return builder(); }) {}

  bool empty() const { return !builder_; }
  std::vector<Var> build(absl::Span<const Var> arguments) const { return builder_(arguments); }

 private:
  Builder builder_;
};

using AttributeValue =
    std::variant<int64_t, float, std::string, Tensor, std::vector<int64_t>, std::vector<float>,
                 std::vector<std::string>, Subgraph, SubgraphId, VarType>;

struct Attribute {
  std::string name;
  AttributeValue value;
};

}  // namespace graphgc

#endif  // GRAPHGC_ATTRIBUTE_H_
