#include "gemm_bench.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/linalg/packed_gemm.h"
#include "median.h"

namespace graphgc::bench {
namespace {

using kernels::linalg::GemmDims;

struct Shape {
  const char* name;
  int64_t m, n, k;
};

constexpr Shape kShapes[] = {
    {"squeezenet conv10 (1x1, 1000 ch)", 1000, 169, 512},
    {"resnet 3x3 conv, 64 ch, 56x56", 64, 3136, 576},
    {"odd 257 x 255 x 300", 257, 255, 300},
    {"alexnet fc7 (batch 1)", 1, 4096, 4096},
    {"vgg fc6 weights x vector", 4096, 1, 25088},
    {"mlp 16 x 256 x 256", 16, 256, 256},
};

using Clock = std::chrono::steady_clock;

template <class F>
double Seconds(F run) {
  const Clock::time_point start = Clock::now();
  run();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Output elements that differ from the first element of their column (every row of A equal).
int64_t RowsThatDiffer(const std::vector<float>& c, int64_t m, int64_t n) {
  int64_t differ = 0;
  for (int64_t i = 1; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) differ += c[i * n + j] != c[j];
  }
  return differ;
}

void RunShape(const Shape& s) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> row(s.k), b(s.k * s.n), a(s.m * s.k), packed(s.m * s.n), blas(s.m * s.n);
  for (float& v : row) v = uniform(rng);
  for (float& v : b) v = uniform(rng);
  for (int64_t i = 0; i < s.m; ++i) std::copy(row.begin(), row.end(), a.begin() + i * s.k);
  const GemmDims dims{.m = s.m, .n = s.n, .k = s.k};
  auto run_packed = [&] {
    kernels::linalg::PackedGemm<float>(dims, 0, s.m, 1.0f, a.data(), b.data(), 0.0f, packed.data());
  };
  auto run_blas = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(s.m),
                static_cast<int>(s.n), static_cast<int>(s.k), 1.0f, a.data(), static_cast<int>(s.k),
                b.data(), static_cast<int>(s.n), 0.0f, blas.data(), static_cast<int>(s.n));
  };
  run_packed();  // warm-up: packing buffers, pages, caches
  run_blas();
  const double flops = 2.0 * static_cast<double>(s.m * s.n * s.k);
  const int reps = std::clamp(static_cast<int>(4e9 / flops), 5, 200);
  std::vector<double> packed_s, blas_s;
  for (int r = 0; r < reps; ++r) {  // alternating, so that drift hits both alike
    packed_s.push_back(Seconds(run_packed));
    blas_s.push_back(Seconds(run_blas));
  }
  const double p = Median(packed_s), q = Median(blas_s);
  std::printf("%-34s %5lld %5lld %6lld %10.3f %10.3f %6.2f %8.1f %8.1f %8lld %8lld\n", s.name,
              static_cast<long long>(s.m), static_cast<long long>(s.n), static_cast<long long>(s.k),
              p * 1e3, q * 1e3, p / q, flops / p * 1e-9, flops / q * 1e-9,
              static_cast<long long>(RowsThatDiffer(packed, s.m, s.n)),
              static_cast<long long>(RowsThatDiffer(blas, s.m, s.n)));
}

}  // namespace

int RunGemmBenchmarks() {
  std::printf("float products, one thread, median of alternating runs; every row of A the same\n");
  std::printf("%-34s %5s %5s %6s %10s %10s %6s %8s %8s %8s %8s\n", "shape", "m", "n", "k",
              "packed_ms", "blas_ms", "ratio", "packed_GF", "blas_GF", "diff_pk", "diff_blas");
  for (const Shape& shape : kShapes) RunShape(shape);
  return 0;
}

}  // namespace graphgc::bench
