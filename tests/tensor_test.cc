// Tensor: immutability, sharing, typed access, checked creation, 16-bit floats.
#include "graphgc/valuestore/tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace graphgc {
namespace {

TEST(TensorTest, FromVector) {
  const Tensor t = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(t.dtype(), DataType::kFloat);
  EXPECT_EQ(std::vector<int64_t>(t.shape().begin(), t.shape().end()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.size(), 6);
  EXPECT_EQ(t.nbytes(), 24u);
  EXPECT_EQ(t.data<float>()[5], 6.0f);
}

TEST(TensorTest, CopiesShareOneBuffer) {
  const Tensor t = Tensor::zeros(DataType::kDouble, {10000});
  const Tensor copy = t;
  EXPECT_EQ(copy.buffer(), t.buffer());
  EXPECT_EQ(copy.data<double>().data(), t.data<double>().data());
}

// Assignment keeps the buffer alive while any tensor views it, and a moved-from tensor is the
// empty one (ASan and the leak checker watch the buffers in the sanitized suite).
TEST(TensorTest, AssignmentSharesMovesAndReleases) {
  Tensor a = Tensor::from_vector<int64_t>({1, 2, 3}, {3});
  Tensor b = Tensor::from_vector<int64_t>({7}, {1});
  b = a;  // copy: both view a's buffer, b's own is released
  EXPECT_EQ(b.buffer(), a.buffer());
  const Tensor& same = b;
  b = same;  // self-copy keeps the buffer (the reference is taken before the old one goes)
  a = Tensor();
  EXPECT_EQ(b.data<int64_t>()[2], 3);
  Tensor c;
  c = std::move(b);
  EXPECT_EQ(c.data<int64_t>()[1], 2);
  EXPECT_EQ(b.dtype(), DataType::kUndefined);
  EXPECT_EQ(std::vector<int64_t>(b.shape().begin(), b.shape().end()), std::vector<int64_t>{0});
  EXPECT_EQ(b.buffer(), nullptr);
  Tensor& alias = c;
  c = std::move(alias);  // self-move leaves it as it was
  EXPECT_EQ(c.data<int64_t>()[0], 1);
  c = Tensor::scalar<float>(2.5f);
  EXPECT_EQ(c.dtype(), DataType::kFloat);
  EXPECT_EQ(c.data<float>()[0], 2.5f);
}

TEST(TensorTest, ZerosOfEveryType) {
  for (DataType type : {DataType::kFloat, DataType::kInt64, DataType::kBool, DataType::kString,
                        DataType::kFloat16, DataType::kUint8}) {
    const Tensor t = Tensor::zeros(type, {3});
    EXPECT_EQ(t.dtype(), type);
    EXPECT_EQ(t.size(), 3);
  }
  EXPECT_EQ(Tensor::zeros(DataType::kString, {2}).data<std::string>()[1], "");
  EXPECT_EQ(Tensor::zeros(DataType::kInt32, {4}).data<int32_t>()[3], 0);
}

TEST(TensorTest, ScalarHasRankZero) {
  const Tensor t = Tensor::scalar<int64_t>(7);
  EXPECT_EQ(t.rank(), 0);
  EXPECT_EQ(t.size(), 1);
  EXPECT_EQ(t.data<int64_t>()[0], 7);
}

TEST(TensorTest, BoolAndStringVectors) {
  const Tensor b = Tensor::from_vector<bool>({true, false, true});
  EXPECT_EQ(b.dtype(), DataType::kBool);
  EXPECT_TRUE(b.data<bool>()[2]);
  const Tensor s = Tensor::from_vector<std::string>({"a", "bc"});
  EXPECT_EQ(s.data<std::string>()[1], "bc");
}

TEST(TensorTest, CreateReportsMismatch) {
  auto bad = Tensor::create<float>({1, 2, 3}, {2, 2});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("[2,2]"), std::string::npos);
  EXPECT_FALSE(Tensor::create<float>({}, {-1}).ok());
  EXPECT_FALSE(Tensor::zeros_checked(DataType::kFloat, {1 << 30, 1 << 30, 1 << 30}).ok());
  EXPECT_FALSE(Tensor::zeros_checked(DataType::kUndefined, {1}).ok());
}

TEST(TensorTest, ReshapedSharesBuffer) {
  const Tensor t = Tensor::from_vector<int32_t>({1, 2, 3, 4, 5, 6}, {6});
  const Tensor r = t.reshaped({3, 2});
  EXPECT_EQ(r.buffer(), t.buffer());
  EXPECT_EQ(r.shape()[0], 3);
  EXPECT_EQ(r.data<int32_t>()[4], 5);
}

TEST(TensorTest, Equality) {
  EXPECT_EQ(Tensor::from_vector<float>({1, 2}), Tensor::from_vector<float>({1, 2}));
  EXPECT_NE(Tensor::from_vector<float>({1, 2}), Tensor::from_vector<float>({1, 3}));
  EXPECT_NE(Tensor::from_vector<float>({1, 2}), Tensor::from_vector<double>({1, 2}));
  EXPECT_NE(Tensor::from_vector<float>({1, 2}, {2}), Tensor::from_vector<float>({1, 2}, {1, 2}));
}

// No call may abort the process: a wrong element type reads nothing, and a factory given a bad
// shape returns the empty tensor, which Graph::constant refuses.
TEST(TensorTest, WrongElementTypeReadsNothing) {
  const Tensor t = Tensor::from_vector<float>({1});
  EXPECT_TRUE(t.data<double>().empty());
  EXPECT_EQ(t.data<float>().size(), 1u);
  absl::StatusOr<MutableTensor> m = MutableTensor::allocate(DataType::kInt32, {2});
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->mutable_data<float>().empty());
  EXPECT_EQ(m->mutable_data<int32_t>().size(), 2u);
}

TEST(TensorTest, FromVectorMismatchGivesTheEmptyTensor) {
  const Tensor t = Tensor::from_vector<float>({1, 2, 3}, {2, 2});
  EXPECT_EQ(t.dtype(), DataType::kUndefined);
  EXPECT_EQ(t.buffer(), nullptr);
  EXPECT_EQ(Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2}).reshaped({5}).dtype(),
            DataType::kUndefined);
}

TEST(TensorTest, ElementCountOfAnEmptyShapeIsZeroWhateverTheOtherDims) {
  const int64_t huge = int64_t{1} << 40;
  EXPECT_EQ(*ElementCount({huge, huge, 0}), 0);
  EXPECT_EQ(*ElementCount({0, huge, huge}), 0);
  EXPECT_FALSE(ElementCount({huge, huge, 1}).ok());
  EXPECT_FALSE(ElementCount({huge, -1, 0}).ok());
}

// The bound is INT64_MAX / 64 elements (so that count * element size fits): right at it is a
// count, one past it is an error, and so is a product that wraps around int64.
TEST(TensorTest, ElementCountStopsExactlyAtItsBound) {
  constexpr int64_t kBound = std::numeric_limits<int64_t>::max() / 64;
  EXPECT_EQ(*ElementCount({kBound}), kBound);
  EXPECT_EQ(*ElementCount({1, kBound, 1}), kBound);
  EXPECT_FALSE(ElementCount({kBound + 1}).ok());
  EXPECT_EQ(*ElementCount({int64_t{1} << 26, int64_t{1} << 30}), int64_t{1} << 56);
  EXPECT_FALSE(ElementCount({int64_t{1} << 27, int64_t{1} << 30}).ok());     // 2^57 > bound
  EXPECT_FALSE(ElementCount({int64_t{1} << 32, int64_t{1} << 32, 2}).ok());  // wraps to 0 in int64
  EXPECT_FALSE(ElementCount({3, std::numeric_limits<int64_t>::max() / 2}).ok());
}

TEST(HalfTest, Float16RoundTripsRepresentableValues) {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000060975552f, 1000.5f}) {
    EXPECT_EQ(Float16::FromFloat(v).ToFloat(), v) << v;
  }
  EXPECT_EQ(Float16::FromFloat(1.0f).bits, 0x3c00);
  EXPECT_EQ(Float16::FromFloat(-2.0f).bits, 0xc000);
  EXPECT_TRUE(std::isinf(Float16::FromFloat(1e6f).ToFloat()));
  EXPECT_TRUE(std::isnan(Float16::FromFloat(NAN).ToFloat()));
  // Round to nearest even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(Float16::FromFloat(1.0f + 0.00048828125f).bits, 0x3c00);
  EXPECT_EQ(Float16::FromFloat(5.9604644775390625e-8f).bits, 0x0001);  // smallest subnormal
}

TEST(HalfTest, BFloat16) {
  EXPECT_EQ(BFloat16::FromFloat(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16::FromFloat(-3.0f).ToFloat(), -3.0f);
  EXPECT_TRUE(std::isnan(BFloat16::FromFloat(NAN).ToFloat()));
}

}  // namespace
}  // namespace graphgc
