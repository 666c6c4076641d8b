// Native inference (opset/inference/native_inference.h) against ONNX's own inference functions:
// for every node case of ONNX's suites (1.19's and 1.12's) whose op has a native rule, the node's
// operands are described in many forms — as declared, with their values, with dims or ranks
// unknown, optional inputs omitted, as known int64 vectors (so that data propagation has data),
// with values turned into partly known shape data, moved past 32 bits, negated or repeated — and
// its attributes changed: int attributes around and outside the ranks and past 32 bits (which
// ONNX reads as an int), list attributes absent and of other lengths and entries, auto_pad in
// each mode. Each form is inferred twice (for the fewest outputs and the most), natively and by
// the schema's function, and the two must agree: the same failure, or the same element types,
// shapes and shape data.
#include "graphgc/opset/inference/native_inference.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "graphgc/ir/arena.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/inference/shape_data.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "gtest/gtest.h"
#include "onnx/defs/data_type_utils.h"
#include "onnx_conformance_util.h"

namespace graphgc::internal {
namespace {

namespace fs = std::filesystem;
using Operands = std::vector<OperandInfo>;

std::string Describe(const std::optional<Shape>& shape) {
  return shape.has_value() ? absl::StrCat("[", absl::StrJoin(*shape, ","), "]") : "(none)";
}

std::string Describe(const absl::StatusOr<OutputTypes>& types) {
  if (!types.ok()) return absl::StrCat("error: ", types.status().message());
  std::string text;
  for (const OutputType& type : *types) {
    absl::StrAppend(&text, DataTypeName(type.dtype), Describe(type.shape),
                    " data=", Describe(type.shape_data), "; ");
  }
  return text;
}

// Native `a` and ONNX's `b` agree: both fail, or give the same types, shapes and shape data (or
// the same sequence or optional type, where a rule declined to ONNX's function). With
// `may_drop_data`, `a` may also have no data where `b` has some: Cast and Gather give none where
// ONNX's would not be the op's value (native_shape_ops.cc), and less data is never wrong.
bool Same(const absl::StatusOr<OutputTypes>& a, const absl::StatusOr<OutputTypes>& b,
          bool may_drop_data = false) {
  if (a.ok() != b.ok()) return false;
  if (!a.ok()) return true;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i) {
    const OutputType& x = (*a)[i];
    const OutputType& y = (*b)[i];
    if (x.non_tensor != y.non_tensor) return false;
    if (x.non_tensor.has_value()) continue;  // the same sequence or optional type
    const bool same_data =
        x.shape_data == y.shape_data || (may_drop_data && !x.shape_data.has_value());
    if (x.dtype != y.dtype || x.shape != y.shape || !same_data) return false;
  }
  return true;
}

// Whether native inference of `schema` may give less shape data than ONNX's (see Same).
bool MayDropData(const onnx::OpSchema& schema) {
  return schema.Name() == "Cast" || schema.Name() == "Gather";
}

struct NodeCase {
  std::string name;
  const onnx::OpSchema* schema = nullptr;
  Operands declared;  // the graph inputs' types, values where the test data has them
  std::vector<Attribute> attributes;
};

std::optional<Tensor> InputValue(const fs::path& dir, size_t index) {
  onnx::TensorProto proto;
  const fs::path file = dir / "test_data_set_0" / absl::StrCat("input_", index, ".pb");
  if (!onnx_conformance::ParseFile(file, &proto)) return std::nullopt;
  absl::StatusOr<Tensor> tensor = FromTensorProto(proto);
  if (!tensor.ok()) return std::nullopt;
  return *std::move(tensor);
}

// The case at `dir` when it is one ai.onnx node with a native rule.
std::optional<NodeCase> ReadCase(const fs::path& dir) {
  onnx::ModelProto model;
  if (!onnx_conformance::ParseFile(dir / "model.onnx", &model)) return std::nullopt;
  if (model.graph().node_size() != 1) return std::nullopt;
  const onnx::NodeProto& node = model.graph().node(0);
  if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
  int version = 0;
  for (const auto& import : model.opset_import()) {
    if (import.domain().empty() || import.domain() == "ai.onnx") version = import.version();
  }
  NodeCase c;
  c.name = dir.filename().string();
  c.schema = FindSchema(node.op_type(), version, "");
  if (c.schema == nullptr || FindNativeInference(*c.schema) == nullptr) return std::nullopt;
  for (int i = 0; i < node.input_size(); ++i) {
    OperandInfo info;
    if (node.input(i).empty()) {
      info.present = false;
      c.declared.push_back(std::move(info));
      continue;
    }
    int graph_input = -1;
    for (int g = 0; g < model.graph().input_size(); ++g) {
      if (model.graph().input(g).name() == node.input(i)) graph_input = g;
    }
    if (graph_input < 0) return std::nullopt;
    absl::StatusOr<VarType> type = FromTypeProto(model.graph().input(graph_input).type(), "input");
    if (!type.ok() || !type->is_tensor()) return std::nullopt;
    info.dtype = type->dtype();
    if (const std::optional<std::vector<int64_t>>& dims = type->shape(); dims.has_value()) {
      info.shape = Shape(dims->begin(), dims->end());
    }
    info.value = InputValue(dir, static_cast<size_t>(graph_input));
    c.declared.push_back(std::move(info));
  }
  for (const onnx::AttributeProto& proto : node.attribute()) {
    absl::StatusOr<Attribute> attribute = FromAttributeProto(proto);
    if (!attribute.ok()) return std::nullopt;
    c.attributes.push_back(*std::move(attribute));
  }
  return c;
}

// The operands as a shape computation's: each input that is not already integer becomes a known
// int64 vector (0, 1, ...) as long as its first dim (4 where that is unknown or the rank is 0),
// so that data propagation has data to work on (the suites' cases are mostly float).
Operands AsShapeComputation(const Operands& declared) {
  Operands converted = declared;
  for (OperandInfo& in : converted) {
    if (!in.present || in.dtype == DataType::kInt64 || in.dtype == DataType::kInt32) continue;
    const int64_t length = in.shape.has_value() && !in.shape->empty() && (*in.shape)[0] >= 0
                               ? std::min<int64_t>((*in.shape)[0], 64)
                               : 4;
    std::vector<int64_t> elements(static_cast<size_t>(length));
    for (int64_t i = 0; i < length; ++i) elements[static_cast<size_t>(i)] = 7 * i + 1;
    in.dtype = DataType::kInt64;
    in.shape = Shape{length};
    in.value = Tensor::from_vector<int64_t>(elements, Shape{length});
  }
  return converted;
}

// The operands in the forms the test tries.
std::vector<Operands> OperandForms(const onnx::OpSchema& schema, const Operands& declared) {
  std::vector<Operands> forms;
  // Each optional input omitted (the last one left out, too).
  for (size_t i = 0; i < declared.size() && i < schema.inputs().size(); ++i) {
    if (schema.inputs()[i].GetOption() != onnx::OpSchema::Optional) continue;
    Operands omitted = declared;
    omitted[i] = OperandInfo();
    omitted[i].present = false;
    forms.push_back(omitted);
    if (i + 1 == declared.size()) forms.push_back(Operands(declared.begin(), declared.end() - 1));
  }
  Operands typed = declared;
  for (OperandInfo& in : typed) in.value.reset();
  forms.push_back(typed);
  forms.push_back(declared);
  Operands unknown_dims = typed;
  for (OperandInfo& in : unknown_dims) {
    if (in.shape.has_value()) {
      for (int64_t& dim : *in.shape) dim = -1;
    }
  }
  forms.push_back(unknown_dims);
  Operands alternate_dims = typed;
  for (OperandInfo& in : alternate_dims) {
    if (!in.shape.has_value()) continue;
    for (size_t d = 0; d < in.shape->size(); d += 2) (*in.shape)[d] = -1;
  }
  forms.push_back(alternate_dims);
  Operands unknown_rank = typed;
  for (OperandInfo& in : unknown_rank) in.shape.reset();
  forms.push_back(unknown_rank);
  // One input at a time without its rank (hasNInputShapes needs them all).
  for (size_t i = 0; i < typed.size(); ++i) {
    Operands one = declared;
    one[i].shape.reset();
    one[i].value.reset();
    forms.push_back(one);
  }
  // Small integer values as shape data with every other element unknown.
  Operands partly_known = declared;
  bool any_data = false;
  for (OperandInfo& in : partly_known) {
    if (!in.value.has_value() || in.value->shape().size() > 1 || in.value->size() > 64) continue;
    Shape elements;
    if (in.dtype == DataType::kInt64) {
      for (int64_t v : in.value->data<int64_t>()) elements.push_back(v);
    } else if (in.dtype == DataType::kInt32) {
      for (int32_t v : in.value->data<int32_t>()) elements.push_back(v);
    } else {
      continue;
    }
    for (size_t e = 1; e < elements.size(); e += 2) elements[e] = Arena::kUnknownElement;
    in.value.reset();
    in.shape_data = elements;
    any_data = true;
  }
  if (any_data) forms.push_back(partly_known);
  // int64 values changed: moved by 2^32 (ONNX reads some as an int) or past the end, counted
  // from the back (-1 - v), their first element repeated.
  const std::function<void(std::vector<int64_t>&)> changes[] = {
      [](std::vector<int64_t>& v) {
        for (int64_t& e : v) e += int64_t{1} << 32;
      },
      [](std::vector<int64_t>& v) {
        for (int64_t& e : v) e -= int64_t{1} << 32;
      },
      [](std::vector<int64_t>& v) {
        for (int64_t& e : v) e += 3;
      },
      [](std::vector<int64_t>& v) {
        for (int64_t& e : v) e = -1 - e;
      },
      [](std::vector<int64_t>& v) {
        if (v.size() > 1) v[1] = v[0];
      },
  };
  for (const auto& change : changes) {
    Operands changed = declared;
    bool any_changed = false;
    for (OperandInfo& in : changed) {
      if (!in.value.has_value() || in.dtype != DataType::kInt64) continue;
      std::vector<int64_t> elements(in.value->data<int64_t>().begin(),
                                    in.value->data<int64_t>().end());
      change(elements);
      in.value = Tensor::from_vector<int64_t>(elements, in.value->shape());
      any_changed = true;
    }
    if (any_changed) forms.push_back(changed);
  }
  return forms;
}

// The attributes as given, each int attribute set to values around every rank, past 32 bits and
// absent, each list attribute absent and of other lengths and entries, and auto_pad in each mode.
std::vector<std::vector<Attribute>> AttributeForms(const NodeCase& c) {
  std::vector<std::vector<Attribute>> forms = {c.attributes};
  std::vector<std::string> names;
  for (const auto& [name, attribute] : c.schema->attributes()) {
    if (attribute.type == onnx::AttributeProto::INT) names.push_back(name);
  }
  const int64_t kValues[] = {-6,
                             -5,
                             -4,
                             -3,
                             -2,
                             -1,
                             0,
                             1,
                             2,
                             3,
                             4,
                             5,
                             6,
                             int64_t{1} << 32,
                             (int64_t{1} << 32) - 1,
                             -(int64_t{1} << 32),
                             INT64_MAX,
                             INT64_MIN};
  const auto without = [&](const std::string& name) {
    std::vector<Attribute> rest;
    for (const Attribute& attribute : c.attributes) {
      if (attribute.name != name) rest.push_back(attribute);
    }
    return rest;
  };
  // List attributes: absent, of lengths 1 to 6, with zeros, negatives and large entries.
  const std::vector<std::vector<int64_t>> kLists = {{1},
                                                    {2, 2},
                                                    {1, 2, 3, 4},
                                                    {3, 1, 2, 1, 1, 2},
                                                    {0, 0},
                                                    {0, 0, 0, 0},
                                                    {-1, -1},
                                                    {1, 1, 1, 1},
                                                    {2, 3},
                                                    {5, 5, 5, 5},
                                                    {1, 2, 3},
                                                    {7},
                                                    {1 << 20, 1},
                                                    {10, 10},
                                                    {9, 9},
                                                    {6, 6},
                                                    {(1 << 25) + 1, 1, (1 << 25) + 3, 1},
                                                    {2, 1, 1, 2},
                                                    {4, 4},
                                                    {1, 1},
                                                    {3, 3, 3, 3}};
  for (const auto& [name, attribute] : c.schema->attributes()) {
    if (attribute.type != onnx::AttributeProto::INTS) continue;
    forms.push_back(without(name));
    for (const std::vector<int64_t>& list : kLists) {
      std::vector<Attribute> with = without(name);
      with.push_back(Attribute{name, list});
      forms.push_back(with);
    }
  }
  if (c.schema->attributes().count("auto_pad") != 0) {
    for (const char* mode : {"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"}) {
      for (bool keep_pads : {false, true}) {
        std::vector<Attribute> with = without("auto_pad");
        if (!keep_pads) {
          with.erase(std::remove_if(with.begin(), with.end(),
                                    [](const Attribute& a) { return a.name == "pads"; }),
                     with.end());
        }
        with.push_back(Attribute{"auto_pad", std::string(mode)});
        forms.push_back(with);
        for (const std::vector<int64_t>& strides :
             {std::vector<int64_t>{2, 2}, std::vector<int64_t>{3, 2},
              std::vector<int64_t>{2, 2, 2}}) {
          std::vector<Attribute> strided = with;
          strided.erase(std::remove_if(strided.begin(), strided.end(),
                                       [](const Attribute& a) { return a.name == "strides"; }),
                        strided.end());
          strided.push_back(Attribute{"strides", strides});
          forms.push_back(strided);
        }
      }
    }
  }
  for (const std::string& name : names) {
    std::vector<Attribute> without;
    for (const Attribute& attribute : c.attributes) {
      if (attribute.name != name) without.push_back(attribute);
    }
    forms.push_back(without);
    for (int64_t value : kValues) {
      std::vector<Attribute> with = without;
      with.push_back(Attribute{name, value});
      forms.push_back(with);
    }
  }
  return forms;
}

struct Tally {
  int cases = 0;
  int comparisons = 0;
  int agreed_values = 0;  // comparisons where both inferred types (not both failed)
};

void CompareOnSuite(const fs::path& root, Tally& tally) {
  for (const std::string& dir : onnx_conformance::ListTestDirs(root)) {
    const std::optional<NodeCase> c = ReadCase(dir);
    if (!c.has_value()) continue;
    ++tally.cases;
    std::vector<Operands> forms = OperandForms(*c->schema, c->declared);
    for (Operands& form : OperandForms(*c->schema, AsShapeComputation(c->declared))) {
      forms.push_back(std::move(form));
    }
    for (const Operands& operands : forms) {
      for (const std::vector<Attribute>& attributes : AttributeForms(*c)) {
        for (const int outputs : {c->schema->min_output(), std::min(c->schema->max_output(), 4)}) {
          const absl::StatusOr<OutputTypes> native =
              InferWithSchema(*c->schema, operands, attributes, outputs);
          absl::StatusOr<OutputTypes> onnx;
          {
            ScopedSchemaInferenceOnly schema_only;
            onnx = InferWithSchema(*c->schema, operands, attributes, outputs);
          }
          ++tally.comparisons;
          if (native.ok() && onnx.ok()) ++tally.agreed_values;
          std::string call;
          for (const OperandInfo& in : operands) {
            absl::StrAppend(&call, DataTypeName(in.dtype), Describe(in.shape),
                            in.value.has_value() ? " (value)" : "",
                            in.shape_data.has_value() ? " data=" + Describe(in.shape_data) : "",
                            "; ");
          }
          for (const Attribute& attribute : attributes) {
            if (const int64_t* value = std::get_if<int64_t>(&attribute.value)) {
              absl::StrAppend(&call, attribute.name, "=", *value, " ");
            } else if (const auto* list = std::get_if<std::vector<int64_t>>(&attribute.value)) {
              absl::StrAppend(&call, attribute.name, "=[", absl::StrJoin(*list, ","), "] ");
            } else if (const auto* text = std::get_if<std::string>(&attribute.value)) {
              absl::StrAppend(&call, attribute.name, "=", *text, " ");
            }
          }
          ASSERT_TRUE(Same(native, onnx, MayDropData(*c->schema)))
              << c->name << " (" << c->schema->Name() << "-" << c->schema->since_version() << ", "
              << outputs << " outputs): " << call << "\n  native: " << Describe(native)
              << "\n  ONNX:   " << Describe(onnx);
        }
      }
    }
  }
}

TEST(NativeInferenceTest, AgreesWithOnnxOnEveryNodeCaseAndItsVariants) {
  Tally tally;
  CompareOnSuite(onnx_conformance::NewestSuiteDir(), tally);
  CompareOnSuite(onnx_conformance::DataDir(), tally);
  // Shape, Gather, Concat, Cast, Expand, Slice, Unsqueeze, Squeeze, Conv, the pools, Transpose,
  // the Softmax family, Where, BatchNormalization, LayerNormalization, Gemm, the unary ops, the
  // binary broadcasting ones, Flatten, the global pools and the reductions have 960 cases in the
  // two suites, and Split 23 more.
  EXPECT_GE(tally.cases, 960);
  EXPECT_GT(tally.agreed_values, tally.comparisons / 4);
  std::printf("%d node cases, %d comparisons, %d with types on both sides\n", tally.cases,
              tally.comparisons, tally.agreed_values);
}

// Pads at the ends of int64's range: the rules' arithmetic wraps (as ONNX's does in practice)
// instead of overflowing, which the sanitized build would report.
TEST(NativeInferenceTest, ExtremePadsWrapInsteadOfOverflowing) {
  const onnx::OpSchema* schema = FindSchema("MaxPool", 22, "");
  ASSERT_NE(schema, nullptr);
  ASSERT_NE(FindNativeInference(*schema), nullptr);
  OperandInfo x;
  x.dtype = DataType::kFloat;
  x.shape = Shape{1, 1, 4};
  for (const int64_t first : {INT64_MIN, INT64_MIN + 4, INT64_MAX - 3, INT64_MAX}) {
    const std::vector<Attribute> attributes = {
        {"kernel_shape", std::vector<int64_t>{1}},
        {"pads", std::vector<int64_t>{first, 1}},
        {"ceil_mode", int64_t{1}},
    };
    const absl::StatusOr<OutputTypes> types = InferWithSchema(*schema, {x}, attributes, 1);
    if (types.ok()) {
      ASSERT_EQ(types->size(), 1u);
      ASSERT_TRUE((*types)[0].shape.has_value());
      EXPECT_EQ((*types)[0].shape->size(), 3u);
    }
  }
}

// Where's broadcast of three shapes, where the suites' cases have no dims of 1 or unknown dims
// to meet: every triple of a set of small shapes, with 1s, unknown dims, 0s and mismatches.
// The schema of `op_type` at `version`; nullptr, with a failure, where it is missing or has no
// native rule.
const onnx::OpSchema* SchemaWithNativeRule(absl::string_view op_type, int version) {
  const onnx::OpSchema* schema = FindSchema(op_type, version, "");
  const bool ruled = schema != nullptr && FindNativeInference(*schema) != nullptr;
  EXPECT_TRUE(ruled) << op_type << "-" << version << " has no schema with a native rule";
  return ruled ? schema : nullptr;
}

// Native and ONNX's inference of `schema` on `in`: the same types, shapes and shape data, or both
// an error.
// `onnx_stops_data`: ONNX's propagation does not run (graphgc's guard), the native rule's may.
::testing::AssertionResult AgreeOn(const onnx::OpSchema& schema, const std::vector<OperandInfo>& in,
                                   const std::vector<Attribute>& attributes, int outputs = 1,
                                   bool onnx_stops_data = false) {
  absl::StatusOr<OutputTypes> native = InferWithSchema(schema, in, attributes, outputs);
  absl::StatusOr<OutputTypes> onnx = absl::UnknownError("");
  {
    ScopedSchemaInferenceOnly schema_only;
    onnx = InferWithSchema(schema, in, attributes, outputs);
  }
  if (onnx_stops_data && native.ok()) {
    for (OutputType& type : *native) type.shape_data.reset();
  }
  if (Same(native, onnx, MayDropData(schema))) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\n  native: " << Describe(native) << "\n  ONNX:   " << Describe(onnx);
}

TEST(NativeInferenceTest, WhereBroadcastsAsOnnxDoes) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("Where", 24);
  ASSERT_NE(schema, nullptr);
  const std::vector<Shape> shapes = {{},     {1},     {3},    {-1},    {0},       {2, 1},
                                     {1, 3}, {-1, 1}, {2, 3}, {2, -1}, {4, 1, 3}, {0, 3}};
  auto operand = [](DataType dtype, const Shape& shape) {
    OperandInfo info;
    info.dtype = dtype;
    info.shape = shape;
    return info;
  };
  int compared = 0;
  for (const Shape& c : shapes) {
    for (const Shape& x : shapes) {
      for (const Shape& y : shapes) {
        const std::vector<OperandInfo> in = {operand(DataType::kBool, c),
                                             operand(DataType::kFloat, x),
                                             operand(DataType::kFloat, y)};
        ASSERT_TRUE(AgreeOn(*schema, in, {}))
            << ShapeToString(c) << " " << ShapeToString(x) << " " << ShapeToString(y);
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 12 * 12 * 12);
}

// BatchNormalization's unification of the channel count, which the suites' cases (all
// consistent) never contradict: X and the four vectors drawn from shapes that agree, disagree,
// leave the count unknown or have other ranks, in both modes and for one and three outputs.
TEST(NativeInferenceTest, BatchNormalizationUnifiesChannelsAsOnnxDoes) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("BatchNormalization", 24);
  ASSERT_NE(schema, nullptr);
  const std::vector<std::optional<Shape>> xs = {Shape{2, 3, 4}, Shape{2, -1, 4}, Shape{3}, Shape{},
                                                std::nullopt};
  const std::vector<std::optional<Shape>> vectors = {Shape{3}, Shape{4}, Shape{-1}, Shape{1},
                                                     std::nullopt};
  auto operand = [](const std::optional<Shape>& shape) {
    OperandInfo info;
    info.dtype = DataType::kFloat;
    info.shape = shape;
    return info;
  };
  int compared = 0;
  for (const std::optional<Shape>& x : xs) {
    for (size_t pick = 0; pick < 5 * 5 * 5 * 5; ++pick) {
      std::vector<OperandInfo> in = {operand(x)};
      for (size_t i = 0, rest = pick; i < 4; ++i, rest /= 5)
        in.push_back(operand(vectors[rest % 5]));
      for (const int64_t training : {0, 1}) {
        for (const int outputs : {1, 3}) {
          const std::vector<Attribute> attributes = {{"training_mode", training}};
          ASSERT_TRUE(AgreeOn(*schema, in, attributes, outputs))
              << "case " << pick << " training_mode=" << training << ", " << outputs << " outputs";
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 5 * 625 * 4);
}

// The operand forms of an int64 shape input: a value, shape data (some elements unknown), only a
// length, nothing known.
std::vector<OperandInfo> ShapeInputForms(const std::vector<int64_t>& entries) {
  std::vector<OperandInfo> forms(4);
  for (OperandInfo& form : forms) form.dtype = DataType::kInt64;
  const Shape length = {static_cast<int64_t>(entries.size())};
  forms[0].shape = length;
  forms[0].value = Tensor::from_vector<int64_t>(entries);
  forms[1].shape = length;
  forms[1].shape_data = Shape(entries.begin(), entries.end());
  if (!entries.empty()) forms[1].shape_data->front() = Arena::kUnknownElement;
  forms[2].shape = length;
  forms[3].shape = Shape{-1};
  return forms;
}

// The codes whose cast changes one of 2, 3 and 5, or that graphgc's Cast rule drops data for:
// string, bool, and the floats of 8 bits or less.
const absl::flat_hash_set<int64_t> kCastDropsSmallInts = {8, 9, 17, 18, 19, 20, 23, 24};

// Cast at every version that has a rule, to every code ONNX's enum has and past it, from inputs
// with and without shapes, values and shape data.
TEST(NativeInferenceTest, CastAgreesWithOnnxForEveryTarget) {
  std::vector<int64_t> targets;
  for (int64_t to = -2; to <= 40; ++to) targets.push_back(to);
  targets.push_back((int64_t{1} << 32) + 1);  // ONNX reads it as an int: 1
  std::vector<OperandInfo> inputs = ShapeInputForms({2, 3, 5});
  OperandInfo unranked;
  unranked.dtype = DataType::kFloat;
  inputs.push_back(unranked);
  OperandInfo scalar;
  scalar.dtype = DataType::kInt32;
  scalar.shape = Shape{};
  scalar.value = Tensor::scalar<int32_t>(7);
  inputs.push_back(scalar);
  int compared = 0;
  for (const int version : {13, 19, 21, 23, 24}) {
    const onnx::OpSchema* schema = SchemaWithNativeRule("Cast", version);
    ASSERT_NE(schema, nullptr);
    for (const int64_t to : targets) {
      for (const OperandInfo& input : inputs) {
        ASSERT_TRUE(AgreeOn(*schema, {input}, {{"to", to}}))
            << "Cast-" << version << " to=" << to << " from " << DataTypeName(input.dtype)
            << Describe(input.shape);
        ++compared;
      }
      // [2, 3, 5] (as a value, and as data with the first unknown) is its own cast to every
      // integer type and to the floats of 8 bits of mantissa or more, and only there keeps its
      // data: not as bool, string, or a float of 8 bits or less.
      const bool keeps = !kCastDropsSmallInts.contains(to);
      for (size_t form = 0; form < 2; ++form) {
        const absl::StatusOr<OutputTypes> native =
            InferWithSchema(*schema, {inputs[form]}, {{"to", to}}, 1);
        if (!native.ok()) continue;
        EXPECT_EQ((*native)[0].shape_data.has_value(), keeps)
            << "Cast-" << version << " to=" << to << " form " << form;
      }
    }
  }
  EXPECT_EQ(compared, 5 * 44 * 6);
}

// Expand's broadcast of the input's shape with every form of the shape input, entries of 1, -1,
// 0, other negatives and ones that do not broadcast among them.
TEST(NativeInferenceTest, ExpandAgreesWithOnnxOnShapeInputs) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("Expand", 24);
  ASSERT_NE(schema, nullptr);
  const std::vector<std::optional<Shape>> shapes = {
      Shape{}, Shape{3}, Shape{1}, Shape{-1}, Shape{2, 1}, Shape{-1, 3}, Shape{0, 1}, std::nullopt};
  const std::vector<std::vector<int64_t>> targets = {
      {}, {1}, {3}, {4}, {-1}, {0}, {-2}, {2, 3}, {2, 1}, {1, 1, 1}, {5, -1, 3}, {2, 0, 3}, {1, 4}};
  std::vector<OperandInfo> shape_inputs;
  for (const std::vector<int64_t>& target : targets) {
    for (const OperandInfo& form : ShapeInputForms(target)) shape_inputs.push_back(form);
  }
  OperandInfo matrix;  // not 1-D: ONNX's getShapeInput fails
  matrix.dtype = DataType::kInt64;
  matrix.shape = Shape{2, 2};
  shape_inputs.push_back(matrix);
  OperandInfo unranked;
  unranked.dtype = DataType::kInt64;
  shape_inputs.push_back(unranked);
  int compared = 0;
  for (const std::optional<Shape>& shape : shapes) {
    OperandInfo data;
    data.dtype = DataType::kFloat;
    data.shape = shape;
    for (const OperandInfo& target : shape_inputs) {
      ASSERT_TRUE(AgreeOn(*schema, {data, target}, {}))
          << "Expand of " << Describe(shape) << " to " << Describe(target.shape) << " value "
          << (target.value.has_value() ? "known" : "unknown") << " data "
          << Describe(target.shape_data);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 8 * (13 * 4 + 2));
}

// A Slice bound (starts, ends, axes or steps) in the forms ONNX's inference and propagation tell
// apart: its value (int64, and int32), partly known data, and a shape only. nullopt: left out.
std::vector<std::optional<OperandInfo>> SliceBoundForms(const std::vector<int64_t>& entries) {
  std::vector<std::optional<OperandInfo>> forms;
  for (OperandInfo& form : ShapeInputForms(entries)) forms.emplace_back(std::move(form));
  OperandInfo narrow;
  narrow.dtype = DataType::kInt32;
  narrow.shape = Shape{static_cast<int64_t>(entries.size())};
  std::vector<int32_t> values;
  for (int64_t entry : entries) values.push_back(static_cast<int32_t>(entry));
  narrow.value = Tensor::from_vector<int32_t>(values);
  forms.emplace_back(std::move(narrow));
  return forms;
}

// Slice-13 on data of known, unknown and zero dims and on 1-D shape data, by bounds of every form:
// ends past the dims, negative and extreme steps, axes negative, repeated and out of range.
TEST(NativeInferenceTest, SliceAgreesWithOnnxOnEveryFormOfBounds) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("Slice", 24);
  ASSERT_NE(schema, nullptr);
  std::vector<OperandInfo> data(4);
  data[0].dtype = DataType::kFloat;
  data[0].shape = Shape{20, 10, 5};
  data[1].dtype = DataType::kFloat;
  data[1].shape = Shape{-1, 0, 7};
  data[2].dtype = DataType::kInt64;
  data[2].shape = Shape{4};
  data[2].shape_data = Shape{Arena::kUnknownElement, 5, 2, 9};
  data[3].dtype = DataType::kFloat;  // unranked
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> bounds = {
      {{0}, {2}}, {{1}, {-1}},        {{-3}, {INT64_MAX}}, {{INT64_MIN}, {3}},
      {{5}, {0}}, {{0, 1}, {10, 10}}, {{2}, {1, 2}},       {{}, {}}};
  const std::vector<std::optional<std::vector<int64_t>>> axes = {std::nullopt,
                                                                 std::vector<int64_t>{0},
                                                                 std::vector<int64_t>{-1},
                                                                 std::vector<int64_t>{1, 0},
                                                                 std::vector<int64_t>{0, 0},
                                                                 std::vector<int64_t>{3}};
  const std::vector<std::optional<std::vector<int64_t>>> steps = {std::nullopt,
                                                                  std::vector<int64_t>{1},
                                                                  std::vector<int64_t>{-1},
                                                                  std::vector<int64_t>{2},
                                                                  std::vector<int64_t>{0},
                                                                  std::vector<int64_t>{INT64_MIN},
                                                                  std::vector<int64_t>{-2, 3}};
  const auto forms_of = [](const std::optional<std::vector<int64_t>>& entries) {
    if (!entries.has_value()) return std::vector<std::optional<OperandInfo>>{std::nullopt};
    std::vector<std::optional<OperandInfo>> forms = SliceBoundForms(*entries);
    forms.resize(2);  // the value and the partly known data
    return forms;
  };
  int compared = 0;
  for (const OperandInfo& input : data) {
    for (const auto& [starts, ends] : bounds) {
      for (const std::optional<OperandInfo>& start_form : SliceBoundForms(starts)) {
        for (const std::optional<OperandInfo>& end_form : forms_of(ends)) {
          for (const std::optional<std::vector<int64_t>>& axis : axes) {
            for (const std::optional<OperandInfo>& axes_form : forms_of(axis)) {
              for (const std::optional<std::vector<int64_t>>& step : steps) {
                for (const std::optional<OperandInfo>& steps_form : forms_of(step)) {
                  std::vector<OperandInfo> in = {input, *start_form, *end_form};
                  OperandInfo left_out;
                  left_out.present = false;
                  if (axes_form.has_value() || steps_form.has_value()) {
                    in.push_back(axes_form.value_or(left_out));
                  }
                  if (steps_form.has_value()) in.push_back(*steps_form);
                  // Steps past int32 stop ONNX's propagation (DataPropagationApplies).
                  const bool onnx_stops = step.has_value() && (*step)[0] == INT64_MIN;
                  ASSERT_TRUE(AgreeOn(*schema, in, {}, 1, onnx_stops))
                      << "Slice of " << Describe(input.shape) << " data "
                      << Describe(input.shape_data) << " [" << absl::StrJoin(starts, ",") << ":"
                      << absl::StrJoin(ends, ",") << "] axes "
                      << (axis.has_value() ? absl::StrJoin(*axis, ",") : "none") << " steps "
                      << (step.has_value() ? absl::StrJoin(*step, ",") : "none");
                  ++compared;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 10000);
}

// Where ONNX's Slice inference is not the kernels' answer, the native rule knows less or counts
// exactly: axes without a value or shape (ONNX slices the leading axes instead), and a dim past
// 2^53 (ONNX divides in double and rounds it).
TEST(NativeInferenceTest, SliceKnowsNoMoreThanTheKernelsGive) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("Slice", 24);
  ASSERT_NE(schema, nullptr);
  OperandInfo x;
  x.dtype = DataType::kFloat;
  x.shape = Shape{10, 20};
  OperandInfo starts = *SliceBoundForms({0}).front();
  OperandInfo ends = *SliceBoundForms({5}).front();
  OperandInfo axes;  // given, without a value or a shape
  axes.dtype = DataType::kInt64;
  absl::StatusOr<OutputTypes> types = InferWithSchema(*schema, {x, starts, ends, axes}, {}, 1);
  ASSERT_TRUE(types.ok()) << types.status();
  EXPECT_EQ((*types)[0].shape, (Shape{-1, -1}));  // ONNX: [5, 20], wrong for axes [1]
  const int64_t huge = (int64_t{1} << 53) + 3;    // a double rounds it to 2^53 + 4
  x.shape = Shape{huge};
  types = InferWithSchema(*schema, {x, starts, *SliceBoundForms({INT64_MAX}).front()}, {}, 1);
  ASSERT_TRUE(types.ok()) << types.status();
  EXPECT_EQ((*types)[0].shape, (Shape{huge}));
  types = InferWithSchema(*schema,
                          {x, *SliceBoundForms({-1}).front(), *SliceBoundForms({INT64_MIN}).front(),
                           *SliceBoundForms({0}).front(), *SliceBoundForms({-2}).front()},
                          {}, 1);
  ASSERT_TRUE(types.ok()) << types.status();
  EXPECT_EQ((*types)[0].shape, (Shape{(huge + 1) / 2}));
}

// LayerNormalization over ranks 0 to 3 with known and unknown dims, at every axis in and past the
// rank, with one to three outputs and each stash_type (the rule takes float's, ONNX the rest).
TEST(NativeInferenceTest, LayerNormalizationAgreesWithOnnx) {
  const onnx::OpSchema* schema = SchemaWithNativeRule("LayerNormalization", 24);
  ASSERT_NE(schema, nullptr);
  const std::vector<std::optional<Shape>> shapes = {std::nullopt, Shape{},         Shape{3},
                                                    Shape{2, 3},  Shape{-1, 4, 5}, Shape{0, -1, 2}};
  int compared = 0;
  for (const std::optional<Shape>& shape : shapes) {
    OperandInfo x;
    x.dtype = DataType::kFloat;
    x.shape = shape;
    OperandInfo scale;
    scale.dtype = DataType::kFloat;
    for (const std::optional<int64_t> axis :
         {std::optional<int64_t>(), std::optional<int64_t>(-4), std::optional<int64_t>(-1),
          std::optional<int64_t>(0), std::optional<int64_t>(2), std::optional<int64_t>(5)}) {
      for (const std::optional<int64_t> stash :
           {std::optional<int64_t>(), std::optional<int64_t>(1), std::optional<int64_t>(16)}) {
        std::vector<Attribute> attributes;
        if (axis.has_value()) attributes.push_back({"axis", *axis});
        if (stash.has_value()) attributes.push_back({"stash_type", *stash});
        for (int outputs = 1; outputs <= 3; ++outputs) {
          ASSERT_TRUE(AgreeOn(*schema, {x, scale}, attributes, outputs))
              << Describe(shape) << " axis " << axis.value_or(-1) << " stash " << stash.value_or(1)
              << " outputs " << outputs;
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 6 * 6 * 3 * 3);
}

// Split 13 and 18 over known, unknown and zero dims, every axis in and out of the rank, split
// inputs that fit, mismatch or are unknown, and num_outputs that divide the dim or not.
TEST(NativeInferenceTest, SplitAgreesWithOnnx) {
  const std::vector<std::optional<Shape>> shapes = {std::nullopt, Shape{6}, Shape{-1, 5},
                                                    Shape{4, 0, 7}, Shape{2, 9}};
  const std::vector<std::optional<std::vector<int64_t>>> splits = {std::nullopt,
                                                                   std::vector<int64_t>{2, 4},
                                                                   std::vector<int64_t>{1, 4},
                                                                   std::vector<int64_t>{0, 0},
                                                                   std::vector<int64_t>{3, 2, 2},
                                                                   std::vector<int64_t>{9}};
  int compared = 0;
  for (const int version : {13, 18}) {
    const onnx::OpSchema* schema = SchemaWithNativeRule("Split", version);
    ASSERT_NE(schema, nullptr);
    for (const std::optional<Shape>& shape : shapes) {
      OperandInfo x;
      x.dtype = DataType::kFloat;
      x.shape = shape;
      for (const int64_t axis : {-3, -1, 0, 1, 2}) {
        for (const std::optional<std::vector<int64_t>>& split : splits) {
          for (const int outputs : {1, 2, 3}) {
            std::vector<std::vector<OperandInfo>> calls;
            if (!split.has_value()) {
              calls.push_back({x});
            } else {
              for (const std::optional<OperandInfo>& form : SliceBoundForms(*split)) {
                if (form.has_value() && form->dtype == DataType::kInt64)
                  calls.push_back({x, *form});
              }
            }
            std::vector<std::vector<Attribute>> attribute_forms = {{{"axis", axis}}};
            if (version >= 18) {
              attribute_forms.push_back({{"axis", axis}, {"num_outputs", int64_t{outputs}}});
            }
            for (const std::vector<OperandInfo>& in : calls) {
              for (const std::vector<Attribute>& attributes : attribute_forms) {
                ASSERT_TRUE(AgreeOn(*schema, in, attributes, outputs))
                    << "Split-" << version << " of " << Describe(shape) << " axis " << axis
                    << " split " << (split ? absl::StrJoin(*split, ",") : "none") << " outputs "
                    << outputs << " attributes " << attributes.size();
                ++compared;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 1500);
}

// The first of a few element types that `formal` admits (kUndefined if none).
DataType AdmittedType(const onnx::OpSchema::FormalParameter& formal) {
  const std::pair<DataType, const char*> candidates[] = {{DataType::kFloat, "tensor(float)"},
                                                         {DataType::kInt64, "tensor(int64)"},
                                                         {DataType::kInt32, "tensor(int32)"},
                                                         {DataType::kBool, "tensor(bool)"},
                                                         {DataType::kUint8, "tensor(uint8)"}};
  for (const auto& [dtype, name] : candidates) {
    if (formal.GetTypes().count(onnx::Utils::DataTypeUtils::ToType(name)) > 0) return dtype;
  }
  return DataType::kUndefined;
}

// Every (op type, version) of the rule tables is the since_version of a schema of ONNX 1.19, so
// no rule stands for a version it was not written for; and the versions that share one of ONNX's
// generic rules (propagateShapeAndTypeFromFirstInput, the bidirectional broadcast), many of them
// older than the suites' cases, agree with ONNX's function: a unary op on input 0 of unknown rank,
// scalar, known and partly known shapes, a binary one on every pair of twelve shapes with 1s,
// unknown and zero dims and mismatches.
TEST(NativeInferenceTest, EveryRuleNamesItsSchemaVersion) {
  const std::vector<std::optional<Shape>> shapes = {
      std::nullopt, Shape{},        Shape{1},    Shape{3},     Shape{-1},
      Shape{0},     Shape{2, 1},    Shape{1, 3}, Shape{-1, 1}, Shape{2, 3},
      Shape{2, -1}, Shape{4, 1, 3}, Shape{0, 3}};
  int generic = 0;
  for (const auto& [op_type, version] : NativeRuleSchemas()) {
    const onnx::OpSchema* schema = FindSchema(op_type, version, "");
    ASSERT_NE(schema, nullptr) << op_type << "-" << version;
    EXPECT_EQ(schema->since_version(), version) << op_type;
    const NativeInferenceFn rule = FindNativeInference(*schema);
    const bool binary = rule == &InferBroadcastLikeFirstInput || rule == &InferBroadcastToBool;
    if (rule != &InferLikeFirstInput && !binary) continue;
    ++generic;
    for (const std::optional<Shape>& first : shapes) {
      for (const std::optional<Shape>& second : shapes) {
        if (!binary && second != shapes[0]) continue;  // one pass for a unary op
        std::vector<OperandInfo> in(static_cast<size_t>(schema->min_input()));
        for (size_t i = 0; i < in.size(); ++i) {
          in[i].dtype = AdmittedType(schema->inputs()[i]);
          in[i].shape = i == 0 ? first : i == 1 && binary ? second : std::optional<Shape>(Shape{});
        }
        std::vector<Attribute> attributes;
        if (op_type == "LRN") attributes.push_back({"size", int64_t{3}});
        if (op_type == "BitShift") attributes.push_back({"direction", std::string("LEFT")});
        ASSERT_TRUE(AgreeOn(*schema, in, attributes))
            << op_type << "-" << version << " " << Describe(first) << " " << Describe(second);
        if (!binary) {
          EXPECT_TRUE(InferWithSchema(*schema, in, attributes, 1).ok())
              << op_type << "-" << version;
        }
      }
    }
  }
  EXPECT_GE(generic, 110);
}

// Flatten (every version with a rule; the suites reach only 13 and 24) on shapes with unknown and
// zero dims against every axis in and around the rank and one past 32 bits, and the global pools
// (1 and 22) on ranks 0 to 4 with unknown dims.
TEST(NativeInferenceTest, FlattenAndGlobalPoolsAgreeAtEveryVersion) {
  const std::vector<std::optional<Shape>> shapes = {
      std::nullopt,   Shape{},         Shape{3},    Shape{2, 3},
      Shape{2, 3, 4}, Shape{2, -1, 4}, Shape{0, 3}, Shape{-1, 3, 4, 5}};
  auto compare = [](const onnx::OpSchema& schema, const std::optional<Shape>& shape,
                    const std::vector<Attribute>& attributes) {
    OperandInfo x;
    x.dtype = DataType::kFloat;
    x.shape = shape;
    EXPECT_TRUE(AgreeOn(schema, {x}, attributes))
        << schema.Name() << "-" << schema.since_version() << " " << Describe(shape);
    return InferWithSchema(schema, {x}, attributes, 1).ok();
  };
  int typed = 0;
  for (const int version : {11, 13, 21, 23, 24}) {
    const onnx::OpSchema* schema = FindSchema("Flatten", version, "");
    ASSERT_NE(schema, nullptr);
    ASSERT_NE(FindNativeInference(*schema), nullptr) << version;
    for (const std::optional<Shape>& shape : shapes) {
      typed += compare(*schema, shape, {});
      for (const int64_t axis :
           std::vector<int64_t>{-5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, (int64_t{1} << 32) + 1}) {
        typed += compare(*schema, shape, {{"axis", axis}});
      }
    }
  }
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (const int version : {1, 22}) {
      const onnx::OpSchema* schema = FindSchema(op, version, "");
      ASSERT_NE(schema, nullptr);
      ASSERT_NE(FindNativeInference(*schema), nullptr) << op << version;
      for (const std::optional<Shape>& shape : shapes) typed += compare(*schema, shape, {});
    }
  }
  EXPECT_GE(typed, 300);
}

// Shape data stands for a value only where its element type holds every known element exactly.
TEST(NativeInferenceTest, ElementHoldsIsExactlyWhatTheTypeHolds) {
  EXPECT_TRUE(ElementHolds(DataType::kInt64, INT64_MAX));
  EXPECT_TRUE(ElementHolds(DataType::kInt32, INT32_MAX));
  EXPECT_FALSE(ElementHolds(DataType::kInt32, int64_t{INT32_MAX} + 1));
  EXPECT_FALSE(ElementHolds(DataType::kInt32, int64_t{INT32_MIN} - 1));
  EXPECT_FALSE(ElementHolds(DataType::kUint64, -1));
  EXPECT_TRUE(ElementHolds(DataType::kUint8, 255));
  EXPECT_FALSE(ElementHolds(DataType::kUint8, 256));
  EXPECT_TRUE(ElementHolds(DataType::kInt4, -8));
  EXPECT_FALSE(ElementHolds(DataType::kInt4, 8));
  EXPECT_FALSE(ElementHolds(DataType::kBool, 2));
  EXPECT_TRUE(ElementHolds(DataType::kFloat, int64_t{1} << 24));
  EXPECT_FALSE(ElementHolds(DataType::kFloat, (int64_t{1} << 24) + 1));
  EXPECT_FALSE(ElementHolds(DataType::kFloat8E4M3FN, 3));
  EXPECT_FALSE(ElementHolds(DataType::kString, 3));
  // Unknown elements are no element.
  EXPECT_TRUE(ElementsHold(DataType::kInt8, {Arena::kUnknownElement, 7}));
  EXPECT_FALSE(ElementsHold(DataType::kInt8, {Arena::kUnknownElement, 700}));
}

// If's outputs are the union of its branches' results: every pair of result types (two element
// types, eight shapes, a sequence), with one or two results in each branch and one or two outputs,
// against ONNX's IfInferenceFunction at every version with a native rule.
OutputType BranchResult(DataType dtype, const std::optional<Shape>& shape, bool sequence) {
  OutputType result;
  result.dtype = dtype;
  result.shape = shape;
  if (sequence) result.non_tensor = VarType::Sequence(VarType::Tensor(dtype));
  return result;
}

TEST(NativeInferenceTest, IfAgreesWithOnnxOnEveryPairOfBranches) {
  const std::vector<std::optional<Shape>> shapes = {std::nullopt, Shape{},     Shape{3},
                                                    Shape{-1},    Shape{2, 3}, Shape{2, -1},
                                                    Shape{3, 3},  Shape{0, 3}};
  std::vector<OutputType> results;
  for (DataType dtype : {DataType::kFloat, DataType::kInt64}) {
    for (const std::optional<Shape>& shape : shapes) {
      results.push_back(BranchResult(dtype, shape, false));
    }
  }
  results.push_back(BranchResult(DataType::kFloat, std::nullopt, true));
  OperandInfo cond;
  cond.dtype = DataType::kBool;
  cond.shape = Shape{};
  const std::vector<Attribute> attributes = {{"then_branch", SubgraphId(0)},
                                             {"else_branch", SubgraphId(1)}};
  int typed = 0;
  int failed = 0;
  int miscounted = 0;
  for (const int version : {16, 19, 21, 23, 24}) {
    const onnx::OpSchema* schema = FindSchema("If", version, "");
    ASSERT_NE(schema, nullptr);
    ASSERT_EQ(schema->since_version(), version);
    ASSERT_NE(FindNativeBodyInference(*schema), nullptr) << version;
    for (const OutputType& then_result : results) {
      for (const OutputType& else_result : results) {
        for (const size_t then_count : {1, 2}) {
          for (const size_t else_count : {1, 2}) {
            for (const int outputs : {1, 2}) {
              std::vector<BodyTypes> bodies(2);
              bodies[0].attribute = "then_branch";
              bodies[0].results.assign(then_count, then_result);
              bodies[1].attribute = "else_branch";
              bodies[1].results.assign(else_count, else_result);
              const absl::StatusOr<OutputTypes> native =
                  InferWithSchema(*schema, {cond}, attributes, outputs, bodies);
              absl::StatusOr<OutputTypes> onnx;
              {
                ScopedSchemaInferenceOnly schema_only;
                onnx = InferWithSchema(*schema, {cond}, attributes, outputs, bodies);
              }
              ASSERT_TRUE(Same(native, onnx))
                  << "If-" << version << " with " << outputs << " outputs, then " << then_count
                  << " x " << DataTypeName(then_result.dtype) << Describe(then_result.shape)
                  << ", else " << else_count << " x " << DataTypeName(else_result.dtype)
                  << Describe(else_result.shape) << "\n  native: " << Describe(native)
                  << "\n  ONNX:   " << Describe(onnx);
              if (then_count == else_count && then_count != static_cast<size_t>(outputs)) {
                // Branches that agree with each other but not with the node.
                ASSERT_FALSE(native.ok());
                EXPECT_THAT(std::string(native.status().message()),
                            ::testing::HasSubstr(absl::StrCat(
                                "If node has ", outputs, " but subgraphs produce ", then_count)));
                ++miscounted;
              }
              typed += native.ok();
              failed += !native.ok();
            }
          }
        }
      }
    }
  }
  EXPECT_GE(typed, 5 * 2 * (16 * 8 + 1));  // every pair of one element type, at 1 and 2 outputs
  EXPECT_GE(failed, 5 * 2 * 2 * 16 * 8);   // every pair of two element types
  EXPECT_EQ(miscounted, 5 * 2 * 17 * 17);  // then and else of one count, the node of the other
  // The older versions run their own functions.
  EXPECT_EQ(FindNativeBodyInference(*FindSchema("If", 13, "")), nullptr);
  EXPECT_EQ(FindNativeBodyInference(*FindSchema("If", 1, "")), nullptr);
}

// The rules are found by schema version: the versions whose inference differs stay ONNX's.
TEST(NativeInferenceTest, OnlyTheVersionsWrittenHaveNativeRules) {
  EXPECT_NE(FindNativeInference(*FindSchema("Shape", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Shape", 15, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Shape", 13, "")), nullptr);   // no start, end
  EXPECT_NE(FindNativeInference(*FindSchema("Gather", 24, "")), nullptr);  // Gather-13
  // Gather-11 and Gather-1 too: ONNX's data propagation for them truncates an index past int.
  EXPECT_NE(FindNativeInference(*FindSchema("Gather", 12, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Gather", 1, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Slice", 24, "")), nullptr);  // Slice-13
  EXPECT_EQ(FindNativeInference(*FindSchema("Slice", 12, "")), nullptr);  // Slice-11
  EXPECT_NE(FindNativeInference(*FindSchema("Concat", 13, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Concat", 11, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Cast", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Cast", 13, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Cast", 12, "")), nullptr);  // Cast-9: no shape data
  EXPECT_NE(FindNativeInference(*FindSchema("Expand", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Expand", 12, "")), nullptr);  // Expand-8
  EXPECT_NE(FindNativeInference(*FindSchema("Unsqueeze", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Squeeze", 13, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Squeeze", 12, "")), nullptr);  // axes an attribute
  EXPECT_NE(FindNativeInference(*FindSchema("Conv", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Conv", 11, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Conv", 10, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("MaxPool", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("MaxPool", 11, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("AveragePool", 22, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Transpose", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Transpose", 13, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Transpose", 12, "")), nullptr);  // Transpose-1
  EXPECT_NE(FindNativeInference(*FindSchema("Softmax", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Softmax", 12, "")), nullptr);  // axis coerces to 2-D
  EXPECT_NE(FindNativeInference(*FindSchema("LogSoftmax", 13, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Hardmax", 13, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Where", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Where", 15, "")), nullptr);  // Where-9
  EXPECT_NE(FindNativeInference(*FindSchema("BatchNormalization", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("BatchNormalization", 14, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("Gemm", 24, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("Flatten", 10, "")), nullptr);  // Flatten-9
  EXPECT_NE(FindNativeInference(*FindSchema("ReduceMean", 24, "")), nullptr);
  EXPECT_NE(FindNativeInference(*FindSchema("ReduceMean", 13, "")), nullptr);
  EXPECT_EQ(FindNativeInference(*FindSchema("ReduceMean", 12, "")), nullptr);  // ReduceMean-11
  EXPECT_EQ(FindNativeInference(*FindSchema("Gemm", 12, "")), nullptr);        // Gemm-11
  // Not in either suite: left to ONNX's function.
  EXPECT_EQ(FindNativeInference(*FindSchema("AveragePool", 19, "")), nullptr);
  ScopedSchemaInferenceOnly schema_only;
  EXPECT_EQ(FindNativeInference(*FindSchema("Shape", 24, "")), nullptr);
}

}  // namespace
}  // namespace graphgc::internal
