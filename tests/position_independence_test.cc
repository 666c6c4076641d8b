// Identical inputs give identical outputs wherever they sit in the tensor: the summation order of
// a value may not depend on its row's, column's or channel's position (register-block edges,
// vector remainders, thread splits). Each op is given a tensor whose slices along one axis are all
// the same, at sizes around the blocking boundaries, and every output slice must equal the first
// to the bit. (The packed product itself: packed_gemm_test.cc.)
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset17.h"

namespace graphgc {
namespace {

constexpr int64_t kSizes[] = {1, 7, 8, 15, 17, 33, 255, 257, 1000};

std::vector<float> RandomFloats(int64_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = uniform(rng);
  return values;
}

// `copies` copies of `slice`, one after another: a tensor whose outermost slices are identical.
std::vector<float> Repeated(const std::vector<float>& slice, int64_t copies) {
  std::vector<float> values;
  for (int64_t i = 0; i < copies; ++i) values.insert(values.end(), slice.begin(), slice.end());
  return values;
}

// Every one of the `slices` outermost slices of `value` equals the first, to the bit.
void ExpectIdenticalSlices(const Var& y, int64_t slices, const std::string& what) {
  ASSERT_TRUE(y.ok()) << what << ": " << y.status();
  const std::optional<Tensor> value = y.value();
  ASSERT_TRUE(value.has_value()) << what << ": " << y.value_status();
  const absl::Span<const float> out = value->data<float>();
  ASSERT_EQ(out.size() % static_cast<size_t>(slices), 0u) << what;
  const size_t slice = out.size() / static_cast<size_t>(slices);
  for (size_t s = 1; s < static_cast<size_t>(slices); ++s) {
    for (size_t at = 0; at < slice; ++at) {
      ASSERT_EQ(out[s * slice + at], out[at]) << what << ": slice " << s << " element " << at;
    }
  }
}

// The ops that sum along the last axis of [rows, length]: each row is an output row.
TEST(PositionIndependenceTest, RowReductionsAndSoftmax) {
  std::mt19937 rng(1);
  for (int64_t rows : {int64_t{3}, int64_t{1000}}) {
    for (int64_t length : kSizes) {
      Graph g;
      const Var x = g.constant(
          Tensor::from_vector<float>(Repeated(RandomFloats(length, rng), rows), {rows, length}));
      const std::string size = "[" + std::to_string(rows) + ", " + std::to_string(length) + "] ";
      const OptionalList<int64_t> last = {-1};
      ExpectIdenticalSlices(op::ReduceSum(x, g.constant(Tensor::from_vector<int64_t>({-1}, {1}))),
                            rows, size + "ReduceSum");
      ExpectIdenticalSlices(opset17::ReduceMean(x, {.axes = last}), rows, size + "ReduceMean");
      ExpectIdenticalSlices(opset17::ReduceL2(x, {.axes = last}), rows, size + "ReduceL2");
      ExpectIdenticalSlices(opset17::ReduceSumSquare(x, {.axes = last}), rows,
                            size + "ReduceSumSquare");
      ExpectIdenticalSlices(opset17::ReduceLogSumExp(x, {.axes = last}), rows,
                            size + "ReduceLogSumExp");
      ExpectIdenticalSlices(opset17::ReduceProd(x, {.axes = last}), rows, size + "ReduceProd");
      ExpectIdenticalSlices(op::Softmax(x), rows, size + "Softmax");
      ExpectIdenticalSlices(op::LogSoftmax(x), rows, size + "LogSoftmax");
      ExpectIdenticalSlices(op::CumSum(x, g.constant(Tensor::from_vector<int64_t>({1}, {}))), rows,
                            size + "CumSum");
      ExpectIdenticalSlices(op::LpNormalization(x), rows, size + "LpNormalization");
    }
  }
}

// The same ops along the first axis of [length, columns] with identical columns: transposed, each
// output column must be the same.
TEST(PositionIndependenceTest, ColumnReductionsAndSoftmax) {
  std::mt19937 rng(2);
  for (int64_t columns : {int64_t{5}, int64_t{1000}}) {
    for (int64_t length : kSizes) {
      const std::vector<float> column = RandomFloats(length, rng);
      std::vector<float> values;
      for (int64_t i = 0; i < length; ++i) {
        for (int64_t j = 0; j < columns; ++j) values.push_back(column[static_cast<size_t>(i)]);
      }
      Graph g;
      const Var x = g.constant(Tensor::from_vector<float>(values, {length, columns}));
      auto as_rows = [](const Var& y) { return op::Transpose(y, {.perm = {1, 0}}); };
      const std::string size = "[" + std::to_string(length) + ", " + std::to_string(columns) + "] ";
      const OptionalList<int64_t> first = {0};
      const Var axis0 = g.constant(Tensor::from_vector<int64_t>({0}, {1}));
      ExpectIdenticalSlices(as_rows(op::ReduceSum(x, axis0)), columns, size + "ReduceSum");
      ExpectIdenticalSlices(as_rows(opset17::ReduceMean(x, {.axes = first})), columns,
                            size + "ReduceMean");
      ExpectIdenticalSlices(as_rows(opset17::ReduceLogSumExp(x, {.axes = first})), columns,
                            size + "ReduceLogSumExp");
      ExpectIdenticalSlices(as_rows(op::Softmax(x, {.axis = 0})), columns, size + "Softmax");
      ExpectIdenticalSlices(
          as_rows(op::CumSum(x, g.constant(Tensor::from_vector<int64_t>({0}, {})))), columns,
          size + "CumSum");
    }
  }
}

// Products: identical rows of A through MatMul, Gemm (with a bias), batched MatMul and Einsum;
// Conv and ConvTranspose with identical output channels, one thread and two.
TEST(PositionIndependenceTest, ProductsAndConvolutions) {
  std::mt19937 rng(3);
  for (int threads : {1, 2}) {
    for (int64_t rows : {int64_t{7}, int64_t{1000}}) {
      for (int64_t k : {int64_t{17}, int64_t{257}}) {
        Graph g(GraphOptions{.kernel_threads = threads});
        const int64_t n = 45;
        const Var a =
            g.constant(Tensor::from_vector<float>(Repeated(RandomFloats(k, rng), rows), {rows, k}));
        const Var b = g.constant(Tensor::from_vector<float>(RandomFloats(k * n, rng), {k, n}));
        const Var bias = g.constant(Tensor::from_vector<float>(RandomFloats(n, rng), {n}));
        const std::string size = std::to_string(rows) + "x" + std::to_string(k) + " threads " +
                                 std::to_string(threads) + " ";
        ExpectIdenticalSlices(op::MatMul(a, b), rows, size + "MatMul");
        ExpectIdenticalSlices(op::Gemm(a, b, bias, {.alpha = 0.5f}), rows, size + "Gemm");
        const std::vector<int64_t> batched = {1, rows, k};
        ExpectIdenticalSlices(
            op::MatMul(op::Reshape(a, g.constant(Tensor::from_vector<int64_t>(batched, {3}))), b),
            rows, size + "batched MatMul");
        ExpectIdenticalSlices(op::Einsum({a, b}, {.equation = "ik,kj->ij"}), rows, size + "Einsum");
      }
    }
    for (int64_t kernel : {int64_t{1}, int64_t{3}}) {
      Graph g(GraphOptions{.kernel_threads = threads});
      const int64_t in = 19, out = 1000, side = 13;
      const Var x = g.constant(
          Tensor::from_vector<float>(RandomFloats(in * side * side, rng), {1, in, side, side}));
      const std::vector<float> filter = RandomFloats(in * kernel * kernel, rng);
      const Var w =
          g.constant(Tensor::from_vector<float>(Repeated(filter, out), {out, in, kernel, kernel}));
      const std::string size =
          "kernel " + std::to_string(kernel) + " threads " + std::to_string(threads) + " ";
      // [1, out, h, w]: the output channels are the slices after the batch of one.
      ExpectIdenticalSlices(op::Conv(x, w), out, size + "Conv");
      // ConvTranspose's W is [in, out, kh, kw]: every output channel the same filter slice.
      std::vector<float> transposed;
      for (int64_t c = 0; c < in; ++c) {
        for (int64_t o = 0; o < 8; ++o) {
          transposed.insert(transposed.end(), filter.begin() + c * kernel * kernel,
                            filter.begin() + (c + 1) * kernel * kernel);
        }
      }
      const Var wt = g.constant(Tensor::from_vector<float>(transposed, {in, 8, kernel, kernel}));
      ExpectIdenticalSlices(op::ConvTranspose(x, wt), 8, size + "ConvTranspose");
    }
  }
}

}  // namespace
}  // namespace graphgc
