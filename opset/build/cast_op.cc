// Cast and Constant.
#include <array>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/native_ops.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/build/ops.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {
constexpr std::array<absl::string_view, 1> kCastInputs = {"input"};
}  // namespace

Var internal::NativeCast(const Var& input, DataType to, int opset_version) {
  internal::OpSignature signature{"Cast", 13, kCastInputs};
  signature.opset_version = opset_version;
  const Var* inputs[] = {&input};
  std::vector<Attribute> attrs = {{"to", static_cast<int64_t>(to)}};
  return internal::BuildOp(
      signature, inputs, std::move(attrs),
      [&](absl::Span<const internal::OperandInfo> in) -> absl::StatusOr<internal::OutputType> {
        GRAPHGC_RETURN_IF_ERROR(
            internal::CheckElementType(signature, 0, in[0].dtype, internal::kAllTypes));
        if (!IsSupportedDataType(static_cast<int32_t>(to))) {
          return absl::InvalidArgumentError(
              absl::StrCat("attribute 'to' is ", static_cast<int32_t>(to), " (", DataTypeName(to),
                           "), not a supported element type"));
        }
        return internal::TensorOutput(to, in[0].shape);
      });
}

Var op::Cast(const Var& input, const CastAttributes& attributes) {
  return internal::NativeCast(input, attributes.to, 0);
}

Var op::Constant(Graph& graph, const Tensor& value) { return graph.constant(value); }

}  // namespace graphgc
