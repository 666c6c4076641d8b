#include "graphgc/ir/limits.h"

#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {

absl::Status CheckRank(size_t rank, absl::string_view what) {
  if (rank <= kMaxRank) return absl::OkStatus();
  return absl::OutOfRangeError(
      absl::StrCat(what, " has rank ", rank, ", above the limit of ", kMaxRank));
}

absl::Status CheckTypeLimits(const VarType& type, absl::string_view what) {
  const VarType* inner = &type;
  for (int depth = 0; !inner->is_tensor(); ++depth) {
    if (depth == kMaxTypeDepth) {
      return absl::OutOfRangeError(absl::StrCat(
          what, ": the type nests sequences, optionals and maps deeper than ", kMaxTypeDepth));
    }
    inner = &inner->element();
  }
  if (!inner->shape().has_value()) return absl::OkStatus();
  return CheckRank(inner->shape()->size(), what);
}

absl::Status CheckElementCount(absl::Span<const int64_t> shape, absl::string_view what) {
  for (int64_t dim : shape) {
    if (dim < 0) return absl::OkStatus();
  }
  if (ElementCount(shape).ok()) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat(what, " of shape ", ShapeToString(shape),
                                            " has too many elements for any tensor"));
}

absl::Status CheckNodeArity(size_t inputs, size_t attributes, int64_t outputs) {
  auto too_many = [](size_t count, absl::string_view what) {
    return absl::OutOfRangeError(
        absl::StrCat(count, " ", what, ", above the limit of ", kMaxNodeArity, " for one node"));
  };
  if (inputs > kMaxNodeArity) return too_many(inputs, "inputs");
  if (attributes > kMaxNodeArity) return too_many(attributes, "attributes");
  if (outputs < 0) return absl::InvalidArgumentError(absl::StrCat(outputs, " outputs"));
  if (static_cast<uint64_t>(outputs) > kMaxNodeArity) {
    return too_many(static_cast<size_t>(outputs), "outputs");
  }
  return absl::OkStatus();
}

std::optional<size_t> ListLength(const Attribute& attribute) {
  return std::visit(
      [](const auto& value) -> std::optional<size_t> {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> ||
                      std::is_same_v<T, std::vector<float>> ||
                      std::is_same_v<T, std::vector<std::string>>) {
          return value.size();
        } else {
          return std::nullopt;
        }
      },
      attribute.value);
}

absl::Status CheckAttributeLists(absl::Span<const Attribute> attributes) {
  size_t entries = 0;
  for (const Attribute& attribute : attributes) entries += ListLength(attribute).value_or(0);
  if (entries <= kMaxAttributeListEntries) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat("the list attributes hold ", entries,
                                            " elements, above the limit of ",
                                            kMaxAttributeListEntries, " for one node"));
}

absl::Status ArenaFullError(absl::string_view op_type) {
  return absl::ResourceExhaustedError(
      absl::StrCat(op_type, ": the graph is full (a table of its arena holds ", kMaxArenaEntries,
                   " entries, the limit)"));
}

absl::Status TooManyOpKindsError(absl::string_view op_type) {
  return absl::ResourceExhaustedError(
      absl::StrCat(op_type, ": the graph holds ", kMaxOpKinds,
                   " distinct kinds of op (type, domain, version) already, the limit"));
}

}  // namespace graphgc
