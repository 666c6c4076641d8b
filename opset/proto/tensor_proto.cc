#include "graphgc/opset/proto/tensor_proto.h"

#include <cstring>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/half.h"
#include "graphgc/valuestore/narrow_types.h"

namespace graphgc::internal {
namespace {

// Calls f with a value of the C++ type of a 4-bit element type; false for the other types.
template <class F>
bool DispatchFourBit(DataType dtype, F&& f) {
  switch (dtype) {
    case DataType::kInt4:
      f(Int4{});
      return true;
    case DataType::kUint4:
      f(UInt4{});
      return true;
    case DataType::kFloat4E2M1:
      f(Float4E2M1{});
      return true;
    default:
      return false;
  }
}

template <class T>
uint8_t ToNibble(T element) {
  if constexpr (std::is_same_v<T, Float4E2M1>) {
    return element.bits & 0xFu;
  } else {
    return element.ToNibble();
  }
}

template <class T>
T FromNibble(uint8_t nibble) {
  if constexpr (std::is_same_v<T, Float4E2M1>) {
    return T{static_cast<uint8_t>(nibble & 0xFu)};
  } else {
    return T::FromNibble(nibble & 0xFu);
  }
}

template <class T>
std::string PackNibbles(absl::Span<const T> elements) {
  std::string packed((elements.size() + 1) / 2, '\0');
  for (size_t i = 0; i < elements.size(); ++i) {
    packed[i / 2] = static_cast<char>(static_cast<uint8_t>(packed[i / 2]) |
                                      ToNibble(elements[i]) << (i % 2 == 0 ? 0 : 4));
  }
  return packed;
}

// Unpacks elements from bytes of two each: `byte_at(j)` gives byte j.
template <class T, class ByteAt>
void UnpackNibbles(ByteAt byte_at, absl::Span<T> out) {
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = FromNibble<T>(static_cast<uint8_t>(byte_at(i / 2) >> (i % 2 == 0 ? 0 : 4)));
  }
}

}  // namespace

bool IsPackedInRawData(DataType dtype) { return IsInt4(dtype) || dtype == DataType::kFloat4E2M1; }

int64_t RawDataBytes(DataType dtype, int64_t count) {
  if (IsPackedInRawData(dtype)) return (count + 1) / 2;
  return count * static_cast<int64_t>(ElementSize(dtype));
}

std::string ToRawData(const Tensor& tensor) {
  std::string packed;
  if (DispatchFourBit(tensor.dtype(),
                      [&](auto tag) { packed = PackNibbles(tensor.data<decltype(tag)>()); })) {
    return packed;
  }
  // raw_data is little-endian; so is every target this library builds for.
  return std::string(static_cast<const char*>(tensor.raw_data()), tensor.nbytes());
}

absl::StatusOr<Tensor> FromRawData(DataType dtype, const Shape& shape, absl::string_view bytes) {
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(dtype, shape);
  if (!out.ok()) return out.status();
  if (dtype == DataType::kString) {
    return absl::InvalidArgumentError("string tensors have no raw data");
  }
  const int64_t expected = RawDataBytes(dtype, out->size());
  if (static_cast<int64_t>(bytes.size()) != expected) {
    return absl::InvalidArgumentError(absl::StrCat(bytes.size(), " bytes of raw data for ",
                                                   DataTypeName(dtype), ShapeToString(shape),
                                                   " of ", expected));
  }
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (DispatchFourBit(dtype, [&](auto tag) {
        UnpackNibbles([&](size_t j) { return data[j]; }, out->mutable_data<decltype(tag)>());
      })) {
    return std::move(*out).freeze();
  }
  if (dtype == DataType::kBool) {  // any non-zero byte is true; store canonical bools
    auto values = out->mutable_data<bool>();
    for (size_t i = 0; i < values.size(); ++i) values[i] = data[i] != 0;
  } else if (!bytes.empty()) {
    std::memcpy(out->raw_mutable_data(), bytes.data(), bytes.size());
  }
  return std::move(*out).freeze();
}

onnx::TensorProto ToTensorProto(const Tensor& tensor) {
  onnx::TensorProto proto;
  proto.set_data_type(static_cast<int32_t>(tensor.dtype()));
  for (int64_t dim : tensor.shape()) proto.add_dims(dim);
  if (tensor.dtype() == DataType::kString) {
    for (const std::string& s : tensor.data<std::string>()) proto.add_string_data(s);
  } else {
    proto.set_raw_data(ToRawData(tensor));
  }
  return proto;
}

namespace {

absl::Status SizeMismatch(const onnx::TensorProto& proto, int64_t expected, int64_t given) {
  return absl::InvalidArgumentError(
      absl::StrCat("tensor '", proto.name(), "': ", given, " values for ", expected, " elements"));
}

// Copies `count` values of a typed repeated field into T elements (ONNX stores the narrow integer
// types, bool and the 16-bit and 8-bit floats' bit patterns in int32_data).
template <class T, class Field>
absl::Status CopyField(const onnx::TensorProto& proto, const Field& field, MutableTensor& out) {
  if (static_cast<int64_t>(field.size()) != out.size()) {
    return SizeMismatch(proto, out.size(), field.size());
  }
  auto dst = out.mutable_data<T>();
  for (int64_t i = 0; i < out.size(); ++i) {
    if constexpr (requires { T{}.bits; }) {  // a float's bit pattern
      dst[i] = T{static_cast<decltype(T{}.bits)>(field[static_cast<int>(i)])};
    } else {
      dst[i] = static_cast<T>(field[static_cast<int>(i)]);
    }
  }
  return absl::OkStatus();
}

// How many values the typed field for `dtype` holds.
int64_t TypedFieldSize(const onnx::TensorProto& proto, DataType dtype) {
  switch (dtype) {
    case DataType::kFloat:
      return proto.float_data_size();
    case DataType::kDouble:
      return proto.double_data_size();
    case DataType::kInt64:
      return proto.int64_data_size();
    case DataType::kUint64:
    case DataType::kUint32:
      return proto.uint64_data_size();
    case DataType::kString:
      return proto.string_data_size();
    case DataType::kUndefined:
      return -1;
    default:
      return proto.int32_data_size();  // the narrow integers, bool and 16-bit and 8-bit floats
  }
}

// int32_data's entries for `count` elements: one each, or one per packed byte of 4-bit elements.
int64_t TypedFieldEntries(DataType dtype, int64_t count) {
  return IsPackedInRawData(dtype) ? RawDataBytes(dtype, count) : count;
}

absl::Status CopyTypedData(const onnx::TensorProto& proto, MutableTensor& out) {
  switch (out.dtype()) {
    case DataType::kFloat:
      return CopyField<float>(proto, proto.float_data(), out);
    case DataType::kDouble:
      return CopyField<double>(proto, proto.double_data(), out);
    case DataType::kInt64:
      return CopyField<int64_t>(proto, proto.int64_data(), out);
    case DataType::kUint64:
      return CopyField<uint64_t>(proto, proto.uint64_data(), out);
    case DataType::kUint32:
      return CopyField<uint32_t>(proto, proto.uint64_data(), out);
    case DataType::kInt32:
      return CopyField<int32_t>(proto, proto.int32_data(), out);
    case DataType::kInt16:
      return CopyField<int16_t>(proto, proto.int32_data(), out);
    case DataType::kInt8:
      return CopyField<int8_t>(proto, proto.int32_data(), out);
    case DataType::kUint16:
      return CopyField<uint16_t>(proto, proto.int32_data(), out);
    case DataType::kUint8:
      return CopyField<uint8_t>(proto, proto.int32_data(), out);
    case DataType::kBool:
      return CopyField<bool>(proto, proto.int32_data(), out);
    case DataType::kFloat16:
      return CopyField<Float16>(proto, proto.int32_data(), out);
    case DataType::kBfloat16:
      return CopyField<BFloat16>(proto, proto.int32_data(), out);
    case DataType::kFloat8E4M3FN:
      return CopyField<Float8E4M3FN>(proto, proto.int32_data(), out);
    case DataType::kFloat8E4M3FNUZ:
      return CopyField<Float8E4M3FNUZ>(proto, proto.int32_data(), out);
    case DataType::kFloat8E5M2:
      return CopyField<Float8E5M2>(proto, proto.int32_data(), out);
    case DataType::kFloat8E5M2FNUZ:
      return CopyField<Float8E5M2FNUZ>(proto, proto.int32_data(), out);
    case DataType::kFloat8E8M0:
      return CopyField<Float8E8M0>(proto, proto.int32_data(), out);
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kFloat4E2M1:
      DispatchFourBit(out.dtype(), [&](auto tag) {
        UnpackNibbles(
            [&](size_t j) { return static_cast<uint8_t>(proto.int32_data(static_cast<int>(j))); },
            out.mutable_data<decltype(tag)>());
      });
      return absl::OkStatus();  // the caller checked the entries' count
    case DataType::kString: {
      if (static_cast<int64_t>(proto.string_data_size()) != out.size()) {
        return SizeMismatch(proto, out.size(), proto.string_data_size());
      }
      auto dst = out.mutable_data<std::string>();
      for (int64_t i = 0; i < out.size(); ++i) dst[i] = proto.string_data(static_cast<int>(i));
      return absl::OkStatus();
    }
    case DataType::kUndefined:
      break;
  }
  return absl::InvalidArgumentError("unsupported element type");
}

}  // namespace

absl::StatusOr<Tensor> FromTensorProto(const onnx::TensorProto& proto) {
  if (!IsSupportedDataType(proto.data_type())) {
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", proto.name(), "': unsupported element type ", proto.data_type()));
  }
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    return absl::UnimplementedError(
        absl::StrCat("tensor '", proto.name(), "': external data is not supported"));
  }
  const DataType dtype = static_cast<DataType>(proto.data_type());
  Shape shape(proto.dims().begin(), proto.dims().end());
  // Check the data against the dims before allocating: absurd dims must not allocate.
  const absl::StatusOr<int64_t> count = ElementCount(shape);
  if (!count.ok()) {
    return absl::Status(count.status().code(),
                        absl::StrCat("tensor '", proto.name(), "': ", count.status().message()));
  }
  const bool raw = proto.has_raw_data() && dtype != DataType::kString;
  const int64_t given =
      raw ? static_cast<int64_t>(proto.raw_data().size()) : TypedFieldSize(proto, dtype);
  const int64_t expected = raw ? RawDataBytes(dtype, *count) : TypedFieldEntries(dtype, *count);
  if (given != expected) {
    return absl::InvalidArgumentError(absl::StrCat("tensor '", proto.name(), "': ", given,
                                                   raw ? " bytes of raw_data" : " values",
                                                   " for shape ", ShapeToString(shape)));
  }
  if (raw) {
    absl::StatusOr<Tensor> tensor = FromRawData(dtype, shape, proto.raw_data());
    if (!tensor.ok()) {
      return absl::Status(tensor.status().code(),
                          absl::StrCat("tensor '", proto.name(), "': ", tensor.status().message()));
    }
    return tensor;
  }
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(dtype, shape);
  if (!out.ok()) {
    return absl::Status(out.status().code(),
                        absl::StrCat("tensor '", proto.name(), "': ", out.status().message()));
  }
  absl::Status copied = CopyTypedData(proto, *out);
  if (!copied.ok()) return copied;
  return std::move(*out).freeze();
}

onnx::TypeProto ToTypeProto(DataType dtype, const std::optional<Shape>& shape) {
  onnx::TypeProto type;
  onnx::TypeProto::Tensor* tensor_type = type.mutable_tensor_type();
  tensor_type->set_elem_type(static_cast<int32_t>(dtype));
  if (shape.has_value()) {
    onnx::TensorShapeProto* shape_proto = tensor_type->mutable_shape();
    for (int64_t dim : *shape) {
      onnx::TensorShapeProto::Dimension* d = shape_proto->add_dim();
      if (dim >= 0) d->set_dim_value(dim);
    }
  }
  return type;
}

onnx::TypeProto ToTypeProto(const VarType& type) {
  onnx::TypeProto proto;
  switch (type.kind()) {
    case VarType::Kind::kTensor: {
      std::optional<Shape> shape;
      if (type.shape().has_value()) shape.emplace(type.shape()->begin(), type.shape()->end());
      return ToTypeProto(type.dtype(), shape);
    }
    case VarType::Kind::kSequence:
      *proto.mutable_sequence_type()->mutable_elem_type() = ToTypeProto(type.element());
      break;
    case VarType::Kind::kOptional:
      *proto.mutable_optional_type()->mutable_elem_type() = ToTypeProto(type.element());
      break;
    case VarType::Kind::kMap:
      proto.mutable_map_type()->set_key_type(static_cast<int32_t>(type.key()));
      *proto.mutable_map_type()->mutable_value_type() = ToTypeProto(type.element());
      break;
  }
  return proto;
}

absl::StatusOr<VarType> FromTypeProto(const onnx::TypeProto& type, absl::string_view what) {
  auto element = [&](const onnx::TypeProto& inner) { return FromTypeProto(inner, what); };
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& tensor = type.tensor_type();
      if (!IsSupportedDataType(tensor.elem_type())) {
        return absl::InvalidArgumentError(
            absl::StrCat(what, " has the unsupported element type ", tensor.elem_type()));
      }
      std::optional<std::vector<int64_t>> shape;
      if (tensor.has_shape()) {
        shape.emplace();
        for (const auto& dim : tensor.shape().dim()) {
          shape->push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value() : -1);
        }
      }
      return VarType::Tensor(static_cast<DataType>(tensor.elem_type()), std::move(shape));
    }
    case onnx::TypeProto::kSequenceType: {
      absl::StatusOr<VarType> inner = element(type.sequence_type().elem_type());
      if (!inner.ok()) return inner.status();
      return VarType::Sequence(*std::move(inner));
    }
    case onnx::TypeProto::kOptionalType: {
      absl::StatusOr<VarType> inner = element(type.optional_type().elem_type());
      if (!inner.ok()) return inner.status();
      return VarType::Optional(*std::move(inner));
    }
    case onnx::TypeProto::kMapType: {
      const int32_t key = type.map_type().key_type();
      if (!IsSupportedDataType(key)) {
        return absl::InvalidArgumentError(absl::StrCat(what, " has the map key type ", key));
      }
      absl::StatusOr<VarType> inner = element(type.map_type().value_type());
      if (!inner.ok()) return inner.status();
      return VarType::Map(static_cast<DataType>(key), *std::move(inner));
    }
    case onnx::TypeProto::kSparseTensorType:
      return absl::UnimplementedError(absl::StrCat(what, " is a sparse tensor (not supported)"));
    default:
      return absl::InvalidArgumentError(absl::StrCat(what, " has no type"));
  }
}

void ToAttributeProto(const Attribute& attribute, onnx::AttributeProto* proto) {
  proto->set_name(attribute.name);
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          proto->set_type(onnx::AttributeProto::INT);
          proto->set_i(value);
        } else if constexpr (std::is_same_v<T, float>) {
          proto->set_type(onnx::AttributeProto::FLOAT);
          proto->set_f(value);
        } else if constexpr (std::is_same_v<T, std::string>) {
          proto->set_type(onnx::AttributeProto::STRING);
          proto->set_s(value);
        } else if constexpr (std::is_same_v<T, Tensor>) {
          proto->set_type(onnx::AttributeProto::TENSOR);
          *proto->mutable_t() = ToTensorProto(value);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          proto->set_type(onnx::AttributeProto::INTS);
          for (int64_t v : value) proto->add_ints(v);
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          proto->set_type(onnx::AttributeProto::FLOATS);
          for (float v : value) proto->add_floats(v);
        } else if constexpr (std::is_same_v<T, VarType>) {
          proto->set_type(onnx::AttributeProto::TYPE_PROTO);
          *proto->mutable_tp() = ToTypeProto(value);
        } else if constexpr (std::is_same_v<T, SubgraphId> || std::is_same_v<T, Subgraph>) {
          proto->set_type(onnx::AttributeProto::GRAPH);  // the body itself is the exporter's
        } else {
          proto->set_type(onnx::AttributeProto::STRINGS);
          for (const std::string& v : value) proto->add_strings(v);
        }
      },
      attribute.value);
}

}  // namespace graphgc::internal
