// MatMul.
#include <array>

#include "graphgc/opset/kernels/linalg/matmul.h"
#include "graphgc/opset/op_builder.h"
#include "graphgc/opset/ops.h"
#include "graphgc/valuestore/status_macros.h"
#include "graphgc/opset/type_constraints.h"

namespace graphgc::op {
namespace {
constexpr std::array<absl::string_view, 2> kMatMulInputs = {"A", "B"};
}  // namespace

Var MatMul(const Var& a, const Var& b) {
  const internal::OpSignature signature{"MatMul", 13, kMatMulInputs};
  const Var* inputs[] = {&a, &b};
  return internal::BuildOp(
      signature, inputs, {},
      [&](absl::Span<const internal::OperandInfo> in) -> absl::StatusOr<internal::OutputType> {
        GRAPHGC_RETURN_IF_ERROR(
            internal::CheckElementType(signature, 0, in[0].dtype, internal::kMatMulTypes));
        GRAPHGC_RETURN_IF_ERROR(internal::CheckSameElementType(signature, in));
        GRAPHGC_ASSIGN_OR_RETURN(std::optional<Shape> shape,
                                 internal::MatMulShape(in[0].shape, in[1].shape));
        return internal::OutputType{in[0].dtype, std::move(shape)};
      });
}

}  // namespace graphgc::op
