#include "graphgc/native_kernels.h"

#include <cstring>
#include <optional>

#include "graphgc/cast_kernel.h"
#include "graphgc/elementwise_kernels.h"
#include "graphgc/matmul_kernel.h"

namespace graphgc::internal {
namespace {

std::optional<int64_t> IntAttribute(const std::vector<Attribute>& attributes, absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name && std::holds_alternative<int64_t>(attribute.value)) {
      return std::get<int64_t>(attribute.value);
    }
  }
  return std::nullopt;
}

std::optional<Tensor> Int64Vector(absl::Span<const int64_t> values) {
  return Tensor::from_vector<int64_t>(std::vector<int64_t>(values.begin(), values.end()));
}

// Copies `count` elements of `element_size` bytes; strings by assignment.
void CopyElements(const Tensor& from, int64_t from_index, MutableTensor& to, int64_t to_index,
                  int64_t count) {
  if (from.dtype() == DataType::kString) {
    auto src = from.data<std::string>();
    auto dst = to.mutable_data<std::string>();
    for (int64_t i = 0; i < count; ++i) dst[to_index + i] = src[from_index + i];
    return;
  }
  const size_t size = ElementSize(from.dtype());
  std::memcpy(static_cast<char*>(to.raw_mutable_data()) + to_index * size,
              static_cast<const char*>(from.raw_data()) + from_index * size, count * size);
}

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;
  return product;
}

// Gather along `axis`: out[outer, index, inner] = data[outer, indices[index], inner].
std::optional<Tensor> Gather(const Tensor& data, const Tensor& indices, int64_t axis,
                             absl::Span<const int64_t> out_shape) {
  if (data.rank() == 0) return std::nullopt;
  if (axis < 0) axis += data.rank();
  if (axis < 0 || axis >= data.rank()) return std::nullopt;
  auto out = MutableTensor::allocate(data.dtype(), out_shape);
  if (!out.ok()) return std::nullopt;
  const int64_t outer = Product(data.shape().subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = Product(data.shape().subspan(static_cast<size_t>(axis) + 1));
  const int64_t extent = data.shape()[static_cast<size_t>(axis)];
  std::vector<int64_t> index_values;
  if (indices.dtype() == DataType::kInt64) {
    for (int64_t v : indices.data<int64_t>()) index_values.push_back(v);
  } else {
    for (int32_t v : indices.data<int32_t>()) index_values.push_back(v);
  }
  int64_t position = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : index_values) {
      if (index < 0) index += extent;
      if (index < 0 || index >= extent) return std::nullopt;  // out of range: ONNX leaves it undefined
      CopyElements(data, (o * extent + index) * inner, *out, position, inner);
      position += inner;
    }
  }
  return std::move(*out).freeze();
}

std::optional<Tensor> Concat(absl::Span<const OperandInfo> inputs, int64_t axis,
                             absl::Span<const int64_t> out_shape) {
  const int64_t rank = static_cast<int64_t>(out_shape.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return std::nullopt;
  auto out = MutableTensor::allocate(inputs[0].value->dtype(), out_shape);
  if (!out.ok()) return std::nullopt;
  const int64_t outer = Product(out_shape.subspan(0, static_cast<size_t>(axis)));
  int64_t position = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const OperandInfo& input : inputs) {
      const Tensor& t = *input.value;
      const int64_t block = Product(t.shape().subspan(static_cast<size_t>(axis)));
      CopyElements(t, o * block, *out, position, block);
      position += block;
    }
  }
  return std::move(*out).freeze();
}

// Shape (opset 15): the input's dims from `start` to `end`, both clamped like Python slices.
std::optional<Tensor> ShapeOf(const OperandInfo& input, const std::vector<Attribute>& attributes) {
  const Shape& dims = *input.shape;
  const int64_t rank = static_cast<int64_t>(dims.size());
  auto clamp = [rank](int64_t index) {
    if (index < 0) index += rank;
    return std::min(std::max(index, int64_t{0}), rank);
  };
  const int64_t start = clamp(IntAttribute(attributes, "start").value_or(0));
  const int64_t end = clamp(IntAttribute(attributes, "end").value_or(rank));
  if (end <= start) return Int64Vector({});
  return Int64Vector(absl::Span<const int64_t>(dims).subspan(static_cast<size_t>(start),
                                                             static_cast<size_t>(end - start)));
}

// Constant's value_* attributes (its `value` tensor is read from the arena instead).
std::optional<Tensor> ConstantValue(const std::vector<Attribute>& attributes) {
  for (const Attribute& attribute : attributes) {
    const AttributeValue& v = attribute.value;
    if (attribute.name == "value_float") return Tensor::scalar<float>(std::get<float>(v));
    if (attribute.name == "value_int") return Tensor::scalar<int64_t>(std::get<int64_t>(v));
    if (attribute.name == "value_string") return Tensor::scalar<std::string>(std::get<std::string>(v));
    if (attribute.name == "value_floats") return Tensor::from_vector<float>(std::get<std::vector<float>>(v));
    if (attribute.name == "value_ints") return Tensor::from_vector<int64_t>(std::get<std::vector<int64_t>>(v));
    if (attribute.name == "value_strings") {
      return Tensor::from_vector<std::string>(std::get<std::vector<std::string>>(v));
    }
  }
  return std::nullopt;
}

std::optional<BinaryOp> BinaryOpOf(absl::string_view op_type) {
  if (op_type == "Add") return BinaryOp::kAdd;
  if (op_type == "Sub") return BinaryOp::kSub;
  if (op_type == "Mul") return BinaryOp::kMul;
  if (op_type == "Div") return BinaryOp::kDiv;
  return std::nullopt;
}

std::optional<Tensor> ComputeOne(absl::string_view op_type, absl::Span<const OperandInfo> in,
                                 const std::vector<Attribute>& attributes, const OutputType& out) {
  const Shape& shape = *out.shape;
  if (std::optional<BinaryOp> binary = BinaryOpOf(op_type)) {
    return ComputeBinary(*binary, *in[0].value, *in[1].value, shape);
  }
  if (op_type == "Neg") return ComputeUnary(UnaryOp::kNeg, *in[0].value);
  if (op_type == "Relu") return ComputeUnary(UnaryOp::kRelu, *in[0].value);
  if (op_type == "MatMul") return ComputeMatMul(*in[0].value, *in[1].value, shape);
  if (op_type == "Cast") return ComputeCast(*in[0].value, out.dtype);
  if (op_type == "Identity") return in[0].value;
  if (op_type == "Reshape" || op_type == "Unsqueeze" || op_type == "Squeeze" ||
      op_type == "Flatten") {
    return in[0].value->reshaped(shape);
  }
  if (op_type == "Shape") return ShapeOf(in[0], attributes);
  if (op_type == "Constant") return ConstantValue(attributes);
  if (op_type == "Size") return Tensor::scalar<int64_t>(Product(*in[0].shape));
  if (op_type == "Gather") {
    return Gather(*in[0].value, *in[1].value, IntAttribute(attributes, "axis").value_or(0), shape);
  }
  if (op_type == "Concat") {
    return Concat(in, IntAttribute(attributes, "axis").value_or(0), shape);
  }
  return std::nullopt;
}

}  // namespace

bool ReadsShapesOnly(absl::string_view op_type) { return op_type == "Shape" || op_type == "Size"; }

OutputValues ComputeNative(absl::string_view op_type, absl::Span<const OperandInfo> inputs,
                           const std::vector<Attribute>& attributes,
                           absl::Span<const OutputType> outputs) {
  if (outputs.size() != 1 || !outputs[0].shape.has_value()) return {};
  for (int64_t dim : *outputs[0].shape) {
    if (dim < 0) return {};
  }
  for (const OperandInfo& input : inputs) {
    if (!input.present) return {};  // optional inputs change semantics: no kernel handles them
  }
  return OutputValues{ComputeOne(op_type, inputs, attributes, outputs[0])};
}

}  // namespace graphgc::internal
