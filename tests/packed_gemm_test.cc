// The packed matrix product (opset/kernels/linalg/packed_gemm.h): right against a long-double
// reference at sizes around every blocking boundary, every transpose and alpha/beta; and the same
// value for identical inputs wherever they sit — identical rows of A, identical columns of B,
// split across threads or not — and, through the ops, Conv channels with identical weights.
#include "graphgc/opset/kernels/linalg/packed_gemm.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"

namespace graphgc::kernels::linalg {
namespace {

// Element (i, p) of op(A) and (p, j) of op(B) in row-major storage.
template <class W>
W ElementA(const GemmDims& d, const std::vector<W>& a, int64_t i, int64_t p) {
  return d.trans_a ? a[static_cast<size_t>(p * d.m + i)] : a[static_cast<size_t>(i * d.k + p)];
}
template <class W>
W ElementB(const GemmDims& d, const std::vector<W>& b, int64_t p, int64_t j) {
  return d.trans_b ? b[static_cast<size_t>(j * d.k + p)] : b[static_cast<size_t>(p * d.n + j)];
}

template <class W>
std::vector<W> Random(size_t count, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<W> values(count);
  for (W& v : values) v = static_cast<W>(uniform(rng));
  return values;
}

std::string KernelName(GemmKernel kernel) {
  switch (kernel) {
    case GemmKernel::kAvx512:
      return "avx512";
    case GemmKernel::kAvx2:
      return "avx2";
    case GemmKernel::kPortable:
      return "portable";
  }
  return "?";
}

template <class W>
void ExpectProductRight(GemmKernel kernel, const GemmDims& d, W alpha, W beta, std::mt19937& rng) {
  const std::vector<W> a = Random<W>(static_cast<size_t>(d.m * d.k), rng);
  const std::vector<W> b = Random<W>(static_cast<size_t>(d.k * d.n), rng);
  const std::vector<W> c0 = Random<W>(static_cast<size_t>(d.m * d.n), rng);
  std::vector<W> c = c0;
  PackedGemmWith<W>(kernel, d, 0, d.m, alpha, a.data(), b.data(), beta, c.data());
  const double tolerance = (sizeof(W) == 4 ? 2e-6 : 1e-14) * static_cast<double>(d.k + 2);
  for (int64_t i = 0; i < d.m; ++i) {
    for (int64_t j = 0; j < d.n; ++j) {
      long double sum = 0;
      for (int64_t p = 0; p < d.k; ++p) {
        sum += static_cast<long double>(ElementA(d, a, i, p)) * ElementB(d, b, p, j);
      }
      const size_t at = static_cast<size_t>(i * d.n + j);
      const long double expected = alpha * sum + beta * static_cast<long double>(c0[at]);
      ASSERT_NEAR(static_cast<double>(c[at]), static_cast<double>(expected), tolerance)
          << KernelName(kernel) << " m=" << d.m << " n=" << d.n << " k=" << d.k << " trans "
          << d.trans_a << d.trans_b << " at (" << i << ", " << j << ")";
    }
  }
}

template <class W>
class PackedGemmTest : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PackedGemmTest, Reals);

TYPED_TEST(PackedGemmTest, RightAtEveryBlockingBoundary) {
  using W = TypeParam;
  std::mt19937 rng(7);
  for (GemmKernel kernel : AvailableGemmKernels()) {
    // Around the register blocks (6 or 8 rows, 8 to 32 columns) and the depth block (256).
    const int64_t sizes[] = {1, 2, 5, 7, 9, 15, 17, 31, 33, 97};
    const int64_t depths[] = {1, 3, 255, 256, 257, 600};
    for (int64_t m : sizes) {
      for (int64_t n : {int64_t{1}, int64_t{6}, int64_t{17}, int64_t{33}, m}) {
        for (int64_t k : depths) {
          if (m * n * k > 400000) continue;
          for (int t = 0; t < 4; ++t) {
            const GemmDims d{.m = m, .n = n, .k = k, .trans_a = (t & 1) != 0, .trans_b = t >= 2};
            ExpectProductRight<W>(kernel, d, W{1}, W{0}, rng);
          }
        }
      }
    }
    ExpectProductRight<W>(kernel, {.m = 37, .n = 41, .k = 300}, W{0.5}, W{2}, rng);
    ExpectProductRight<W>(kernel, {.m = 37, .n = 1, .k = 300, .trans_a = true}, W{-1}, W{1}, rng);
    ExpectProductRight<W>(kernel, {.m = 1, .n = 41, .k = 300, .trans_b = true}, W{3}, W{-0.5}, rng);
  }
}

// Each register kernel on its own: identical rows of A give identical rows of C, whether the rows
// are computed in one call or split in two (as threads split them).
TYPED_TEST(PackedGemmTest, EveryKernelIsPositionIndependent) {
  using W = TypeParam;
  std::mt19937 rng(13);
  for (GemmKernel kernel : AvailableGemmKernels()) {
    for (int64_t m : {int64_t{7}, int64_t{29}, int64_t{1000}}) {
      const int64_t n = 45, k = 300;
      const std::vector<W> row = Random<W>(static_cast<size_t>(k), rng);
      std::vector<W> a;
      for (int64_t i = 0; i < m; ++i) a.insert(a.end(), row.begin(), row.end());
      const std::vector<W> b = Random<W>(static_cast<size_t>(k * n), rng);
      std::vector<W> c(static_cast<size_t>(m * n));
      const GemmDims d{.m = m, .n = n, .k = k};
      PackedGemmWith<W>(kernel, d, 0, m / 3, W{1}, a.data(), b.data(), W{0}, c.data());
      PackedGemmWith<W>(kernel, d, m / 3, m, W{1}, a.data(), b.data(), W{0}, c.data());
      for (int64_t i = 1; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          ASSERT_EQ(c[static_cast<size_t>(i * n + j)], c[static_cast<size_t>(j)])
              << KernelName(kernel) << " m=" << m << " row " << i;
        }
      }
    }
  }
}

TYPED_TEST(PackedGemmTest, AlphaZeroIsBetaTimesCWithoutReadingTheProduct) {
  using W = TypeParam;
  const std::vector<W> a = {std::numeric_limits<W>::quiet_NaN(), 1, 2, 3};
  const std::vector<W> b = {1, 2, 3, 4};
  std::vector<W> c = {1, 2, 3, 4};
  PackedGemm<W>({.m = 2, .n = 2, .k = 2}, 0, 2, W{0}, a.data(), b.data(), W{2}, c.data());
  EXPECT_EQ(c, (std::vector<W>{2, 4, 6, 8}));
  PackedGemm<W>({.m = 2, .n = 2, .k = 2}, 0, 2, W{0}, a.data(), b.data(), W{0}, c.data());
  EXPECT_EQ(c, (std::vector<W>{0, 0, 0, 0}));
}

// Every row of A the same: every row of C must be the same to the bit, at every size, whatever
// the row's place in the register block or in a thread's share; likewise columns of B.
TYPED_TEST(PackedGemmTest, IdenticalRowsAndColumnsGiveIdenticalValues) {
  using W = TypeParam;
  std::mt19937 rng(11);
  for (int64_t m : {int64_t{7}, int64_t{50}, int64_t{1000}}) {
    for (int64_t n : {int64_t{1}, int64_t{13}, int64_t{169}}) {
      for (int64_t k : {int64_t{3}, int64_t{300}, int64_t{513}}) {
        for (int threads : {1, 2}) {
          for (int t = 0; t < 4; ++t) {
            const GemmDims d{.m = m, .n = n, .k = k, .trans_a = (t & 1) != 0, .trans_b = t >= 2};
            const std::vector<W> row = Random<W>(static_cast<size_t>(k), rng);
            const std::vector<W> column = Random<W>(static_cast<size_t>(k), rng);
            std::vector<W> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
            for (int64_t i = 0; i < m; ++i) {
              for (int64_t p = 0; p < k; ++p) {
                a[static_cast<size_t>(d.trans_a ? p * m + i : i * k + p)] = row[p];
              }
            }
            for (int64_t j = 0; j < n; ++j) {
              for (int64_t p = 0; p < k; ++p) {
                b[static_cast<size_t>(d.trans_b ? j * k + p : p * n + j)] = column[p];
              }
            }
            std::vector<W> c(static_cast<size_t>(m * n));
            const int64_t zero = 0;
            BatchedGemm<W>(d, W{1}, a.data(), {&zero, 1}, b.data(), {&zero, 1}, W{0}, c.data(),
                           threads);
            for (size_t at = 1; at < c.size(); ++at) {
              ASSERT_EQ(c[at], c[0])
                  << "m=" << m << " n=" << n << " k=" << k << " threads " << threads << " trans "
                  << d.trans_a << d.trans_b << " element " << at;
            }
          }
        }
      }
    }
  }
}

// Conv, as SqueezeNet's last layer: many output channels with identical weights over an odd
// spatial size give identical channels, for a 1x1 and a 3x3 kernel, one thread or two.
TEST(PositionIndependenceTest, ConvChannelsWithIdenticalWeightsAreIdentical) {
  std::mt19937 rng(3);
  for (int64_t kernel : {int64_t{1}, int64_t{3}}) {
    for (int threads : {1, 2}) {
      const int64_t channels_in = 37, channels_out = 1000, height = 13, width = 13;
      const std::vector<float> x = Random<float>(channels_in * height * width, rng);
      const std::vector<float> filter = Random<float>(channels_in * kernel * kernel, rng);
      std::vector<float> w;
      for (int64_t o = 0; o < channels_out; ++o) w.insert(w.end(), filter.begin(), filter.end());
      Graph g(GraphOptions{.kernel_threads = threads});
      const Var y = op::Conv(
          g.constant(Tensor::from_vector<float>(x, {1, channels_in, height, width})),
          g.constant(Tensor::from_vector<float>(w, {channels_out, channels_in, kernel, kernel})));
      ASSERT_TRUE(y.ok()) << y.status();
      const std::optional<Tensor> value = y.value();
      ASSERT_TRUE(value.has_value()) << y.value_status();
      const absl::Span<const float> out = value->data<float>();
      const int64_t plane = out.size() / channels_out;
      for (int64_t o = 1; o < channels_out; ++o) {
        for (int64_t at = 0; at < plane; ++at) {
          ASSERT_EQ(out[o * plane + at], out[at]) << "channel " << o << " element " << at
                                                  << " kernel " << kernel << " threads " << threads;
        }
      }
    }
  }
}

// MatMul and Gemm of identical rows, at sizes around the blocks.
TEST(PositionIndependenceTest, MatMulAndGemmRowsAreIdentical) {
  std::mt19937 rng(5);
  for (int64_t m : {int64_t{9}, int64_t{100}, int64_t{1001}}) {
    const int64_t k = 257, n = 33;
    const std::vector<float> row = Random<float>(k, rng);
    std::vector<float> a;
    for (int64_t i = 0; i < m; ++i) a.insert(a.end(), row.begin(), row.end());
    const std::vector<float> b = Random<float>(k * n, rng);
    Graph g;
    const Var va = g.constant(Tensor::from_vector<float>(a, {m, k}));
    const Var vb = g.constant(Tensor::from_vector<float>(b, {k, n}));
    for (const Var& y : {op::MatMul(va, vb), op::Gemm(va, vb)}) {
      ASSERT_TRUE(y.value().has_value()) << y.value_status();
      const absl::Span<const float> out = y.value()->data<float>();
      for (int64_t i = 1; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) ASSERT_EQ(out[i * n + j], out[j]) << "row " << i;
      }
    }
  }
}

}  // namespace
}  // namespace graphgc::kernels::linalg
