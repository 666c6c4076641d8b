// The narrow element types at the TensorProto boundary (opset/proto/tensor_proto.h): every bit
// pattern of every type round-trips Tensor -> TensorProto -> Tensor bit-exactly; 4-bit elements
// are packed two per byte, low nibble first, odd counts padded, in raw_data and in int32_data;
// the 8-bit ones take one int32_data entry each.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/data_type_set.h"
#include "graphgc/valuestore/narrow_types.h"
#include "graphgc/valuestore/tensor.h"
#include "gtest/gtest.h"

namespace graphgc {
namespace {

using internal::FromTensorProto;
using internal::ToTensorProto;
using ::testing::HasSubstr;

// A tensor of `dtype` holding each of its `patterns` bit patterns (the 4-bit types: nibbles).
Tensor EveryPattern(DataType dtype, int patterns) {
  MutableTensor out = *MutableTensor::allocate(dtype, {patterns});
  auto* bytes = static_cast<uint8_t*>(out.raw_mutable_data());
  for (int i = 0; i < patterns; ++i) {
    const auto nibble_or_byte = static_cast<uint8_t>(i);
    // int4 holds its value sign-extended in memory.
    bytes[i] = dtype == DataType::kInt4
                   ? static_cast<uint8_t>(Int4::FromNibble(nibble_or_byte).value)
                   : nibble_or_byte;
  }
  return std::move(out).freeze();
}

int PatternCount(DataType dtype) { return internal::IsPackedInRawData(dtype) ? 16 : 256; }

TEST(NarrowTensorProtoTest, EveryBitPatternRoundTripsThroughRawData) {
  for (DataType dtype : data_types::kNarrow.types()) {
    const Tensor tensor = EveryPattern(dtype, PatternCount(dtype));
    const onnx::TensorProto proto = ToTensorProto(tensor);
    EXPECT_EQ(proto.data_type(), static_cast<int32_t>(dtype));
    EXPECT_EQ(static_cast<int64_t>(proto.raw_data().size()),
              internal::RawDataBytes(dtype, tensor.size()))
        << DataTypeName(dtype);
    absl::StatusOr<Tensor> back = FromTensorProto(proto);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, tensor) << DataTypeName(dtype);
  }
}

TEST(NarrowTensorProtoTest, EightBitPatternsReadFromInt32Data) {
  for (DataType dtype : (data_types::kFloat8 | DataTypeSet{DataType::kFloat8E8M0}).types()) {
    onnx::TensorProto proto;
    proto.set_data_type(static_cast<int32_t>(dtype));
    proto.add_dims(256);
    for (int i = 0; i < 256; ++i) proto.add_int32_data(i);
    absl::StatusOr<Tensor> tensor = FromTensorProto(proto);
    ASSERT_TRUE(tensor.ok()) << tensor.status();
    EXPECT_EQ(*tensor, EveryPattern(dtype, 256)) << DataTypeName(dtype);
  }
}

TEST(NarrowTensorProtoTest, FourBitElementsPackLowNibbleFirstAndPadOddCounts) {
  MutableTensor i4 = *MutableTensor::allocate(DataType::kInt4, {3});
  i4.mutable_data<Int4>()[0] = Int4::FromInteger(1);
  i4.mutable_data<Int4>()[1] = Int4::FromInteger(-2);
  i4.mutable_data<Int4>()[2] = Int4::FromInteger(-8);
  const Tensor tensor = std::move(i4).freeze();
  const onnx::TensorProto proto = ToTensorProto(tensor);
  EXPECT_EQ(proto.raw_data(), std::string("\xE1\x08", 2));
  absl::StatusOr<Tensor> back = FromTensorProto(proto);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, tensor);

  // The same elements as int32_data: one packed byte per entry.
  onnx::TensorProto typed;
  typed.set_data_type(static_cast<int32_t>(DataType::kInt4));
  typed.add_dims(3);
  typed.add_int32_data(0xE1);
  typed.add_int32_data(0x08);
  absl::StatusOr<Tensor> from_typed = FromTensorProto(typed);
  ASSERT_TRUE(from_typed.ok()) << from_typed.status();
  EXPECT_EQ(*from_typed, tensor);

  // uint4 and float4e2m1 likewise; 5 elements take 3 bytes.
  for (DataType dtype : {DataType::kUint4, DataType::kFloat4E2M1}) {
    onnx::TensorProto packed;
    packed.set_data_type(static_cast<int32_t>(dtype));
    packed.add_dims(5);
    packed.set_raw_data(std::string("\x21\x43\x05", 3));
    absl::StatusOr<Tensor> unpacked = FromTensorProto(packed);
    ASSERT_TRUE(unpacked.ok()) << unpacked.status();
    const auto* bytes = static_cast<const uint8_t*>(unpacked->raw_data());
    EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + 5), (std::vector<uint8_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(ToTensorProto(*unpacked).raw_data(), packed.raw_data());
  }
}

TEST(NarrowTensorProtoTest, WrongSizesAreErrors) {
  onnx::TensorProto packed;
  packed.set_name("w");
  packed.set_data_type(static_cast<int32_t>(DataType::kUint4));
  packed.add_dims(5);
  packed.set_raw_data(std::string("\x21\x43", 2));  // 5 elements need 3 bytes
  absl::StatusOr<Tensor> short_raw = FromTensorProto(packed);
  ASSERT_FALSE(short_raw.ok());
  EXPECT_THAT(short_raw.status().message(), HasSubstr("'w'"));
  packed.clear_raw_data();
  for (int i = 0; i < 5; ++i) packed.add_int32_data(0);  // 5 entries where 3 packed bytes belong
  EXPECT_FALSE(FromTensorProto(packed).ok());

  onnx::TensorProto f8;
  f8.set_data_type(static_cast<int32_t>(DataType::kFloat8E5M2));
  f8.add_dims(2);
  f8.add_int32_data(0x3C);
  EXPECT_FALSE(FromTensorProto(f8).ok());
}

}  // namespace
}  // namespace graphgc
