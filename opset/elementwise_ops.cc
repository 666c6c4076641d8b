// Add, Sub, Mul, Div, Neg, Relu and Identity.
#include <array>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/op_builder.h"
#include "graphgc/opset/ops.h"
#include "graphgc/valuestore/status_macros.h"
#include "graphgc/opset/type_constraints.h"

namespace graphgc::op {
namespace {

using internal::OperandInfo;
using internal::OpSignature;
using internal::OutputType;

constexpr std::array<absl::string_view, 2> kBinaryInputs = {"A", "B"};
constexpr std::array<absl::string_view, 1> kUnaryInputs = {"X"};
constexpr std::array<absl::string_view, 1> kIdentityInputs = {"input"};

absl::StatusOr<OutputType> InferBinary(const OpSignature& signature,
                                       absl::Span<const OperandInfo> in) {
  GRAPHGC_RETURN_IF_ERROR(
      internal::CheckElementType(signature, 0, in[0].dtype, internal::kAllNumeric));
  GRAPHGC_RETURN_IF_ERROR(internal::CheckSameElementType(signature, in));
  GRAPHGC_ASSIGN_OR_RETURN(std::optional<Shape> shape,
                           internal::BroadcastShapes(in[0].shape, in[1].shape));
  return OutputType{in[0].dtype, std::move(shape)};
}

Var Binary(absl::string_view op_type, const Var& a, const Var& b) {
  const OpSignature signature{op_type, 14, kBinaryInputs};
  const Var* inputs[] = {&a, &b};
  return internal::BuildOp(
      signature, inputs, {},
      [&](absl::Span<const OperandInfo> in) { return InferBinary(signature, in); });
}

Var Unary(absl::string_view op_type, int since_version, const Var& x) {
  const OpSignature signature{op_type, since_version, kUnaryInputs};
  const Var* inputs[] = {&x};
  return internal::BuildOp(
      signature, inputs, {},
      [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputType> {
        GRAPHGC_RETURN_IF_ERROR(
            internal::CheckElementType(signature, 0, in[0].dtype, internal::kSignedNumeric));
        return OutputType{in[0].dtype, in[0].shape};
      });
}

}  // namespace

Var Add(const Var& a, const Var& b) { return Binary("Add", a, b); }
Var Sub(const Var& a, const Var& b) { return Binary("Sub", a, b); }
Var Mul(const Var& a, const Var& b) { return Binary("Mul", a, b); }
Var Div(const Var& a, const Var& b) { return Binary("Div", a, b); }
Var Neg(const Var& x) { return Unary("Neg", 13, x); }
Var Relu(const Var& x) { return Unary("Relu", 14, x); }

Var Identity(const Var& input) {
  OpSignature signature{"Identity", 16, kIdentityInputs};
  signature.takes_non_tensors = true;  // Identity-16 passes sequences and optionals through
  const Var* inputs[] = {&input};
  return internal::BuildOp(
      signature, inputs, {},
      [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputType> {
        if (in[0].non_tensor.has_value()) {
          if (in[0].non_tensor->kind() == VarType::Kind::kMap) {
            return absl::InvalidArgumentError(absl::StrCat(
                internal::InputLabel(signature, 0), " is a ", in[0].non_tensor->ToString(),
                "; Identity takes tensors, sequences and optionals"));
          }
          return OutputType{DataType::kUndefined, std::nullopt, in[0].non_tensor};
        }
        GRAPHGC_RETURN_IF_ERROR(
            internal::CheckElementType(signature, 0, in[0].dtype, internal::kAllTypes));
        return OutputType{in[0].dtype, in[0].shape};
      });
}

}  // namespace graphgc::op
