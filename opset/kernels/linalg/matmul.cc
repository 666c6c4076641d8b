#include "graphgc/opset/kernels/linalg/matmul.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/common/dispatch.h"

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

template <class T>
using Accumulator = std::conditional_t<std::is_integral_v<T>, T, ComputeType<T>>;

template <class T>
void MultiplyOne(const T* a, const T* b, T* out, int64_t n, int64_t k, int64_t m) {
  std::vector<Accumulator<T>> row(static_cast<size_t>(m));
  for (int64_t i = 0; i < n; ++i) {
    std::fill(row.begin(), row.end(), Accumulator<T>{0});
    for (int64_t p = 0; p < k; ++p) {
      const Accumulator<T> x = Load(a[i * k + p]);
      const T* b_row = b + p * m;
      for (int64_t j = 0; j < m; ++j) row[j] = WrapAdd(row[j], WrapMul(x, Accumulator<T>(Load(b_row[j]))));
    }
    for (int64_t j = 0; j < m; ++j) out[i * m + j] = Store<T>(row[j]);
  }
}

template <class T>
std::optional<Tensor> MatMulOfType(const Tensor& a, const Tensor& b,
                                   absl::Span<const int64_t> out_shape) {
  auto out = MutableTensor::allocate(a.dtype(), out_shape);
  if (!out.ok()) return std::nullopt;
  const MatrixView va = AsMatrices(a.shape(), true);
  const MatrixView vb = AsMatrices(b.shape(), false);
  auto broadcast = BroadcastShapes(va.batch, vb.batch);
  if (!broadcast.ok() || !broadcast->has_value()) return std::nullopt;
  const Shape& batch = **broadcast;
  int64_t batches = 1;
  for (int64_t d : batch) batches *= d;
  const int64_t n = va.rows, k = va.cols, m = vb.cols;
  const Shape sa = BroadcastStrides(va.batch, batch);
  const Shape sb = BroadcastStrides(vb.batch, batch);
  const T* pa = a.data<T>().data();
  const T* pb = b.data<T>().data();
  T* po = out->mutable_data<T>().data();
  Shape index(batch.size(), 0);
  for (int64_t t = 0; t < batches; ++t) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < batch.size(); ++d) {
      ia += index[d] * sa[d];
      ib += index[d] * sb[d];
    }
    MultiplyOne(pa + ia * n * k, pb + ib * k * m, po + t * n * m, n, k, m);
    for (size_t d = batch.size(); d-- > 0;) {
      if (++index[d] < batch[d]) break;
      index[d] = 0;
    }
  }
  return std::move(*out).freeze();
}

}  // namespace

absl::StatusOr<std::optional<Shape>> MatMulShape(const std::optional<Shape>& a,
                                                 const std::optional<Shape>& b) {
  if (a.has_value() && a->empty()) return absl::InvalidArgumentError("input 0 (A) is a scalar");
  if (b.has_value() && b->empty()) return absl::InvalidArgumentError("input 1 (B) is a scalar");
  if (!a.has_value() || !b.has_value()) return std::optional<Shape>();
  const MatrixView va = AsMatrices(*a, true);
  const MatrixView vb = AsMatrices(*b, false);
  if (!DimsAgree(va.cols, vb.rows)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "inner dimensions differ: A ", DescribeShape(a), " has ", va.cols, " columns, B ",
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

std::optional<Tensor> ComputeMatMul(const Tensor& a, const Tensor& b,
                                    absl::Span<const int64_t> out_shape) {
  std::optional<Tensor> result;
  DispatchNumeric(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    result = MatMulOfType<T>(a, b, out_shape);
  });
  return result;
}

}  // namespace graphgc::internal
