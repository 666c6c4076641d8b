// Attribute: a named ONNX attribute value, as given to a node and as read back from the arena.
//
// Plain value type. The arena stores attributes compactly (interned names, pooled lists, constant
// tensors owned by the arena) and rebuilds an Attribute on request.
#ifndef GRAPHGC_ATTRIBUTE_H_
#define GRAPHGC_ATTRIBUTE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graphgc/tensor.h"

namespace graphgc {

using AttributeValue = std::variant<int64_t, float, std::string, Tensor, std::vector<int64_t>,
                                    std::vector<float>, std::vector<std::string>>;

struct Attribute {
  std::string name;
  AttributeValue value;
};

}  // namespace graphgc

#endif  // GRAPHGC_ATTRIBUTE_H_
