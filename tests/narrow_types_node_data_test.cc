// The kernels of the ops that convert to and from the narrow element types (Cast, CastLike,
// QuantizeLinear, DequantizeLinear at opsets 19 to 24) against ONNX 1.19's own node test data,
// at kernel level: the generated opset stops before these versions, so each case's node runs
// through the kernel registry at the schema version its model imports (ResolveOp, as make_node
// does), with the schema's attribute defaults, and its outputs must equal output_K.pb bit for bit
// (NaN matching any NaN in float outputs). The cases are every test_cast*, test_castlike*,
// test_quantizelinear* and test_dequantizelinear* directory (not the _expanded function bodies)
// whose tensors include a narrow type, plus every QuantizeLinear and DequantizeLinear case.
// GRAPHGC_ONNX_NODE_SUITE (CMake: the ONNX prefix's share/onnx-testdata/node) names the data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;

const fs::path kDataDir = GRAPHGC_ONNX_NODE_SUITE;

template <class Proto>
std::optional<Proto> ReadProto(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  Proto proto;
  if (!in || !proto.ParseFromIstream(&in)) return std::nullopt;
  return proto;
}

bool IsConversionCase(const std::string& name) {
  return (absl::StartsWith(name, "test_cast") || absl::StartsWith(name, "test_quantizelinear") ||
          absl::StartsWith(name, "test_dequantizelinear")) &&
         !absl::EndsWith(name, "_expanded");
}

bool UsesNarrowTypes(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir / "test_data_set_0")) {
    std::optional<onnx::TensorProto> tensor = ReadProto<onnx::TensorProto>(entry.path());
    if (tensor.has_value() && IsSupportedDataType(tensor->data_type()) &&
        IsNarrow(static_cast<DataType>(tensor->data_type()))) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(kDataDir, error)) {
    const std::string name = entry.path().filename().string();
    if (!IsConversionCase(name)) continue;
    const bool quantize = absl::StrContains(name, "quantizelinear");
    if (quantize || UsesNarrowTypes(entry.path())) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<kernels::KernelAttributeValue> KernelValueOf(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::optional<kernels::KernelAttributeValue> {
        if constexpr (std::is_constructible_v<kernels::KernelAttributeValue, decltype(v)>) {
          return kernels::KernelAttributeValue(v);
        } else {
          return std::nullopt;
        }
      },
      value);
}

// Bit-exact, except that float and float16 NaNs match any NaN.
::testing::AssertionResult SameValues(const Tensor& got, const Tensor& expected) {
  if (got.dtype() != expected.dtype() || got.shape() != expected.shape()) {
    return ::testing::AssertionFailure()
           << "got " << got << ", expected " << expected << " (type or shape)";
  }
  for (int64_t i = 0; i < got.size(); ++i) {
    const auto index = static_cast<size_t>(i);
    bool same = false;
    if (got.dtype() == DataType::kFloat) {
      const float a = got.data<float>()[index];
      const float b = expected.data<float>()[index];
      same = (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
    } else if (got.dtype() == DataType::kFloat16) {
      const Float16 a = got.data<Float16>()[index];
      const Float16 b = expected.data<Float16>()[index];
      same = (std::isnan(a.ToFloat()) && std::isnan(b.ToFloat())) || a == b;
    } else {
      const size_t size = ElementSize(got.dtype());
      same = std::memcmp(static_cast<const char*>(got.raw_data()) + index * size,
                         static_cast<const char*>(expected.raw_data()) + index * size, size) == 0;
    }
    if (!same) {
      return ::testing::AssertionFailure()
             << "element " << i << " differs: got " << got << ", expected " << expected;
    }
  }
  return ::testing::AssertionSuccess();
}

// The resolved op's kernel on these operands, with the schema's defaults beside `attributes`.
kernels::KernelResult RunKernel(const internal::ResolvedOp& resolved, absl::string_view op_type,
                                int opset, absl::Span<const std::optional<Tensor>> inputs,
                                const std::vector<kernels::KernelAttribute>& attributes,
                                absl::Span<const kernels::OutputSpec> outputs) {
  std::vector<const Tensor*> views;
  for (const std::optional<Tensor>& input : inputs) {
    views.push_back(input.has_value() ? &*input : nullptr);
  }
  kernels::KernelCall call;
  call.op_type = op_type;
  call.version = opset;
  call.inputs = views;
  call.attributes = attributes;
  call.defaults = resolved.defaults;
  call.outputs = outputs;
  return (*resolved.kernel)(kernels::KernelContext(call));
}

class NarrowTypesNodeData : public ::testing::TestWithParam<std::string> {};

TEST_P(NarrowTypesNodeData, KernelMatchesOnnxTestData) {
  const fs::path dir = kDataDir / GetParam();
  std::optional<onnx::ModelProto> model = ReadProto<onnx::ModelProto>(dir / "model.onnx");
  ASSERT_TRUE(model.has_value()) << dir;
  ASSERT_EQ(model->graph().node_size(), 1) << "one node per case";
  const onnx::NodeProto& node = model->graph().node(0);
  int opset = 0;
  for (const auto& import : model->opset_import()) {
    if (import.domain().empty() || import.domain() == "ai.onnx") opset = import.version();
  }
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(node.op_type(), opset, "");
  ASSERT_NE(schema, nullptr) << node.op_type() << " at opset " << opset;
  const internal::ResolvedOp* resolved =
      internal::ResolveOp("", node.op_type(), schema->since_version());
  ASSERT_NE(resolved->kernel, nullptr) << node.op_type() << "-" << schema->since_version();

  // Inputs by name: the graph's inputs are input_K.pb in order.
  std::map<std::string, Tensor> given;
  for (int k = 0; k < model->graph().input_size(); ++k) {
    std::optional<onnx::TensorProto> proto =
        ReadProto<onnx::TensorProto>(dir / "test_data_set_0" / absl::StrCat("input_", k, ".pb"));
    ASSERT_TRUE(proto.has_value()) << "input " << k;
    absl::StatusOr<Tensor> tensor = internal::FromTensorProto(*proto);
    ASSERT_TRUE(tensor.ok()) << tensor.status();
    given.emplace(model->graph().input(k).name(), *std::move(tensor));
  }
  std::vector<std::optional<Tensor>> inputs;
  std::vector<DataType> input_types;
  for (const std::string& name : node.input()) {
    auto found = given.find(name);
    inputs.push_back(found == given.end() ? std::nullopt : std::optional<Tensor>(found->second));
    input_types.push_back(found == given.end() ? DataType::kUndefined : found->second.dtype());
  }
  std::vector<Tensor> expected;
  std::vector<kernels::OutputSpec> outputs;
  std::vector<DataType> output_types;
  for (int k = 0; k < node.output_size(); ++k) {
    std::optional<onnx::TensorProto> proto =
        ReadProto<onnx::TensorProto>(dir / "test_data_set_0" / absl::StrCat("output_", k, ".pb"));
    ASSERT_TRUE(proto.has_value()) << "output " << k;
    absl::StatusOr<Tensor> tensor = internal::FromTensorProto(*proto);
    ASSERT_TRUE(tensor.ok()) << tensor.status();
    outputs.push_back({tensor->dtype(), Shape(tensor->shape().begin(), tensor->shape().end())});
    output_types.push_back(tensor->dtype());
    expected.push_back(*std::move(tensor));
  }
  const std::optional<internal::UndeclaredOperand> undeclared =
      internal::FindUndeclaredOperand(resolved->kernel_checks, input_types, output_types);
  ASSERT_FALSE(undeclared.has_value())
      << node.op_type() << " does not declare " << DataTypeName(undeclared->dtype) << " for "
      << undeclared->check->type_param;

  std::vector<kernels::KernelAttribute> attributes;
  for (const onnx::AttributeProto& proto : node.attribute()) {
    absl::StatusOr<Attribute> attribute = internal::FromAttributeProto(proto);
    ASSERT_TRUE(attribute.ok()) << attribute.status();
    std::optional<kernels::KernelAttributeValue> value = KernelValueOf(attribute->value);
    ASSERT_TRUE(value.has_value()) << attribute->name;
    attributes.push_back({proto.name(), *std::move(value)});  // a view: `node` outlives the call
  }
  const kernels::KernelResult result =
      RunKernel(*resolved, node.op_type(), opset, inputs, attributes, outputs);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    ASSERT_TRUE((*result)[k].has_value()) << "output " << k << " has no value";
    EXPECT_TRUE(SameValues(*(*result)[k], expected[k])) << "output " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Onnx119, NarrowTypesNodeData, ::testing::ValuesIn(CaseNames()),
                         [](const auto& info) { return info.param; });

// The declarations of the four ops name type parameters their schema has at every version from
// 19 to 24 (the generated opset's own check stops at its newest version), and admit some type.
TEST(NarrowTypesNodeDataSuite, DeclarationsFitTheSchemasThrough24) {
  std::vector<std::string> problems;
  internal::VisitKernelDeclarations([&](absl::string_view domain, absl::string_view op_type,
                                        int first, int last, const kernels::KernelTypes& types) {
    if (!domain.empty() || (op_type != "Cast" && op_type != "CastLike" &&
                            op_type != "QuantizeLinear" && op_type != "DequantizeLinear")) {
      return;
    }
    for (int version = std::max(first, 19); version <= std::min(last, 24); ++version) {
      const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(std::string(op_type), version);
      if (schema == nullptr || schema->since_version() != version) continue;
      const std::string where = absl::StrCat(op_type, "-", version);
      for (const kernels::TypeConstraint& constraint : types.constraints()) {
        const auto& params = schema->typeConstraintParams();
        if (std::none_of(params.begin(), params.end(), [&](const auto& param) {
              return param.type_param_str == constraint.type_param;
            })) {
          problems.push_back(absl::StrCat(where, ": no type parameter ", constraint.type_param));
        }
      }
      if (internal::ResolveOp("", op_type, version)->computed_types.empty()) {
        problems.push_back(absl::StrCat(where, ": computes none of the admitted types"));
      }
    }
  });
  EXPECT_TRUE(problems.empty()) << absl::StrJoin(problems, "\n");
}

template <class T>
Tensor Elements(const std::vector<T>& values, const Shape& shape) {
  MutableTensor out = *MutableTensor::allocate(DataTypeOf<T>::value, shape);
  std::copy(values.begin(), values.end(), out.mutable_data<T>().begin());
  return std::move(out).freeze();
}

std::vector<Int4> Int4s(std::initializer_list<int> values) {
  std::vector<Int4> out;
  for (int v : values) out.push_back(Int4::FromInteger(v));
  return out;
}

// Blocked int4 (opset 21 on): blocks of 2 along axis 1 of a [2, 5] x (the last block short),
// each with its scale and zero point; both directions, and a scale of the wrong shape fails.
TEST(NarrowTypesKernels, BlockedInt4QuantizesBothWays) {
  const Tensor x = Tensor::from_vector<float>({0, 1, 2, 3, 4, -1, -2, -3, -4, 100}, {2, 5});
  const Tensor scale = Tensor::from_vector<float>({1, 0.5f, 2, 1, 1, 0.25f}, {2, 3});
  const Tensor zero_point = Elements(Int4s({0, 1, -1, 0, 2, 0}), {2, 3});
  const std::vector<kernels::KernelAttribute> blocked = {{"axis", int64_t{1}},
                                                         {"block_size", int64_t{2}}};
  const std::vector<kernels::OutputSpec> int4_out = {{DataType::kInt4, Shape{2, 5}}};
  const internal::ResolvedOp* quantize = internal::ResolveOp("", "QuantizeLinear", 21);
  ASSERT_NE(quantize->kernel, nullptr);
  const std::vector<std::optional<Tensor>> q_inputs = {x, scale, zero_point};
  const kernels::KernelResult q =
      RunKernel(*quantize, "QuantizeLinear", 21, q_inputs, blocked, int4_out);
  ASSERT_TRUE(q.ok()) << q.status();
  // [0/1+0, 1/1+0 | 2/.5+1, 3/.5+1 | 4/2-1], [-1/1+0, -2/1+0 | -3/1+2, -4/1+2 | 100/.25 -> 7]
  const Tensor expected_q = Elements(Int4s({0, 1, 5, 7, 1, -1, -2, -1, -2, 7}), {2, 5});
  EXPECT_TRUE(SameValues(*(*q)[0], expected_q));

  const internal::ResolvedOp* dequantize = internal::ResolveOp("", "DequantizeLinear", 21);
  ASSERT_NE(dequantize->kernel, nullptr);
  const std::vector<std::optional<Tensor>> d_inputs = {expected_q, scale, zero_point};
  const std::vector<kernels::OutputSpec> float_out = {{DataType::kFloat, Shape{2, 5}}};
  const kernels::KernelResult d =
      RunKernel(*dequantize, "DequantizeLinear", 21, d_inputs, blocked, float_out);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_TRUE(SameValues(
      *(*d)[0], Tensor::from_vector<float>({0, 1, 2, 3, 4, -1, -2, -3, -4, 1.75f}, {2, 5})));

  const std::vector<std::optional<Tensor>> wrong = {
      x, Tensor::from_vector<float>({1, 1, 1, 1}, {2, 2}), std::nullopt};
  EXPECT_FALSE(RunKernel(*quantize, "QuantizeLinear", 21, wrong, blocked, int4_out).ok());
}

// QuantizeLinear-23's precision: float16 rounds x (2049 to 2048) before dividing; a precision
// that is not a float type fails.
TEST(NarrowTypesKernels, QuantizePrecision) {
  const internal::ResolvedOp* quantize = internal::ResolveOp("", "QuantizeLinear", 23);
  ASSERT_NE(quantize->kernel, nullptr);
  const std::vector<std::optional<Tensor>> inputs = {Tensor::from_vector<float>({2049}, {1}),
                                                     Tensor::scalar<float>(1), std::nullopt};
  const std::vector<kernels::OutputSpec> out = {{DataType::kInt16, Shape{1}}};
  const auto run = [&](int64_t precision) {
    return RunKernel(*quantize, "QuantizeLinear", 23, inputs, {{"precision", precision}}, out);
  };
  const kernels::KernelResult in_float = run(0);  // the scale's type
  ASSERT_TRUE(in_float.ok()) << in_float.status();
  EXPECT_EQ((*in_float)[0]->data<int16_t>()[0], 2049);
  const kernels::KernelResult in_half = run(static_cast<int64_t>(DataType::kFloat16));
  ASSERT_TRUE(in_half.ok()) << in_half.status();
  EXPECT_EQ((*in_half)[0]->data<int16_t>()[0], 2048);
  EXPECT_FALSE(run(static_cast<int64_t>(DataType::kInt64)).ok());
  EXPECT_FALSE(run(int64_t{1} << 32 | 1).ok());
}

// The tensor-movement kernels compute every narrow type their schema admits, at each op's newest
// version through 24.
TEST(NarrowTypesKernels, MovementKernelsMoveTheNarrowTypes) {
  int checked = 0;
  for (const char* op :
       {"Identity", "Reshape", "Transpose", "Concat", "Slice", "Gather", "GatherElements",
        "GatherND", "Shape", "Size", "Flatten", "Squeeze", "Unsqueeze", "Constant",
        "ConstantOfShape", "Pad", "Split", "DepthToSpace", "SpaceToDepth"}) {
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, 24);
    ASSERT_NE(schema, nullptr) << op;
    const internal::ResolvedOp* resolved = internal::ResolveOp("", op, schema->since_version());
    const DataTypeSet narrow_admitted = resolved->admitted_types & data_types::kNarrow;
    EXPECT_TRUE(resolved->computed_types.includes(narrow_admitted))
        << op << "-" << schema->since_version() << " admits " << narrow_admitted.ToString()
        << " but computes " << resolved->computed_types.ToString();
    if (!narrow_admitted.empty()) ++checked;
  }
  EXPECT_GE(checked, 10) << "ONNX 1.19 admits the narrow types in most movement ops";
}

// The moves themselves: a transposed and a concatenated float8 and int4 tensor keep their bytes.
TEST(NarrowTypesKernels, TransposeAndConcatMoveBytes) {
  MutableTensor f8 = *MutableTensor::allocate(DataType::kFloat8E5M2, {2, 3});
  for (int i = 0; i < 6; ++i) f8.mutable_data<Float8E5M2>()[i] = Float8E5M2{uint8_t(0x3C + i)};
  const Tensor x = std::move(f8).freeze();
  const internal::ResolvedOp* transpose = internal::ResolveOp("", "Transpose", 21);
  ASSERT_NE(transpose->kernel, nullptr);
  const std::vector<std::optional<Tensor>> inputs = {x};
  const std::vector<kernels::OutputSpec> out = {{DataType::kFloat8E5M2, Shape{3, 2}}};
  const kernels::KernelResult t = RunKernel(*transpose, "Transpose", 21, inputs, {}, out);
  ASSERT_TRUE(t.ok()) << t.status();
  const auto* bytes = static_cast<const uint8_t*>((*t)[0]->raw_data());
  EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + 6),
            (std::vector<uint8_t>{0x3C, 0x3F, 0x3D, 0x40, 0x3E, 0x41}));

  const Tensor a = Elements(Int4s({-8, 7}), {2});
  const Tensor b = Elements(Int4s({-1}), {1});
  const internal::ResolvedOp* concat = internal::ResolveOp("", "Concat", 13);
  const std::vector<std::optional<Tensor>> parts = {a, b};
  const std::vector<kernels::OutputSpec> joined = {{DataType::kInt4, Shape{3}}};
  const kernels::KernelResult c =
      RunKernel(*concat, "Concat", 13, parts, {{"axis", int64_t{0}}}, joined);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(SameValues(*(*c)[0], Elements(Int4s({-8, 7, -1}), {3})));
}

TEST(NarrowTypesNodeDataSuite, FindsTheCases) {
  // The data must be there: a missing directory would pass vacuously.
  EXPECT_GE(CaseNames().size(), 60u) << kDataDir;
}

}  // namespace
}  // namespace graphgc
