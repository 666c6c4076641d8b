// Resize-10 and Upsample (7, 9) converted past opset 10 keep what they compute. ONNX's converter
// makes plain Resize-11 nodes of them, which would mean half_pixel coordinates and
// round_prefer_floor; graphgc writes their asymmetric coordinates and nearest rounding into the
// converted nodes (export/onnx/legacy_resampling.h). Each model is imported at its own opset and
// converted to 11, 13, 18, 19 and the newest, with its input as a known value: the outputs must be
// equal. Before that fix, 30 of 42 such conversions (14 Resize-10 models to 11, 13, 18) differed
// (checked against ONNX Runtime on the model at its own opset). What opset 11 cannot write
// (nearest scales that grow one axis and shrink another, scales that are not constants, output
// sizes the two opsets compute apart) keeps the model at its opset, with a warning.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pointwise;

constexpr int kTargets[] = {11, 13, 18, 19, kNewestOnnxOpset};

struct Legacy {
  std::string op_type;  // Resize (opset 10) or Upsample (9: scales input; 7: scales attribute)
  int opset;
  std::string mode;
  std::vector<float> scales;
  std::vector<int64_t> dims;
  bool scales_are_input = false;    // a graph input, not an initializer
  bool in_if_body = false;          // both branches of an If resample, scales from the main graph
  bool sizes_unknown = false;       // x declared with symbolic dims
  bool scales_overridable = false;  // an initializer also listed among the graph inputs
};

std::string Describe(const Legacy& legacy) {
  std::string scales;
  for (float scale : legacy.scales) absl::StrAppend(&scales, scale, " ");
  return absl::StrCat(legacy.op_type, "-", legacy.opset, " ", legacy.mode, " scales ", scales,
                      legacy.scales_are_input ? "(input) " : "", legacy.in_if_body ? "in If" : "");
}

onnx::ValueInfoProto FloatInfo(const std::string& name, const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto info;
  info.set_name(name);
  onnx::TypeProto::Tensor& tensor = *info.mutable_type()->mutable_tensor_type();
  tensor.set_elem_type(onnx::TensorProto::FLOAT);
  onnx::TensorShapeProto& shape = *tensor.mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= 0) {
      shape.add_dim()->set_dim_value(dims[i]);
    } else {
      shape.add_dim()->set_dim_param(absl::StrCat("d", i));
    }
  }
  return info;
}

onnx::AttributeProto StringAttribute(const std::string& name, const std::string& value) {
  onnx::AttributeProto attribute;
  attribute.set_name(name);
  attribute.set_type(onnx::AttributeProto::STRING);
  attribute.set_s(value);
  return attribute;
}

onnx::NodeProto Resampling(const Legacy& legacy, const std::string& output) {
  onnx::NodeProto node;
  node.set_op_type(legacy.op_type);
  node.add_input("x");
  *node.add_attribute() = StringAttribute("mode", legacy.mode);
  if (legacy.opset >= 9) {
    node.add_input("scales");
  } else {
    onnx::AttributeProto& scales = *node.add_attribute();
    scales.set_name("scales");
    scales.set_type(onnx::AttributeProto::FLOATS);
    for (float scale : legacy.scales) scales.add_floats(scale);
  }
  node.add_output(output);
  return node;
}

onnx::GraphProto Branch(const Legacy& legacy, const std::string& name) {
  onnx::GraphProto body;
  body.set_name(name);
  *body.add_node() = Resampling(legacy, name + "_y");
  *body.add_output() = FloatInfo(name + "_y", std::vector<int64_t>(legacy.dims.size(), -1));
  return body;
}

onnx::ModelProto LegacyModel(const Legacy& legacy) {
  onnx::ModelProto model;
  model.set_ir_version(7);
  model.add_opset_import()->set_version(legacy.opset);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("legacy");
  *graph.add_input() = FloatInfo(
      "x", legacy.sizes_unknown ? std::vector<int64_t>(legacy.dims.size(), -1) : legacy.dims);
  if (legacy.opset >= 9) {
    const std::vector<int64_t> rank = {static_cast<int64_t>(legacy.scales.size())};
    if (legacy.scales_are_input || legacy.scales_overridable) {
      *graph.add_input() = FloatInfo("scales", rank);
    }
    if (!legacy.scales_are_input) {
      onnx::TensorProto& scales = *graph.add_initializer();
      scales.set_name("scales");
      scales.set_data_type(onnx::TensorProto::FLOAT);
      scales.add_dims(rank[0]);
      for (float scale : legacy.scales) scales.add_float_data(scale);
    }
  }
  if (legacy.in_if_body) {
    onnx::TensorProto& condition = *graph.add_initializer();
    condition.set_name("c");
    condition.set_data_type(onnx::TensorProto::BOOL);
    condition.add_int32_data(1);
    onnx::NodeProto& branch = *graph.add_node();
    branch.set_op_type("If");
    branch.add_input("c");
    branch.add_output("y");
    onnx::AttributeProto& then_branch = *branch.add_attribute();
    then_branch.set_name("then_branch");
    then_branch.set_type(onnx::AttributeProto::GRAPH);
    *then_branch.mutable_g() = Branch(legacy, "then");
    onnx::AttributeProto& else_branch = *branch.add_attribute();
    else_branch.set_name("else_branch");
    else_branch.set_type(onnx::AttributeProto::GRAPH);
    *else_branch.mutable_g() = Branch(legacy, "else");
  } else {
    *graph.add_node() = Resampling(legacy, "y");
  }
  *graph.add_output() = FloatInfo("y", std::vector<int64_t>(legacy.dims.size(), -1));
  return model;
}

struct Imported {
  int opset = 0;
  std::vector<std::string> warnings;
  std::vector<int64_t> shape;
  std::vector<float> y;
};

// The model imported (converted to `opset`; 0: its own) with x and any scales input known.
std::optional<Imported> Import(const Legacy& legacy, int opset) {
  Graph g;
  int64_t count = 1;
  for (int64_t dim : legacy.dims) count *= dim;
  std::vector<float> x(static_cast<size_t>(count));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 23) * 0.25f - 2.0f;
  std::map<std::string, Var> inputs = {
      {"x", g.constant(Tensor::from_vector<float>(x, legacy.dims))}};
  if (legacy.scales_are_input) {
    inputs["scales"] = g.constant(Tensor::from_vector<float>(legacy.scales));
  }
  auto imported = import_model(g, LegacyModel(legacy), inputs, {.opset = opset});
  EXPECT_TRUE(imported.ok()) << Describe(legacy) << ": " << imported.status();
  if (!imported.ok()) return std::nullopt;
  const std::optional<Tensor> y = imported->outputs.at("y").value();
  EXPECT_TRUE(y.has_value()) << Describe(legacy) << " at " << opset;
  if (!y.has_value()) return std::nullopt;
  Imported result;
  result.opset = imported->onnx_opset;
  result.warnings = imported->warnings;
  result.shape.assign(y->shape().begin(), y->shape().end());
  result.y.assign(y->data<float>().begin(), y->data<float>().end());
  return result;
}

// Converted to every target, the model computes what it computes at its own opset.
void ExpectConvertedAlike(const Legacy& legacy) {
  const std::optional<Imported> own = Import(legacy, 0);
  ASSERT_TRUE(own.has_value());
  ASSERT_EQ(own->opset, legacy.opset);
  for (const int target : kTargets) {
    const std::optional<Imported> converted = Import(legacy, target);
    ASSERT_TRUE(converted.has_value());
    EXPECT_EQ(converted->opset, target) << Describe(legacy);
    EXPECT_THAT(converted->warnings, IsEmpty()) << Describe(legacy);
    EXPECT_EQ(converted->shape, own->shape) << Describe(legacy) << " at " << target;
    EXPECT_THAT(converted->y, Pointwise(::testing::FloatNear(1e-6f), own->y))
        << Describe(legacy) << " at " << target;
  }
}

// The model keeps its opset, with a warning saying why, and computes what it computes there.
void ExpectKeptWithWarning(const Legacy& legacy, const std::string& why) {
  const std::optional<Imported> own = Import(legacy, 0);
  ASSERT_TRUE(own.has_value());
  for (const int target : kTargets) {
    const std::optional<Imported> kept = Import(legacy, target);
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->opset, legacy.opset) << Describe(legacy);
    ASSERT_EQ(kept->warnings.size(), 1u) << Describe(legacy);
    EXPECT_THAT(kept->warnings[0],
                HasSubstr(absl::StrCat("the model was kept at ai.onnx opset ", legacy.opset,
                                       ", not converted to ", target, ": ")));
    EXPECT_THAT(kept->warnings[0], HasSubstr(why));
    EXPECT_EQ(kept->y, own->y) << Describe(legacy);
  }
}

const std::vector<std::vector<float>> kGrowing = {
    {1, 1, 2, 2}, {1, 1, 3, 3}, {1, 1, 1.5f, 2.5f}, {1, 1, 1.25f, 1.25f}, {1, 1, 1, 1.7f}};
const std::vector<std::vector<float>> kShrinking = {
    {1, 1, 0.6f, 0.6f}, {1, 1, 0.5f, 0.75f}, {1, 1, 0.3f, 1.0f / 3}};

TEST(LegacyResamplingConversionTest, Resize10KeepsItsValuesPastOpset10) {
  for (const std::string mode : {"nearest", "linear"}) {
    for (const auto& scales : kGrowing)
      ExpectConvertedAlike({"Resize", 10, mode, scales, {1, 2, 5, 4}});
    for (const auto& scales : kShrinking) {
      ExpectConvertedAlike({"Resize", 10, mode, scales, {1, 2, 10, 10}});
    }
    ExpectConvertedAlike({"Resize", 10, mode, {1, 1.3f, 2}, {2, 5, 3}});
  }
  // Linear sampling has no rounding to write: axes may grow and shrink alike.
  ExpectConvertedAlike({"Resize", 10, "linear", {1, 1, 1.7f, 0.4f}, {1, 1, 5, 4}});
  // Sizes declared unknown: scales of at most 8 significant bits give the same sizes both ways.
  for (const std::string mode : {"nearest", "linear"}) {
    ExpectConvertedAlike(
        {"Resize", 10, mode, {1, 1, 1.5f, 2.5f}, {1, 2, 5, 4}, false, false, true});
    ExpectConvertedAlike(
        {"Resize", 10, mode, {1, 1, 0.5f, 0.75f}, {1, 2, 5, 4}, false, true, true});
  }
}

TEST(LegacyResamplingConversionTest, UpsampleKeepsItsValuesPastOpset10) {
  for (const int opset : {7, 9}) {
    for (const std::string mode : {"nearest", "linear"}) {
      for (const auto& scales : kGrowing) {
        ExpectConvertedAlike({"Upsample", opset, mode, scales, {1, 2, 3, 4}});
      }
    }
  }
}

TEST(LegacyResamplingConversionTest, ResizeInABodyReadsItsScalesFromTheMainGraph) {
  for (const std::string mode : {"nearest", "linear"}) {
    ExpectConvertedAlike({"Resize", 10, mode, {1, 1, 1.5f, 1.75f}, {1, 1, 3, 4}, false, true});
    ExpectConvertedAlike({"Resize", 10, mode, {1, 1, 0.5f, 0.75f}, {1, 1, 4, 4}, false, true});
  }
}

TEST(LegacyResamplingConversionTest, NearestRoundingOpset11CannotWriteKeepsTheOpset) {
  ExpectKeptWithWarning({"Resize", 10, "nearest", {1, 1, 1.7f, 0.4f}, {1, 1, 5, 4}},
                        "samples nearest on axes that grow and axes that shrink");
  ExpectKeptWithWarning({"Resize", 10, "nearest", {1, 1, 2, 0.5f}, {1, 1, 4, 4}, false, true},
                        "samples nearest on axes that grow and axes that shrink");
  for (const std::string mode : {"nearest", "linear"}) {
    ExpectKeptWithWarning({"Resize", 10, mode, {1, 1, 2, 2}, {1, 1, 4, 4}, true},
                          "resizes by scales that are not a constant");
    // A caller may bind other scales to an initializer the graph also lists as an input.
    Legacy overridable{"Resize", 10, mode, {1, 1, 2, 2}, {1, 1, 4, 4}};
    overridable.scales_overridable = true;
    ExpectKeptWithWarning(overridable, "resizes by scales that are not a constant");
  }
}

// 10 * 0.7f is 7 in float and 6.99999988 in double: Resize-10 makes 7 rows, Resize-11 6.
TEST(LegacyResamplingConversionTest, OutputSizesTheOpsetsComputeApartKeepTheOpset) {
  for (const std::string mode : {"nearest", "linear"}) {
    ExpectKeptWithWarning({"Resize", 10, mode, {1, 1, 0.7f, 0.7f}, {1, 2, 10, 10}},
                          "scales axis 2 by 0.7, and opset 10 computes the output size in float "
                          "where opset 11 computes it in double: they may differ for an input of "
                          "size 10");
    ExpectKeptWithWarning(
        {"Resize", 10, mode, {1, 1, 0.6f, 0.6f}, {1, 2, 10, 10}, false, false, true},
        "they may differ for an input of unknown size");
  }
}

// Scales no opset accepts reach the converter (the import at the model's own opset computes no
// values): they are refused without undefined behaviour, and no value comes of them.
TEST(LegacyResamplingConversionTest, ScalesThatAreNotNumbersAreRefusedNotRead) {
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(), -2.0f, 0.0f}) {
    for (const bool sizes_unknown : {false, true}) {
      const Legacy legacy{"Resize",     10,    "linear", {1, 1, bad, 2},
                          {1, 1, 4, 4}, false, false,    sizes_unknown};
      for (const int target : kTargets) {
        Graph g;
        const Var x =
            g.constant(Tensor::from_vector<float>(std::vector<float>(16, 1.0f), legacy.dims));
        auto imported = import_model(g, LegacyModel(legacy), {{"x", x}}, {.opset = target});
        if (!imported.ok()) continue;  // a clear status is fine
        EXPECT_FALSE(imported->outputs.at("y").value().has_value()) << Describe(legacy);
      }
    }
  }
}

}  // namespace
}  // namespace graphgc
