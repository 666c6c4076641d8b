#include "graphgc/opset/kernels/linalg/packed_gemm.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace graphgc::kernels::linalg {
namespace {

// The register kernel: tile[i * nr + j] = sum over p < kc, in order, of a[p * mr + i] *
// b[p * nr + j], for an mr x nr block, each element one chain of multiply-adds.
template <class W>
struct TileKernel {
  int64_t mr;
  int64_t nr;
  void (*compute)(int64_t kc, const W* a, const W* b, W* tile);
};

// The cache blocks of the depth (KC) and of the rows and columns (in register blocks).
constexpr int64_t kKc = 256;
constexpr int64_t kRowPanelsPerBlock = 12;
constexpr int64_t kColumnPanelsPerBlock = 128;

template <class W, int64_t kMr, int64_t kNr>
void PortableTile(int64_t kc, const W* a, const W* b, W* tile) {
  W acc[kMr][kNr] = {};
  for (int64_t p = 0; p < kc; ++p) {
    const W* a_p = a + p * kMr;
    const W* b_p = b + p * kNr;
    for (int64_t i = 0; i < kMr; ++i) {
      const W x = a_p[i];
      for (int64_t j = 0; j < kNr; ++j) acc[i][j] += x * b_p[j];
    }
  }
  for (int64_t i = 0; i < kMr; ++i) {
    for (int64_t j = 0; j < kNr; ++j) tile[i * kNr + j] = acc[i][j];
  }
}

#if defined(__x86_64__)
// AVX2: six rows of two 8-float (4-double) vectors, 12 accumulators.
__attribute__((target("avx2,fma"))) void Avx2Tile(int64_t kc, const float* a, const float* b,
                                                  float* tile) {
  __m256 acc[6][2];
  for (auto& row : acc) row[0] = row[1] = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m256 b0 = _mm256_loadu_ps(b + p * 16);
    const __m256 b1 = _mm256_loadu_ps(b + p * 16 + 8);
    for (int i = 0; i < 6; ++i) {
      const __m256 x = _mm256_broadcast_ss(a + p * 6 + i);
      acc[i][0] = _mm256_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(x, b1, acc[i][1]);
    }
  }
  for (int i = 0; i < 6; ++i) {
    _mm256_storeu_ps(tile + i * 16, acc[i][0]);
    _mm256_storeu_ps(tile + i * 16 + 8, acc[i][1]);
  }
}

__attribute__((target("avx2,fma"))) void Avx2Tile(int64_t kc, const double* a, const double* b,
                                                  double* tile) {
  __m256d acc[6][2];
  for (auto& row : acc) row[0] = row[1] = _mm256_setzero_pd();
  for (int64_t p = 0; p < kc; ++p) {
    const __m256d b0 = _mm256_loadu_pd(b + p * 8);
    const __m256d b1 = _mm256_loadu_pd(b + p * 8 + 4);
    for (int i = 0; i < 6; ++i) {
      const __m256d x = _mm256_broadcast_sd(a + p * 6 + i);
      acc[i][0] = _mm256_fmadd_pd(x, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_pd(x, b1, acc[i][1]);
    }
  }
  for (int i = 0; i < 6; ++i) {
    _mm256_storeu_pd(tile + i * 8, acc[i][0]);
    _mm256_storeu_pd(tile + i * 8 + 4, acc[i][1]);
  }
}

// AVX-512: eight rows of two 16-float (8-double) vectors, 16 accumulators.
__attribute__((target("avx512f"))) void Avx512Tile(int64_t kc, const float* a, const float* b,
                                                   float* tile) {
  __m512 acc[8][2];
  for (auto& row : acc) row[0] = row[1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_loadu_ps(b + p * 32);
    const __m512 b1 = _mm512_loadu_ps(b + p * 32 + 16);
    for (int i = 0; i < 8; ++i) {
      const __m512 x = _mm512_set1_ps(a[p * 8 + i]);
      acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
    }
  }
  for (int i = 0; i < 8; ++i) {
    _mm512_storeu_ps(tile + i * 32, acc[i][0]);
    _mm512_storeu_ps(tile + i * 32 + 16, acc[i][1]);
  }
}

__attribute__((target("avx512f"))) void Avx512Tile(int64_t kc, const double* a, const double* b,
                                                   double* tile) {
  __m512d acc[8][2];
  for (auto& row : acc) row[0] = row[1] = _mm512_setzero_pd();
  for (int64_t p = 0; p < kc; ++p) {
    const __m512d b0 = _mm512_loadu_pd(b + p * 16);
    const __m512d b1 = _mm512_loadu_pd(b + p * 16 + 8);
    for (int i = 0; i < 8; ++i) {
      const __m512d x = _mm512_set1_pd(a[p * 8 + i]);
      acc[i][0] = _mm512_fmadd_pd(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_pd(x, b1, acc[i][1]);
    }
  }
  for (int i = 0; i < 8; ++i) {
    _mm512_storeu_pd(tile + i * 16, acc[i][0]);
    _mm512_storeu_pd(tile + i * 16 + 8, acc[i][1]);
  }
}
#endif

template <class W>
TileKernel<W> TileKernelOf(GemmKernel kind) {
  constexpr int64_t kLanes512 = 64 / sizeof(W), kLanes256 = 32 / sizeof(W);
  using Compute = void (*)(int64_t, const W*, const W*, W*);
  switch (kind) {
#if defined(__x86_64__)
    case GemmKernel::kAvx512:
      return {8, 2 * kLanes512, static_cast<Compute>(&Avx512Tile)};
    case GemmKernel::kAvx2:
      return {6, 2 * kLanes256, static_cast<Compute>(&Avx2Tile)};
#endif
    default:
      return {6, 2 * kLanes256, &PortableTile<W, 6, 2 * kLanes256>};
  }
}

// The register kernel for this process: one for every tile of every product.
template <class W>
const TileKernel<W>& TheTileKernel() {
  static const TileKernel<W> kernel = TileKernelOf<W>(AvailableGemmKernels().front());
  return kernel;
}

// Element (i, p) of op(A) and (p, j) of op(B), as strides.
struct Layout {
  int64_t a_row, a_col, b_row, b_col;
};

Layout LayoutOf(const GemmDims& d) {
  return {d.trans_a ? 1 : d.k, d.trans_a ? d.m : 1, d.trans_b ? 1 : d.n, d.trans_b ? d.k : 1};
}

// Rows [i0, i0 + rows) of op(A) at depths [p0, p0 + kc), as out[p * MR + r]; rows past `rows`
// are zeros, so an edge panel runs through the same tile kernel as a full one.
template <class W>
void PackA(const Layout& l, const W* a, int64_t i0, int64_t rows, int64_t p0, int64_t kc,
           int64_t mr, W* out) {
  for (int64_t p = 0; p < kc; ++p) {
    const W* column = a + (p0 + p) * l.a_col + i0 * l.a_row;
    W* panel = out + p * mr;
    for (int64_t r = 0; r < mr; ++r) panel[r] = r < rows ? column[r * l.a_row] : W{0};
  }
}

// Columns [j0, j0 + cols) of op(B) at depths [p0, p0 + kc), as out[p * NR + j], zero-padded.
template <class W>
void PackB(const Layout& l, const W* b, int64_t j0, int64_t cols, int64_t p0, int64_t kc,
           int64_t nr, W* out) {
  for (int64_t p = 0; p < kc; ++p) {
    const W* row = b + (p0 + p) * l.b_row + j0 * l.b_col;
    W* panel = out + p * nr;
    if (l.b_col == 1 && cols == nr) {
      std::copy(row, row + nr, panel);
      continue;
    }
    for (int64_t j = 0; j < nr; ++j) panel[j] = j < cols ? row[j * l.b_col] : W{0};
  }
}

// Adds a tile's valid part into C: the first depth block sets alpha * t + beta * C (alpha * t
// when beta is 0, without reading C), the later ones add alpha * t. The same for every element.
template <class W>
void Accumulate(const W* tile, int64_t nr, int64_t rows, int64_t cols, bool first, W alpha, W beta,
                W* c, int64_t ldc) {
  for (int64_t i = 0; i < rows; ++i) {
    const W* t = tile + i * nr;
    W* c_i = c + i * ldc;
    if (!first) {
      for (int64_t j = 0; j < cols; ++j) c_i[j] += alpha * t[j];
    } else if (beta == W{0}) {
      for (int64_t j = 0; j < cols; ++j) c_i[j] = alpha * t[j];
    } else {
      for (int64_t j = 0; j < cols; ++j) c_i[j] = alpha * t[j] + beta * c_i[j];
    }
  }
}

// Packing buffers, kept per thread so that a product does not fault in fresh pages each time.
template <class W>
std::vector<W>& Buffer(int which) {
  thread_local std::vector<W> buffers[3];
  return buffers[which];
}

template <class W>
W* Reserve(std::vector<W>& buffer, int64_t size) {
  if (buffer.size() < static_cast<size_t>(size)) buffer.resize(static_cast<size_t>(size));
  return buffer.data();
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Matrix times vector, where the contracted dimension of the long operand is contiguous:
// out[i] = sum over p of x[i * x_step + p] * y[p], each a dot product in the same lane structure
// (eight partial sums, then the tail, then the partial sums in order), whatever i is. Bound by
// memory, so portable code keeps up.
template <class W>
void DotRows(int64_t rows, int64_t k, const W* x, int64_t x_step, const W* y, W alpha, W beta,
             W* out, int64_t out_step) {
  constexpr int64_t kLanes = 8;
  for (int64_t i = 0; i < rows; ++i) {
    const W* x_i = x + i * x_step;
    W lanes[kLanes] = {};
    int64_t p = 0;
    for (; p + kLanes <= k; p += kLanes) {
      for (int64_t l = 0; l < kLanes; ++l) lanes[l] += x_i[p + l] * y[p + l];
    }
    for (int64_t l = 0; p < k; ++p, ++l) lanes[l] += x_i[p] * y[p];
    W sum = lanes[0];
    for (int64_t l = 1; l < kLanes; ++l) sum += lanes[l];
    W& o = out[i * out_step];
    o = beta == W{0} ? alpha * sum : alpha * sum + beta * o;
  }
}

// Vector times matrix, where the outputs are contiguous in the long operand: out[j] = sum over
// p, in order, of x[p * x_step] * y[p * y_step + j]; every out[j] the same chain.
template <class W>
void AxpyColumns(int64_t cols, int64_t k, const W* x, int64_t x_step, const W* y, int64_t y_step,
                 W alpha, W beta, W* out) {
  std::vector<W>& acc_buffer = Buffer<W>(0);
  W* acc = Reserve(acc_buffer, cols);
  std::fill(acc, acc + cols, W{0});
  for (int64_t p = 0; p < k; ++p) {
    const W x_p = x[p * x_step];
    const W* y_p = y + p * y_step;
    for (int64_t j = 0; j < cols; ++j) acc[j] += x_p * y_p[j];
  }
  for (int64_t j = 0; j < cols; ++j) {
    out[j] = beta == W{0} ? alpha * acc[j] : alpha * acc[j] + beta * out[j];
  }
}

// The matrix-vector cases (C has one row, or one column), or false for a full product. Chosen by
// the product's dims, never by the row range, so that every row of C takes the same path.
template <class W>
bool MatrixVector(const GemmDims& d, int64_t row_begin, int64_t row_end, W alpha, const W* a,
                  const W* b, W beta, W* c) {
  const Layout l = LayoutOf(d);
  const int64_t rows = row_end - row_begin;
  if (d.n == 1) {  // C's column: one value per row of op(A)
    const W* a_rows = a + row_begin * l.a_row;
    if (l.a_col == 1) {
      DotRows(rows, d.k, a_rows, l.a_row, b, alpha, beta, c + row_begin, 1);
    } else {
      AxpyColumns(rows, d.k, b, l.b_row, a_rows, l.a_col, alpha, beta, c + row_begin);
    }
    return true;
  }
  if (d.m == 1) {  // C's one row: one value per column of op(B)
    const W* a_row = a + row_begin * l.a_row;
    if (l.b_row == 1 && l.a_col == 1) {
      DotRows(d.n, d.k, b, l.b_col, a_row, alpha, beta, c + row_begin * d.n, 1);
    } else {
      if (l.b_col != 1) return false;
      AxpyColumns(d.n, d.k, a_row, l.a_col, b, l.b_row, alpha, beta, c + row_begin * d.n);
    }
    return true;
  }
  return false;
}

template <class W>
void PackedGemmWithKernel(const TileKernel<W>& kernel, const GemmDims& d, int64_t row_begin,
                          int64_t row_end, W alpha, const W* a, const W* b, W beta, W* c);

}  // namespace

std::vector<GemmKernel> AvailableGemmKernels() {
  std::vector<GemmKernel> kernels;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) kernels.push_back(GemmKernel::kAvx512);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    kernels.push_back(GemmKernel::kAvx2);
  }
#endif
  kernels.push_back(GemmKernel::kPortable);
  return kernels;
}

template <class W>
void PackedGemm(const GemmDims& d, int64_t row_begin, int64_t row_end, W alpha, const W* a,
                const W* b, W beta, W* c) {
  PackedGemmWithKernel(TheTileKernel<W>(), d, row_begin, row_end, alpha, a, b, beta, c);
}

template <class W>
void PackedGemmWith(GemmKernel kernel, const GemmDims& d, int64_t row_begin, int64_t row_end,
                    W alpha, const W* a, const W* b, W beta, W* c) {
  PackedGemmWithKernel(TileKernelOf<W>(kernel), d, row_begin, row_end, alpha, a, b, beta, c);
}

namespace {

template <class W>
void PackedGemmWithKernel(const TileKernel<W>& kernel, const GemmDims& d, int64_t row_begin,
                          int64_t row_end, W alpha, const W* a, const W* b, W beta, W* c) {
  if (row_end <= row_begin || d.n == 0) return;
  if (alpha == W{0} || d.k == 0) {
    for (int64_t i = row_begin; i < row_end; ++i) {
      W* c_i = c + i * d.n;
      for (int64_t j = 0; j < d.n; ++j) c_i[j] = beta == W{0} ? W{0} : beta * c_i[j];
    }
    return;
  }
  if (MatrixVector(d, row_begin, row_end, alpha, a, b, beta, c)) return;
  const Layout layout = LayoutOf(d);
  const int64_t mr = kernel.mr, nr = kernel.nr;
  const int64_t mc_block = kRowPanelsPerBlock * mr, nc_block = kColumnPanelsPerBlock * nr;
  std::vector<W>& tile_buffer = Buffer<W>(2);
  W* tile = Reserve(tile_buffer, mr * nr);
  for (int64_t jc = 0; jc < d.n; jc += nc_block) {
    const int64_t nc = std::min(nc_block, d.n - jc);
    const int64_t column_panels = CeilDiv(nc, nr);
    for (int64_t pc = 0; pc < d.k; pc += kKc) {
      const int64_t kc = std::min(kKc, d.k - pc);
      W* b_pack = Reserve(Buffer<W>(0), column_panels * kc * nr);
      for (int64_t jp = 0; jp < column_panels; ++jp) {
        const int64_t j0 = jc + jp * nr;
        PackB(layout, b, j0, std::min(nr, d.n - j0), pc, kc, nr, b_pack + jp * kc * nr);
      }
      for (int64_t ic = row_begin; ic < row_end; ic += mc_block) {
        const int64_t mc = std::min(mc_block, row_end - ic);
        const int64_t row_panels = CeilDiv(mc, mr);
        W* a_pack = Reserve(Buffer<W>(1), row_panels * kc * mr);
        for (int64_t ip = 0; ip < row_panels; ++ip) {
          const int64_t i0 = ic + ip * mr;
          PackA(layout, a, i0, std::min(mr, row_end - i0), pc, kc, mr, a_pack + ip * kc * mr);
        }
        for (int64_t jp = 0; jp < column_panels; ++jp) {
          const int64_t j0 = jc + jp * nr;
          for (int64_t ip = 0; ip < row_panels; ++ip) {
            const int64_t i0 = ic + ip * mr;
            kernel.compute(kc, a_pack + ip * kc * mr, b_pack + jp * kc * nr, tile);
            Accumulate(tile, nr, std::min(mr, row_end - i0), std::min(nr, d.n - j0), pc == 0, alpha,
                       beta, c + i0 * d.n + j0, d.n);
          }
        }
      }
    }
  }
}

}  // namespace

template void PackedGemm<float>(const GemmDims&, int64_t, int64_t, float, const float*,
                                const float*, float, float*);
template void PackedGemm<double>(const GemmDims&, int64_t, int64_t, double, const double*,
                                 const double*, double, double*);
template void PackedGemmWith<float>(GemmKernel, const GemmDims&, int64_t, int64_t, float,
                                    const float*, const float*, float, float*);
template void PackedGemmWith<double>(GemmKernel, const GemmDims&, int64_t, int64_t, double,
                                     const double*, const double*, double, double*);

}  // namespace graphgc::kernels::linalg
