// MatMul.
#include <array>

#include "graphgc/opset/build/native_ops.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/build/ops.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/opset/kernels/linalg/matmul.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {
constexpr std::array<absl::string_view, 2> kMatMulInputs = {"A", "B"};
}  // namespace

Var internal::NativeMatMul(const Var& a, const Var& b, int opset_version) {
  internal::OpSignature signature{"MatMul", 13, kMatMulInputs};
  signature.opset_version = opset_version;
  const Var* inputs[] = {&a, &b};
  return internal::BuildOp(
      signature, inputs, {},
      [&](absl::Span<const internal::OperandInfo> in) -> absl::StatusOr<internal::OutputType> {
        GRAPHGC_RETURN_IF_ERROR(
            internal::CheckElementType(signature, 0, in[0].dtype, internal::kMatMulTypes));
        GRAPHGC_RETURN_IF_ERROR(internal::CheckSameElementType(signature, in));
        GRAPHGC_ASSIGN_OR_RETURN(std::optional<Shape> shape,
                                 internal::MatMulShape(in[0].shape, in[1].shape));
        return internal::TensorOutput(in[0].dtype, std::move(shape));
      });
}

Var op::MatMul(const Var& a, const Var& b) { return internal::NativeMatMul(a, b, 0); }

}  // namespace graphgc
