// Value propagation of the pool family (opset/kernels/pool/) where ONNX's node test data says
// nothing: every element type (float16, double, MaxPool's int8/uint8), count_include_pad,
// auto_pad SAME_UPPER/SAME_LOWER, dilations with ceil_mode, MaxPool's Indices in both storage
// orders, NaN, LpPool and GlobalLpPool (both forms of p), MaxUnpool with and without
// output_shape, MaxRoiPool, RoiAlign's modes and versions, empty tensors, the ops failing on bad
// known inputs, the cases the kernels decline, and the value budget. Expected values are
// computed by hand (RoiAlign's max mode as ONNX Runtime computes it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Attributes = std::vector<gg::Attribute>;

// One node of `op_type` at opset `version`.
std::vector<Var> Node(absl::string_view op_type, const std::vector<Var>& inputs,
                      const Attributes& attributes, int version = 17, int num_outputs = -1) {
  return gg::make_node(op_type, inputs, attributes,
                       {.version = version, .num_outputs = num_outputs});
}

Var Pool(absl::string_view op_type, const Var& x, const Attributes& attributes, int version = 17) {
  return One(Node(op_type, {x}, attributes, version));
}

// --- AveragePool ---------------------------------------------------------------------------

template <class T>
class PoolTypedTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, Float16>;
TYPED_TEST_SUITE(PoolTypedTest, FloatTypes);

// 3x3 input 1..9, kernel 2x2, one row and one column of padding at the beginning.
TYPED_TEST(PoolTypedTest, AveragePoolCountsPaddingOnlyWhenAsked) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({1, 2, 3, 4, 5, 6, 7, 8, 9}), {1, 1, 3, 3});
  const Attributes window = {{"kernel_shape", Dims{2, 2}}, {"pads", Dims{1, 1, 0, 0}}};
  const Dims shape = {1, 1, 3, 3};
  EXPECT_TRUE(HasValues<T>(Pool("AveragePool", x, window), {1, 1.5, 2.5, 2.5, 3, 4, 5.5, 6, 7},
                           shape, 1e-3));
  Attributes include = window;
  include.push_back({"count_include_pad", int64_t{1}});
  EXPECT_TRUE(HasValues<T>(Pool("AveragePool", x, include),
                           {0.25, 0.75, 1.25, 1.25, 3, 4, 2.75, 6, 7}, shape, 1e-3));
  // AveragePool-1 has no count_include_pad: padding is never counted.
  EXPECT_TRUE(HasValues<T>(Pool("AveragePool", x, window, 1), {1, 1.5, 2.5, 2.5, 3, 4, 5.5, 6, 7},
                           shape, 1e-3));
}

TYPED_TEST(PoolTypedTest, MaxAndLpPoolAndTheGlobalPools) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, ValuesOf<T>({3, -4, 5, 12}), {1, 1, 4});
  const Attributes window = {{"kernel_shape", Dims{2}}, {"strides", Dims{2}}};
  EXPECT_TRUE(HasValues<T>(Pool("MaxPool", x, window), {3, 12}, {1, 1, 2}));
  EXPECT_TRUE(HasValues<T>(Pool("LpPool", x, window), {5, 13}, {1, 1, 2}, 1e-3));
  const Var planes = Const<T>(g, ValuesOf<T>({3, -4, 5, 12}), {1, 2, 2});
  EXPECT_TRUE(HasValues<T>(Pool("GlobalLpPool", planes, {}), {5, 13}, {1, 2, 1}, 1e-3));
  EXPECT_TRUE(HasValues<T>(Pool("GlobalMaxPool", planes, {}), {3, 12}, {1, 2, 1}));
  EXPECT_TRUE(HasValues<T>(Pool("GlobalAveragePool", planes, {}), {-0.5, 8.5}, {1, 2, 1}, 1e-3));
}

TEST(AveragePoolTest, SameUpperAndSameLowerPadTheOddCellAtOppositeEnds) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5}, {1, 1, 5});
  const Attributes upper = {
      {"kernel_shape", Dims{2}}, {"strides", Dims{2}}, {"auto_pad", std::string("SAME_UPPER")}};
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, upper), {1.5, 3.5, 5}, {1, 1, 3}));
  const Attributes lower = {
      {"kernel_shape", Dims{2}}, {"strides", Dims{2}}, {"auto_pad", std::string("SAME_LOWER")}};
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, lower), {1, 2.5, 4.5}, {1, 1, 3}));
  const Attributes valid = {
      {"kernel_shape", Dims{2}}, {"strides", Dims{2}}, {"auto_pad", std::string("VALID")}};
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, valid), {1.5, 3.5}, {1, 1, 2}));
}

TEST(AveragePoolTest, ThreeSpatialAxes) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 2, 2, 2});
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, {{"kernel_shape", Dims{2, 2, 2}}}), {4.5},
                               {1, 1, 1, 1, 1}));
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, {{"kernel_shape", Dims{1, 1, 2}}}),
                               {1.5, 3.5, 5.5, 7.5}, {1, 1, 2, 2, 1}));
}

// Any spatial rank: four axes of 2, pooled over pairs of the first and last.
TEST(AveragePoolTest, FourSpatialAxes) {
  Graph g;
  std::vector<float> values(16);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i);
  const Var x = Const<float>(g, values, {1, 1, 2, 2, 2, 2});
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, {{"kernel_shape", Dims{2, 1, 1, 2}}}),
                               {4.5, 6.5, 8.5, 10.5}, {1, 1, 1, 2, 2, 1}));
  const std::vector<Var> max = Node(
      "MaxPool", {x}, {{"kernel_shape", Dims{2, 1, 1, 2}}, {"storage_order", int64_t{1}}}, 17, 2);
  EXPECT_TRUE(HasValues<float>(max[0], {9, 11, 13, 15}, {1, 1, 1, 2, 2, 1}));
  // Column-major, (a, b, c, d) is a + 2b + 4c + 8d: (1,0,1,1) is 13, (1,1,0,1) is 11.
  EXPECT_TRUE(HasValues<int64_t>(max[1], {9, 13, 11, 15}, {1, 1, 1, 2, 2, 1}));
}

// --- MaxPool -------------------------------------------------------------------------------

template <class T>
class MaxPoolIntegerTest : public ::testing::Test {};
using EightBitTypes = ::testing::Types<int8_t, uint8_t>;
TYPED_TEST_SUITE(MaxPoolIntegerTest, EightBitTypes);

TYPED_TEST(MaxPoolIntegerTest, EightBitMaxPoolFromVersion12) {
  using T = TypeParam;
  Graph g;
  const T top = std::numeric_limits<T>::max();
  const T bottom = std::numeric_limits<T>::lowest();
  const Var x = Const<T>(g, {bottom, bottom, top, 7}, {1, 1, 4});
  const Var y = Pool("MaxPool", x, {{"kernel_shape", Dims{2}}, {"strides", Dims{2}}}, 12);
  EXPECT_TRUE(HasValues<T>(y, {static_cast<double>(bottom), static_cast<double>(top)}, {1, 1, 2}));
}

// Two channels of 3x3: 1..9 and 9..1; 2x2 windows.
TEST(MaxPoolTest, IndicesInBothStorageOrdersCountWholePlanes) {
  Graph g;
  const Var x =
      Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1}, {1, 2, 3, 3});
  const Dims shape = {1, 2, 2, 2};
  const std::vector<Var> row_major = Node("MaxPool", {x}, {{"kernel_shape", Dims{2, 2}}}, 17, 2);
  ASSERT_EQ(row_major.size(), 2u);
  EXPECT_TRUE(HasValues<float>(row_major[0], {5, 6, 8, 9, 9, 8, 6, 5}, shape));
  EXPECT_TRUE(HasValues<int64_t>(row_major[1], {4, 5, 7, 8, 9, 10, 12, 13}, shape));
  const std::vector<Var> column_major =
      Node("MaxPool", {x}, {{"kernel_shape", Dims{2, 2}}, {"storage_order", int64_t{1}}}, 17, 2);
  EXPECT_TRUE(HasValues<int64_t>(column_major[1], {4, 7, 5, 8, 9, 12, 10, 13}, shape));
  // MaxPool-8 has the Indices output too (and no dilations or ceil_mode).
  EXPECT_TRUE(HasValues<int64_t>(Node("MaxPool", {x}, {{"kernel_shape", Dims{2, 2}}}, 8, 2)[1],
                                 {4, 5, 7, 8, 9, 10, 12, 13}, shape));
}

TEST(MaxPoolTest, DilationsAndCeilMode) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 8});
  const Attributes floor = {
      {"kernel_shape", Dims{2}}, {"strides", Dims{2}}, {"dilations", Dims{2}}};
  EXPECT_TRUE(HasValues<float>(Pool("MaxPool", x, floor), {3, 5, 7}, {1, 1, 3}));
  Attributes ceil = floor;
  ceil.push_back({"ceil_mode", int64_t{1}});
  // The last window starts at 6 and its second tap (8) lies past the end.
  EXPECT_TRUE(HasValues<float>(Pool("MaxPool", x, ceil), {3, 5, 7, 7}, {1, 1, 4}));
}

// As ONNX Runtime 1.30: with Indices, dilations or for double a NaN first tap stays and later
// NaNs are skipped; float and float16 without them (ONNX Runtime's result depends on the order
// MLAS visits the taps) and GlobalMaxPool get no value.
TEST(MaxPoolTest, NaNAsOnnxRuntimeTreatsIt) {
  Graph g;
  const std::vector<double> values = {1, kNaN, 3, 4, 5, kNaN, kNaN, kNaN, kNaN};
  const Attributes window = {{"kernel_shape", Dims{3}}};
  const Dims shape = {1, 1, 7};
  const Var x = Const<float>(g, ValuesOf<float>(values), {1, 1, 9});
  EXPECT_TRUE(HasNoValue(Pool("MaxPool", x, window)));
  EXPECT_TRUE(HasValues<float>(
      Pool("MaxPool", x, {{"kernel_shape", Dims{3}}, {"storage_order", int64_t{1}}}),
      {3, kNaN, 5, 5, 5, kNaN, kNaN}, shape));
  const std::vector<Var> y = Node("MaxPool", {x}, window, 17, 2);
  EXPECT_TRUE(HasValues<float>(y[0], {3, kNaN, 5, 5, 5, kNaN, kNaN}, shape));
  EXPECT_TRUE(HasValues<int64_t>(y[1], {2, 1, 4, 4, 4, 5, 6}, shape));
  const Var d = Const<double>(g, ValuesOf<double>(values), {1, 1, 9});
  EXPECT_TRUE(HasValues<double>(Pool("MaxPool", d, window), {3, kNaN, 5, 5, 5, kNaN, kNaN}, shape));
  EXPECT_TRUE(HasNoValue(Pool("GlobalMaxPool", x, {})));
}

// AveragePool-19's dilations and LpPool-18's dilations and ceil_mode; values as ONNX Runtime 1.32.
TEST(PoolTest, DilationsOfAveragePool19AndLpPool18) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5}, {1, 1, 5});
  const Attributes dilated = {{"kernel_shape", Dims{2}}, {"dilations", Dims{2}}};
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, dilated, 19), {2, 3, 4}, {1, 1, 3}));
  Attributes padded = dilated;
  padded.push_back({"pads", Dims{1, 1}});
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, padded, 19), {2, 2, 3, 4, 4}, {1, 1, 5}));
  padded.push_back({"count_include_pad", int64_t{1}});
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, padded, 22), {1, 2, 3, 4, 2}, {1, 1, 5}));
  EXPECT_FALSE(Pool("AveragePool", x, dilated, 18).ok());  // no dilations before 19

  Attributes lp = dilated;
  lp.push_back({"p", int64_t{1}});
  EXPECT_TRUE(HasValues<float>(Pool("LpPool", x, lp, 18), {4, 6, 8}, {1, 1, 3}));
  Attributes strided = dilated;
  strided.push_back({"strides", Dims{2}});
  strided.push_back({"ceil_mode", int64_t{1}});
  EXPECT_TRUE(HasValues<float>(Pool("LpPool", x, strided, 18), {std::sqrt(10.0), std::sqrt(34.0)},
                               {1, 1, 2}, 1e-6));
}

// With ceil_mode, a last window that would start in the end padding: ONNX's inference keeps it
// before opset 22 (no value: it lies wholly in the padding) and drops it from 22, as ONNX
// Runtime does at every version.
TEST(PoolTest, CeilModeDropsAWindowStartingInTheEndPaddingFrom22) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5}, {1, 1, 5});
  const Attributes ceil = {{"kernel_shape", Dims{2}},
                           {"strides", Dims{2}},
                           {"pads", Dims{1, 1}},
                           {"ceil_mode", int64_t{1}},
                           {"count_include_pad", int64_t{1}}};
  const Var kept = Pool("AveragePool", x, ceil, 19);
  EXPECT_EQ(kept.shape(), std::make_optional(Dims{1, 1, 4}));
  EXPECT_TRUE(HasNoValue(kept));
  EXPECT_TRUE(HasValues<float>(Pool("AveragePool", x, ceil, 22), {0.5, 2.5, 4.5}, {1, 1, 3}));
  const Attributes max = {ceil.begin(), ceil.end() - 1};
  EXPECT_TRUE(HasNoValue(Pool("MaxPool", x, max, 12)));
  EXPECT_TRUE(HasValues<float>(Pool("MaxPool", x, max, 22), {1, 3, 5}, {1, 1, 3}));
}

// --- LpPool --------------------------------------------------------------------------------

TEST(LpPoolTest, PIsAFloatInVersion1AndAnIntLater) {
  Graph g;
  const Var x = Const<float>(g, {3, -4, 5, 12}, {1, 1, 4});
  const Attributes window = {{"kernel_shape", Dims{2}}, {"strides", Dims{2}}};
  Attributes p1 = window;
  p1.push_back({"p", int64_t{1}});
  EXPECT_TRUE(HasValues<float>(Pool("LpPool", x, p1), {7, 17}, {1, 1, 2}));
  Attributes p3 = window;
  p3.push_back({"p", int64_t{3}});
  EXPECT_TRUE(HasValues<float>(Pool("LpPool", x, p3, 11),
                               {std::cbrt(27.0 + 64), std::cbrt(125.0 + 1728)}, {1, 1, 2}, 1e-5));
  Attributes float_p = window;
  float_p.push_back({"p", 1.0f});
  EXPECT_TRUE(HasValues<float>(Pool("LpPool", x, float_p, 1), {7, 17}, {1, 1, 2}));
  EXPECT_TRUE(HasValues<float>(Pool("GlobalLpPool", x, {{"p", 1.0f}}, 1), {24}, {1, 1, 1}));
  EXPECT_TRUE(HasValues<float>(Pool("GlobalLpPool", x, {{"p", int64_t{1}}}, 2), {24}, {1, 1, 1}));
}

// --- MaxUnpool -----------------------------------------------------------------------------

// With output_shape the indices address that output directly, as in ONNX Runtime.
TEST(MaxUnpoolTest, ScattersIntoTheDefaultOrTheGivenShape) {
  Graph g;
  const Var x = Const<float>(g, {5, 6, 8, 9}, {1, 1, 2, 2});
  const Var indices = Const<int64_t>(g, {4, 5, 7, 8}, {1, 1, 2, 2});
  const Attributes window = {{"kernel_shape", Dims{2, 2}}};
  EXPECT_TRUE(HasValues<float>(One(Node("MaxUnpool", {x, indices}, window)),
                               {0, 0, 0, 0, 5, 6, 0, 8, 9}, {1, 1, 3, 3}));
  const Var shape = Int64s(g, {1, 1, 4, 4});
  EXPECT_TRUE(HasValues<float>(One(Node("MaxUnpool", {x, indices, shape}, window)),
                               {0, 0, 0, 0, 5, 6, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0}, {1, 1, 4, 4}));
  // An output_shape smaller than the unpooled shape gets no value.
  EXPECT_TRUE(HasNoValue(One(Node("MaxUnpool", {x, indices, Int64s(g, {1, 1, 2, 4})}, window))));
  const Var half = Const<Float16>(g, ValuesOf<Float16>({5, 6, 8, 9}), {1, 1, 2, 2});
  EXPECT_TRUE(HasValues<Float16>(One(Node("MaxUnpool", {half, indices}, window, 9)),
                                 {0, 0, 0, 0, 5, 6, 0, 8, 9}, {1, 1, 3, 3}));
}

TEST(MaxUnpoolTest, AnIndexOutsideTheOutputFails) {
  Graph g;
  const Var x = Const<float>(g, {5, 6, 8, 9}, {1, 1, 2, 2});
  const Var indices = Const<int64_t>(g, {4, 5, 7, 99}, {1, 1, 2, 2});
  EXPECT_TRUE(FailsWith(One(Node("MaxUnpool", {x, indices}, {{"kernel_shape", Dims{2, 2}}})),
                        {"input 1", "99"}));
}

// --- MaxRoiPool and RoiAlign -----------------------------------------------------------------

TEST(MaxRoiPoolTest, BinsOfTheRegionAndABadBatchIndex) {
  Graph g;
  std::vector<float> image(16);
  for (int i = 0; i < 16; ++i) image[static_cast<size_t>(i)] = static_cast<float>(i);
  const Var x = Const<float>(g, image, {1, 1, 4, 4});
  const Var rois = Const<float>(g, {0, 0, 0, 3, 3}, {1, 5});
  const Attributes pooled = {{"pooled_shape", Dims{2, 2}}};
  EXPECT_TRUE(
      HasValues<float>(One(Node("MaxRoiPool", {x, rois}, pooled)), {5, 7, 13, 15}, {1, 1, 2, 2}));
  const Var negative = Const<float>(g, std::vector<float>(16, -1), {1, 1, 4, 4});
  EXPECT_TRUE(HasValues<float>(One(Node("MaxRoiPool", {negative, rois}, pooled)), {-1, -1, -1, -1},
                               {1, 1, 2, 2}));
  const Var elsewhere = Const<float>(g, {1, 0, 0, 3, 3}, {1, 5});
  EXPECT_TRUE(FailsWith(One(Node("MaxRoiPool", {x, elsewhere}, pooled)), {"input 1", "batch 1"}));
}

// A 2x2 image 1..4 and the region [0, 0, 2, 2], one bin sampled once.
TEST(RoiAlignTest, HalfPixelFromVersion16AndMaxModeAsOnnxRuntime) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  const Var rois = Const<float>(g, {0, 0, 2, 2}, {1, 4});
  const Var batch = Const<int64_t>(g, {0}, {1});
  const Attributes once = {{"sampling_ratio", int64_t{1}}};
  const Dims shape = {1, 1, 1, 1};
  // RoiAlign-10 (no offset): the sample is at (1, 1), the last pixel.
  EXPECT_TRUE(HasValues<float>(One(Node("RoiAlign", {x, rois, batch}, once, 10)), {4}, shape));
  // half_pixel: the sample is at (0.5, 0.5), the middle of the four pixels.
  EXPECT_TRUE(HasValues<float>(One(Node("RoiAlign", {x, rois, batch}, once, 16)), {2.5}, shape));
  Attributes output_half_pixel = once;
  output_half_pixel.push_back({"coordinate_transformation_mode", std::string("output_half_pixel")});
  EXPECT_TRUE(
      HasValues<float>(One(Node("RoiAlign", {x, rois, batch}, output_half_pixel, 16)), {4}, shape));
  // max: the largest weighted corner, 0.25 * 4.
  Attributes max = once;
  max.push_back({"mode", std::string("max")});
  EXPECT_TRUE(HasValues<float>(One(Node("RoiAlign", {x, rois, batch}, max, 16)), {1}, shape));
  const Var half = Const<Float16>(g, ValuesOf<Float16>({1, 2, 3, 4}), {1, 1, 2, 2});
  const Var half_rois = Const<Float16>(g, ValuesOf<Float16>({0, 0, 2, 2}), {1, 4});
  EXPECT_TRUE(
      HasValues<Float16>(One(Node("RoiAlign", {half, half_rois, batch}, once, 16)), {2.5}, shape));
  const Var bad_batch = Const<int64_t>(g, {3}, {1});
  EXPECT_TRUE(FailsWith(One(Node("RoiAlign", {x, rois, bad_batch}, once, 16)),
                        {"input 2", "batch index 3"}));
}

// --- Empty tensors, declined cases, the budget ----------------------------------------------

TEST(PoolEdgeTest, EmptyBatchGivesAnEmptyValue) {
  Graph g;
  const Var x = g.constant(Tensor::zeros(gg::DataType::kFloat, {0, 2, 4, 4}));
  EXPECT_TRUE(
      HasValues<float>(Pool("MaxPool", x, {{"kernel_shape", Dims{2, 2}}}), {}, {0, 2, 3, 3}));
  EXPECT_TRUE(HasValues<float>(Pool("GlobalAveragePool", x, {}), {}, {0, 2, 1, 1}));
}

TEST(PoolEdgeTest, RegionsTooLargeOrNaNGetNoValue) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 1, 2, 2});
  const Var batch = Const<int64_t>(g, {0}, {1});
  EXPECT_TRUE(
      HasNoValue(One(Node("RoiAlign", {x, Const<float>(g, {0, 0, 1e30f, 2}, {1, 4}), batch}, {}))));
  EXPECT_TRUE(
      HasNoValue(One(Node("RoiAlign", {x, Const<float>(g, {0, kNaN, 2, 2}, {1, 4}), batch}, {}))));
  EXPECT_TRUE(HasNoValue(One(Node("MaxRoiPool", {x, Const<float>(g, {0, 0, 0, 1e30f, 1}, {1, 5})},
                                  {{"pooled_shape", Dims{1, 1}}}))));
}

TEST(PoolEdgeTest, DeclinedCasesGetNoValue) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {1, 1, 4});
  // ceil_mode makes a last window that lies wholly in the end padding.
  EXPECT_TRUE(HasNoValue(Pool("AveragePool", x,
                              {{"kernel_shape", Dims{2}},
                               {"strides", Dims{2}},
                               {"pads", Dims{0, 2}},
                               {"ceil_mode", int64_t{1}}})));
  // Found by kernel_fuzzer: ceil_mode 9 rounds up in ONNX's inference but, from opset 22, does
  // not drop a window starting in the padding as 1 does: a value other than 0 and 1 gets none.
  const Var wide = Const<double>(g, {1, 2, 3, 4}, {1, 1, 4});
  for (int version : {17, 24}) {
    const Var pooled = Pool("AveragePool", wide,
                            {{"kernel_shape", Dims{2}},
                             {"strides", Dims{2}},
                             {"pads", Dims{1, 1}},
                             {"ceil_mode", int64_t{9}}},
                            version);
    EXPECT_TRUE(pooled.ok()) << pooled.status();
    EXPECT_TRUE(HasNoValue(pooled));
  }
}

TEST(PoolBudgetTest, OutputsPastTheBudgetGetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 16});
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 1, 9});
  EXPECT_TRUE(HasValues<float>(
      Pool("MaxPool", x, {{"kernel_shape", Dims{3}}, {"strides", Dims{3}}}), {3, 6, 9}, {1, 1, 3}));
  EXPECT_TRUE(HasNoValue(Pool("MaxPool", x, {{"kernel_shape", Dims{2}}})));
  EXPECT_TRUE(HasNoValue(
      One(Node("MaxUnpool", {x, Const<int64_t>(g, std::vector<int64_t>(9, 0), {1, 1, 9})},
               {{"kernel_shape", Dims{2}}}))));
}

}  // namespace
