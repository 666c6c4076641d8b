// The narrow element types (valuestore/narrow_types.h): exact decoding, round-to-nearest-even
// encoding with Cast's saturate rules, and their DataType names and predicates.
#include "graphgc/valuestore/narrow_types.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/data_type_set.h"
#include "graphgc/valuestore/tensor.h"
#include "gtest/gtest.h"

namespace graphgc {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

template <class T>
class SmallFloatTest : public ::testing::Test {};
using SmallFloats =
    ::testing::Types<Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float4E2M1>;
TYPED_TEST_SUITE(SmallFloatTest, SmallFloats);

int PatternCount(SmallFloatFormat format) {
  return 1 << (1 + format.exponent_bits + format.mantissa_bits);
}

// Every pattern decodes to a value that encodes back to the same pattern (NaNs to a NaN).
TYPED_TEST(SmallFloatTest, EveryPatternRoundTrips) {
  for (int bits = 0; bits < PatternCount(TypeParam::kFormatSpec); ++bits) {
    const float value = TypeParam{static_cast<uint8_t>(bits)}.ToFloat();
    for (Saturation saturation : {Saturation::kSaturate, Saturation::kNoSaturate}) {
      const TypeParam back = TypeParam::FromFloat(value, saturation);
      if (std::isnan(value)) {
        EXPECT_TRUE(std::isnan(back.ToFloat())) << bits;
      } else if (std::isinf(value) && saturation == Saturation::kSaturate) {
        EXPECT_FALSE(std::isinf(back.ToFloat())) << bits;
      } else {
        EXPECT_EQ(back.bits, bits) << bits << " decodes to " << value;
      }
    }
  }
}

// Between two neighbouring finite values, a value rounds to the nearer; the exact middle to the
// one with an even pattern.
TYPED_TEST(SmallFloatTest, RoundsToNearestEven) {
  const int half = PatternCount(TypeParam::kFormatSpec) / 2;
  for (int bits = 0; bits + 1 < half; ++bits) {
    const float low = TypeParam{static_cast<uint8_t>(bits)}.ToFloat();
    const float high = TypeParam{static_cast<uint8_t>(bits + 1)}.ToFloat();
    if (!std::isfinite(low) || !std::isfinite(high)) continue;
    const double middle = (static_cast<double>(low) + high) / 2;
    const uint8_t even = static_cast<uint8_t>(bits % 2 == 0 ? bits : bits + 1);
    EXPECT_EQ(TypeParam::FromDouble(middle).bits, even) << low << " .. " << high;
    EXPECT_EQ(TypeParam::FromDouble(std::nextafter(middle, 0.0)).bits, bits) << low;
    EXPECT_EQ(TypeParam::FromDouble(std::nextafter(middle, 1e9)).bits, bits + 1) << high;
    // Negative values mirror positive ones (fnuz's zero has no sign).
    const TypeParam negative = TypeParam::FromDouble(-std::nextafter(middle, 1e9));
    EXPECT_EQ(negative.ToFloat(), -high) << high;
  }
}

TEST(SmallFloatTest, LargestValuesAndOverflow) {
  EXPECT_EQ(Float8E4M3FN::FromFloat(448).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(240).bits, 0x7F);
  EXPECT_EQ(Float8E5M2::FromFloat(57344).bits, 0x7B);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(57344).bits, 0x7F);
  EXPECT_EQ(Float4E2M1::FromFloat(6).bits, 0x7);
  // 464 is halfway between 448 and the 480 e4m3fn lacks: even rounds down to 448.
  EXPECT_EQ(Float8E4M3FN::FromFloat(464, Saturation::kNoSaturate).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(465, Saturation::kNoSaturate).bits, 0x7F);  // NaN
  EXPECT_EQ(Float8E4M3FN::FromFloat(-465, Saturation::kNoSaturate).bits, 0xFF);
  EXPECT_EQ(Float8E4M3FN::FromFloat(1e9f).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-kInf).bits, 0xFE);
  EXPECT_EQ(Float8E4M3FN::FromFloat(kInf, Saturation::kNoSaturate).bits, 0x7F);
  EXPECT_EQ(Float8E5M2::FromFloat(kInf, Saturation::kNoSaturate).bits, 0x7C);
  EXPECT_EQ(Float8E5M2::FromFloat(-1e9f, Saturation::kNoSaturate).bits, 0xFC);
  EXPECT_EQ(Float8E5M2::FromFloat(-kInf).bits, 0xFB);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-kInf, Saturation::kNoSaturate).bits, 0x80);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(1e9f, Saturation::kNoSaturate).bits, 0x80);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-kInf).bits, 0xFF);
  EXPECT_EQ(Float4E2M1::FromFloat(kInf, Saturation::kNoSaturate).bits, 0x7);
  EXPECT_EQ(Float4E2M1::FromFloat(-100).bits, 0xF);
}

TEST(SmallFloatTest, ZerosAndNans) {
  EXPECT_EQ(Float8E4M3FN::FromFloat(-0.0f).bits, 0x80);
  EXPECT_EQ(Float8E5M2::FromFloat(-0.0f).bits, 0x80);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(-0.0f).bits, 0x00);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(-1e-30f).bits, 0x00);  // rounds to zero, which has no sign
  EXPECT_EQ(Float8E4M3FN::FromFloat(kNan).bits, 0x7F);
  EXPECT_EQ(Float8E4M3FN::FromFloat(-kNan).bits, 0xFF);
  EXPECT_EQ(Float8E5M2::FromFloat(kNan).bits, 0x7E);
  EXPECT_EQ(Float8E4M3FNUZ::FromFloat(kNan).bits, 0x80);
  EXPECT_EQ(Float8E5M2FNUZ::FromFloat(-kNan).bits, 0x80);
  EXPECT_EQ(Float4E2M1::FromFloat(kNan).bits, 0x8);
  EXPECT_TRUE(std::isnan(Float8E4M3FNUZ{0x80}.ToFloat()));
  // NaNs decode with their sign (as ml_dtypes), so the canonical ones round-trip.
  EXPECT_TRUE(std::signbit(Float8E4M3FNUZ{0x80}.ToFloat()));
  EXPECT_FALSE(std::signbit(Float8E4M3FN{0x7F}.ToFloat()));
  EXPECT_EQ(Float8E4M3FN::FromFloat(Float8E4M3FN{0xFF}.ToFloat()).bits, 0xFF);
  EXPECT_EQ(Float8E5M2::FromFloat(Float8E5M2{0xFE}.ToFloat()).bits, 0xFE);
  EXPECT_TRUE(std::isnan(Float8E5M2{0x7D}.ToFloat()));
  EXPECT_EQ(Float8E5M2{0xFC}.ToFloat(), -kInf);
  EXPECT_EQ(Float8E4M3FN{0x01}.ToFloat(), std::ldexp(1.0f, -9));  // smallest subnormal
  EXPECT_EQ(Float8E4M3FNUZ{0x01}.ToFloat(), std::ldexp(1.0f, -10));
  EXPECT_EQ(Float8E5M2{0x01}.ToFloat(), std::ldexp(1.0f, -16));
  EXPECT_EQ(Float8E5M2FNUZ{0x01}.ToFloat(), std::ldexp(1.0f, -17));
  EXPECT_EQ(Float4E2M1{0x01}.ToFloat(), 0.5f);
  EXPECT_EQ(Float4E2M1{0x0B}.ToFloat(), -1.5f);
}

TEST(Float8E8M0Test, DecodesPowersOfTwo) {
  for (int bits = 0; bits < 255; ++bits) {
    EXPECT_EQ(Float8E8M0{static_cast<uint8_t>(bits)}.ToFloat(), std::ldexp(1.0f, bits - 127));
    if (bits > 0) {
      EXPECT_EQ(Float8E8M0::FromFloat(std::ldexp(1.0f, bits - 127)).bits, bits);
    }
  }
  // 2^-127 is a float subnormal, whose fraction bits ONNX's reference rounds up.
  EXPECT_EQ(Float8E8M0::FromFloat(std::ldexp(1.0f, -127)).bits, 1);
  EXPECT_EQ(
      Float8E8M0::FromFloat(std::ldexp(1.0f, -127), Saturation::kSaturate, E8M0Rounding::kDown)
          .bits,
      0);
  EXPECT_TRUE(std::isnan(Float8E8M0{0xFF}.ToFloat()));
}

TEST(Float8E8M0Test, RoundingModes) {
  EXPECT_EQ(Float8E8M0::FromFloat(1.1f).bits, 128);  // up: 2
  EXPECT_EQ(Float8E8M0::FromFloat(1.1f, Saturation::kSaturate, E8M0Rounding::kDown).bits, 127);
  EXPECT_EQ(Float8E8M0::FromFloat(1.4f, Saturation::kSaturate, E8M0Rounding::kNearest).bits, 127);
  EXPECT_EQ(Float8E8M0::FromFloat(1.5f, Saturation::kSaturate, E8M0Rounding::kNearest).bits, 128);
  EXPECT_EQ(Float8E8M0::FromFloat(0.0f).bits, 0);
  EXPECT_EQ(Float8E8M0::FromFloat(kNan).bits, 0xFF);
  EXPECT_EQ(Float8E8M0::FromFloat(kInf).bits, 0xFE);
  EXPECT_EQ(Float8E8M0::FromFloat(kInf, Saturation::kNoSaturate).bits, 0xFF);
  const float above_largest = std::nextafter(std::ldexp(1.0f, 127), kInf);
  EXPECT_EQ(Float8E8M0::FromFloat(above_largest).bits, 0xFE);
  EXPECT_EQ(Float8E8M0::FromFloat(above_largest, Saturation::kNoSaturate).bits, 0xFF);
}

TEST(Int4Test, WrapsAndPacks) {
  EXPECT_EQ(Int4::FromInteger(7).value, 7);
  EXPECT_EQ(Int4::FromInteger(8).value, -8);
  EXPECT_EQ(Int4::FromInteger(-9).value, 7);
  EXPECT_EQ(UInt4::FromInteger(-1).value, 15);
  EXPECT_EQ(UInt4::FromInteger(16).value, 0);
  for (uint8_t nibble = 0; nibble < 16; ++nibble) {
    EXPECT_EQ(Int4::FromNibble(nibble).ToNibble(), nibble);
    EXPECT_EQ(UInt4::FromNibble(nibble).ToNibble(), nibble);
  }
}

TEST(NarrowDataTypeTest, NamesSizesAndPredicates) {
  const std::pair<DataType, const char*> names[] = {{DataType::kFloat8E4M3FN, "float8e4m3fn"},
                                                    {DataType::kFloat8E4M3FNUZ, "float8e4m3fnuz"},
                                                    {DataType::kFloat8E5M2, "float8e5m2"},
                                                    {DataType::kFloat8E5M2FNUZ, "float8e5m2fnuz"},
                                                    {DataType::kUint4, "uint4"},
                                                    {DataType::kInt4, "int4"},
                                                    {DataType::kFloat4E2M1, "float4e2m1"},
                                                    {DataType::kFloat8E8M0, "float8e8m0"}};
  for (const auto& [type, name] : names) {
    EXPECT_TRUE(IsSupportedDataType(static_cast<int32_t>(type))) << name;
    EXPECT_EQ(DataTypeName(type), name);
    EXPECT_EQ(ElementSize(type), 1u) << name;
    EXPECT_TRUE(IsNarrow(type)) << name;
    EXPECT_FALSE(IsFloatingPoint(type)) << name;
    EXPECT_FALSE(IsNumeric(type)) << name;
    EXPECT_FALSE(data_types::kAll.contains(type)) << name;
    EXPECT_TRUE(data_types::kMovable.contains(type)) << name;
  }
  EXPECT_TRUE(IsInt4(DataType::kInt4));
  EXPECT_FALSE(IsNarrowFloat(DataType::kUint4));
  EXPECT_TRUE(IsNarrowFloat(DataType::kFloat8E8M0));
  EXPECT_FALSE(IsSupportedDataType(25));
  EXPECT_EQ(data_types::kMovable.types().size(), 22u);  // every DataType but kUndefined
}

TEST(NarrowDataTypeTest, TensorsPrintTheirValues) {
  MutableTensor f8 = *MutableTensor::allocate(DataType::kFloat8E4M3FN, {3});
  f8.mutable_data<Float8E4M3FN>()[0] = Float8E4M3FN::FromFloat(1.5f);
  f8.mutable_data<Float8E4M3FN>()[1] = Float8E4M3FN::FromFloat(-448);
  f8.mutable_data<Float8E4M3FN>()[2] = Float8E4M3FN{0x7F};
  std::ostringstream f8_text;
  f8_text << std::move(f8).freeze();
  EXPECT_EQ(f8_text.str(), "float8e4m3fn[3] {1.5, -448, nan}");
  MutableTensor i4 = *MutableTensor::allocate(DataType::kInt4, {2});
  i4.mutable_data<Int4>()[0] = Int4::FromInteger(-8);
  i4.mutable_data<Int4>()[1] = Int4::FromInteger(7);
  std::ostringstream i4_text;
  i4_text << std::move(i4).freeze();
  EXPECT_EQ(i4_text.str(), "int4[2] {-8, 7}");
}

}  // namespace
}  // namespace graphgc
