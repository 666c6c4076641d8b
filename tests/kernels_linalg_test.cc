// Value propagation of the linalg kernels (MatMul, Gemm, Einsum, Det) through the public API,
// checked against naive references: random shapes with empty dims, 1-D operands and broadcast
// batches for MatMul; every Gemm attribute and C shape, per version; Einsum equations beyond
// ONNX's node data against a brute-force sum over all labels; each element type, integer
// wrap-around, NaN, failing inputs, omitted inputs and the value budget. Also prints MatMul's
// speed on 512 x 512 floats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

int64_t Count(const Dims& shape) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  return count;
}

// Small integers, so that every type (bfloat16 included) holds sums and products exactly.
std::vector<double> RandomValues(std::mt19937& rng, int64_t count, int lo = -3, int hi = 3) {
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<double> values(static_cast<size_t>(count));
  for (double& v : values) v = dist(rng);
  return values;
}

// Random values T holds: non-negative ones for unsigned types.
template <class T>
std::vector<double> RandomFor(std::mt19937& rng, int64_t count, int magnitude = 3) {
  return RandomValues(rng, count, std::is_unsigned_v<T> ? 0 : -magnitude, magnitude);
}

template <class T>
Tensor MakeTensor(const std::vector<double>& values, const Dims& shape) {
  return Tensor::from_vector<T>(ValuesOf<T>(values), shape);
}

template <class T>
std::vector<double> Doubles(const Tensor& tensor) {
  std::vector<double> values;
  for (const T& v : tensor.data<T>()) values.push_back(ToDouble(v));
  return values;
}

// The var has a value of element type T and shape `shape` equal to `expected` (within `tolerance`
// relative to the largest expected magnitude; NaN matches NaN).
template <class T>
::testing::AssertionResult Near(const Var& var, const std::vector<double>& expected,
                                const Dims& shape, double tolerance = 0) {
  if (::testing::AssertionResult typed = HasValueOfShape<T>(var, shape); !typed) return typed;
  const std::optional<Tensor> value = var.value();
  const std::vector<double> actual = Doubles<T>(*value);
  double scale = 1;
  for (double e : expected) scale = std::max(scale, std::fabs(e));
  for (size_t i = 0; i < expected.size(); ++i) {
    const bool both_nan = std::isnan(actual[i]) && std::isnan(expected[i]);
    if (!both_nan && !(std::fabs(actual[i] - expected[i]) <= tolerance * scale)) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << actual[i] << ", expected " << expected[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// MatMul

// numpy.matmul in double: 1-D operands promoted, batch dims broadcast.
std::vector<double> ReferenceMatMul(const std::vector<double>& a, Dims as,
                                    const std::vector<double>& b, Dims bs, Dims* out_shape) {
  const bool a_vector = as.size() == 1, b_vector = bs.size() == 1;
  if (a_vector) as.insert(as.begin(), 1);
  if (b_vector) bs.push_back(1);
  const int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  Dims ab(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
  const size_t rank = std::max(ab.size(), bb.size());
  ab.insert(ab.begin(), rank - ab.size(), 1);
  bb.insert(bb.begin(), rank - bb.size(), 1);
  Dims batch(rank);
  for (size_t d = 0; d < rank; ++d) batch[d] = ab[d] == 1 ? bb[d] : ab[d];
  *out_shape = batch;
  if (!a_vector) out_shape->push_back(m);
  if (!b_vector) out_shape->push_back(n);
  std::vector<double> out(static_cast<size_t>(Count(batch) * m * n));
  for (int64_t t = 0; t < Count(batch); ++t) {
    int64_t ia = 0, ib = 0, rest = t;
    for (size_t d = rank; d-- > 0;) {
      const int64_t index = rest % batch[d];
      rest /= batch[d];
      int64_t a_stride = 1, b_stride = 1;
      for (size_t e = d + 1; e < rank; ++e) a_stride *= ab[e], b_stride *= bb[e];
      ia += (ab[d] == 1 ? 0 : index) * a_stride;
      ib += (bb[d] == 1 ? 0 : index) * b_stride;
    }
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += a[ia * m * k + i * k + p] * b[ib * k * n + p * n + j];
        out[t * m * n + i * n + j] = sum;
      }
    }
  }
  return out;
}

struct MatMulCase {
  Dims a, b;
};

const std::vector<MatMulCase> kMatMulCases = {{{3, 4}, {4, 5}},
                                              {{4}, {4, 5}},
                                              {{3, 4}, {4}},
                                              {{4}, {4}},
                                              {{2, 3, 4}, {4, 5}},
                                              {{3, 4}, {2, 4, 5}},
                                              {{2, 1, 3, 4}, {3, 4, 2}},
                                              {{1, 3, 4}, {2, 4, 2}},
                                              {{2, 3, 4}, {2, 4, 5}},
                                              {{0, 4}, {4, 5}},
                                              {{3, 0}, {0, 5}},
                                              {{3, 4}, {4, 0}},
                                              {{2, 0, 3, 4}, {4, 5}},
                                              {{0}, {0}},
                                              {{5, 1, 4}, {4}},
                                              {{4}, {3, 4, 2}},
                                              {{1, 1}, {1, 1}},
                                              {{17, 33}, {33, 9}}};

template <class T>
void CheckMatMulCases() {
  std::mt19937 rng(7);
  for (const MatMulCase& c : kMatMulCases) {
    Graph g;
    const std::vector<double> a = RandomFor<T>(rng, Count(c.a));
    const std::vector<double> b = RandomFor<T>(rng, Count(c.b));
    Dims shape;
    const std::vector<double> expected = ReferenceMatMul(a, c.a, b, c.b, &shape);
    const Var y = op::MatMul(g.constant(MakeTensor<T>(a, c.a)), g.constant(MakeTensor<T>(b, c.b)));
    EXPECT_TRUE(Near<T>(y, expected, shape))
        << gg::DataTypeName(gg::DataTypeOf<T>::value) << " [" << absl::StrJoin(c.a, ",") << "] x ["
        << absl::StrJoin(c.b, ",") << "]";
  }
}

TEST(MatMulKernel, MatchesNumpyMatmulForEveryType) {
  CheckMatMulCases<float>();
  CheckMatMulCases<double>();
  CheckMatMulCases<Float16>();
  CheckMatMulCases<BFloat16>();
  CheckMatMulCases<int32_t>();
  CheckMatMulCases<int64_t>();
  CheckMatMulCases<uint32_t>();
  CheckMatMulCases<uint64_t>();
}

TEST(MatMulKernel, RealValuedProductsMatchTheReference) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> dist(-1, 1);
  const Dims as = {3, 70, 130}, bs = {130, 90};
  std::vector<double> a(static_cast<size_t>(Count(as))), b(static_cast<size_t>(Count(bs)));
  for (double& v : a) v = dist(rng);
  for (double& v : b) v = dist(rng);
  Dims shape;
  const std::vector<double> expected = ReferenceMatMul(a, as, b, bs, &shape);
  Graph g;
  EXPECT_TRUE(Near<double>(
      op::MatMul(g.constant(MakeTensor<double>(a, as)), g.constant(MakeTensor<double>(b, bs))),
      expected, shape, 1e-12));
  EXPECT_TRUE(Near<float>(
      op::MatMul(g.constant(MakeTensor<float>(a, as)), g.constant(MakeTensor<float>(b, bs))),
      expected, shape, 1e-5));
}

TEST(MatMulKernel, IntegersWrapAround) {
  Graph g;
  const int32_t big = 65536;  // big * big = 2^32 wraps to 0; 3 * 2^30 wraps negative
  const Var a = g.constant(Tensor::from_vector<int32_t>({big, 1 << 30, 3, 1}, {2, 2}));
  const Var b = g.constant(Tensor::from_vector<int32_t>({big, 0, 3, 1}, {2, 2}));
  const Var y = op::MatMul(a, b);
  ASSERT_TRUE(y.value().has_value());
  const auto v = y.value()->data<int32_t>();
  EXPECT_EQ(v[0], -(1 << 30));  // 2^32 + 3 * 2^30 = 3 * 2^30 (mod 2^32) = -2^30 as int32
  EXPECT_EQ(v[1], 1 << 30);
  const Var a64 = g.constant(Tensor::from_vector<int64_t>({int64_t{1} << 32}, {1, 1}));
  const Var y64 = op::MatMul(a64, a64);
  ASSERT_TRUE(y64.value().has_value());
  EXPECT_EQ(y64.value()->data<int64_t>()[0], 0);
  const Var u = g.constant(Tensor::from_vector<uint32_t>({0xFFFFFFFFu, 2u}, {1, 2}));
  const Var w = g.constant(Tensor::from_vector<uint32_t>({2u, 1u}, {2, 1}));
  ASSERT_TRUE(op::MatMul(u, w).value().has_value());
  EXPECT_EQ(op::MatMul(u, w).value()->data<uint32_t>()[0], 0u);  // 2 * (2^32 - 1) + 2 = 2^33
}

TEST(MatMulKernel, NanPropagates) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({kNaN, 1, 2, 3}, {2, 2}));
  const Var b = g.constant(Tensor::from_vector<float>({1, 0, 0, 1}, {2, 2}));
  EXPECT_TRUE(Near<float>(op::MatMul(a, b), {kNaN, kNaN, 2, 3}, {2, 2}));
}

TEST(MatMulKernel, OldVersionsComputeToo) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({1, 2}, {1, 2}));
  const Var b = g.constant(Tensor::from_vector<float>({3, 4}, {2, 1}));
  EXPECT_TRUE(Near<float>(One(gg::make_node("MatMul", {a, b}, {}, {.version = 1})), {11}, {1, 1}));
  EXPECT_TRUE(Near<float>(One(gg::make_node("MatMul", {a, b}, {}, {.version = 9})), {11}, {1, 1}));
}

TEST(MatMulKernel, ThreadsGiveTheSameValue) {
  std::mt19937 rng(3);
  const Dims as = {4, 150, 120}, bs = {120, 130};
  const std::vector<double> a = RandomValues(rng, Count(as)), b = RandomValues(rng, Count(bs));
  Dims shape;
  const std::vector<double> expected = ReferenceMatMul(a, as, b, bs, &shape);
  for (int threads : {1, 2, 3}) {
    Graph g(gg::GraphOptions{.kernel_threads = threads});
    // Shared B folds the batch into one product (rows split); a batched B splits the batches.
    EXPECT_TRUE(Near<float>(
        op::MatMul(g.constant(MakeTensor<float>(a, as)), g.constant(MakeTensor<float>(b, bs))),
        expected, shape))
        << threads;
    EXPECT_TRUE(Near<int64_t>(
        op::MatMul(g.constant(MakeTensor<int64_t>(a, as)), g.constant(MakeTensor<int64_t>(b, bs))),
        expected, shape))
        << threads;
  }
}

TEST(MatMulKernel, BudgetLeavesNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 1000});
  const Var a = g.constant(Tensor::zeros(DataType::kFloat, {20, 5}));
  const Var b = g.constant(Tensor::zeros(DataType::kFloat, {5, 20}));
  EXPECT_TRUE(HasNoValue(op::MatMul(a, b)));  // 400 floats: 1600 bytes
  // float16 computes in float: the temporaries count too.
  const Var h = g.constant(Tensor::zeros(DataType::kFloat16, {10, 40}));
  const Var k = g.constant(Tensor::zeros(DataType::kFloat16, {40, 10}));
  EXPECT_TRUE(HasNoValue(op::MatMul(h, k)));  // output 200 bytes, operands in float 3200 bytes
}

// ---------------------------------------------------------------------------------------------
// Gemm

struct GemmCase {
  int64_t m, k, n;
  bool trans_a, trans_b;
  float alpha, beta;
  std::optional<Dims> c;  // nullopt: C omitted
};

std::vector<double> ReferenceGemm(const GemmCase& g, const std::vector<double>& a,
                                  const std::vector<double>& b, const std::vector<double>& c) {
  std::vector<double> y(static_cast<size_t>(g.m * g.n));
  for (int64_t i = 0; i < g.m; ++i) {
    for (int64_t j = 0; j < g.n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < g.k; ++p) {
        sum += a[g.trans_a ? p * g.m + i : i * g.k + p] * b[g.trans_b ? j * g.k + p : p * g.n + j];
      }
      double bias = 0;
      if (g.c.has_value()) {
        const Dims& cs = *g.c;
        const int64_t rows = cs.size() == 2 ? cs[0] : 1, cols = cs.empty() ? 1 : cs.back();
        bias = c[(rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j)];
      }
      y[i * g.n + j] = g.alpha * sum + g.beta * bias;
    }
  }
  return y;
}

template <class T>
void CheckGemmCases() {
  const std::vector<GemmCase> cases = {
      {3, 4, 5, false, false, 1, 1, Dims{3, 5}}, {3, 4, 5, true, false, 2, 1, Dims{5}},
      {3, 4, 5, false, true, 1, 3, Dims{3, 1}},  {3, 4, 5, true, true, -1, 2, Dims{1, 5}},
      {3, 4, 5, false, false, 1, 1, Dims{}},     {3, 4, 5, false, false, 2, 1, std::nullopt},
      {3, 4, 5, false, false, 1, 0, Dims{3, 5}}, {0, 4, 5, false, false, 1, 1, Dims{5}},
      {3, 0, 5, false, true, 1, 1, Dims{3, 5}},  {3, 4, 0, true, false, 1, 1, Dims{1}},
      {1, 1, 1, false, false, 1, 1, Dims{1, 1}}};
  std::mt19937 rng(13);
  for (const GemmCase& gc : cases) {
    if (std::is_unsigned_v<T> && gc.alpha < 0) continue;  // the reference does not wrap
    Graph g;
    const Dims as = gc.trans_a ? Dims{gc.k, gc.m} : Dims{gc.m, gc.k};
    const Dims bs = gc.trans_b ? Dims{gc.n, gc.k} : Dims{gc.k, gc.n};
    const std::vector<double> a = RandomFor<T>(rng, Count(as)), b = RandomFor<T>(rng, Count(bs));
    const std::vector<double> c = gc.c ? RandomFor<T>(rng, Count(*gc.c)) : std::vector<double>{};
    const Var cv = gc.c ? g.constant(MakeTensor<T>(c, *gc.c)) : Var();
    const Var y =
        op::Gemm(g.constant(MakeTensor<T>(a, as)), g.constant(MakeTensor<T>(b, bs)), cv,
                 {.alpha = gc.alpha, .beta = gc.beta, .transA = gc.trans_a, .transB = gc.trans_b});
    EXPECT_TRUE(Near<T>(y, ReferenceGemm(gc, a, b, c), {gc.m, gc.n}))
        << gg::DataTypeName(gg::DataTypeOf<T>::value) << " m=" << gc.m << " k=" << gc.k
        << " n=" << gc.n << " alpha=" << gc.alpha << " beta=" << gc.beta;
  }
}

TEST(GemmKernel, MatchesTheReferenceForEveryType) {
  CheckGemmCases<float>();
  CheckGemmCases<double>();
  CheckGemmCases<Float16>();
  CheckGemmCases<BFloat16>();
  CheckGemmCases<int32_t>();
  CheckGemmCases<int64_t>();
  CheckGemmCases<uint64_t>();
}

TEST(GemmKernel, ZeroCoefficientsFollowOnnxRuntime) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({kNaN, 1}, {1, 2}));
  const Var b = g.constant(Tensor::from_vector<float>({1, 1}, {2, 1}));
  const Var c = g.constant(Tensor::from_vector<float>({kNaN}, {1}));
  const Var one = g.constant(Tensor::from_vector<float>({1, 1}, {1, 2}));
  // beta == 0 ignores C, NaN and all; alpha == 0 still multiplies: 0 * NaN is NaN.
  EXPECT_TRUE(Near<float>(op::Gemm(one, b, c, {.beta = 0.0f}), {2}, {1, 1}));
  EXPECT_TRUE(Near<float>(op::Gemm(a, b, Var(), {.alpha = 0.0f}), {kNaN}, {1, 1}));
  EXPECT_TRUE(Near<float>(op::Gemm(one, b, Var(), {.alpha = 0.0f}), {0}, {1, 1}));
}

TEST(GemmKernel, EmptyInnerDimWithBetaGetsNoValue) {
  // ONNX: beta * C; ONNX Runtime: C. Only beta == 1 (or no C) has an agreed value.
  Graph g;
  const Var a = g.constant(Tensor::zeros(DataType::kFloat, {2, 0}));
  const Var b = g.constant(Tensor::zeros(DataType::kFloat, {0, 2}));
  const Var c = g.constant(Tensor::from_vector<float>({1, 2}, {2}));
  EXPECT_TRUE(HasNoValue(op::Gemm(a, b, c, {.beta = 2.0f})));
  EXPECT_TRUE(Near<float>(op::Gemm(a, b, c), {1, 2, 1, 2}, {2, 2}));
  EXPECT_TRUE(Near<float>(op::Gemm(a, b, Var(), {.beta = 2.0f}), {0, 0, 0, 0}, {2, 2}));
}

TEST(GemmKernel, IntegerGemmWrapsAndDeclinesFractionalCoefficients) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<int32_t>({1 << 30}, {1, 1}));
  const Var b = g.constant(Tensor::from_vector<int32_t>({4}, {1, 1}));
  EXPECT_TRUE(Near<int32_t>(op::Gemm(a, b, Var(), {.alpha = 1.0f}), {0}, {1, 1}));
  EXPECT_TRUE(HasNoValue(op::Gemm(a, b, Var(), {.alpha = 0.5f})));
}

TEST(GemmKernel, BadBiasShapeFails) {
  Graph g;
  const Var a = g.constant(Tensor::zeros(DataType::kFloat, {2, 3}));
  const Var b = g.constant(Tensor::zeros(DataType::kFloat, {3, 4}));
  EXPECT_TRUE(FailsWith(op::Gemm(a, b, g.constant(Tensor::zeros(DataType::kFloat, {3}))),
                        {"does not broadcast"}));
  EXPECT_TRUE(FailsWith(op::Gemm(a, b, g.constant(Tensor::zeros(DataType::kFloat, {2, 2}))),
                        {"does not broadcast"}));
}

TEST(GemmKernel, EachVersionReadsCAsItsSchemaSays) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2}));
  const Var b = g.constant(Tensor::from_vector<float>({1, 0, 0, 1}, {2, 2}));
  const Var full = g.constant(Tensor::from_vector<float>({10, 20, 30, 40}, {2, 2}));
  const Var row = g.constant(Tensor::from_vector<float>({10, 20}, {2}));
  const Var column = g.constant(Tensor::from_vector<float>({10, 20}, {2, 1}));
  const gg::Attribute broadcast{"broadcast", int64_t{1}};
  // Before 7: C as [M, N], or with `broadcast` a trailing slice.
  EXPECT_TRUE(Near<float>(One(gg::make_node("Gemm", {a, b, full}, {}, {.version = 6})),
                          {11, 22, 33, 44}, {2, 2}));
  EXPECT_TRUE(Near<float>(One(gg::make_node("Gemm", {a, b, row}, {broadcast}, {.version = 6})),
                          {11, 22, 13, 24}, {2, 2}));
  EXPECT_TRUE(HasNoValue(One(gg::make_node("Gemm", {a, b, column}, {broadcast}, {.version = 6}))));
  EXPECT_TRUE(Near<float>(One(gg::make_node("Gemm", {a, b, full}, {}, {.version = 1})),
                          {11, 22, 33, 44}, {2, 2}));
  // From 7: unidirectional broadcasting; from 11 C may be omitted.
  EXPECT_TRUE(Near<float>(One(gg::make_node("Gemm", {a, b, column}, {}, {.version = 7})),
                          {11, 12, 23, 24}, {2, 2}));
  EXPECT_TRUE(
      Near<float>(One(gg::make_node("Gemm", {a, b}, {}, {.version = 11})), {1, 2, 3, 4}, {2, 2}));
}

TEST(GemmKernel, BudgetLeavesNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 100});
  const Var a = g.constant(Tensor::zeros(DataType::kDouble, {4, 4}));
  EXPECT_TRUE(HasNoValue(op::Gemm(a, a)));
}

// ---------------------------------------------------------------------------------------------
// Einsum

// The brute-force einsum of an explicit equation ("ij,jk->ik"; "..." allowed), in double: every
// assignment of every label, operands indexed with broadcasting (a size-1 dim reads index 0).
std::vector<double> ReferenceEinsum(const std::string& equation,
                                    const std::vector<std::vector<double>>& operands,
                                    const std::vector<Dims>& shapes, Dims* out_shape) {
  const size_t arrow = equation.find("->");
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = equation.find(',', start);
    terms.push_back(equation.substr(start, std::min(comma, arrow) - start));
    if (comma == std::string::npos || comma > arrow) break;
    start = comma + 1;
  }
  std::string output = equation.substr(arrow + 2);
  // "..." becomes labels '0', '1', ... right-aligned over the largest ellipsis.
  size_t ellipsis = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].find("...") != std::string::npos) {
      ellipsis = std::max(ellipsis, shapes[i].size() - (terms[i].size() - 3));
    }
  }
  auto expand = [&](std::string term, size_t covered) {
    const size_t at = term.find("...");
    if (at == std::string::npos) return term;
    std::string labels;
    for (size_t d = ellipsis - covered; d < ellipsis; ++d) labels += static_cast<char>('0' + d);
    return term.replace(at, 3, labels);
  };
  for (size_t i = 0; i < terms.size(); ++i)
    terms[i] = expand(terms[i], shapes[i].size() - (terms[i].size() - 3));
  output = expand(output, ellipsis);
  std::map<char, int64_t> sizes;
  for (size_t i = 0; i < terms.size(); ++i) {
    for (size_t axis = 0; axis < terms[i].size(); ++axis) {
      sizes[terms[i][axis]] = std::max(sizes[terms[i][axis]], shapes[i][axis]);
    }
  }
  std::vector<char> labels;
  for (const auto& [label, size] : sizes) labels.push_back(label);
  out_shape->clear();
  for (char label : output) out_shape->push_back(sizes[label]);
  std::vector<double> out(static_cast<size_t>(Count(*out_shape)), 0.0);
  std::map<char, int64_t> index;
  int64_t total = 1;
  for (char label : labels) total *= sizes[label];
  for (int64_t t = 0; t < total; ++t) {
    int64_t rest = t;
    for (size_t l = labels.size(); l-- > 0;) {
      index[labels[l]] = rest % sizes[labels[l]];
      rest /= sizes[labels[l]];
    }
    double product = 1;
    for (size_t i = 0; i < terms.size(); ++i) {
      int64_t flat = 0;
      for (size_t axis = 0; axis < terms[i].size(); ++axis) {
        const int64_t dim = shapes[i][axis];
        flat = flat * dim + (dim == 1 ? 0 : index[terms[i][axis]]);
      }
      product *= operands[i][static_cast<size_t>(flat)];
    }
    int64_t flat = 0;
    for (char label : output) flat = flat * sizes[label] + index[label];
    out[static_cast<size_t>(flat)] += product;
  }
  return out;
}

struct EinsumCase {
  std::string equation;   // as given to the op
  std::string reference;  // the same, explicit (for the reference)
  std::vector<Dims> shapes;
};

const std::vector<EinsumCase> kEinsumCases = {
    {"ij,jk", "ij,jk->ik", {{3, 4}, {4, 5}}},
    {"ij,jk->ki", "ij,jk->ki", {{3, 4}, {4, 5}}},
    {"ba", "ba->ab", {{3, 4}}},
    {"ii", "ii->", {{4, 4}}},
    {"ii->i", "ii->i", {{4, 4}}},
    {"iij->ji", "iij->ji", {{3, 3, 2}}},
    {"ij->", "ij->", {{3, 4}}},
    {"ij->j", "ij->j", {{3, 4}}},
    {"i,i", "i,i->", {{5}, {5}}},
    {"i,j", "i,j->ij", {{3}, {4}}},
    {"bij,bjk->bik", "bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
    {"bij,bkj->bik", "bij,bkj->bik", {{2, 3, 4}, {2, 5, 4}}},
    {"bji,bjk->bki", "bji,bjk->bki", {{2, 4, 3}, {2, 4, 5}}},
    {"ij,jk,kl->il", "ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 2}}},
    {"ab,ab->", "ab,ab->", {{3, 4}, {3, 4}}},
    {"ab,ab->ab", "ab,ab->ab", {{3, 4}, {3, 4}}},
    {"abc,cd->abd", "abc,cd->abd", {{2, 3, 4}, {4, 5}}},
    {"abc,bd->dca", "abc,bd->dca", {{2, 3, 4}, {3, 5}}},
    {"...ij,...jk->...ik", "...ij,...jk->...ik", {{2, 3, 4}, {2, 4, 5}}},
    {"...ij,...jk", "...ij,...jk->...ik", {{2, 1, 3, 4}, {1, 5, 4, 2}}},
    {"...i,...i->...", "...i,...i->...", {{2, 3}, {2, 3}}},
    {"i...,i...->...", "i...,i...->...", {{3, 2, 2}, {3, 2, 2}}},
    {"...ii->...i", "...ii->...i", {{2, 3, 3}}},
    {"ij...,jk...->ik...", "ij...,jk...->ik...", {{2, 3}, {3, 4}}},
    {"ij,ij->ij", "ij,ij->ij", {{1, 3}, {2, 3}}},
    {"ij,jk->ik", "ij,jk->ik", {{3, 0}, {0, 4}}},
    {"ij,jk->ik", "ij,jk->ik", {{0, 2}, {2, 4}}},
    {"Ab,bC->AC", "Ab,bC->AC", {{2, 3}, {3, 2}}},
    {"ij,kl->", "ij,kl->", {{2, 3}, {2, 2}}},
    {"a,b,c->abc", "a,b,c->abc", {{2}, {3}, {2}}},
    {"abcd,dcbe->ae", "abcd,dcbe->ae", {{2, 2, 3, 2}, {2, 3, 2, 3}}},
    {" i j , j k -> i k ", "ij,jk->ik", {{2, 3}, {3, 2}}},
    {"i->i", "i->i", {{0}}},
    {"ijk,ikj->i", "ijk,ikj->i", {{2, 3, 4}, {2, 4, 3}}},
};

template <class T>
void CheckEinsumCases() {
  std::mt19937 rng(17);
  for (const EinsumCase& c : kEinsumCases) {
    Graph g;
    std::vector<std::vector<double>> operands;
    std::vector<Var> inputs;
    for (const Dims& shape : c.shapes) {
      operands.push_back(RandomFor<T>(rng, Count(shape), 2));
      inputs.push_back(g.constant(MakeTensor<T>(operands.back(), shape)));
    }
    Dims shape;
    const std::vector<double> expected = ReferenceEinsum(c.reference, operands, c.shapes, &shape);
    EXPECT_TRUE(Near<T>(op::Einsum(inputs, {.equation = c.equation}), expected, shape))
        << gg::DataTypeName(gg::DataTypeOf<T>::value) << " " << c.equation;
  }
}

TEST(EinsumKernel, MatchesBruteForceForEveryType) {
  CheckEinsumCases<float>();
  CheckEinsumCases<double>();
  CheckEinsumCases<Float16>();
  CheckEinsumCases<int8_t>();
  CheckEinsumCases<int16_t>();
  CheckEinsumCases<int32_t>();
  CheckEinsumCases<int64_t>();
  CheckEinsumCases<uint32_t>();
}

TEST(EinsumKernel, UnsignedAndSmallIntegersWrap) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<uint8_t>({200, 100}, {2}));
  const Var b = g.constant(Tensor::from_vector<uint8_t>({2, 1}, {2}));
  // 400 + 100 = 500 = 244 (mod 256)
  EXPECT_TRUE(Near<uint8_t>(op::Einsum({a, b}, {.equation = "i,i->"}), {244}, {}));
  const Var c = g.constant(Tensor::from_vector<int8_t>({100, 100}, {2}));
  EXPECT_TRUE(Near<int8_t>(op::Einsum({c}, {.equation = "i->"}), {-56}, {}));
}

TEST(EinsumKernel, ThreadsGiveTheSameValue) {
  std::mt19937 rng(23);
  const std::vector<Dims> shapes = {{3, 64, 80}, {3, 80, 70}};
  std::vector<std::vector<double>> operands = {RandomValues(rng, Count(shapes[0])),
                                               RandomValues(rng, Count(shapes[1]))};
  Dims shape;
  const std::vector<double> expected = ReferenceEinsum("bij,bjk->bik", operands, shapes, &shape);
  Graph g(gg::GraphOptions{.kernel_threads = 2});
  EXPECT_TRUE(Near<float>(op::Einsum({g.constant(MakeTensor<float>(operands[0], shapes[0])),
                                      g.constant(MakeTensor<float>(operands[1], shapes[1]))},
                                     {.equation = "bij,bjk->bik"}),
                          expected, shape));
}

TEST(EinsumKernel, MalformedEquationsAndShapesFail) {
  Graph g;
  const Var m = g.constant(Tensor::zeros(DataType::kFloat, {2, 3}));
  const Var n = g.constant(Tensor::zeros(DataType::kFloat, {4, 3}));
  EXPECT_TRUE(FailsWith(op::Einsum({m, n}, {.equation = "ij,jk->ik"}), {"size"}));
  EXPECT_TRUE(FailsWith(op::Einsum({m}, {.equation = "ij->i1"}), {"equation"}));
  EXPECT_TRUE(FailsWith(op::Einsum({m}, {.equation = "ij->k"}), {"labels no operand dim"}));
  EXPECT_TRUE(FailsWith(op::Einsum({m}, {.equation = "ij->ii"}), {"repeats"}));
  EXPECT_TRUE(FailsWith(op::Einsum({m}, {.equation = "ii"}), {"diagonal"}));
}

TEST(EinsumKernel, AnImplicitUpperCaseFormIsRefused) {
  Graph g;
  const Var m = g.constant(Tensor::zeros(DataType::kFloat, {2, 3}));
  // ONNX labels are lower-case, the order of an implicit upper-case output is not agreed on, and
  // ONNX 1.12's inference of an implicit output counts letters at c - 'a', writing outside its
  // array for an upper-case one: the op is refused before that inference runs.
  EXPECT_TRUE(FailsWith(op::Einsum({m}, {.equation = "Ab"}), {"upper-case 'A'"}));
}

TEST(EinsumKernel, BudgetLeavesNoValue) {
  // The output is a scalar, but the outer product i,j (1600 floats) is not small.
  for (const int64_t budget : {int64_t{1} << 30, int64_t{4000}}) {
    Graph g(gg::GraphOptions{.max_value_bytes = budget});
    const Var a = g.constant(Tensor::zeros(DataType::kFloat, {40}));
    const Var c = g.constant(Tensor::zeros(DataType::kFloat, {40, 40}));
    const Var y = op::Einsum({a, a, c}, {.equation = "i,j,ij->"});
    if (budget > 4000) {
      EXPECT_TRUE(Near<float>(y, {0}, {}));
    } else {
      EXPECT_TRUE(HasNoValue(y));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Det

TEST(DetKernel, BatchesOfMatrices) {
  Graph g;
  // [[2, 1], [1, 3]] = 5; [[0, 1], [1, 0]] = -1 (a pivot swap); the 3x3 below = -306.
  const Var x = g.constant(Tensor::from_vector<float>({2, 1, 1, 3, 0, 1, 1, 0}, {2, 2, 2}));
  EXPECT_TRUE(Near<float>(op::Det(x), {5, -1}, {2}, 1e-6));
  const Var y = g.constant(Tensor::from_vector<double>({6, 1, 1, 4, -2, 5, 2, 8, 7}, {3, 3}));
  EXPECT_TRUE(Near<double>(op::Det(y), {-306}, {}, 1e-12));
  const Var h = g.constant(MakeTensor<Float16>({1, 2, 3, 4}, {2, 2}));
  EXPECT_TRUE(Near<Float16>(op::Det(h), {-2}, {}));
  const Var singular = g.constant(Tensor::from_vector<float>({1, 2, 2, 4}, {2, 2}));
  EXPECT_TRUE(Near<float>(op::Det(singular), {0}, {}));
}

TEST(DetKernel, EmptyMatricesAndBatches) {
  Graph g;
  EXPECT_TRUE(
      Near<float>(op::Det(g.constant(Tensor::zeros(DataType::kFloat, {3, 0, 0}))), {1, 1, 1}, {3}));
  EXPECT_TRUE(
      Near<float>(op::Det(g.constant(Tensor::zeros(DataType::kFloat, {0, 2, 2}))), {}, {0}));
}

TEST(DetKernel, NanAndInfinity) {
  Graph g;
  EXPECT_TRUE(Near<float>(op::Det(g.constant(Tensor::from_vector<float>({kNaN, 0, 0, 0}, {2, 2}))),
                          {kNaN}, {}));
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(HasNoValue(op::Det(g.constant(Tensor::from_vector<float>({inf, 1, 1, 1}, {2, 2})))));
}
}  // namespace

// Attention (opset 23): ONNX 1.19's node suite checks the values (124 cases, every mask, causal,
// grouped-query, softcap, past/present and qk_matmul_output mode); here, where it gives none.
TEST(AttentionKernel, NoValueWhereOnnxAndRuntimesDisagree) {
  Graph g;
  const Var q = Const<float>(g, {0.5f, -1, 0.25f, 2}, {1, 1, 2, 2});
  const Var k = Const<float>(g, {1, 0, 0, 1}, {1, 1, 2, 2});
  const Var v = Const<float>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  // Query 1 keeps no key: NaN in ONNX 1.19's function body, 0 in ONNX Runtime 1.32.
  const Var no_keys = g.constant(Tensor::from_vector<bool>({true, false, false, false}, {2, 2}));
  EXPECT_TRUE(HasNoValue(One(NodeAt("Attention", {q, k, v, no_keys}, {}, 23))));
  // softcap meets a masked key: the function body squashes -inf to -softcap.
  const Var one_key = g.constant(Tensor::from_vector<bool>({true, false, true, true}, {2, 2}));
  EXPECT_TRUE(HasNoValue(One(NodeAt("Attention", {q, k, v, one_key}, {{"softcap", 2.0f}}, 23))));
  // Otherwise a value: query 0 sees key 0 only, so gets V's row 0.
  const Var y = One(NodeAt("Attention", {q, k, v, one_key}, {}, 23));
  ASSERT_TRUE(y.value().has_value()) << y.value_status();
  EXPECT_FLOAT_EQ(y.value()->data<float>()[0], 1);
  EXPECT_FLOAT_EQ(y.value()->data<float>()[1], 2);
  // qk_matmul_output_mode 1: ONNX 1.19 adds the bias, ONNX Runtime 1.32 and ONNX 1.23's text
  // softcap and leave the bias out. Where that matters the scores have no value, Y has one.
  const auto scores = [&](std::vector<Var> inputs, std::vector<Attribute> attributes) {
    return NodeAt("Attention", inputs, attributes, 23, 4);
  };
  const Attribute mode_1 = {"qk_matmul_output_mode", int64_t{1}};
  const std::vector<Var> masked = scores({q, k, v, one_key}, {mode_1});
  ASSERT_EQ(masked.size(), 4u);
  EXPECT_TRUE(HasNoValue(masked[3]));
  EXPECT_TRUE(masked[0].value().has_value()) << masked[0].value_status();
  EXPECT_TRUE(HasNoValue(scores({q, k, v}, {mode_1, {"softcap", 2.0f}})[3]));
  EXPECT_TRUE(HasNoValue(scores({q, k, v}, {mode_1, {"is_causal", int64_t{1}}})[3]));
  // Without a bias and softcap every version gives the scaled products: K is the identity.
  const double r = 1 / std::sqrt(2.0);
  const std::vector<double> products = {0.5 * r, -r, 0.25 * r, 2 * r};
  const Var all_keys = g.constant(Tensor::from_vector<bool>({true, true, true, true}, {2, 2}));
  EXPECT_TRUE(Near<float>(scores({q, k, v, all_keys}, {mode_1})[3], products, {1, 1, 2, 2}, 1e-6));
  // Mode 0 is the products whatever the softcap (ONNX 1.19 and 1.23's text, ONNX Runtime 1.32).
  EXPECT_TRUE(Near<float>(scores({q, k, v}, {{"softcap", 2.0f}})[3], products, {1, 1, 2, 2}, 1e-6));
  // K/V heads that do not divide the Q heads: an error naming the input.
  const Var k2 = Const<float>(g, std::vector<float>(8, 1), {1, 2, 2, 2});
  const Var q3 = Const<float>(g, std::vector<float>(12, 1), {1, 3, 2, 2});
  EXPECT_FALSE(One(NodeAt("Attention", {q3, k2, k2}, {}, 23)).ok() &&
               One(NodeAt("Attention", {q3, k2, k2}, {}, 23)).value().has_value());
}
