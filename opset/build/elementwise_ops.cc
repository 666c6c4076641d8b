// Add, Sub, Mul, Div, Neg, Relu and Identity.
#include <array>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/binary_short_path.h"
#include "graphgc/opset/build/native_ops.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/build/ops.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

constexpr std::array<absl::string_view, 2> kBinaryInputs = {"A", "B"};
constexpr std::array<absl::string_view, 1> kUnaryInputs = {"X"};
constexpr std::array<absl::string_view, 1> kIdentityInputs = {"input"};

absl::StatusOr<OutputType> InferBinary(const OpSignature& signature,
                                       absl::Span<const OperandInfo> in) {
  GRAPHGC_RETURN_IF_ERROR(CheckElementType(signature, 0, in[0].dtype, kAllNumeric));
  GRAPHGC_RETURN_IF_ERROR(CheckSameElementType(signature, in));
  absl::StatusOr<OutputType> type(absl::in_place);  // filled where it is returned
  type->dtype = in[0].dtype;
  GRAPHGC_RETURN_IF_ERROR(BroadcastShapesInto(in[0].shape, in[1].shape, type->shape));
  return type;
}

Var Binary(absl::string_view op_type, const Var& a, const Var& b, int opset_version) {
  OpSignature signature{op_type, 14, kBinaryInputs};
  signature.opset_version = opset_version;
  if (std::optional<Var> built = BuildBinaryShortPath(signature, a, b)) {
    return *std::move(built);
  }
  const Var* inputs[] = {&a, &b};
  return BuildOp(signature, inputs, {},
                 [&](absl::Span<const OperandInfo> in) { return InferBinary(signature, in); });
}

Var Unary(absl::string_view op_type, int since_version, const Var& x, int opset_version) {
  OpSignature signature{op_type, since_version, kUnaryInputs};
  signature.opset_version = opset_version;
  const Var* inputs[] = {&x};
  return BuildOp(
      signature, inputs, {}, [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputType> {
        GRAPHGC_RETURN_IF_ERROR(CheckElementType(signature, 0, in[0].dtype, kSignedNumeric));
        return TensorOutput(in[0].dtype, in[0].shape);
      });
}

}  // namespace

Var NativeBinary(absl::string_view op_type, const Var& a, const Var& b, int opset_version) {
  return Binary(op_type, a, b, opset_version);
}
Var NativeUnary(absl::string_view op_type, const Var& x, int opset_version) {
  return Unary(op_type, op_type == "Neg" ? 13 : 14, x, opset_version);
}

Var NativeIdentity(const Var& input, int opset_version) {
  OpSignature signature{"Identity", 16, kIdentityInputs};
  signature.opset_version = opset_version;
  signature.takes_non_tensors = true;  // Identity-16 passes sequences and optionals through
  const Var* inputs[] = {&input};
  return BuildOp(
      signature, inputs, {}, [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputType> {
        if (in[0].non_tensor.has_value()) {
          if (in[0].non_tensor->kind() == VarType::Kind::kMap) {
            return absl::InvalidArgumentError(
                absl::StrCat(InputLabel(signature, 0), " is a ", in[0].non_tensor->ToString(),
                             "; Identity takes tensors, sequences and optionals"));
          }
          OutputType type;
          type.non_tensor = in[0].non_tensor;
          return type;
        }
        GRAPHGC_RETURN_IF_ERROR(CheckElementType(signature, 0, in[0].dtype, kAllTypes));
        return TensorOutput(in[0].dtype, in[0].shape);
      });
}

}  // namespace graphgc::internal

namespace graphgc::op {

Var Add(const Var& a, const Var& b) { return internal::NativeBinary("Add", a, b, 0); }
Var Sub(const Var& a, const Var& b) { return internal::NativeBinary("Sub", a, b, 0); }
Var Mul(const Var& a, const Var& b) { return internal::NativeBinary("Mul", a, b, 0); }
Var Div(const Var& a, const Var& b) { return internal::NativeBinary("Div", a, b, 0); }
Var Neg(const Var& x) { return internal::NativeUnary("Neg", x, 0); }
Var Relu(const Var& x) { return internal::NativeUnary("Relu", x, 0); }
Var Identity(const Var& input) { return internal::NativeIdentity(input, 0); }

}  // namespace graphgc::op
