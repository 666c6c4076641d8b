#include "fuzz_values.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

#include "absl/strings/match.h"
#include "graphgc/valuestore/narrow_types.h"

namespace graphgc::fuzz {
namespace {

constexpr DataType kDataTypes[] = {
    DataType::kFloat, DataType::kInt64, DataType::kInt32, DataType::kBool, DataType::kDouble,
    DataType::kUint8, DataType::kInt8, DataType::kFloat16, DataType::kString, DataType::kUint16,
    DataType::kInt16, DataType::kUint32, DataType::kUint64, DataType::kBfloat16,
    // The narrow types of opsets 19 to 24 (valuestore/narrow_types.h), one byte per element.
    DataType::kFloat8E4M3FN, DataType::kFloat8E4M3FNUZ, DataType::kFloat8E5M2,
    DataType::kFloat8E5M2FNUZ, DataType::kUint4, DataType::kInt4, DataType::kFloat4E2M1,
    DataType::kFloat8E8M0};

// A byte as a valid element of a one-byte narrow type: a 4-bit type keeps its low nibble (int4
// sign-extended), as Tensor holds them.
unsigned char NarrowByte(DataType dtype, unsigned char byte) {
  switch (dtype) {
    case DataType::kUint4:
    case DataType::kFloat4E2M1:
      return byte & 0xFu;
    case DataType::kInt4:
      return static_cast<unsigned char>(Int4::FromNibble(byte).value);
    default:
      return byte;
  }
}

// Fills one element of `size` bytes: mostly small integers in the element's own encoding, so that
// indices, axes and shapes are often valid; sometimes raw bytes (NaN, Inf, extremes).
void FillElement(FuzzInput& in, DataType dtype, unsigned char* out) {
  const size_t size = ElementSize(dtype);
  if (in.pick(4) == 0 && dtype != DataType::kBool) {  // a bool byte is 0 or 1, as Tensor requires
    for (size_t i = 0; i < size; ++i) out[i] = in.byte();
    if (size == 1) out[0] = NarrowByte(dtype, out[0]);
    return;
  }
  const int64_t small = in.int_in(-2, 5);
  auto store = [&](auto value) { std::memcpy(out, &value, sizeof value); };
  switch (dtype) {
    case DataType::kFloat:
      return store(static_cast<float>(small));
    case DataType::kDouble:
      return store(static_cast<double>(small));
    case DataType::kFloat16:
      return store(Float16::FromFloat(static_cast<float>(small)).bits);
    case DataType::kBfloat16:
      return store(BFloat16::FromFloat(static_cast<float>(small)).bits);
    case DataType::kBool:
      return store(static_cast<uint8_t>(small & 1));
    case DataType::kFloat8E4M3FN:
      return store(Float8E4M3FN::FromDouble(static_cast<double>(small)).bits);
    case DataType::kFloat8E4M3FNUZ:
      return store(Float8E4M3FNUZ::FromDouble(static_cast<double>(small)).bits);
    case DataType::kFloat8E5M2:
      return store(Float8E5M2::FromDouble(static_cast<double>(small)).bits);
    case DataType::kFloat8E5M2FNUZ:
      return store(Float8E5M2FNUZ::FromDouble(static_cast<double>(small)).bits);
    case DataType::kFloat4E2M1:
      return store(Float4E2M1::FromDouble(static_cast<double>(small)).bits);
    case DataType::kFloat8E8M0:  // no zero, no sign: the small value's magnitude
      return store(Float8E8M0::FromFloat(static_cast<float>(small)).bits);
    case DataType::kInt4:
      return store(Int4::FromInteger(small).value);
    case DataType::kUint4:
      return store(UInt4::FromInteger(small).value);
    default:
      // Integers: the low bytes of the small value in two's complement.
      for (size_t i = 0; i < size; ++i) out[i] = static_cast<unsigned char>(small >> (8 * i));
  }
}

const char* const kStrings[] = {"constant",
                                "reflect",
                                "edge",
                                "linear",
                                "nearest",
                                "cubic",
                                "NOTSET",
                                "SAME_UPPER",
                                "VALID",
                                "",
                                "a",
                                "relu",
                                "tanh",
                                "sigmoid",
                                "forward",
                                "reverse",
                                "half_pixel",
                                "asymmetric",
                                "round_prefer_floor",
                                "floor",
                                "ceil",
                                "bilinear"};

std::string AnyString(FuzzInput& in) {
  if (in.pick(8) == 0) return in.text(6);
  return kStrings[in.pick(std::size(kStrings))];
}

float AnyFloat(FuzzInput& in) {
  if (in.pick(6) == 0) return in.raw<float>();
  return static_cast<float>(in.int_in(-2, 4)) / static_cast<float>(in.int_in(1, 2));
}

// A body for a graph attribute: returns its arguments (or, for a body without arguments, one
// constant), sometimes through a random unary op.
Subgraph AnyBody(FuzzInput& in) {
  const bool through_op = in.flag();
  const Tensor constant = AnyTensor(in, in.flag() ? DataType::kBool : DataType::kFloat);
  return Subgraph([through_op, constant](absl::Span<const Var> arguments) {
    std::vector<Var> results(arguments.begin(), arguments.end());
    if (results.empty()) return results;
    if (through_op) results.back() = op::Identity(results.back());
    return results;
  });
}

AttributeValue RightValue(FuzzInput& in, onnx::AttributeProto::AttributeType type) {
  switch (type) {
    case onnx::AttributeProto::INT:
      return in.interesting_int();
    case onnx::AttributeProto::FLOAT:
      return AnyFloat(in);
    case onnx::AttributeProto::STRING:
      return AnyString(in);
    case onnx::AttributeProto::TENSOR:
      return AnyTensor(in, AnyDataType(in));
    case onnx::AttributeProto::GRAPH:
      return AnyBody(in);
    case onnx::AttributeProto::TYPE_PROTO:
      return VarType::Tensor(AnyDataType(in), SmallShape(in, true));
    case onnx::AttributeProto::INTS: {
      std::vector<int64_t> values(in.pick(6));
      for (int64_t& v : values) v = in.interesting_int();
      return values;
    }
    case onnx::AttributeProto::FLOATS: {
      std::vector<float> values(in.pick(6));
      for (float& v : values) v = AnyFloat(in);
      return values;
    }
    case onnx::AttributeProto::STRINGS: {
      std::vector<std::string> values(in.pick(4));
      for (std::string& v : values) v = AnyString(in);
      return values;
    }
    default:
      return in.interesting_int();
  }
}

constexpr onnx::AttributeProto::AttributeType kAttributeTypes[] = {
    onnx::AttributeProto::INT,     onnx::AttributeProto::FLOAT,     onnx::AttributeProto::STRING,
    onnx::AttributeProto::TENSOR,  onnx::AttributeProto::INTS,      onnx::AttributeProto::FLOATS,
    onnx::AttributeProto::STRINGS, onnx::AttributeProto::TYPE_PROTO};

}  // namespace

DataType AnyDataType(FuzzInput& in) { return kDataTypes[in.pick(std::size(kDataTypes))]; }

std::vector<int64_t> SmallShape(FuzzInput& in, bool unknown) {
  std::vector<int64_t> shape(in.pick(5));
  for (int64_t& dim : shape) dim = in.int_in(unknown ? -1 : 0, 4);
  return shape;
}

Tensor AnyTensor(FuzzInput& in, DataType dtype) {
  const std::vector<int64_t> shape = SmallShape(in, false);
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(dtype, shape);
  if (!out.ok()) return Tensor();
  if (dtype == DataType::kString) {
    for (std::string& s : out->mutable_data<std::string>()) s = AnyString(in);
  } else {
    auto* bytes = static_cast<unsigned char*>(out->raw_mutable_data());
    const size_t size = ElementSize(dtype);
    for (int64_t i = 0; i < out->size(); ++i) FillElement(in, dtype, bytes + i * size);
  }
  return std::move(*out).freeze();
}

const std::vector<const onnx::OpSchema*>& Schemas() {
  static const std::vector<const onnx::OpSchema*>* schemas = [] {
    auto* list = new std::vector<const onnx::OpSchema*>();
    for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas()) {
      if (schema.Deprecated()) continue;
      if (schema.domain() != "" && schema.domain() != "ai.onnx.ml") continue;
      list->push_back(
          onnx::OpSchemaRegistry::Schema(schema.Name(), schema.since_version(), schema.domain()));
    }
    std::sort(list->begin(), list->end(), [](const auto* a, const auto* b) {
      return std::tie(a->domain(), a->Name()) < std::tie(b->domain(), b->Name());
    });
    return list;
  }();
  return *schemas;
}

std::vector<Attribute> AnyAttributes(FuzzInput& in, const onnx::OpSchema& schema) {
  std::vector<Attribute> attributes;
  for (const auto& [name, attribute] : schema.attributes()) {
    // Required ones mostly given, optional ones half the time.
    if (in.pick(attribute.required ? 8 : 2) == 0) continue;
    const bool wrong = in.pick(16) == 0;
    const auto type = wrong ? kAttributeTypes[in.pick(std::size(kAttributeTypes))] : attribute.type;
    attributes.push_back({name, RightValue(in, type)});
  }
  if (in.pick(32) == 0) attributes.push_back({"no_such_attribute", in.interesting_int()});
  return attributes;
}

bool IsKnownExportLimit(const absl::Status& status) {
  const absl::string_view message = status.message();
  return absl::StrContains(message, "ONNX 1.12's checker requires a shape") ||
         (absl::StrContains(message, "where ") &&
          absl::StrContains(message, "is defined differently"));
}

}  // namespace graphgc::fuzz
