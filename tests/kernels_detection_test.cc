// Value propagation of the detection family (opset/kernels/detection/): NonMaxSuppression's
// omitted optional inputs, thresholds, both box formats, the output order across batches and
// classes, the op failing on inputs ONNX Runtime refuses, and the value budget. ONNX's node test
// data covers the common cases; expected rows here are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers

// Four boxes [y1, x1, y2, x2] in one batch: 1 (1x1) lies inside 0 (1x2), IOU 0.5; 2 is apart
// from both, and 3 is box 2 given by its other diagonal (IOU 1 with it).
Var Boxes(Graph& g) {
  return Const<float>(g,
                      {0, 0, 1, 2,   // 0: area 2
                       0, 0, 1, 1,   // 1: inside 0, IOU 0.5
                       5, 5, 6, 6,   // 2: alone
                       6, 5, 5, 6},  // 3: box 2 with its corners swapped (IOU 1)
                      {1, 4, 4});
}

Var Scores(Graph& g, std::vector<float> scores) {
  const int64_t classes = static_cast<int64_t>(scores.size()) / 4;
  return Const<float>(g, std::move(scores), {1, classes, 4});
}

Var Nms(const std::vector<Var>& inputs, int64_t center_point_box = 0, int version = 11) {
  return One(
      NodeAt("NonMaxSuppression", inputs, {{"center_point_box", center_point_box}}, version));
}

TEST(NonMaxSuppressionTest, OmittedMaxOutputSelectsNothing) {
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f})});
  EXPECT_TRUE(HasValues<int64_t>(y, {}, {0, 3}));
}

TEST(NonMaxSuppressionTest, NegativeMaxOutputSelectsNothingAsOrt) {
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f}), Int64s(g, {-3})});
  EXPECT_TRUE(HasValues<int64_t>(y, {}, {0, 3}));
}

TEST(NonMaxSuppressionTest, OmittedIouThresholdIsZero) {
  // iou_threshold 0: any overlap suppresses; box 3 is box 2 (flipped corners).
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f}), Int64s(g, {10})});
  EXPECT_TRUE(HasValues<int64_t>(y, {0, 0, 0, 0, 0, 2}, {2, 3}));
}

TEST(NonMaxSuppressionTest, IouExactlyAtTheThresholdKeepsTheBox) {
  // IOU(0, 1) = 0.5: suppressed only when it exceeds the threshold.
  Graph g;
  const Var boxes = Boxes(g);
  const Var scores = Scores(g, {0.9f, 0.8f, 0.7f, 0.6f});
  const Var max = Int64s(g, {10});
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, Const<float>(g, {0.5f}, {1})}),
                                 {0, 0, 0, 0, 0, 1, 0, 0, 2}, {3, 3}));
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, Const<float>(g, {0.49f}, {1})}),
                                 {0, 0, 0, 0, 0, 2}, {2, 3}));
}

TEST(NonMaxSuppressionTest, ScoreThresholdIsStrictAndOmittedKeepsAll) {
  Graph g;
  const Var boxes = Boxes(g);
  const Var scores = Scores(g, {0.9f, 0.8f, 0.7f, 0.6f});
  const Var max = Int64s(g, {10});
  const Var iou = Const<float>(g, {0.6f}, {1});
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, iou, Const<float>(g, {0.8f}, {1})}),
                                 {0, 0, 0}, {1, 3}));
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, iou, Var()}), {0, 0, 0, 0, 0, 1, 0, 0, 2},
                                 {3, 3}));
}

TEST(NonMaxSuppressionTest, OrderIsByBatchThenClassThenDescendingScore) {
  Graph g;
  const Var boxes = Const<float>(g, {0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3}, {2, 2, 4});
  const Var scores = Const<float>(g, {0.1f, 0.2f, 0.4f, 0.3f, 0.5f, 0.6f, 0.8f, 0.7f}, {2, 2, 2});
  const Var y = Nms({boxes, scores, Int64s(g, {5}), Const<float>(g, {0.5f}, {1})});
  EXPECT_TRUE(HasValues<int64_t>(
      y, {0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1}, {8, 3}));
}

TEST(NonMaxSuppressionTest, MaxOutputLimitsEachClass) {
  Graph g;
  const Var boxes = Const<float>(g, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, {1, 3, 4});
  const Var scores = Const<float>(g, {0.1f, 0.3f, 0.2f, 0.9f, 0.8f, 0.7f}, {1, 2, 3});
  const Var y = Nms({boxes, scores, Int64s(g, {2}), Const<float>(g, {0.5f}, {1})});
  EXPECT_TRUE(HasValues<int64_t>(y, {0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 1}, {4, 3}));
}

TEST(NonMaxSuppressionTest, CenterPointBoxes) {
  // [x_center, y_center, width, height]: boxes 0 and 1 overlap with IOU 1/3; box 2 is apart.
  Graph g;
  const Var boxes = Const<float>(g, {0, 0, 2, 2, 1, 0, 2, 2, 10, 10, 1, 1}, {1, 3, 4});
  const Var scores = Const<float>(g, {0.9f, 0.8f, 0.7f}, {1, 1, 3});
  const Var max = Int64s(g, {3});
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, Const<float>(g, {0.3f}, {1})}, 1),
                                 {0, 0, 0, 0, 0, 2}, {2, 3}));
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, max, Const<float>(g, {0.34f}, {1})}, 1),
                                 {0, 0, 0, 0, 0, 1, 0, 0, 2}, {3, 3}));
}

TEST(NonMaxSuppressionTest, ZeroAreaBoxesNeverSuppress) {
  Graph g;
  const Var boxes = Const<float>(g, {0, 0, 0, 1, 0, 0, 0, 1}, {1, 2, 4});
  const Var scores = Const<float>(g, {0.9f, 0.8f}, {1, 1, 2});
  const Var y = Nms({boxes, scores, Int64s(g, {2}), Const<float>(g, {0.0f}, {1})});
  EXPECT_TRUE(HasValues<int64_t>(y, {0, 0, 0, 0, 0, 1}, {2, 3}));
}

TEST(NonMaxSuppressionTest, Version10ComputesToo) {
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f}), Int64s(g, {1})}, 0, 10);
  EXPECT_TRUE(HasValues<int64_t>(y, {0, 0, 0}, {1, 3}));
}

TEST(NonMaxSuppressionTest, EmptyInputsSelectNothing) {
  Graph g;
  const Var boxes = Const<float>(g, {}, {1, 0, 4});
  const Var scores = Const<float>(g, {}, {1, 3, 0});
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, Int64s(g, {5})}), {}, {0, 3}));
}

TEST(NonMaxSuppressionTest, EqualScoresInBoxOrderAsOrt) {
  // Nine disjoint boxes, all scored 0.5 but box 4 (0.7): ONNX Runtime 1.30 gives 4, then 0 .. 8.
  Graph g;
  std::vector<float> boxes;
  std::vector<float> scores;
  for (int i = 0; i < 9; ++i) {
    boxes.insert(boxes.end(), {0, static_cast<float>(2 * i), 1, static_cast<float>(2 * i + 1)});
    scores.push_back(i == 4 ? 0.7f : 0.5f);
  }
  const Var y =
      Nms({Const<float>(g, boxes, {1, 9, 4}), Const<float>(g, scores, {1, 1, 9}), Int64s(g, {9})});
  EXPECT_TRUE(HasValues<int64_t>(
      y, {0, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 5, 0, 0, 6, 0, 0, 7, 0, 0, 8},
      {9, 3}));
}

TEST(NonMaxSuppressionTest, NaNScoreCandidateNoValue) {
  Graph g;
  const Var boxes = Boxes(g);
  const Var scores = Scores(g, {0.9f, NAN, 0.7f, 0.6f});
  EXPECT_TRUE(HasNoValue(Nms({boxes, scores, Int64s(g, {5})})));
  // A score threshold drops the NaN (no comparison with it holds).
  EXPECT_TRUE(HasValues<int64_t>(Nms({boxes, scores, Int64s(g, {5}), Const<float>(g, {0.5f}, {1}),
                                      Const<float>(g, {0.1f}, {1})}),
                                 {0, 0, 0, 0, 0, 2}, {2, 3}));
}

TEST(NonMaxSuppressionTest, IouThresholdOutsideZeroOneFails) {
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f}), Int64s(g, {5}),
                     Const<float>(g, {1.5f}, {1})});
  EXPECT_TRUE(FailsWith(y, {"iou_threshold", "1.5"}));
}

TEST(NonMaxSuppressionTest, CenterPointBoxOtherThanZeroOrOneFails) {
  Graph g;
  const Var y = Nms({Boxes(g), Scores(g, {0.9f, 0.8f, 0.7f, 0.6f}), Int64s(g, {5})}, 2);
  EXPECT_TRUE(FailsWith(y, {"center_point_box", "2"}));
}

TEST(NonMaxSuppressionTest, PastTheBudgetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 64});
  std::vector<float> boxes;
  std::vector<float> scores;
  for (int i = 0; i < 16; ++i) {
    boxes.insert(boxes.end(), {0, static_cast<float>(2 * i), 1, static_cast<float>(2 * i + 1)});
    scores.push_back(0.5f);
  }
  const Var y = Nms(
      {Const<float>(g, boxes, {1, 16, 4}), Const<float>(g, scores, {1, 1, 16}), Int64s(g, {16})});
  EXPECT_TRUE(HasNoValue(y));
}

}  // namespace
