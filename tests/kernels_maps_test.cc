// Maps carry values: ZipMap makes them (ai.onnx.ml), CastMap and DictVectorizer turn them into
// tensors. Expected values follow ONNX Runtime's kernels: maps iterate in ascending key order, a
// repeated label keeps its later score. ONNX's sequence ops take sequences of tensors only, so no
// op of a graph hands one of ZipMap's maps on: CastMap's and DictVectorizer's kernels are run
// here directly on ZipMap's map values (their inputs in a graph are arguments, without values).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "kernel_test_util.h"

namespace graphgc {
namespace {

using kernel_test::FailsWith;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Var Scores(Graph& g) {
  return g.constant(Tensor::from_vector<float>({0.1f, 0.2f, 0.7f, 0.5f, 0.4f, 0.1f}, {2, 3}));
}

TEST(ZipMap, MakesOneMapPerRowInKeyOrder) {
  Graph g;
  const Var maps = ml::ZipMap(Scores(g), {.classlabels_int64s = std::vector<int64_t>{2, 0, 1}});
  ASSERT_TRUE(maps.ok()) << maps.status();
  const std::optional<Value> value = maps.any_value();
  ASSERT_TRUE(value.has_value());
  ASSERT_EQ(value->elements().size(), 2u);
  const Value& second = value->elements()[1];
  ASSERT_EQ(second.kind(), Value::Kind::kMap);
  EXPECT_THAT(second.keys().data<int64_t>(), ElementsAre(0, 1, 2));
  EXPECT_THAT(second.map_values().data<float>(), ElementsAre(0.4f, 0.1f, 0.5f));
}

// Row `row` of ZipMap's maps of Scores() with these labels.
template <class L>
Value ZippedRow(const std::vector<L>& labels, size_t row) {
  Graph g;
  ml::ZipMapAttributes attributes;
  if constexpr (std::is_same_v<L, std::string>) {
    attributes.classlabels_strings = labels;
  } else {
    attributes.classlabels_int64s = labels;
  }
  const std::optional<Value> maps = ml::ZipMap(Scores(g), attributes).any_value();
  EXPECT_TRUE(maps.has_value());
  return maps.has_value() ? maps->elements().at(row) : Value::EmptyOptional();
}

// The map op's value kernel on `map`: its one output, or the kernel's status.
absl::StatusOr<std::optional<Value>> RunMapKernel(
    const char* op, const Value& map, std::vector<kernels::KernelAttribute> attributes) {
  const internal::ResolvedOp* resolved = internal::ResolveOp("ai.onnx.ml", op, 1);
  if (resolved->value_kernel == nullptr) return absl::NotFoundError("no value kernel");
  const std::vector<const Tensor*> tensors(1, nullptr);
  const std::vector<std::optional<Value>> values = {map};
  const std::vector<kernels::OutputSpec> outputs(1);
  kernels::KernelCall call;
  call.op_type = op;
  call.version = 1;
  call.inputs = tensors;
  call.values = values;
  call.attributes = attributes;
  call.outputs = outputs;
  kernels::ValueKernelResult result = (*resolved->value_kernel)(kernels::KernelContext(call));
  if (!result.ok()) return result.status();
  return (*result)[0];
}

std::vector<float> FloatsOf(const absl::StatusOr<std::optional<Value>>& result) {
  if (!result.ok() || !result->has_value()) return {};
  const Tensor& tensor = (*result)->tensor();
  EXPECT_EQ(tensor.rank(), 2);
  return std::vector<float>(tensor.data<float>().begin(), tensor.data<float>().end());
}

TEST(DictVectorizer, PlacesValuesAtTheirVocabularyPositions) {
  const Value first = ZippedRow<int64_t>({2, 0, 1}, 0);  // {0: 0.2, 1: 0.7, 2: 0.1}
  EXPECT_THAT(FloatsOf(RunMapKernel("DictVectorizer", first,
                                    {{"int64_vocabulary", std::vector<int64_t>{1, 5, 2}}})),
              ElementsAre(0.7f, 0.0f, 0.1f));
  const Value named = ZippedRow<std::string>({"c", "a", "b"}, 1);  // {a: 0.4, b: 0.1, c: 0.5}
  EXPECT_THAT(
      FloatsOf(RunMapKernel("DictVectorizer", named,
                            {{"string_vocabulary", std::vector<std::string>{"a", "b", "z"}}})),
      ElementsAre(0.4f, 0.1f, 0.0f));
}

TEST(CastMap, DenseInKeyOrderAndSparseAtKeys) {
  const Value map = ZippedRow<int64_t>({3, 0, 1}, 0);  // {0: 0.2, 1: 0.7, 3: 0.1}
  const std::vector<kernels::KernelAttribute> dense = {{"cast_to", std::string("TO_FLOAT")},
                                                       {"map_form", std::string("DENSE")},
                                                       {"max_map", int64_t{1}}};
  EXPECT_THAT(FloatsOf(RunMapKernel("CastMap", map, dense)), ElementsAre(0.2f, 0.7f, 0.1f));
  const std::vector<kernels::KernelAttribute> sparse = {{"cast_to", std::string("TO_FLOAT")},
                                                        {"map_form", std::string("SPARSE")},
                                                        {"max_map", int64_t{5}}};
  EXPECT_THAT(FloatsOf(RunMapKernel("CastMap", map, sparse)),
              ElementsAre(0.2f, 0.7f, 0.0f, 0.1f, 0.0f));
  const absl::StatusOr<std::optional<Value>> ints =
      RunMapKernel("CastMap", map, {{"cast_to", std::string("TO_INT64")}});
  ASSERT_TRUE(ints.ok() && ints->has_value()) << ints.status();
  EXPECT_THAT((*ints)->tensor().data<int64_t>(), ElementsAre(0, 0, 0));
  const absl::StatusOr<std::optional<Value>> strings =
      RunMapKernel("CastMap", map, {{"cast_to", std::string("TO_STRING")}});
  EXPECT_TRUE(kernels::MeansNoValue(strings.status())) << strings.status();
  const absl::StatusOr<std::optional<Value>> outside =
      RunMapKernel("CastMap", map, {{"map_form", std::string("SPARSE")}, {"max_map", int64_t{2}}});
  ASSERT_FALSE(outside.ok());
  EXPECT_THAT(std::string(outside.status().message()),
              HasSubstr("key 3 is outside [0, max_map = 2)"));
}

TEST(ZipMap, ALabelCountThatDoesNotMatchFails) {
  Graph g;
  EXPECT_TRUE(FailsWith(ml::ZipMap(Scores(g), {.classlabels_int64s = std::vector<int64_t>{1, 2}}),
                        {"ZipMap", "has 3 classes but 2 labels"}));
}

TEST(ZipMap, MapsAreCollected) {
  Graph g(GraphOptions{.collect_policy = CollectPolicy::kManual});
  const Var scores = Scores(g);
  {
    const Var maps = ml::ZipMap(scores, {.classlabels_int64s = std::vector<int64_t>{0, 1, 2}});
    g.collect();
    EXPECT_EQ(g.stats().live_value_bytes, 2 * (3 * 8 + 3 * 4));  // keys and values per row
  }
  g.collect();
  EXPECT_EQ(g.stats().live_value_bytes, 0);
}

}  // namespace
}  // namespace graphgc
