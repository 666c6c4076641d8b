// Det: the determinant of each innermost [M, M] matrix, by LU decomposition with partial pivoting,
// computed in double for every element type (float16, float, double) and rounded once.
//
// A matrix holding NaN has determinant NaN (every expansion multiplies that entry in). One holding
// an infinity has no well-defined floating-point determinant (inf - inf, inf * 0 depend on the
// order of evaluation), so the op gets no value rather than one runtime's accident.
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The determinant of the n x n row-major matrix in `lu`, which it overwrites.
double LuDeterminant(std::vector<double>& lu, int64_t n) {
  double det = 1.0;
  for (int64_t col = 0; col < n; ++col) {
    int64_t pivot = col;
    for (int64_t row = col + 1; row < n; ++row) {
      if (std::fabs(lu[row * n + col]) > std::fabs(lu[pivot * n + col])) pivot = row;
    }
    const double p = lu[pivot * n + col];
    if (p == 0.0) return 0.0;
    if (pivot != col) {
      for (int64_t j = col; j < n; ++j) std::swap(lu[col * n + j], lu[pivot * n + j]);
      det = -det;
    }
    det *= p;
    for (int64_t row = col + 1; row < n; ++row) {
      const double factor = lu[row * n + col] / p;
      for (int64_t j = col + 1; j < n; ++j) lu[row * n + j] -= factor * lu[col * n + j];
    }
  }
  return det;
}

template <class T>
T FromDouble(double value) {
  if constexpr (internal::kIsHalf<T>) {
    return T::FromDouble(value);
  } else {
    return static_cast<T>(value);
  }
}

template <class T>
KernelResult DetOfType(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const int64_t> shape = x.shape();
  if (shape.size() < 2 || shape[shape.size() - 1] != shape[shape.size() - 2]) {
    return ctx.input_error(
        0, absl::StrCat("shape ", ShapeToString(shape), " is not a (batch of) square matrices"));
  }
  const int64_t n = shape.back();
  const Shape batch(shape.begin(), shape.end() - 2);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.output(0).dtype, batch));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<double> lu, linalg::Scratch<double>(ctx, n * n));
  const T* data = x.data<T>().data();
  T* dets = out.mutable_data<T>().data();
  for (int64_t t = 0; t < out.size(); ++t) {
    bool has_nan = false;
    for (int64_t i = 0; i < n * n; ++i) {
      const double value = static_cast<double>(internal::Load(data[t * n * n + i]));
      if (std::isinf(value)) return Decline("a matrix holds an infinity");
      has_nan |= std::isnan(value);
      lu[static_cast<size_t>(i)] = value;
    }
    dets[t] = FromDouble<T>(has_nan ? std::nan("") : LuDeterminant(lu, n));
  }
  return KernelOutputs{std::move(out).freeze()};
}

// DetKernel's cases.
constexpr DataTypeSet kDetTypes = {DataType::kFloat, DataType::kDouble, DataType::kFloat16};

KernelResult DetKernel(const KernelContext& ctx) {
  switch (ctx.input(0).dtype()) {
    case DataType::kFloat:
      return DetOfType<float>(ctx);
    case DataType::kDouble:
      return DetOfType<double>(ctx);
    case DataType::kFloat16:
      return DetOfType<Float16>(ctx);
    default:
      return Decline("Det of this element type");
  }
}

}  // namespace

void RegisterDetKernels(KernelTable& table) {
  table.add("", "Det", 11, KernelTable::kLatest, {{"T", kDetTypes}}, DetKernel);
}

}  // namespace graphgc::kernels
