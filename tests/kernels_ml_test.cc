// Values of the ai.onnx.ml operators, checked against ONNX Runtime.
//
// ONNX 1.12 has no backend test data for ai.onnx.ml, so every expected value here was computed by
// ONNX Runtime 1.30 (onnxruntime-node) running the same model: set GRAPHGC_ML_ORT_DUMP=DIR to have
// this test export each model (graphgc::save_onnx, constants as initializers) to DIR/NAME.onnx,
// then run them in ONNX Runtime (no feeds) and compare. The cases cover every post_transform,
// aggregate_function and branch mode, NaN with nodes_missing_value_tracks_true, int64 and string
// labels, and the binary classifiers' score layouts. Where ONNX Runtime departs from the ONNX
// specification (PROBIT's approximate erfinv; a single score transformed only by PROBIT; the
// binary layouts), these tests pin ONNX Runtime's behaviour.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/ml3.h"
#include "graphgc/opset/generated/ml4.h"
#include "graphgc/opset/generated/ml5.h"
#include "kernel_test_util.h"

namespace {

// The ai.onnx.ml kernels implement the opsets up to 3 (TreeEnsembleClassifier and
// TreeEnsembleRegressor are deprecated at 5), and LabelEncoder-4 and TreeEnsemble-5 (whose tests
// name gg::ml4 and gg::ml5).
namespace ml = graphgc::ml3;
using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Strings = std::vector<std::string>;

Tensor F(std::vector<float> values, const Dims& shape) {
  return Tensor::from_vector<float>(std::move(values), shape);
}
Tensor I(std::vector<int64_t> values, const Dims& shape) {
  return Tensor::from_vector<int64_t>(std::move(values), shape);
}
Tensor S(Strings values, const Dims& shape) {
  return Tensor::from_vector<std::string>(std::move(values), shape);
}
template <class V>
Tensor T(std::vector<V> values, const Dims& shape) {
  return Tensor::from_vector<V>(std::move(values), shape);
}

// Element k of a numeric tensor as a double (exact for every type here), or nullopt for strings.
std::optional<double> NumberAt(const Tensor& t, size_t k) {
  switch (t.dtype()) {
    case DataType::kFloat:
      return t.data<float>()[k];
    case DataType::kDouble:
      return t.data<double>()[k];
    case DataType::kInt64:
      return static_cast<double>(t.data<int64_t>()[k]);
    case DataType::kInt32:
      return t.data<int32_t>()[k];
    case DataType::kInt16:
      return t.data<int16_t>()[k];
    default:
      return std::nullopt;
  }
}

// Equal dtype, shape and elements; floats within ONNX Runtime's rounding (relative 1e-5), other
// numbers exactly (-0 is 0).
::testing::AssertionResult SameAsOrt(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
    return ::testing::AssertionFailure()
           << "dtype/shape " << static_cast<int>(got.dtype()) << " "
           << gg::ShapeToString(got.shape()) << ", ORT has " << static_cast<int>(want.dtype())
           << " " << gg::ShapeToString(want.shape());
  }
  const bool rounded = got.dtype() == DataType::kFloat || got.dtype() == DataType::kDouble;
  for (int64_t i = 0; i < got.size(); ++i) {
    const size_t k = static_cast<size_t>(i);
    if (got.dtype() == DataType::kString) {
      if (got.data<std::string>()[k] == want.data<std::string>()[k]) continue;
      return ::testing::AssertionFailure() << "element " << i << ": " << got.data<std::string>()[k]
                                           << ", ORT " << want.data<std::string>()[k];
    }
    const std::optional<double> a = NumberAt(got, k);
    const std::optional<double> b = NumberAt(want, k);
    if (!a.has_value() || *a == *b || (std::isnan(*a) && std::isnan(*b)) ||
        (rounded && std::abs(*a - *b) <= 1e-6 + 1e-5 * std::abs(*b))) {
      continue;
    }
    return ::testing::AssertionFailure() << "element " << i << ": " << *a << ", ORT " << *b;
  }
  return ::testing::AssertionSuccess();
}

// "F({...}, {dims})": a value in the form the expectations are written in (other numeric types
// as T<type>({...}, {dims})).
std::string Print(const Tensor& t) {
  std::string out = t.dtype() == DataType::kFloat   ? "F({"
                    : t.dtype() == DataType::kInt64 ? "I({"
                    : t.dtype() == DataType::kString
                        ? "S({"
                        : absl::StrCat("T<", gg::DataTypeName(t.dtype()), ">({");
  for (int64_t i = 0; i < t.size(); ++i) {
    const size_t k = static_cast<size_t>(i);
    if (i > 0) out += ", ";
    if (t.dtype() == DataType::kString) {
      out += "\"" + t.data<std::string>()[k] + "\"";
    } else if (const std::optional<double> v = NumberAt(t, k); v.has_value()) {
      char buffer[32];
      std::snprintf(buffer, sizeof(buffer), t.dtype() == DataType::kFloat ? "%.9g" : "%.17g", *v);
      out += buffer;
    }
  }
  return out + "}, " + gg::ShapeToString(t.shape()) + ")";
}

// Each output's value against ONNX Runtime's; exports the model under GRAPHGC_ML_ORT_DUMP.
void ExpectOrt(const std::string& model, const Graph& g, const std::vector<Var>& outputs,
               const std::vector<Tensor>& ort) {
  if (const char* dir = std::getenv("GRAPHGC_ML_ORT_DUMP")) {
    gg::NamedVars named;
    for (size_t i = 0; i < outputs.size(); ++i)
      named.emplace_back(absl::StrCat("y", i), outputs[i]);
    const absl::Status saved = gg::save_onnx(g, named, absl::StrCat(dir, "/", model, ".onnx"));
    EXPECT_TRUE(saved.ok()) << model << ": " << saved;
    for (const Var& output : outputs) {
      if (output.ok() && output.value().has_value()) {
        std::printf("%s: %s\n", model.c_str(), Print(*output.value()).c_str());
      } else {
        std::printf("%s: no value (%s)\n", model.c_str(),
                    std::string(output.status().message()).c_str());
      }
    }
    if (ort.empty()) return;
  }
  ASSERT_EQ(outputs.size(), ort.size()) << model;
  for (size_t i = 0; i < outputs.size(); ++i) {
    ASSERT_TRUE(outputs[i].ok()) << model << ": " << outputs[i].status();
    ASSERT_TRUE(outputs[i].value().has_value()) << model << " output " << i << " has no value";
    EXPECT_TRUE(SameAsOrt(*outputs[i].value(), ort[i])) << model << " output " << i;
  }
}

gg::NodeOptions Ml(int version = kKernelMlOpset) {
  return {.domain = "ai.onnx.ml", .version = version};
}

// ---------------------------------------------------------------------------------------------
// Feature transforms.

TEST(MlFeatures, Binarizer) {
  Graph g;
  Var x = Const<float>(g, {-1, 0.5f, 2, -3, 1, 3}, {2, 3});
  ExpectOrt("binarizer", g, {ml::Binarizer(x, {.threshold = 1.0f})},
            {F({0, 0, 1, 0, 0, 1}, {2, 3})});
  // ONNX Runtime rejects NaN inputs.
  EXPECT_TRUE(HasNoValue(ml::Binarizer(Const<float>(g, {1, kNaN}, {2}))));
}

TEST(MlFeatures, Scaler) {
  Graph g;
  Var x = Const<float>(g, {1, 2, 3, -4, 5.5f, 0}, {2, 3});
  Var per_feature = ml::Scaler(
      x, {.offset = std::vector<float>{1, 2, 3}, .scale = std::vector<float>{0.5f, 2, -1}});
  Var ints = Const<int64_t>(g, {7, -3, 0, 12}, {2, 2});
  Var single =
      ml::Scaler(ints, {.offset = std::vector<float>{2}, .scale = std::vector<float>{0.25f}});
  ExpectOrt("scaler", g, {per_feature, single},
            {F({0, 0, 0, -2.5f, 7, 3}, {2, 3}), F({1.25f, -1.25f, -0.5f, 2.5f}, {2, 2})});
}

TEST(MlFeatures, Imputer) {
  Graph g;
  Var x = Const<float>(g, {1, kNaN, 3, kNaN, 5, kNaN}, {2, 3});
  Var nan = ml::Imputer(
      x, {.imputed_value_floats = std::vector<float>{10, 20, 30}, .replaced_value_float = kNaN});
  Var value = ml::Imputer(
      x, {.imputed_value_floats = std::vector<float>{-1}, .replaced_value_float = 3.0f});
  Var ints = Const<int64_t>(g, {0, 4, 0, 2}, {4});
  Var int_imputed = ml::Imputer(ints, {.imputed_value_int64s = std::vector<int64_t>{99}});
  ExpectOrt("imputer", g, {nan, value, int_imputed},
            {F({1, 20, 3, 10, 5, 30}, {2, 3}), F({1, kNaN, -1, kNaN, 5, kNaN}, {2, 3}),
             I({99, 4, 99, 2}, {4})});
}

TEST(MlFeatures, Normalizer) {
  Graph g;
  Var x = Const<float>(g, {1, -2, 3, 0, 0, 0, -4, 2, -1}, {3, 3});
  Var ints = Const<int32_t>(g, {-3, 4, 0, -6}, {2, 2});
  std::vector<Var> outputs;
  for (const char* norm : {"MAX", "L1", "L2"}) {
    outputs.push_back(ml::Normalizer(x, {.norm = norm}));
    outputs.push_back(ml::Normalizer(ints, {.norm = norm}));
  }
  ExpectOrt(
      "normalizer", g, outputs,
      {F({0.333333343f, -0.666666687f, 1, 0, 0, 0, -2, 1, -0.5f}, {3, 3}),
       F({-0.75f, 1, 0, -6}, {2, 2}),
       F({0.166666672f, -0.333333343f, 0.5f, 0, 0, 0, -0.571428597f, 0.285714298f, -0.142857149f},
         {3, 3}),
       F({-0.428571433f, 0.571428597f, 0, -1}, {2, 2}),
       F({0.267261237f, -0.534522474f, 0.801783741f, 0, 0, 0, -0.872871578f, 0.436435789f,
          -0.218217894f},
         {3, 3}),
       F({-0.600000024f, 0.800000012f, 0, -1}, {2, 2})});
}

TEST(MlFeatures, ArrayFeatureExtractor) {
  Graph g;
  Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 4});
  Var picked = ml::ArrayFeatureExtractor(x, Int64s(g, {3, 0, 3}));
  Var row = ml::ArrayFeatureExtractor(Const<int64_t>(g, {10, 20, 30}, {3}), Int64s(g, {2, 1}));
  Var strings = ml::ArrayFeatureExtractor(Const<std::string>(g, {"a", "b", "c", "d"}, {2, 2}),
                                          Const<int64_t>(g, {1}, {1, 1}));
  ExpectOrt("array_feature_extractor_strings", g, {strings}, {S({"b", "d"}, {2, 1})});
  ExpectOrt("array_feature_extractor", g, {picked, row},
            {F({4, 1, 4, 8, 5, 8}, {2, 3}), I({30, 20}, {1, 2})});
  EXPECT_TRUE(FailsWith(ml::ArrayFeatureExtractor(x, Int64s(g, {4})), {"index 4"}));
  EXPECT_TRUE(HasNoValue(ml::ArrayFeatureExtractor(x, Int64s(g, {-1}))));
}

TEST(MlFeatures, FeatureVectorizer) {
  Graph g;
  Var a = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  Var b = Const<float>(g, {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}, {2, 3});
  ExpectOrt("feature_vectorizer", g,
            {ml::FeatureVectorizer({a, b}, {.inputdimensions = std::vector<int64_t>{3, 2}})},
            {F({1, 2, 0, 0.5f, 1.5f, 3, 4, 0, 3.5f, 4.5f}, {2, 5})});
}

// ---------------------------------------------------------------------------------------------
// Category maps.

TEST(MlCategories, CategoryMapper) {
  Graph g;
  const ml::CategoryMapperAttributes cats = {.cats_int64s = std::vector<int64_t>{5, 7, 9},
                                             .cats_strings = Strings{"five", "seven", "nine"},
                                             .default_int64 = -5,
                                             .default_string = "none"};
  Var to_int = ml::CategoryMapper(Const<std::string>(g, {"nine", "ten", "five"}, {3}), cats);
  Var to_string = ml::CategoryMapper(Const<int64_t>(g, {7, 8, 9, 5}, {2, 2}), cats);
  ExpectOrt("category_mapper_to_int", g, {to_int}, {I({9, -5, 5}, {3})});
  ExpectOrt("category_mapper_to_string", g, {to_string},
            {S({"seven", "none", "nine", "five"}, {2, 2})});
}

TEST(MlCategories, RepeatedKeys) {
  Graph g;
  Var strings = Const<std::string>(g, {"a", "b"}, {2});
  Var mapped = ml::CategoryMapper(strings, {.cats_int64s = std::vector<int64_t>{1, 2, 3},
                                            .cats_strings = Strings{"a", "b", "a"}});
  Var encoded = ml::LabelEncoder(strings, {.keys_strings = Strings{"b", "a", "b"},
                                           .values_int64s = std::vector<int64_t>{1, 2, 3}});
  Var one_hot = ml::OneHotEncoder(strings, {.cats_strings = Strings{"a", "b", "a"}});
  ExpectOrt("repeated_keys", g, {mapped, encoded, one_hot},
            {I({3, 2}, {2}), I({2, 1}, {2}), F({0, 0, 1, 0, 1, 0}, {2, 3})});
}

TEST(MlCategories, LabelEncoderTypePairs) {
  Graph g;
  Var strings = Const<std::string>(g, {"x", "y", "w"}, {3});
  Var floats = Const<float>(g, {1.5f, -2, 7}, {3});
  Var ints = Const<int64_t>(g, {4, -1, 9}, {3});
  Var string_to_string = ml::LabelEncoder(
      strings, {.keys_strings = Strings{"x", "y"}, .values_strings = Strings{"ex", "why"}});
  Var float_to_float = ml::LabelEncoder(floats, {.keys_floats = std::vector<float>{-2, 1.5f},
                                                 .values_floats = std::vector<float>{20, 15}});
  Var float_to_string = ml::LabelEncoder(
      floats, {.keys_floats = std::vector<float>{7}, .values_strings = Strings{"seven"}});
  Var int_to_string = ml::LabelEncoder(ints, {.default_string = "?",
                                              .keys_int64s = std::vector<int64_t>{9, 4},
                                              .values_strings = Strings{"nine", "four"}});
  Var int_to_float = ml::LabelEncoder(
      ints, {.keys_int64s = std::vector<int64_t>{-1}, .values_floats = std::vector<float>{0.5f}});
  Var string_to_float = ml::LabelEncoder(
      strings, {.keys_strings = Strings{"w"}, .values_floats = std::vector<float>{3}});
  ExpectOrt("label_encoder_pairs", g,
            {string_to_string, float_to_float, float_to_string, int_to_string, int_to_float,
             string_to_float},
            {S({"ex", "why", "_Unused"}, {3}), F({15, 20, 0}, {3}),
             S({"_Unused", "_Unused", "seven"}, {3}), S({"four", "?", "nine"}, {3}),
             F({0, 0.5f, 0}, {3}), F({0, 0, 3}, {3})});
}

TEST(MlCategories, LabelEncoder) {
  Graph g;
  Var keys = Const<std::string>(g, {"b", "z", "a"}, {3});
  Var to_float = ml::LabelEncoder(keys, {.default_float = 9.5f,
                                         .keys_strings = Strings{"a", "b", "c"},
                                         .values_floats = std::vector<float>{0.5f, 1.5f, 2.5f}});
  Var floats = Const<float>(g, {-0.0f, 2, kNaN, 3}, {2, 2});
  Var float_to_int = ml::LabelEncoder(floats, {.keys_floats = std::vector<float>{0, 2, 3},
                                               .values_int64s = std::vector<int64_t>{10, 20, 30}});
  Var ints = Const<int64_t>(g, {3, 1, 4}, {3});
  Var int_to_int = ml::LabelEncoder(ints, {.default_int64 = 0,
                                           .keys_int64s = std::vector<int64_t>{1, 3},
                                           .values_int64s = std::vector<int64_t>{100, 300}});
  ExpectOrt("label_encoder_2", g, {to_float, float_to_int, int_to_int},
            {F({1.5f, 9.5f, 0.5f}, {3}), I({10, 20, -1, 30}, {2, 2}), I({300, 100, 0}, {3})});
}

TEST(MlCategories, LabelEncoder1) {
  Graph g;
  const std::vector<Attribute> classes = {{"classes_strings", Strings{"x", "y", "z"}},
                                          {"default_int64", int64_t{-7}}};
  Var to_int = One(
      gg::make_node("LabelEncoder", {Const<std::string>(g, {"z", "q", "x"}, {3})}, classes, Ml(1)));
  ExpectOrt("label_encoder_1", g, {to_int}, {I({2, -7, 0}, {3})});
  Graph g2;
  const std::vector<Attribute> names = {{"classes_strings", Strings{"x", "y", "z", "x"}},
                                        {"default_string", std::string("none")}};
  Var to_string =
      One(gg::make_node("LabelEncoder", {Const<int64_t>(g2, {2, 4, -1, 3}, {2, 2})}, names, Ml(1)));
  Var repeated =
      One(gg::make_node("LabelEncoder", {Const<std::string>(g2, {"x", "z"}, {2})}, names, Ml(1)));
  ExpectOrt("label_encoder_1_more", g2, {to_string, repeated},
            {S({"z", "none", "none", "x"}, {2, 2}), I({3, 2}, {2})});
}

// LabelEncoder 4. The expected values are ONNX Runtime 1.32's (the Python package run on the
// exported model); ONNX's reference (onnx 1.23) gives them too except where said.
TEST(MlCategories, LabelEncoder4TensorAttributes) {
  Graph g;
  Var strings = Const<std::string>(g, {"a", "b", "z"}, {3});
  // values_tensor without default_tensor: the schema's default (-1, -0, "_Unused"). ONNX's
  // reference fails without default_tensor.
  Var to_int16 = gg::ml4::LabelEncoder(
      strings, {.keys_strings = Strings{"a", "b"}, .values_tensor = T<int16_t>({5, 6}, {2})});
  Var to_double = gg::ml4::LabelEncoder(
      strings, {.keys_tensor = S({"b"}, {1}), .values_tensor = T<double>({2.5}, {1})});
  // NaN finds the NaN key and -0 finds 0 (ONNX's reference finds neither NaN).
  Var floats = Const<float>(g, {1, kNaN, -0.0f, 2}, {2, 2});
  Var float_keys = gg::ml4::LabelEncoder(
      floats, {.keys_tensor = F({kNaN, 0, 2}, {3}), .values_strings = Strings{"nan", "0", "2"}});
  Var doubles = Const<double>(g, {0.5, kNaN, 7}, {3});
  Var double_keys =
      gg::ml4::LabelEncoder(doubles, {.default_tensor = T<double>({-9.5}, {1}),
                                      .keys_tensor = T<double>({7, kNaN, 0.5}, {3}),
                                      .values_tensor = T<double>({70, 1e300, 5}, {3})});
  // LabelEncoder 2's attributes still work, and a key repeated with the same value is one key.
  Var ints = Const<int64_t>(g, {3, 1, 4}, {3});
  Var lists = gg::ml4::LabelEncoder(ints, {.default_float = 0.25f,
                                           .keys_int64s = std::vector<int64_t>{1, 3, 1},
                                           .values_floats = std::vector<float>{10, 30, 10}});
  ExpectOrt("label_encoder_4", g, {to_int16, to_double, float_keys, double_keys, lists},
            {T<int16_t>({5, 6, -1}, {3}), T<double>({-0.0, 2.5, -0.0}, {3}),
             S({"_Unused", "nan", "0", "2"}, {2, 2}), T<double>({5, 1e300, 70}, {3}),
             F({30, 10, 0.25f}, {3})});
}

TEST(MlCategories, LabelEncoder4TypesOnlyOnnxComputes) {
  // ONNX Runtime 1.32 has no LabelEncoder 4 from int32 or int16; the values are ONNX's reference's.
  Graph g;
  Var int32s = Const<int32_t>(g, {2, -1, 9, 2}, {2, 2});
  EXPECT_TRUE(
      HasValues<double>(gg::ml4::LabelEncoder(int32s, {.default_tensor = T<double>({0.5}, {1}),
                                                       .keys_tensor = T<int32_t>({2, 9}, {2}),
                                                       .values_tensor = T<double>({20, 90}, {2})}),
                        {20, 0.5, 90, 20}, {2, 2}));
  Var int16s = Const<int16_t>(g, {7, 300}, {2});
  const Var names = gg::ml4::LabelEncoder(int16s, {.default_tensor = S({"?"}, {1}),
                                                   .keys_tensor = T<int16_t>({300}, {1}),
                                                   .values_tensor = S({"many"}, {1})});
  ASSERT_TRUE(names.ok() && names.value().has_value()) << names.status();
  EXPECT_TRUE(SameAsOrt(*names.value(), S({"?", "many"}, {2})));
}

TEST(MlCategories, LabelEncoder4WhereOnnxAndOnnxRuntimeDisagree) {
  Graph g;
  Var ints = Const<int64_t>(g, {1, 2, 3}, {3});
  // A key repeated with another value: ONNX takes the last pairing, ONNX Runtime the first.
  EXPECT_TRUE(
      HasNoValue(gg::ml4::LabelEncoder(ints, {.keys_int64s = std::vector<int64_t>{1, 2, 1},
                                              .values_int64s = std::vector<int64_t>{10, 20, 30}})));
  Var floats = Const<float>(g, {kNaN}, {1});
  EXPECT_TRUE(HasNoValue(gg::ml4::LabelEncoder(
      floats, {.keys_tensor = F({kNaN, -kNaN}, {2}), .values_strings = Strings{"a", "b"}})));
  // default_tensor beside values_floats: ONNX's reference takes default_float.
  EXPECT_TRUE(HasNoValue(gg::ml4::LabelEncoder(ints, {.default_tensor = F({9}, {1}),
                                                      .keys_int64s = std::vector<int64_t>{1},
                                                      .values_floats = std::vector<float>{0.5f}})));
  // values_tensor with default_int64 but no default_tensor: ONNX Runtime takes default_int64.
  EXPECT_TRUE(HasNoValue(gg::ml4::LabelEncoder(
      ints,
      {.default_int64 = 4, .keys_int64s = std::vector<int64_t>{1}, .values_tensor = I({5}, {1})})));
}

TEST(MlCategories, LabelEncoder4AttributesThatDoNotFit) {
  Graph g;
  Var ints = Const<int64_t>(g, {1, 2}, {2});
  const std::vector<int64_t> one = {1};
  // Keys of another type than X, two kinds of keys, keys and values of different lengths, a
  // default of two values or of another type: each fails rather than reads past an attribute.
  EXPECT_FALSE(
      gg::ml4::LabelEncoder(ints, {.keys_tensor = F({1}, {1}), .values_int64s = one}).ok());
  EXPECT_FALSE(gg::ml4::LabelEncoder(
                   ints, {.keys_int64s = one, .keys_tensor = I({1}, {1}), .values_int64s = one})
                   .ok());
  EXPECT_FALSE(gg::ml4::LabelEncoder(
                   ints, {.keys_int64s = std::vector<int64_t>{1, 2}, .values_tensor = I({1}, {1})})
                   .ok());
  EXPECT_FALSE(gg::ml4::LabelEncoder(ints, {.default_tensor = I({1, 2}, {2}),
                                            .keys_int64s = one,
                                            .values_tensor = I({1}, {1})})
                   .ok());
  EXPECT_FALSE(
      gg::ml4::LabelEncoder(
          ints, {.default_tensor = F({1}, {1}), .keys_int64s = one, .values_tensor = I({1}, {1})})
          .ok());
  EXPECT_FALSE(gg::ml4::LabelEncoder(
                   ints, {.keys_tensor = I({1, 2}, {1, 2}), .values_tensor = I({1, 2}, {2})})
                   .ok());
}

TEST(MlCategories, OneHotEncoder) {
  Graph g;
  Var numbers = Const<double>(g, {3.0, 1.7, 8.0}, {3});
  Var by_int = ml::OneHotEncoder(numbers, {.cats_int64s = std::vector<int64_t>{1, 3, 5}});
  Var strings = Const<std::string>(g, {"b", "a", "q", "b"}, {2, 2});
  Var by_string = ml::OneHotEncoder(strings, {.cats_strings = Strings{"a", "b"}});
  // Found by kernel_fuzzer: a number against string categories matches none, but the row is as
  // long as the list (ONNX's inference, ONNX Runtime); the kernel had counted no categories.
  Var scalar = Const<int64_t>(g, {1}, {});
  Var crossed = ml::OneHotEncoder(scalar, {.cats_strings = Strings{"a", "b", "c"}});
  ExpectOrt("one_hot_encoder", g, {by_int, by_string, crossed},
            {F({0, 1, 0, 1, 0, 0, 0, 0, 0}, {3, 3}), F({0, 1, 1, 0, 0, 0, 0, 1}, {2, 2, 2}),
             F({0, 0, 0}, {3})});
  EXPECT_TRUE(FailsWith(ml::OneHotEncoder(strings, {.cats_strings = Strings{"a", "b"}, .zeros = 0}),
                        {"element 2"}));
}

// ---------------------------------------------------------------------------------------------
// Linear models.

const char* const kTransforms[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};

TEST(MlLinear, ClassifierEachTransform) {
  Graph g;
  // Scores inside (0, 1) so that PROBIT is defined; one score exactly 0 for SOFTMAX_ZERO.
  Var x = Const<float>(g, {0.1f, 0.2f, 0.3f, 0.4f, 0.0f, 0.5f}, {3, 2});
  std::vector<Var> outputs;
  for (const char* transform : kTransforms) {
    auto out = ml::LinearClassifier(
        x, {.classlabels_ints = std::vector<int64_t>{7, 8, 9},
            .coefficients = std::vector<float>{0.5f, 0.25f, 1, -0.5f, 0.2f, 0.2f},
            .intercepts = std::vector<float>{0.1f, 0.3f, 0.0f},
            .post_transform = transform});
    outputs.push_back(out.Y);
    outputs.push_back(out.Z);
  }
  // The labels under every transform.
  const Tensor labels = I({8, 8, 7}, {3});
  // SOFTMAX_ZERO gives the same scores.
  const Tensor softmax = F({0.33618769f, 0.371544838f, 0.292267501f, 0.349423677f, 0.367339015f,
                            0.283237308f, 0.367383152f, 0.308402359f, 0.324214488f},
                           {3, 3});
  ExpectOrt("linear_classifier_transforms", g, outputs,
            {labels,
             F({0.200000003f, 0.300000012f, 0.0600000024f, 0.349999994f, 0.400000036f, 0.140000001f,
                0.224999994f, 0.0500000119f, 0.100000001f},
               {3, 3}),
             labels, softmax, labels,
             F({0.549834013f, 0.574442506f, 0.514995515f, 0.586617589f, 0.598687649f, 0.534942925f,
                0.556013882f, 0.512497425f, 0.524979174f},
               {3, 3}),
             labels, softmax, labels,
             F({-0.841756105f, -0.524445891f, -1.55472088f, -0.385340244f, -0.253353506f,
                -1.08050406f, -0.755523622f, -1.64466965f, -1.28171289f},
               {3, 3})});
}

TEST(MlLinear, ClassifierStringLabelsAndBinary) {
  Graph g;
  Var x = Const<int32_t>(g, {1, -2, 3, 0, -1, 1}, {3, 2});
  auto strings = ml::LinearClassifier(x, {.classlabels_strings = Strings{"cat", "dog"},
                                          .coefficients = std::vector<float>{1, 2, -1, 0.5f},
                                          .intercepts = std::vector<float>{0, 0.5f}});
  std::vector<Var> binaries;
  for (const char* transform : {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO"}) {
    auto binary = ml::LinearClassifier(x, {.classlabels_strings = Strings{"no", "yes"},
                                           .coefficients = std::vector<float>{0.1f, 0.05f},
                                           .intercepts = std::vector<float>{0.25f},
                                           .post_transform = transform});
    binaries.push_back(binary.Y);
    binaries.push_back(binary.Z);
  }
  std::vector<Var> outputs = {strings.Y, strings.Z};
  for (const char* transform : kTransforms) {
    // One intercept, no labels: one score column, labels 1 / 0.
    auto unlabeled = ml::LinearClassifier(x, {.coefficients = std::vector<float>{0.1f, 0.05f},
                                              .intercepts = std::vector<float>{0.5f},
                                              .post_transform = transform});
    outputs.push_back(unlabeled.Y);
    outputs.push_back(unlabeled.Z);
  }
  const Tensor unlabeled_labels = I({1, 1, 1}, {3});
  // Every transform but PROBIT leaves a single score as it is.
  const Tensor unlabeled_scores = F({0.5f, 0.800000012f, 0.449999988f}, {3, 1});
  ExpectOrt("linear_classifier_labels", g, outputs,
            {S({"dog", "cat", "dog"}, {3}), F({-3, -1.5f, 3, -2.5f, 1, 2}, {3, 2}),
             unlabeled_labels, unlabeled_scores, unlabeled_labels, unlabeled_scores,
             unlabeled_labels, unlabeled_scores, unlabeled_labels, unlabeled_scores,
             unlabeled_labels, F({0, 0.841756105f, -0.125662014f}, {3, 1})});
  // The labels under every transform.
  const Tensor yes = S({"yes", "yes", "yes"}, {3});
  // NONE, SOFTMAX and SOFTMAX_ZERO give the same scores.
  const Tensor binary_scores =
      F({0.75f, 0.25f, 0.449999988f, 0.550000012f, 0.800000012f, 0.200000003f}, {3, 2});
  ExpectOrt("linear_classifier_binary", g, binaries,
            {yes, binary_scores, yes, binary_scores, yes,
             F({0.437823474f, 0.562176526f, 0.365864396f, 0.634135604f, 0.450166047f, 0.549833953f},
               {3, 2}),
             yes, binary_scores});
  // PROBIT: ONNX Runtime writes the transformed scores packed into the first half of Z.
  auto probit = ml::LinearClassifier(x, {.classlabels_strings = Strings{"no", "yes"},
                                         .coefficients = std::vector<float>{0.1f, 0.05f},
                                         .intercepts = std::vector<float>{0.25f},
                                         .post_transform = "PROBIT"});
  EXPECT_TRUE(HasNoValue(probit.Z));
}

TEST(MlLinear, Regressor) {
  Graph g;
  Var x = Const<float>(g, {0.1f, 0.2f, 0.3f, 0.4f}, {2, 2});
  std::vector<Var> outputs;
  for (const char* transform : kTransforms) {
    outputs.push_back(
        ml::LinearRegressor(x, {.coefficients = std::vector<float>{0.5f, 0.25f, 1, -0.5f},
                                .intercepts = std::vector<float>{0.1f, 0.3f},
                                .post_transform = transform,
                                .targets = 2}));
    outputs.push_back(ml::LinearRegressor(x, {.coefficients = std::vector<float>{0.5f, 1},
                                              .intercepts = std::vector<float>{0.2f},
                                              .post_transform = transform}));
  }
  // Every transform but PROBIT leaves a single score as it is.
  const Tensor one_target = F({0.449999988f, 0.75f}, {2, 1});
  // SOFTMAX_ZERO gives the same scores.
  const Tensor softmax = F({0.475020826f, 0.524979174f, 0.487502605f, 0.512497425f}, {2, 2});
  ExpectOrt(
      "linear_regressor", g, outputs,
      {F({0.200000003f, 0.300000012f, 0.349999994f, 0.400000036f}, {2, 2}), one_target, softmax,
       one_target, F({0.549834013f, 0.574442506f, 0.586617589f, 0.598687649f}, {2, 2}), one_target,
       softmax, one_target, F({-0.841756105f, -0.524445891f, -0.385340244f, -0.253353506f}, {2, 2}),
       F({-0.125662014f, 0.674574316f}, {2, 1})});
}

// ---------------------------------------------------------------------------------------------
// Tree ensembles.

// Two trees over two features using every branch mode; tree 1's root sends NaN to its true side.
//   tree 0: 0: f0 <= 0.5 ? 1 : 2;  1: f1 < 2 ? 3 : 4;  2, 3, 4 leaves
//   tree 1: 0: f1 >= 1 ? 1 : 2 (NaN: 1);  2: f0 == 3 ? 3 : 4;  4: f1 != 5 ? 5 : 6;
//           6: f0 > 0 ? 7 : 8;  1, 3, 5, 7, 8 leaves
std::vector<Attribute> TreeNodes() {
  return {
      {"nodes_treeids", std::vector<int64_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
      {"nodes_nodeids", std::vector<int64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8}},
      {"nodes_featureids", std::vector<int64_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0}},
      {"nodes_modes",
       Strings{"BRANCH_LEQ", "BRANCH_LT", "LEAF", "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "BRANCH_EQ",
               "LEAF", "BRANCH_NEQ", "LEAF", "BRANCH_GT", "LEAF", "LEAF"}},
      {"nodes_values", std::vector<float>{0.5f, 2, 0, 0, 0, 1, 0, 3, 0, 5, 0, 0, 0, 0}},
      {"nodes_truenodeids", std::vector<int64_t>{1, 3, 0, 0, 0, 1, 0, 3, 0, 5, 0, 7, 0, 0}},
      {"nodes_falsenodeids", std::vector<int64_t>{2, 4, 0, 0, 0, 2, 0, 4, 0, 6, 0, 8, 0, 0}},
      {"nodes_missing_value_tracks_true",
       std::vector<int64_t>{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
  };
}

// The leaves' weights under `prefix` ("target" or "class"): (tree, node, id, weight) each.
std::vector<Attribute> LeafWeights(const std::string& prefix, const std::vector<int64_t>& ids,
                                   const std::vector<float>& weights) {
  return {{absl::StrCat(prefix, "_treeids"), std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}},
          {absl::StrCat(prefix, "_nodeids"), std::vector<int64_t>{3, 3, 4, 2, 1, 3, 3, 5, 7, 8, 8}},
          {absl::StrCat(prefix, "_ids"), ids},
          {absl::StrCat(prefix, "_weights"), weights}};
}

// TreeNodes() with the leaves' weights under `prefix` (see LeafWeights), then `more`.
std::vector<Attribute> TreeAttributes(const std::string& prefix, const std::vector<int64_t>& ids,
                                      const std::vector<float>& weights,
                                      const std::vector<Attribute>& more = {}) {
  std::vector<Attribute> attributes = TreeNodes();
  for (const std::vector<Attribute>& part : {LeafWeights(prefix, ids, weights), more}) {
    attributes.insert(attributes.end(), part.begin(), part.end());
  }
  return attributes;
}

Var TreeRegressor(const Var& x, const std::vector<Attribute>& attributes,
                  int version = kKernelMlOpset) {
  return One(gg::make_node("TreeEnsembleRegressor", {x}, attributes, Ml(version)));
}

std::vector<Var> TreeClassifier(const Var& x, const std::vector<Attribute>& attributes,
                                int version = kKernelMlOpset) {
  return gg::make_node("TreeEnsembleClassifier", {x}, attributes, Ml(version));
}

Var TreeRows(Graph& g) {
  return Const<float>(g, {0, 1, 0, 3, 1, kNaN, 3, 0, 2, 5, -1, 5, 2, 4}, {7, 2});
}

const std::vector<float> kWeights = {1, -0.5f, 2, 3, -1.5f, 0.25f, 0.5f, 4, -2, 1, 1};
// The leaves' target ids: all on target 0, or spread over two targets.
const std::vector<int64_t> kOneTarget(11, 0);
const std::vector<int64_t> kTwoTargets = {0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1};

TEST(MlTrees, RegressorEachAggregate) {
  Graph g;
  Var x = TreeRows(g);
  std::vector<Var> outputs;
  for (const char* aggregate : {"SUM", "AVERAGE", "MIN", "MAX"}) {
    for (bool base : {false, true}) {
      std::vector<Attribute> attributes = TreeAttributes(
          "target", kTwoTargets, kWeights,
          {{"n_targets", int64_t{2}}, {"aggregate_function", std::string(aggregate)}});
      if (base) attributes.push_back({"base_values", std::vector<float>{0.5f, -1}});
      outputs.push_back(TreeRegressor(x, attributes));
    }
  }
  ExpectOrt(
      "tree_regressor_aggregates", g, outputs,
      {F({-0.5f, -0.5f, 0.5f, 0, -1.5f, 3, 0.5f, 3.25f, -1.5f, 3, 0.5f, 0, -1.5f, 3}, {7, 2}),
       F({0, -1.5f, 1, 0, -1, 2, 1, 2.25f, -1, 2, 1, 0, -1, 2}, {7, 2}),
       F({-0.25f, -0.25f, 0.25f, 0, -0.75f, 1.5f, 0.25f, 1.625f, -0.75f, 1.5f, 0.25f, 0, -0.75f,
          1.5f},
         {7, 2}),
       F({0.25f, -1.25f, 0.75f, 0, -0.25f, 0.5f, 0.75f, 0.625f, -0.25f, 0.5f, 0.75f, 0, -0.25f,
          0.5f},
         {7, 2}),
       F({-1.5f, -0.5f, -1.5f, 0, -1.5f, 3, 0.5f, 0.25f, -1.5f, 3, -1.5f, 0, -1.5f, 3}, {7, 2}),
       F({-1, -1.5f, -1, 0, -1, 2, 1, -0.75f, -1, 2, -1, 0, -1, 2}, {7, 2}),
       F({1, -0.5f, 2, 0, -1.5f, 3, 0.5f, 3, -1.5f, 3, 2, 0, -1.5f, 3}, {7, 2}),
       F({1.5f, -1.5f, 2.5f, 0, -1, 2, 1, 2, -1, 2, 2.5f, 0, -1, 2}, {7, 2})});
}

TEST(MlTrees, RegressorOneTargetEachAggregate) {
  Graph g;
  Var x = TreeRows(g);
  std::vector<Var> outputs;
  for (const char* aggregate : {"SUM", "AVERAGE", "MIN", "MAX"}) {
    outputs.push_back(TreeRegressor(
        x, TreeAttributes("target", kOneTarget, kWeights,
                          {{"n_targets", int64_t{1}},
                           {"aggregate_function", std::string(aggregate)},
                           {"base_values", std::vector<float>{0.75f}},
                           {"post_transform", std::string("LOGISTIC")}})));  // not applied
  }
  ExpectOrt("tree_regressor_one_target", g, outputs,
            {F({0.25f, 1.25f, 2.25f, 4, 2.25f, 1.25f, 2.25f}, {7, 1}),
             F({0.5f, 1, 1.5f, 2.375f, 1.5f, 1, 1.5f}, {7, 1}),
             F({-0.75f, -0.75f, -0.75f, 1, -0.75f, -0.75f, -0.75f}, {7, 1}),
             F({1.75f, 2.75f, 3.75f, 3.75f, 3.75f, 2.75f, 3.75f}, {7, 1})});
}

TEST(MlTrees, RegressorEachTransform) {
  Graph g;
  Var x = TreeRows(g);
  std::vector<Var> outputs;
  // Small weights keep the sums inside (0, 1) for PROBIT.
  const std::vector<float> small = {0.1f,  0.05f, 0.2f, 0.3f, 0.15f, 0.025f,
                                    0.05f, 0.4f,  0.2f, 0.1f, 0.1f};
  for (const char* transform : kTransforms) {
    for (int64_t targets : {1, 2}) {
      outputs.push_back(TreeRegressor(
          x, TreeAttributes(
                 "target", targets == 1 ? kOneTarget : kTwoTargets, small,
                 {{"n_targets", targets},
                  {"post_transform", std::string(transform)},
                  {"base_values", std::vector<float>(static_cast<size_t>(targets), 0.1f)}})));
    }
  }
  // One target: ONNX Runtime applies no transform but PROBIT to a single score.
  const Tensor one_target = F({0.349999994f, 0.450000018f, 0.550000012f, 0.425000012f, 0.550000012f,
                               0.450000018f, 0.550000012f},
                              {7, 1});
  ExpectOrt(
      "tree_regressor_transforms", g, outputs,
      {one_target,
       F({0.349999994f, 0.150000006f, 0.450000018f, 0, 0.25f, 0.400000006f, 0.150000006f,
          0.425000012f, 0.25f, 0.400000006f, 0.450000018f, 0, 0.25f, 0.400000006f},
         {7, 2}),
       one_target,
       F({0.549833953f, 0.450165987f, 0.610639274f, 0.389360785f, 0.462570161f, 0.53742981f,
          0.431680024f, 0.568319976f, 0.462570161f, 0.53742981f, 0.610639274f, 0.389360785f,
          0.462570161f, 0.53742981f},
         {7, 2}),
       one_target,
       F({0.586617589f, 0.53742981f, 0.610639274f, 0.5f, 0.562176526f, 0.598687649f, 0.53742981f,
          0.604679108f, 0.562176526f, 0.598687649f, 0.610639274f, 0.5f, 0.562176526f, 0.598687649f},
         {7, 2}),
       one_target,
       F({0.549833953f, 0.450165987f, 1, 0, 0.462570161f, 0.53742981f, 0.431680024f, 0.568319976f,
          0.462570161f, 0.53742981f, 1, 0, 0.462570161f, 0.53742981f},
         {7, 2}),
       F({-0.385340244f, -0.125662014f, 0.125662014f, -0.189120591f, 0.125662014f, -0.125662014f,
          0.125662014f},
         {7, 1}),
       F({-0.385340244f, -1.03661311f, -0.125662014f, -kInf, -0.674574316f, -0.253353506f,
          -1.03661311f, -0.189120591f, -0.674574316f, -0.253353506f, -0.125662014f, -kInf,
          -0.674574316f, -0.253353506f},
         {7, 2})});
}

TEST(MlTrees, RegressorVersion1AndDoubleTensors) {
  Graph g1;
  const std::vector<Attribute> attributes =
      TreeAttributes("target", kTwoTargets, kWeights, {{"n_targets", int64_t{2}}});
  Var v1 = TreeRegressor(Const<float>(g1, {0, 1, 3, 0, 2, 5}, {3, 2}), attributes, 1);
  ExpectOrt("tree_regressor_version_1", g1, {v1},
            {F({-0.5f, -0.5f, 0.5f, 3.25f, -1.5f, 3}, {3, 2})});
  // Version 3 with the reals as double tensors, on double features.
  std::vector<Attribute> doubles;
  for (const Attribute& a : attributes) {
    if (a.name == "nodes_values" || a.name == "target_weights") {
      const auto& floats = std::get<std::vector<float>>(a.value);
      doubles.push_back(
          {absl::StrCat(a.name, "_as_tensor"),
           Tensor::from_vector<double>(std::vector<double>(floats.begin(), floats.end()))});
    } else {
      doubles.push_back(a);
    }
  }
  Graph g3;
  Var xd = Const<double>(g3, {0, 1, 1, kNaN, 3, 0, -1, 5}, {4, 2});
  Var v3 = TreeRegressor(xd, doubles);
  ExpectOrt("tree_regressor_double_tensors", g3, {v3},
            {F({-0.5f, -0.5f, -1.5f, 3, 0.5f, 3.25f, 0.5f, 0}, {4, 2})});
}

TEST(MlTrees, ClassifierMulticlass) {
  Graph g;
  Var x = TreeRows(g);
  std::vector<Var> outputs;
  const std::vector<int64_t> classes = {0, 1, 0, 2, 0, 1, 0, 0, 2, 0, 1};
  for (const char* transform : {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO"}) {
    const std::vector<Var> out =
        TreeClassifier(x, TreeAttributes("class", classes, kWeights,
                                         {{"classlabels_int64s", std::vector<int64_t>{10, 20, 30}},
                                          {"post_transform", std::string(transform)}}));
    outputs.insert(outputs.end(), out.begin(), out.end());
  }
  const Tensor labels = I({10, 10, 30, 30, 30, 10, 30}, {7});  // under every transform
  ExpectOrt(
      "tree_classifier_multiclass", g, outputs,
      {labels,
       F({-0.5f, -0.5f, 0, 0.5f, 0,    0, -1.5f, 0,     3, 0.5f, 0.25f,
          3,     -1.5f, 0, 3,    0.5f, 0, 0,     -1.5f, 0, 3},
         {7, 3}),
       labels,
       F({0.274068624f,  0.274068624f,  0.451862752f, 0.451862752f,  0.274068624f,  0.274068624f,
          0.0104713337f, 0.0469292626f, 0.942599416f, 0.0716265887f, 0.0557828434f, 0.872590542f,
          0.0104713337f, 0.0469292626f, 0.942599416f, 0.451862752f,  0.274068624f,  0.274068624f,
          0.0104713337f, 0.0469292626f, 0.942599416f},
         {7, 3}),
       labels,
       F({0.377540648f, 0.377540648f, 0.5f,         0.622459352f, 0.5f,         0.5f,
          0.182425559f, 0.5f,         0.952574134f, 0.622459352f, 0.562176526f, 0.952574134f,
          0.182425559f, 0.5f,         0.952574134f, 0.622459352f, 0.5f,         0.5f,
          0.182425559f, 0.5f,         0.952574134f},
         {7, 3}),
       labels,
       F({0.5f,
          0.5f,
          0,
          1,
          0,
          0,
          0.0109869428f,
          0,
          0.989013076f,
          0.0716265887f,
          0.0557828434f,
          0.872590542f,
          0.0109869428f,
          0,
          0.989013076f,
          1,
          0,
          0,
          0.0109869428f,
          0,
          0.989013076f},
         {7, 3})});
  // Version 1, string labels, base values.
  Graph g1;
  const std::vector<Attribute> strings =
      TreeAttributes("class", classes, kWeights,
                     {{"classlabels_strings", Strings{"a", "b", "c"}},
                      {"base_values", std::vector<float>{0.5f, 0, -0.5f}}});
  ExpectOrt("tree_classifier_strings", g1, TreeClassifier(TreeRows(g1), strings, 1),
            {S({"a", "a", "c", "c", "c", "a", "c"}, {7}),
             F({0,    -0.5f, -0.5f, 1,    0, -0.5f, -1,    0,  2.5f, 1,   0.25f,
                2.5f, -1,    0,     2.5f, 1, 0,     -0.5f, -1, 0,    2.5f},
               {7, 3})});
}

TEST(MlTrees, ClassifierBinary) {
  Graph g;
  Var x = TreeRows(g);
  std::vector<Var> outputs;
  const std::vector<float> positive = {0.1f,  0.05f, 0.2f, 0.3f, 0.15f, 0.025f,
                                       0.05f, 0.4f,  0.2f, 0.1f, 0.1f};
  const std::vector<int64_t> class1(11, 1);
  const std::vector<int64_t> class0(11, 0);
  const std::vector<int64_t> both = {0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1};
  struct Case {
    std::vector<int64_t> ids;
    std::vector<float> weights;
    std::vector<float> base;
    const char* transform;
  };
  const Case cases[] = {
      {class1, positive, {}, "NONE"},
      {class1, positive, {}, "LOGISTIC"},
      {class1, kWeights, {}, "NONE"},
      {class1, kWeights, {}, "LOGISTIC"},
      {class1, kWeights, {0.5f}, "NONE"},
      {class1, positive, {0.1f, 0.2f}, "SOFTMAX"},
      {both, kWeights, {}, "SOFTMAX"},
      {both, kWeights, {0.25f, -0.25f}, "NONE"},
      // Class 0 only: class 1 is never reached, one score is left.
      {class0, positive, {}, "NONE"},
      {class0, positive, {}, "LOGISTIC"},
      {class0, kWeights, {}, "NONE"},
      {class0, kWeights, {}, "LOGISTIC"},
      {class0, positive, {0.25f}, "SOFTMAX"},
  };
  for (const Case& c : cases) {
    std::vector<Attribute> attributes =
        TreeAttributes("class", c.ids, c.weights,
                       {{"classlabels_int64s", std::vector<int64_t>{4, 6}},
                        {"post_transform", std::string(c.transform)}});
    if (!c.base.empty()) attributes.push_back({"base_values", c.base});
    const std::vector<Var> out = TreeClassifier(x, attributes);
    outputs.insert(outputs.end(), out.begin(), out.end());
  }
  const Tensor labels_all_4 = I({4, 4, 4, 4, 4, 4, 4}, {7});
  const Tensor labels_4_then_6 = I({4, 6, 6, 6, 6, 6, 6}, {7});
  // kWeights on class 1 under NONE: the same scores with no base value and with 0.5.
  const Tensor weighted = F({0, -1, 0, 0.5f, 0, 1.5f, 0, 3.75f, 0, 1.5f, 0, 0.5f, 0, 1.5f}, {7, 2});
  ExpectOrt(
      "tree_classifier_binary", g, outputs,
      {labels_all_4,
       F({0, 0.300000012f, 0, 0.350000024f, 0, 0.450000018f, 0, 0.37500003f, 0, 0.450000018f, 0,
          0.350000024f, 0, 0.450000018f},
         {7, 2}),
       labels_all_4,
       F({0.5f, 0.574442506f, 0.5f, 0.586617589f, 0.5f, 0.610639274f, 0.5f, 0.592666626f, 0.5f,
          0.610639274f, 0.5f, 0.586617589f, 0.5f, 0.610639274f},
         {7, 2}),
       labels_4_then_6,
       weighted,
       labels_4_then_6,
       F({0.5f, 0.268941402f, 0.5f, 0.622459352f, 0.5f, 0.817574441f, 0.5f, 0.977022648f, 0.5f,
          0.817574441f, 0.5f, 0.622459352f, 0.5f, 0.817574441f},
         {7, 2}),
       labels_4_then_6,
       weighted,
       labels_all_4,
       F({0.450165987f, 0.549833953f, 0.450165987f, 0.549833953f, 0.450165987f, 0.549833953f,
          0.450165987f, 0.549833953f, 0.450165987f, 0.549833953f, 0.450165987f, 0.549833953f,
          0.450165987f, 0.549833953f},
         {7, 2}),
       I({0, 1, 1, 1, 1, 1, 1}, {7}),
       F({0.5f, 0.5f, -0.5f, 0.5f, 0.0109869428f, 0.989013076f, 0.0600866452f, 0.939913332f,
          0.0109869428f, 0.989013076f, -0.5f, 0.5f, 0.0109869428f, 0.989013076f},
         {7, 2}),
       I({0, 1, 0, 1, 0, 1, 0}, {7}),
       F({0.75f, -0.75f, 0.75f, 0, 1.75f, -1.75f, -0.25f, 0.25f, 1.75f, -1.75f, 0.75f, 0, 1.75f,
          -1.75f},
         {7, 2}),
       labels_all_4,
       F({0.699999988f, 0.300000012f, 0.649999976f, 0.350000024f, 0.549999952f, 0.450000018f,
          0.625f, 0.37500003f, 0.549999952f, 0.450000018f, 0.649999976f, 0.350000024f, 0.549999952f,
          0.450000018f},
         {7, 2}),
       labels_all_4,
       F({0.425557494f, 0.574442506f, 0.413382411f, 0.586617589f, 0.389360726f, 0.610639274f,
          0.407333374f, 0.592666626f, 0.389360726f, 0.610639274f, 0.413382411f, 0.586617589f,
          0.389360726f, 0.610639274f},
         {7, 2}),
       labels_4_then_6,
       F({1, -1, -0.5f, 0.5f, -1.5f, 1.5f, -3.75f, 3.75f, -1.5f, 1.5f, -0.5f, 0.5f, -1.5f, 1.5f},
         {7, 2}),
       labels_4_then_6,
       F({0.731058598f, 0.268941402f, 0.377540648f, 0.622459352f, 0.182425559f, 0.817574441f,
          0.0229773521f, 0.977022648f, 0.182425559f, 0.817574441f, 0.377540648f, 0.622459352f,
          0.182425559f, 0.817574441f},
         {7, 2}),
       I({6, 6, 6, 6, 6, 6, 6}, {7}),
       F({0.449999988f, 0.550000012f, 0.399999976f, 0.600000024f, 0.299999952f, 0.700000048f,
          0.375f, 0.625f, 0.299999952f, 0.700000048f, 0.399999976f, 0.600000024f, 0.299999952f,
          0.700000048f},
         {7, 2})});
  // Weights on both classes, one base value: where class 1 is not reached ONNX Runtime writes
  // only the first of the two scores, so the op gets no value.
  const std::vector<Attribute> half =
      TreeAttributes("class", both, kWeights,
                     {{"classlabels_int64s", std::vector<int64_t>{4, 6}},
                      {"base_values", std::vector<float>{0.5f}}});
  EXPECT_TRUE(HasNoValue(TreeClassifier(x, half).at(1)));
}

// TreeEnsemble 5: two trees over two features using every branch mode.
//   tree 0: 0: f0 <= 1 ? 1 : 2;  1: f1 in {2, 5} (NaN: true) ? leaf 0 : leaf 1;
//           2: f1 != 3 ? 3 : leaf 2;  3: f0 > 4 ? leaf 3 : leaf 4
//   tree 1: 4: f1 < 0 (NaN: true) ? leaf 5 : 5;  5: f0 >= 2.5 ? 6 : leaf 6;
//           6: f1 == 7 ? leaf 7 : leaf 8
// Leaves 0..8 go to targets 0 1 0 1 0 0 1 0 1 with weights 1.5 -2 3.25 0.5 -1 4 0.75 -3.5 2.
template <class V>
gg::ml5::TreeEnsembleAttributes TwoTrees(int64_t aggregate) {
  const auto reals = [](const std::vector<double>& values) {
    std::vector<V> typed;
    for (double v : values) typed.push_back(FromDouble<V>(v));
    return T<V>(typed, {static_cast<int64_t>(values.size())});
  };
  return {.aggregate_function = aggregate,
          .leaf_targetids = std::vector<int64_t>{0, 1, 0, 1, 0, 0, 1, 0, 1},
          .leaf_weights = reals({1.5, -2, 3.25, 0.5, -1, 4, 0.75, -3.5, 2}),
          .membership_values = reals({2, 5, kNaN}),
          .n_targets = 2,
          .nodes_falseleafs = std::vector<int64_t>{0, 1, 1, 1, 0, 1, 1},
          .nodes_falsenodeids = std::vector<int64_t>{2, 1, 2, 4, 5, 6, 8},
          .nodes_featureids = std::vector<int64_t>{0, 1, 1, 0, 1, 0, 1},
          .nodes_missing_value_tracks_true = std::vector<int64_t>{0, 1, 0, 0, 1, 0, 0},
          .nodes_modes = T<uint8_t>({0, 6, 5, 3, 1, 2, 4}, {7}),
          .nodes_splits = reals({1, 0, 3, 4, 0, 2.5, 7}),
          .nodes_trueleafs = std::vector<int64_t>{0, 1, 0, 1, 1, 0, 1},
          .nodes_truenodeids = std::vector<int64_t>{1, 0, 3, 3, 5, 6, 7},
          .tree_roots = std::vector<int64_t>{0, 4}};
}

// The rows every TreeEnsemble 5 test walks: each path, and NaN on both sides.
template <class V>
Var TreeRows(Graph& g) {
  return Const<V>(g, ValuesOf<V>({0, 2, 0, 4, 0, kNaN, 3, 3, 5, 1, 3, 7, kNaN, -1, 2, 7}), {8, 2});
}

TEST(MlTrees, TreeEnsembleEachModeAndAggregate) {
  // ONNX Runtime 1.32 and ONNX's reference (onnx 1.23) agree on every value here.
  Graph g;
  const Var x = TreeRows<float>(g);
  const Var sum = gg::ml5::TreeEnsemble(x, TwoTrees<float>(1));
  const Var average = gg::ml5::TreeEnsemble(x, TwoTrees<float>(0));
  // MIN and MAX over one target, which every row reaches.
  gg::ml5::TreeEnsembleAttributes one_target = TwoTrees<float>(2);
  one_target.leaf_targetids = std::vector<int64_t>(9, 0);
  one_target.n_targets = 1;
  const Var min = gg::ml5::TreeEnsemble(x, one_target);
  one_target.aggregate_function = 3;
  const Var max = gg::ml5::TreeEnsemble(x, one_target);
  const Var doubles = gg::ml5::TreeEnsemble(TreeRows<double>(g), TwoTrees<double>(1));
  const std::vector<double> sums = {1.5, 0.75, 0,    -1.25, 5.5, 0, 3.25, 2,
                                    0,   2.5,  -4.5, 0,     3,   0, -1,   0.75};
  ExpectOrt("tree_ensemble_5", g, {sum, average, min, max, doubles},
            {F(std::vector<float>(sums.begin(), sums.end()), {8, 2}),
             F({0.75f, 0.375f, 0, -0.625f, 2.75f, 0, 1.625f, 1, 0, 1.25f, -2.25f, 0, 1.5f, 0, -0.5f,
                0.375f},
               {8, 2}),
             F({0.75f, -2, 1.5f, 2, 0.5f, -3.5f, -1, -1}, {8, 1}),
             F({1.5f, 0.75f, 4, 3.25f, 2, -1, 4, 0.75f}, {8, 1}), T<double>(sums, {8, 2})});
  // ONNX Runtime 1.32 has no float16 TreeEnsemble; these are ONNX's reference's.
  EXPECT_TRUE(HasValues<Float16>(
      gg::ml5::TreeEnsemble(TreeRows<Float16>(g), TwoTrees<Float16>(0)),
      {0.75, 0.375, 0, -0.625, 2.75, 0, 1.625, 1, 0, 1.25, -2.25, 0, 1.5, 0, -0.5, 0.375}, {8, 2}));
}

TEST(MlTrees, TreeEnsembleOneNodeTreesAndRepeatedRoots) {
  // A one-node tree names its leaf twice; a root given twice counts twice. ONNX Runtime 1.32 and
  // ONNX's reference agree.
  Graph g;
  gg::ml5::TreeEnsembleAttributes trees = TwoTrees<float>(1);
  trees.nodes_trueleafs = std::vector<int64_t>{1, 1, 0, 1, 1, 0, 1};
  trees.nodes_falseleafs = std::vector<int64_t>{1, 1, 1, 1, 0, 1, 1};
  trees.nodes_truenodeids = std::vector<int64_t>{0, 0, 3, 3, 5, 6, 7};
  trees.nodes_falsenodeids = std::vector<int64_t>{0, 1, 2, 4, 5, 6, 8};
  trees.tree_roots = std::vector<int64_t>{0, 4, 0};
  ExpectOrt("tree_ensemble_5_one_node", g, {gg::ml5::TreeEnsemble(TreeRows<float>(g), trees)},
            {F({3, 0.75f, 3, 0.75f, 7, 0, 3, 2, 3, 2, -0.5f, 0, 7, 0, 3, 0.75f}, {8, 2})});
}

// TreeEnsemble-5 of TwoTrees<float>(1) on x, its attributes changed by `change` first.
template <class Change>
Var TwoTreesChanged(const Var& x, Change change) {
  gg::ml5::TreeEnsembleAttributes trees = TwoTrees<float>(1);
  change(trees);
  return gg::ml5::TreeEnsemble(x, trees);
}

TEST(MlTrees, TreeEnsembleWhereOnnxAndOnnxRuntimeDisagree) {
  Graph g;
  const Var x = TreeRows<float>(g);
  const auto with = [&](auto change) { return TwoTreesChanged(x, change); };
  using A = gg::ml5::TreeEnsembleAttributes;
  // ONNX's reference ignores post_transform; ONNX Runtime swaps SOFTMAX and LOGISTIC.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.post_transform = 2; })));
  // A target no leaf reaches under MIN: the reference leaves float's largest, ONNX Runtime 0.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.aggregate_function = 2; })));
  // A one-node tree whose leaf is not at its own position: the reference reads leaf 4.
  EXPECT_TRUE(HasNoValue(with([](A& t) {
    t.nodes_trueleafs = std::vector<int64_t>{0, 1, 0, 1, 1, 0, 1};
    t.nodes_falseleafs = std::vector<int64_t>{0, 1, 1, 1, 1, 1, 1};
    t.nodes_falsenodeids = std::vector<int64_t>{2, 1, 2, 4, 5, 6, 8};
    t.nodes_truenodeids = std::vector<int64_t>{1, 0, 3, 3, 5, 6, 7};
  })));
  // A member 0: the reference ends the set there.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.membership_values = F({0, 5, kNaN}, {3}); })));
  // A NaN count other than the MEMBER nodes': the reference fails, ONNX Runtime computes.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.membership_values = F({2, 5}, {2}); })));
  // Sets the reference deals depth first, out of the nodes' order: node 3 is met before node 2.
  EXPECT_TRUE(HasNoValue(with([](A& t) {
    t.nodes_modes = T<uint8_t>({0, 1, 6, 6, 1, 2, 4}, {7});
    t.nodes_truenodeids = std::vector<int64_t>{3, 0, 3, 0, 5, 6, 7};
    t.nodes_falsenodeids = std::vector<int64_t>{2, 1, 1, 1, 5, 6, 8};
    t.nodes_trueleafs = std::vector<int64_t>{0, 1, 1, 1, 1, 0, 1};
    t.nodes_falseleafs = std::vector<int64_t>{0, 1, 1, 1, 0, 1, 1};
    t.membership_values = F({2, kNaN, 5, kNaN}, {4});
  })));
  // ONNX Runtime rejects a set of a negative and a non-integer member, and rounds a non-integer
  // value near an integer member.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.membership_values = F({-2, 5.5f, kNaN}, {3}); })));
  EXPECT_TRUE(
      HasNoValue(gg::ml5::TreeEnsemble(Const<float>(g, {0, 2.5f}, {1, 2}), TwoTrees<float>(1))));
  // A missing-value flag of 2: the reference follows it, ONNX Runtime does not.
  EXPECT_TRUE(HasNoValue(with([](A& t) {
    t.nodes_missing_value_tracks_true = std::vector<int64_t>{0, 2, 0, 0, 1, 0, 0};
  })));
  // Negative ids, which the reference counts from the end.
  EXPECT_TRUE(HasNoValue(with([](A& t) { t.tree_roots = std::vector<int64_t>{0, -3}; })));
  EXPECT_TRUE(HasNoValue(
      with([](A& t) { t.nodes_falsenodeids = std::vector<int64_t>{2, -1, 2, 4, 5, 6, 8}; })));
  EXPECT_TRUE(HasNoValue(
      with([](A& t) { t.leaf_targetids = std::vector<int64_t>{0, 1, 0, 1, 0, 0, 1, 0, -1}; })));
}

TEST(MlTrees, TreeEnsembleAttributesThatDoNotFit) {
  Graph g;
  const Var x = TreeRows<float>(g);
  const auto with = [&](auto change) { return TwoTreesChanged(x, change); };
  using A = gg::ml5::TreeEnsembleAttributes;
  // Indices past their lists, and attributes both ONNX's reference and ONNX Runtime refuse.
  EXPECT_TRUE(FailsWith(
      with([](A& t) { t.nodes_falsenodeids = std::vector<int64_t>{2, 9, 2, 4, 5, 6, 8}; }),
      {"leaf 9"}));
  EXPECT_TRUE(
      FailsWith(with([](A& t) { t.nodes_truenodeids = std::vector<int64_t>{1, 0, 7, 3, 5, 6, 7}; }),
                {"node 7"}));
  EXPECT_TRUE(FailsWith(with([](A& t) {
                          t.tree_roots = std::vector<int64_t>{0, 7};
                        }),
                        {"tree root 7"}));
  EXPECT_TRUE(FailsWith(with([](A& t) { t.aggregate_function = 4; }), {"aggregate_function"}));
  EXPECT_TRUE(FailsWith(with([](A& t) { t.n_targets = std::nullopt; }), {"n_targets"}));
  EXPECT_TRUE(
      FailsWith(with([](A& t) { t.membership_values = std::nullopt; }), {"membership_values"}));
  // A row that reaches a feature past X's columns or a target past n_targets fails the op; such
  // an id no row reaches is no value (ONNX Runtime fails, the reference does not).
  EXPECT_TRUE(
      FailsWith(with([](A& t) { t.nodes_featureids = std::vector<int64_t>{0, 1, 1, 2, 1, 0, 1}; }),
                {"feature 2"}));
  EXPECT_TRUE(FailsWith(
      with([](A& t) { t.leaf_targetids = std::vector<int64_t>{0, 1, 0, 1, 2, 0, 1, 0, 1}; }),
      {"target 2"}));
  EXPECT_TRUE(HasNoValue(gg::ml5::TreeEnsemble(Const<float>(g, {0, 2}, {1, 2}), [] {
    A t = TwoTrees<float>(1);
    t.leaf_targetids = std::vector<int64_t>{0, 1, 0, 1, 2, 0, 1, 0, 1};
    return t;
  }())));
  // A cycle: node 3 sends its true side back to node 0.
  EXPECT_TRUE(HasNoValue(with([](A& t) {
    t.nodes_trueleafs = std::vector<int64_t>{0, 1, 0, 0, 1, 0, 1};
    t.nodes_truenodeids = std::vector<int64_t>{1, 0, 3, 0, 5, 6, 7};
  })));
  // Node attributes of different lengths, or modes of another type than uint8.
  EXPECT_FALSE(with([](A& t) { t.nodes_featureids = std::vector<int64_t>{0, 1}; }).ok());
  EXPECT_FALSE(with([](A& t) { t.nodes_modes = I({0, 6, 5, 3, 1, 2, 4}, {7}); }).ok());
}

// ---------------------------------------------------------------------------------------------
// Support vector machines.

namespace svm {

const char* const kKernels[] = {"LINEAR", "POLY", "RBF", "SIGMOID"};
const std::vector<float> kParams = {0.5f, 0.2f, 2};  // gamma, coef0, degree

// Five support vectors of two features: two of class 0, one of class 1, two of class 2.
const std::vector<float> kSupportVectors = {0, 1, 1, 0.5f, -1, 0, 0.5f, -0.5f, 2, 1};
const std::vector<int64_t> kPerClass = {2, 1, 2};
// (classes - 1) rows of one coefficient per support vector.
const std::vector<float> kCoefficients = {0.5f, -0.25f, 1,  -0.75f, 0.4f,
                                          0.3f, 0.6f,   -1, 0.2f,   -0.5f};

Var Rows(Graph& g) { return Const<float>(g, {0, 0, 1, 1, -0.5f, 2, 1.5f, -1}, {4, 2}); }

}  // namespace svm

TEST(MlSvm, RegressorEachKernel) {
  Graph g;
  Var x = svm::Rows(g);
  std::vector<Var> outputs;
  for (const char* kernel : svm::kKernels) {
    outputs.push_back(
        ml::SVMRegressor(x, {.coefficients = std::vector<float>{0.5f, -1, 0.25f, 0.75f, -0.5f},
                             .kernel_params = svm::kParams,
                             .kernel_type = kernel,
                             .n_supports = 5,
                             .post_transform = "LOGISTIC",  // ONNX Runtime does not apply it
                             .rho = std::vector<float>{0.1f},
                             .support_vectors = svm::kSupportVectors}));
  }
  outputs.push_back(ml::SVMRegressor(x, {.coefficients = std::vector<float>{1, -0.5f},
                                         .kernel_params = svm::kParams,
                                         .rho = std::vector<float>{0.3f}}));
  outputs.push_back(ml::SVMRegressor(x, {.coefficients = std::vector<float>{1, -0.5f},
                                         .kernel_params = svm::kParams,
                                         .one_class = 1,
                                         .rho = std::vector<float>{-0.3f}}));
  ExpectOrt("svm_regressor", g, outputs,
            {F({0.100000001f, -2.6500001f, -0.712499976f, -1.83749998f}, {4, 1}),
             F({0.100000001f, -1.94999993f, 0.55859381f, -0.478906304f}, {4, 1}),
             F({0.562694669f, -0.547097027f, 0.29875204f, 0.183855534f}, {4, 1}),
             F({0.100000001f, -0.730100334f, -0.402631551f, -0.683644772f}, {4, 1}),
             F({0.300000012f, 0.800000012f, -1.20000005f, 2.29999995f}, {4, 1}),
             F({-1, 1, -1, 1}, {4, 1})});
}

TEST(MlSvm, ClassifierEachKernelAndTransform) {
  Graph g;
  Var x = svm::Rows(g);
  std::vector<Var> outputs;
  for (const char* kernel : svm::kKernels) {
    for (const char* transform : kTransforms) {
      auto out = ml::SVMClassifier(x, {.classlabels_ints = std::vector<int64_t>{5, 6, 7},
                                       .coefficients = svm::kCoefficients,
                                       .kernel_params = svm::kParams,
                                       .kernel_type = kernel,
                                       .post_transform = transform,
                                       .rho = std::vector<float>{0.1f, -0.2f, 0.05f},
                                       .support_vectors = svm::kSupportVectors,
                                       .vectors_per_class = svm::kPerClass});
      outputs.push_back(out.Y);
      outputs.push_back(out.Z);
    }
  }
  // Per kernel: the labels, which no transform changes, and the scores under NONE, SOFTMAX,
  // LOGISTIC and PROBIT; SOFTMAX_ZERO's are SOFTMAX's (no score is 0).
  struct KernelScores {
    Tensor labels, none, softmax, logistic, probit;
  };
  const KernelScores expected[] = {
      {I({5, 5, 5, 6}, {4}),
       F({0.100000001f, -0.200000003f, 0.0500000007f, -0.774999976f, 2.20000005f, -0.449999988f,
          1.47500002f, 2.03750014f, -1.20000005f, -2.1500001f, -0.0374999791f, 0.800000012f},
         {4, 3}),
       F({0.371464461f, 0.275187641f, 0.353347927f, 0.0455090515f, 0.891505063f, 0.0629859045f,
          0.354112446f, 0.621486783f, 0.0244007632f, 0.035242483f, 0.291416168f, 0.673341334f},
         {4, 3}),
       F({0.524979174f, 0.450166017f, 0.512497365f, 0.315398514f, 0.9002496f, 0.389360785f,
          0.81381619f, 0.884678483f, 0.231475204f, 0.104331195f, 0.490626097f, 0.689974427f},
         {4, 3}),
       F({-1.28171289f, kNaN, -1.64466965f, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN,
          0.841756105f},
         {4, 3})},
      {I({7, 5, 5, 5}, {4}),
       F({0.150000006f, -0.178000003f, -0.00200000312f, 0.209374994f, 1.61450005f, -1.477f,
          0.971875012f, 0.414031267f, -0.361374974f, 0.325000018f, 0.186531305f, -0.836375058f},
         {4, 3}),
       F({0.387694359f, 0.279280692f, 0.333024919f, 0.190069765f, 0.774731278f, 0.0351989493f,
          0.544644177f, 0.311777234f, 0.143578604f, 0.457928747f, 0.398714185f, 0.143357083f},
         {4, 3}),
       F({0.537429869f, 0.45561713f, 0.499500006f, 0.552153349f, 0.834035218f, 0.185880989f,
          0.725493073f, 0.602054119f, 0.410626769f, 0.580542326f, 0.54649806f, 0.302298784f},
         {4, 3}),
       F({-1.03661311f, kNaN, kNaN, -0.808716416f, kNaN, kNaN, 1.90832579f, -0.217190206f, kNaN,
          -0.453792751f, -0.890900135f, kNaN},
         {4, 3})},
      {I({7, 5, 5, 5}, {4}),
       F({0.875980616f, -0.248150498f, -0.441813022f, 0.264726102f, 0.539191008f, -0.27804938f,
          0.460713893f, 0.0144907944f, -0.0774277002f, 0.0769913644f, -0.368588954f, 0.0706867054f},
         {4, 3}),
       F({0.627880394f, 0.204020113f, 0.168099493f, 0.345189482f, 0.454209447f, 0.200601041f,
          0.449665934f, 0.287804604f, 0.262529463f, 0.379626542f, 0.243132785f, 0.377240658f},
         {4, 3}),
       F({0.705988586f, 0.438278794f, 0.391309053f, 0.565797687f, 0.631624222f, 0.430932075f,
          0.613183498f, 0.503622651f, 0.48065275f, 0.519238353f, 0.408882022f, 0.517664313f},
         {4, 3}),
       F({1.15531218f, kNaN, kNaN, -0.62891382f, 0.0983956382f, kNaN, -0.0986376479f, -2.18205476f,
          kNaN, -1.42568386f, kNaN, -1.47073662f},
         {4, 3})},
      {I({7, 5, 5, 6}, {4}),
       F({0.346719116f, -0.0914435834f, -0.206587866f, -0.0740744695f, 0.651312351f, -0.0869168714f,
          0.833251536f, 0.845833659f, -0.754309773f, -0.697268486f, -0.0996478572f, 0.26924938f},
         {4, 3}),
       F({0.450396508f, 0.290605217f, 0.258998245f, 0.246744841f, 0.509658873f, 0.243596315f,
          0.451042682f, 0.456753612f, 0.0922037363f, 0.18360202f, 0.333749652f, 0.482648343f},
         {4, 3}),
       F({0.585821748f, 0.47715503f, 0.448535949f, 0.481489837f, 0.657306135f, 0.478284448f,
          0.697041988f, 0.699692428f, 0.319882959f, 0.332418144f, 0.475108624f, 0.566908598f},
         {4, 3}),
       F({-0.394214481f, kNaN, kNaN, kNaN, 0.388886511f, kNaN, 0.967261791f, 1.01890433f, kNaN,
          kNaN, kNaN, -0.61515218f},
         {4, 3})}};
  std::vector<Tensor> ort;
  for (const KernelScores& e : expected) {
    for (const Tensor* scores : {&e.none, &e.softmax, &e.logistic, &e.softmax, &e.probit}) {
      ort.push_back(e.labels);
      ort.push_back(*scores);
    }
  }
  ExpectOrt("svm_classifier_kernels", g, outputs, ort);
}

TEST(MlSvm, ClassifierProbabilities) {
  Graph g;
  Var x = svm::Rows(g);
  std::vector<Var> outputs;
  for (const char* transform : {"NONE", "SOFTMAX", "LOGISTIC"}) {
    auto out = ml::SVMClassifier(x, {.classlabels_strings = Strings{"a", "b", "c"},
                                     .coefficients = svm::kCoefficients,
                                     .kernel_params = svm::kParams,
                                     .kernel_type = "RBF",
                                     .post_transform = transform,
                                     .prob_a = std::vector<float>{-1.5f, -0.5f, -2},
                                     .prob_b = std::vector<float>{0.1f, -0.2f, 0.3f},
                                     .rho = std::vector<float>{0.1f, -0.2f, 0.05f},
                                     .support_vectors = svm::kSupportVectors,
                                     .vectors_per_class = svm::kPerClass});
    outputs.push_back(out.Y);
    outputs.push_back(out.Z);
  }
  const Tensor labels = S({"c", "a", "a", "a"}, {4});  // under every transform
  ExpectOrt("svm_classifier_probabilities", g, outputs,
            {labels,
             F({0.4501127f, 0.130901322f, 0.418985993f, 0.433888048f, 0.227174103f, 0.338937819f,
                0.4230178f, 0.227953315f, 0.349029094f, 0.336604714f, 0.314568967f, 0.348826438f},
               {4, 3}),
             labels,
             F({0.370909601f, 0.269548148f, 0.359542221f, 0.367286444f, 0.298696548f, 0.334016979f,
                0.363442898f, 0.299034148f, 0.337522954f, 0.334392011f, 0.327104032f, 0.338503957f},
               {4, 3}),
             labels,
             F({0.610666037f, 0.532678664f, 0.60324055f, 0.606801689f, 0.556550503f, 0.583932459f,
                0.604205132f, 0.556742847f, 0.586382091f, 0.5833655f, 0.578000069f, 0.586332977f},
               {4, 3})});
}

TEST(MlSvm, ClassifierBinaryAndLinear) {
  Graph g;
  Var x = svm::Rows(g);
  std::vector<Var> outputs;
  const std::vector<float> vectors = {0, 1, 1, 0.5f, -1, 0};
  for (const char* transform : {"NONE", "LOGISTIC", "SOFTMAX"}) {
    for (bool probabilities : {false, true}) {
      ml::SVMClassifierAttributes binary = {.classlabels_ints = std::vector<int64_t>{0, 1},
                                            .coefficients = std::vector<float>{0.5f, -0.25f, 1},
                                            .kernel_params = svm::kParams,
                                            .kernel_type = "POLY",
                                            .post_transform = transform,
                                            .rho = std::vector<float>{-0.1f},
                                            .support_vectors = vectors,
                                            .vectors_per_class = std::vector<int64_t>{2, 1}};
      if (probabilities) {
        binary.prob_a = std::vector<float>{-2};
        binary.prob_b = std::vector<float>{0.25f};
      }
      auto out = ml::SVMClassifier(x, binary);
      outputs.push_back(out.Y);
      outputs.push_back(out.Z);
    }
  }
  // Linear models: three classes; two classes with non-negative coefficients.
  auto three = ml::SVMClassifier(x, {.classlabels_strings = Strings{"x", "y", "z"},
                                     .coefficients = std::vector<float>{1, -1, 0.5f, 0.5f, -1, 2},
                                     .kernel_params = svm::kParams,
                                     .post_transform = "SOFTMAX",
                                     .rho = std::vector<float>{0.25f}});
  auto two = ml::SVMClassifier(x, {.classlabels_ints = std::vector<int64_t>{3, 4},
                                   .coefficients = std::vector<float>{0.1f, 0.2f, 0.3f, 0.1f},
                                   .kernel_params = svm::kParams,
                                   .rho = std::vector<float>{0.2f}});
  outputs.insert(outputs.end(), {three.Y, three.Z, two.Y, two.Z});
  const Tensor binary_labels = I({1, 0, 0, 0}, {4});  // under every transform
  ExpectOrt("svm_classifier_binary_linear", g, outputs,
            {binary_labels,
             F({0.049999997f, -0.049999997f, -0.00937499851f, 0.00937499851f, -0.771875024f,
                0.771875024f, -0.125000015f, 0.125000015f},
               {4, 2}),
             binary_labels,
             F({0.412882835f, 0.587117136f, 0.442348331f, 0.557651699f, 0.784780979f, 0.215218991f,
                0.5f, 0.5f},
               {4, 2}),
             binary_labels,
             F({0.512497365f, 0.487502635f, 0.497656286f, 0.502343714f, 0.316073596f, 0.683926404f,
                0.468790591f, 0.531209409f},
               {4, 2}),
             binary_labels,
             F({0.601778924f, 0.642703414f, 0.608818471f, 0.635908961f, 0.686709583f, 0.553597987f,
                0.622459292f, 0.622459292f},
               {4, 2}),
             binary_labels,
             F({1.04999995f, -0.049999997f, 0.990625024f, 0.00937499851f, 0.228124976f,
                0.771875024f, 0.875f, 0.125000015f},
               {4, 2}),
             binary_labels,
             F({0.456551284f, 0.543448687f, 0.471206039f, 0.528793931f, 0.6386621f, 0.36133787f,
                0.5f, 0.5f},
               {4, 2}),
             S({"x", "y", "z", "x"}, {4}),
             F({0.333333343f, 0.333333343f, 0.333333343f, 0.155362412f, 0.422318816f, 0.422318816f,
                0.000890136231f, 0.0229569171f, 0.976152897f, 0.902626514f, 0.0951361284f,
                0.00223738747f},
               {4, 3}),
             I({3, 4, 4, 4}, {4}),
             F({0.200000003f, 0.200000003f, 0.5f, 0.600000024f, 0.550000012f, 0.25f, 0.150000006f,
                0.550000012f},
               {4, 2})});
}

// ---------------------------------------------------------------------------------------------
// Element types, budgets and failures.

// One tree (id 0), its nodes numbered from 0: node i compares feature `features[i]` with
// `values[i]` by `modes[i]` and goes on to node `true_ids[i]` or `false_ids[i]`.
struct OneTree {
  Strings modes;
  std::vector<int64_t> features;
  std::vector<float> values;
  std::vector<int64_t> true_ids;
  std::vector<int64_t> false_ids;
};

// A stump: node 0 sends feature `feature` <= `threshold` to leaf 1, the rest to leaf 2.
OneTree Stump(int64_t feature = 0, float threshold = 0.5f) {
  return {.modes = {"BRANCH_LEQ", "LEAF", "LEAF"},
          .features = {feature, 0, 0},
          .values = {threshold, 0, 0},
          .true_ids = {1, 0, 0},
          .false_ids = {2, 0, 0}};
}

// `attributes` (of a tree ensemble regressor or classifier) with the nodes of `tree`.
template <class Attributes>
Attributes WithNodes(Attributes attributes, const OneTree& tree) {
  std::vector<int64_t> ids(tree.modes.size());
  std::iota(ids.begin(), ids.end(), 0);
  attributes.nodes_falsenodeids = tree.false_ids;
  attributes.nodes_featureids = tree.features;
  attributes.nodes_modes = tree.modes;
  attributes.nodes_nodeids = ids;
  attributes.nodes_treeids = std::vector<int64_t>(ids.size(), 0);
  attributes.nodes_truenodeids = tree.true_ids;
  attributes.nodes_values = tree.values;
  return attributes;
}

// A one-target regressor over `tree`: leaf `leaves[i]` adds `weights[i]` to target `target`.
ml::TreeEnsembleRegressorAttributes OneTreeRegressor(const OneTree& tree,
                                                     const std::vector<int64_t>& leaves,
                                                     const std::vector<float>& weights,
                                                     int64_t target = 0) {
  return WithNodes(
      ml::TreeEnsembleRegressorAttributes{.n_targets = 1,
                                          .target_ids = std::vector<int64_t>(leaves.size(), target),
                                          .target_nodeids = leaves,
                                          .target_treeids = std::vector<int64_t>(leaves.size(), 0),
                                          .target_weights = weights},
      tree);
}

TEST(MlTypes, NumericInputsAsFloat) {
  Graph g;
  Var doubles = Const<double>(g, {0.5, -1.25, 3, 2}, {2, 2});
  Var int32s = Const<int32_t>(g, {3, -4, 0, 7}, {2, 2});
  Var int64s = Const<int64_t>(g, {-3, 4, 10, 7}, {2, 2});
  const ml::ScalerAttributes scale = {.offset = std::vector<float>{1, -1},
                                      .scale = std::vector<float>{2, 0.5f}};
  std::vector<Var> outputs;
  for (const Var& x : {doubles, int32s, int64s}) {
    outputs.push_back(ml::Scaler(x, scale));
    outputs.push_back(ml::Normalizer(x, {.norm = "L2"}));
    auto classified =
        ml::LinearClassifier(x, {.classlabels_ints = std::vector<int64_t>{1, 2},
                                 .coefficients = std::vector<float>{0.5f, -1, 1, 0.25f},
                                 .intercepts = std::vector<float>{0.25f, -0.5f}});
    outputs.push_back(classified.Y);
    outputs.push_back(classified.Z);
  }
  ExpectOrt("numeric_inputs", g, outputs,
            {F({-1, -0.125f, 4, 1.5f}, {2, 2}),
             F({0.371390671f, -0.928476691f, 0.832050323f, 0.554700196f}, {2, 2}), I({1, 2}, {2}),
             F({1.75f, -0.3125f, -0.25f, 3}, {2, 2}), F({4, -1.5f, -2, 4}, {2, 2}),
             F({0.600000024f, -0.800000012f, 0, 1}, {2, 2}), I({1, 2}, {2}),
             F({5.75f, 1.5f, -6.75f, 1.25f}, {2, 2}), F({-8, 2.5f, 18, 4}, {2, 2}),
             F({-0.600000024f, 0.800000012f, 0.819231927f, 0.573462367f}, {2, 2}), I({2, 2}, {2}),
             F({-5.25f, -2.5f, -1.75f, 11.25f}, {2, 2})});
}

TEST(MlTypes, OneDimensionalFeaturesAreOneRow) {
  Graph g;
  Var x = Const<float>(g, {0.25f, -0.5f, 1}, {3});
  auto linear = ml::LinearClassifier(x, {.classlabels_strings = Strings{"p", "q"},
                                         .coefficients = std::vector<float>{1, 2, 3, -1, 0, 1},
                                         .intercepts = std::vector<float>{0, 0.5f},
                                         .post_transform = "SOFTMAX"});
  Var regressed = ml::LinearRegressor(x, {.coefficients = std::vector<float>{1, 2, 3}});
  Var normalized = ml::Normalizer(x, {.norm = "L1"});
  auto svm = ml::SVMClassifier(x, {.classlabels_ints = std::vector<int64_t>{0, 1},
                                   .coefficients = std::vector<float>{0.5f, -1},
                                   .kernel_params = svm::kParams,
                                   .kernel_type = "RBF",
                                   .rho = std::vector<float>{0.1f},
                                   .support_vectors = std::vector<float>{0, 0, 1, 1, 1, 0},
                                   .vectors_per_class = std::vector<int64_t>{1, 1}});
  ExpectOrt("one_dimensional", g, {linear.Y, linear.Z, regressed, normalized, svm.Y, svm.Z},
            {S({"p"}, {1}), F({0.731058598f, 0.268941432f}, {1, 2}), F({2.25f}, {1, 1}),
             F({0.142857149f, -0.285714298f, 0.571428597f}, {3}), I({0}, {1}),
             F({-0.37903592f, 0.37903592f}, {1, 2})});
}

TEST(MlTypes, BinarizerKeepsTheElementType) {
  // ONNX Runtime computes Binarizer for float only; the others follow ONNX's definition.
  Graph g;
  Var ints = ml::Binarizer(Const<int64_t>(g, {-1, 2, 5}, {3}), {.threshold = 1.5f});
  ASSERT_TRUE(ints.value().has_value());
  EXPECT_EQ(*ints.value(), I({0, 1, 1}, {3}));
  Var doubles = ml::Binarizer(Const<double>(g, {0.5, 1.5}, {2}), {.threshold = 1.0f});
  ASSERT_TRUE(doubles.value().has_value());
  EXPECT_EQ(*doubles.value(), Tensor::from_vector<double>({0, 1}, {2}));
}

TEST(MlTypes, EmptyInputs) {
  Graph g;
  Var empty = Const<float>(g, {}, {0, 2});
  Var scaled =
      ml::Scaler(empty, {.offset = std::vector<float>{1, 2}, .scale = std::vector<float>{1, 1}});
  ASSERT_TRUE(scaled.value().has_value());
  EXPECT_EQ(scaled.value()->shape(), (absl::Span<const int64_t>{0, 2}));
  Var regressed = ml::LinearRegressor(empty, {.coefficients = std::vector<float>{1, 1}});
  ASSERT_TRUE(regressed.value().has_value());
  EXPECT_EQ(regressed.value()->shape(), (absl::Span<const int64_t>{0, 1}));
}

TEST(MlTypes, ValueBudget) {
  Graph g(gg::GraphOptions{.max_value_bytes = 64});
  Var x = Const<float>(g, std::vector<float>(8, 1.0f), {4, 2});
  // 4 x 100 scores of 4 bytes exceed 64 bytes: no value, and the op succeeds.
  Var y = ml::LinearRegressor(x, {.coefficients = std::vector<float>(200, 0.5f), .targets = 100});
  EXPECT_TRUE(HasNoValue(y));
  auto classified = ml::TreeEnsembleClassifier(
      x, WithNodes(ml::TreeEnsembleClassifierAttributes{.class_ids = std::vector<int64_t>{0, 1},
                                                        .class_nodeids = std::vector<int64_t>{1, 2},
                                                        .class_treeids = std::vector<int64_t>{0, 0},
                                                        .class_weights = std::vector<float>{1, 1},
                                                        .classlabels_int64s =
                                                            std::vector<int64_t>(20, 1)},
                   Stump()));
  EXPECT_TRUE(HasNoValue(classified.Z));
}

TEST(MlFailures, BadKnownInputs) {
  Graph g;
  Var x = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  // A tree reading feature 5 of 2.
  auto regressed =
      ml::TreeEnsembleRegressor(x, OneTreeRegressor(Stump(/*feature=*/5), {1, 2}, {1, 2}));
  EXPECT_TRUE(FailsWith(regressed, {"input 0", "feature 5"}));
  // Support vectors of 3 features against 2.
  Var svr = ml::SVMRegressor(x, {.coefficients = std::vector<float>{1},
                                 .kernel_params = std::vector<float>{1, 0, 1},
                                 .n_supports = 1,
                                 .rho = std::vector<float>{0},
                                 .support_vectors = std::vector<float>{1, 2, 3}});
  EXPECT_TRUE(FailsWith(svr, {"input 0", "2 features"}));
  // Imputed values neither single nor one per feature.
  EXPECT_TRUE(FailsWith(ml::Imputer(x, {.imputed_value_floats = std::vector<float>{1, 2, 3}}),
                        {"imputed values"}));
}

TEST(MlFailures, ModelsOnnxRuntimeRejectsGetNoValue) {
  Graph g;
  Var x = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  // A cycle: node 1 sends both ways back to node 0.
  const OneTree cycle_tree = {.modes = {"BRANCH_LEQ", "BRANCH_LEQ", "LEAF"},
                              .features = {0, 0, 0},
                              .values = {9, 9, 0},
                              .true_ids = {1, 0, 0},
                              .false_ids = {1, 0, 0}};
  Var cycle = ml::TreeEnsembleRegressor(x, OneTreeRegressor(cycle_tree, {2}, {1}));
  EXPECT_TRUE(HasNoValue(cycle));
  // A target id past n_targets.
  const OneTree leaf = {
      .modes = {"LEAF"}, .features = {0}, .values = {0}, .true_ids = {0}, .false_ids = {0}};
  Var past = ml::TreeEnsembleRegressor(x, OneTreeRegressor(leaf, {0}, {1}, /*target=*/1));
  EXPECT_TRUE(HasNoValue(past));
}

}  // namespace
