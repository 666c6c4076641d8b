#include "graphgc/opset/kernels/linalg/batched_gemm.h"

#include <algorithm>
#include <vector>

#include "graphgc/opset/kernels/linalg/packed_gemm.h"
#include "graphgc/opset/kernels/linalg/parallel.h"

namespace graphgc::kernels::linalg {
namespace {

// The integer product: unsigned arithmetic wraps. The row of C accumulates in `acc` so that the
// inner loop over j is contiguous when B is not transposed (the common case).
template <class W>
void Gemm(const GemmDims& d, int64_t rows, W alpha, const W* a, const W* b, W beta, W* c) {
  const int64_t a_row = d.trans_a ? 1 : d.k, a_col = d.trans_a ? d.m : 1;
  const int64_t b_row = d.trans_b ? 1 : d.n, b_col = d.trans_b ? d.k : 1;
  std::vector<W> acc(static_cast<size_t>(d.n));
  for (int64_t i = 0; i < rows; ++i) {
    std::fill(acc.begin(), acc.end(), W{0});
    for (int64_t p = 0; p < d.k; ++p) {
      const W x = a[i * a_row + p * a_col];
      const W* b_p = b + p * b_row;
      if (b_col == 1) {
        for (int64_t j = 0; j < d.n; ++j) acc[j] += x * b_p[j];
      } else {
        for (int64_t j = 0; j < d.n; ++j) acc[j] += x * b_p[j * b_col];
      }
    }
    W* c_i = c + i * d.n;
    if (beta == W{0}) {
      for (int64_t j = 0; j < d.n; ++j) c_i[j] = alpha * acc[j];
    } else {
      for (int64_t j = 0; j < d.n; ++j) c_i[j] = alpha * acc[j] + beta * c_i[j];
    }
  }
}

// Rows [begin, end) of one product (a, b and c at the whole matrices): the position-independent
// packed product for floating point (packed_gemm.h), the wrapping loop above for integers.
void GemmRows(const GemmDims& d, int64_t begin, int64_t end, float alpha, const float* a,
              const float* b, float beta, float* c) {
  PackedGemm(d, begin, end, alpha, a, b, beta, c);
}

void GemmRows(const GemmDims& d, int64_t begin, int64_t end, double alpha, const double* a,
              const double* b, double beta, double* c) {
  PackedGemm(d, begin, end, alpha, a, b, beta, c);
}

template <class W>
void GemmRows(const GemmDims& d, int64_t begin, int64_t end, W alpha, const W* a, const W* b,
              W beta, W* c) {
  const int64_t a_row_step = d.trans_a ? 1 : d.k;
  Gemm(d, end - begin, alpha, a + begin * a_row_step, b, beta, c + begin * d.n);
}

// C = beta * C, for products with nothing to sum (k == 0).
template <class W>
void Scale(W beta, W* c, int64_t count) {
  if (beta == W{0}) {
    std::fill(c, c + count, W{0});
  } else {
    for (int64_t i = 0; i < count; ++i) c[i] = beta * c[i];
  }
}

}  // namespace

template <class W>
void BatchedGemm(const GemmDims& dims, W alpha, const W* a, absl::Span<const int64_t> a_offsets,
                 const W* b, absl::Span<const int64_t> b_offsets, W beta, W* c, int threads) {
  const int64_t batches = static_cast<int64_t>(a_offsets.size());
  const int64_t matrix = dims.m * dims.n;
  if (matrix == 0 || batches == 0) return;
  if (dims.k == 0) {
    Scale(beta, c, batches * matrix);
    return;
  }
  const int useful =
      UsefulThreads(threads, static_cast<double>(batches) * static_cast<double>(matrix) * dims.k);
  if (batches >= useful) {
    ParallelFor(batches, useful, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        GemmRows(dims, 0, dims.m, alpha, a + a_offsets[i], b + b_offsets[i], beta, c + i * matrix);
      }
    });
    return;
  }
  // Fewer batches than threads: split each product's rows instead.
  for (int64_t i = 0; i < batches; ++i) {
    ParallelFor(dims.m, useful, [&](int64_t begin, int64_t end) {
      GemmRows(dims, begin, end, alpha, a + a_offsets[i], b + b_offsets[i], beta, c + i * matrix);
    });
  }
}

template void BatchedGemm<float>(const GemmDims&, float, const float*, absl::Span<const int64_t>,
                                 const float*, absl::Span<const int64_t>, float, float*, int);
template void BatchedGemm<double>(const GemmDims&, double, const double*, absl::Span<const int64_t>,
                                  const double*, absl::Span<const int64_t>, double, double*, int);
template void BatchedGemm<uint32_t>(const GemmDims&, uint32_t, const uint32_t*,
                                    absl::Span<const int64_t>, const uint32_t*,
                                    absl::Span<const int64_t>, uint32_t, uint32_t*, int);
template void BatchedGemm<uint64_t>(const GemmDims&, uint64_t, const uint64_t*,
                                    absl::Span<const int64_t>, const uint64_t*,
                                    absl::Span<const int64_t>, uint64_t, uint64_t*, int);

}  // namespace graphgc::kernels::linalg
