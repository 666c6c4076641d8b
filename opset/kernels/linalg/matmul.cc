#include "graphgc/opset/kernels/linalg/matmul.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"
#include "graphgc/opset/kernels/linalg/matmul_layout.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// Both operands as stacks of matrices: 1-D a is [1,k], 1-D b is [k,1].
struct MatrixView {
  Shape batch;
  int64_t rows = 0;
  int64_t cols = 0;
};

MatrixView AsMatrices(absl::Span<const int64_t> shape, bool is_left) {
  MatrixView view;
  if (shape.size() == 1) {
    view.rows = is_left ? 1 : shape[0];
    view.cols = is_left ? shape[0] : 1;
    return view;
  }
  view.batch.assign(shape.begin(), shape.end() - 2);
  view.rows = shape[shape.size() - 2];
  view.cols = shape[shape.size() - 1];
  return view;
}

bool DimsAgree(int64_t a, int64_t b) { return a == b || a == -1 || b == -1; }

}  // namespace

absl::StatusOr<std::optional<Shape>> MatMulShape(const std::optional<Shape>& a,
                                                 const std::optional<Shape>& b) {
  if (a.has_value() && a->empty()) return absl::InvalidArgumentError("input 0 (A) is a scalar");
  if (b.has_value() && b->empty()) return absl::InvalidArgumentError("input 1 (B) is a scalar");
  if (!a.has_value() || !b.has_value()) return std::optional<Shape>();
  const MatrixView va = AsMatrices(*a, true);
  const MatrixView vb = AsMatrices(*b, false);
  if (!DimsAgree(va.cols, vb.rows)) {
    return absl::InvalidArgumentError(absl::StrCat("inner dimensions differ: A ", DescribeShape(a),
                                                   " has ", va.cols, " columns, B ",
                                                   DescribeShape(b), " has ", vb.rows, " rows"));
  }
  auto batch = BroadcastShapes(va.batch, vb.batch);
  if (!batch.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch dimensions do not broadcast: ", batch.status().message()));
  }
  Shape out = **batch;
  if (a->size() != 1) out.push_back(va.rows);
  if (b->size() != 1) out.push_back(vb.cols);
  return std::optional<Shape>(std::move(out));
}

}  // namespace graphgc::internal

namespace graphgc::kernels::linalg {
namespace {

template <class T>
KernelResult MatMulOfType(const KernelContext& ctx) {
  const Tensor& a = ctx.input(0);
  const Tensor& b = ctx.input(1);
  GRAPHGC_ASSIGN_OR_RETURN(MatMulLayout planned, PlanMatMul(ctx, 0, 1, a.shape(), b.shape()));
  const MatMulLayout layout = FoldSharedB(std::move(planned));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
  GRAPHGC_ASSIGN_OR_RETURN(WorkView<T> wa, WorkView<T>::Of(ctx, a));
  GRAPHGC_ASSIGN_OR_RETURN(WorkView<T> wb, WorkView<T>::Of(ctx, b));
  GRAPHGC_ASSIGN_OR_RETURN(WorkOutput<T> wout, WorkOutput<T>::Of(ctx, out));
  using W = WorkType<T>;
  BatchedGemm<W>(layout.dims, W{1}, wa.data(), layout.a_offsets, wb.data(), layout.b_offsets, W{0},
                 wout.data(), ctx.threads());
  wout.finish();
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

KernelResult MatMulKernel(const KernelContext& ctx) {
  KernelResult result = Decline("MatMul of this element type");
  internal::DispatchNumeric(ctx.input(0).dtype(), [&](auto tag) {
    result = MatMulOfType<typename decltype(tag)::type>(ctx);
  });
  return result;
}

}  // namespace graphgc::kernels::linalg

namespace graphgc::kernels {

void RegisterMatMulKernels(KernelTable& table) {
  // Every numeric type (DispatchNumeric).
  table.add("", "MatMul", 1, KernelTable::kLatest, {{"T", data_types::kNumeric}},
            linalg::MatMulKernel);
}

}  // namespace graphgc::kernels
