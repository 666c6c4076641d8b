#include "graphgc/opset/build/native_ops.h"

#include <variant>

namespace graphgc::internal {
namespace {

// The schema version each native entry implements.
struct NativeEntry {
  absl::string_view op_type;
  int since_version;
};
constexpr NativeEntry kNativeEntries[] = {
    {"Add", 14},  {"Sub", 14},    {"Mul", 14},      {"Div", 14},     {"Neg", 13},
    {"Relu", 14}, {"MatMul", 13}, {"Identity", 16}, {"Reshape", 14}, {"Cast", 13},
};

bool Implements(absl::string_view op_type, int since_version) {
  for (const NativeEntry& entry : kNativeEntries) {
    if (entry.op_type == op_type && entry.since_version == since_version) return true;
  }
  return false;
}

std::optional<int64_t> OnlyIntAttribute(const std::vector<Attribute>& attributes,
                                        absl::string_view name) {
  if (attributes.size() != 1 || attributes[0].name != name ||
      !std::holds_alternative<int64_t>(attributes[0].value)) {
    return std::nullopt;
  }
  return std::get<int64_t>(attributes[0].value);
}

}  // namespace

std::optional<Var> MakeNativeNode(absl::string_view op_type, int since_version,
                                  absl::Span<const Var> in,
                                  const std::vector<Attribute>& attributes, int opset_version) {
  if (!Implements(op_type, since_version)) return std::nullopt;
  const bool none = attributes.empty();
  if (in.size() == 2 && none) {
    if (op_type == "MatMul") return NativeMatMul(in[0], in[1], opset_version);
    if (op_type != "Reshape") return NativeBinary(op_type, in[0], in[1], opset_version);
  }
  if (in.size() == 1 && none) {
    if (op_type == "Identity") return NativeIdentity(in[0], opset_version);
    if (op_type == "Neg" || op_type == "Relu") return NativeUnary(op_type, in[0], opset_version);
  }
  if (op_type == "Reshape" && in.size() == 2) {
    std::optional<int64_t> allowzero = none ? 0 : OnlyIntAttribute(attributes, "allowzero");
    if (allowzero.has_value()) return NativeReshape(in[0], in[1], *allowzero, opset_version);
  }
  if (op_type == "Cast" && in.size() == 1) {
    if (std::optional<int64_t> to = OnlyIntAttribute(attributes, "to")) {
      return NativeCast(in[0], static_cast<DataType>(*to), opset_version);
    }
  }
  return std::nullopt;
}

}  // namespace graphgc::internal
