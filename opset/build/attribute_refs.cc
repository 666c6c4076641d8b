#include "graphgc/opset/build/attribute_refs.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/graph_core.h"

namespace graphgc::internal {

absl::Status CheckAttributeRefs(absl::string_view op_type, const std::vector<Attribute>& attributes,
                                const AttributeRefs& refs) {
  for (const auto& ref : refs) {
    const std::string& attribute = ref.first;
    const bool given = std::any_of(attributes.begin(), attributes.end(),
                                   [&](const Attribute& a) { return a.name == attribute; });
    if (!given || ref.second.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat(op_type, ": attribute '", attribute,
                       "' refers to a function attribute: give the attribute its traced value "
                       "and the reference a name"));
    }
  }
  return absl::OkStatus();
}

void RecordAttributeRefs(const Var& output, const AttributeRefs& refs) {
  Arena& arena = output.core()->arena();
  std::vector<std::pair<StringId, StringId>> interned;
  for (const auto& [attribute, function_attribute] : refs) {
    interned.emplace_back(arena.intern(attribute), arena.intern(function_attribute));
  }
  arena.set_attribute_refs(arena.var_producer(output.id()), std::move(interned));
}

}  // namespace graphgc::internal
