// Values through control flow and sequences: Loop, Scan and SequenceMap run their bodies trip by
// trip; sequences and optionals carry values in the value store, collected like any value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset18.h"
#include "graphgc/opset/generated/opset24.h"
#include "kernel_test_util.h"

namespace graphgc {
namespace {

using kernel_test::FailsWith;
using kernel_test::HasNoValue;
using kernel_test::One;
using kernel_test::Scalar;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using Args = absl::Span<const Var>;
using Vars = std::vector<Var>;

std::vector<float> Floats(const Var& var) {
  std::optional<Tensor> value = var.value();
  if (!value.has_value()) return {};
  return std::vector<float>(value->data<float>().begin(), value->data<float>().end());
}

std::vector<int64_t> Int64Values(const Var& var) {
  std::optional<Tensor> value = var.value();
  if (!value.has_value()) return {};
  return std::vector<int64_t>(value->data<int64_t>().begin(), value->data<int64_t>().end());
}

TEST(LoopValues, AccumulatesOverTenThousandTripsInBoundedMemory) {
  Graph g;
  const Var trips = Scalar<int64_t>(g, 10000);
  const Var start = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
  const Var one = g.constant(Tensor::from_vector<float>(std::vector<float>(1000, 1.0f), {1000}));
  const Vars out = op::Loop(trips, Var(), {start}, {.body = [&](Args args) {
                              // Temporaries of the size of the state, every trip.
                              const Var doubled = op::Add(args[2], args[2]);
                              const Var back = op::Sub(doubled, args[2]);
                              return Vars{args[1], op::Add(back, one)};
                            }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  const std::vector<float> sum = Floats(out[0]);
  ASSERT_EQ(sum.size(), 1000u);
  EXPECT_THAT(sum, ::testing::Each(10000.0f));
  // The state (4000 bytes) and one trip's temporaries, never the 10 000 trips' history (40 MB).
  std::cout << "peak_value_bytes of the 10 000-trip loop: " << g.stats().peak_value_bytes << "\n";
  EXPECT_LT(g.stats().peak_value_bytes, int64_t{1} << 20);
  EXPECT_GT(g.stats().peak_value_bytes, 3 * 4000);  // the trip's temporaries are counted
}

TEST(LoopValues, ScanOutputsStackAlongANewFirstAxis) {
  Graph g;
  const Var trips = Scalar<int64_t>(g, 4);
  const Var start = Scalar<int64_t>(g, 1);
  const Vars out = op::Loop(trips, Var(), {start}, {.body = [&](Args args) {
                              const Var next = op::Mul(args[2], Scalar<int64_t>(g, 3));
                              return Vars{args[1], next, op::Add(args[0], next)};
                            }});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(Int64Values(out[0]), ElementsAre(81));
  EXPECT_THAT(Int64Values(out[1]), ElementsAre(3, 10, 29, 84));  // i + 3^(i+1)
  EXPECT_EQ(out[1].value()->shape(), (absl::Span<const int64_t>{4}));
}

// The narrow types (opsets 19 to 24) travel through If, Loop and Scan like any other: carried,
// chosen and scanned values keep their bit patterns.
TEST(LoopValues, NarrowTypesAreCarriedChosenAndScanned) {
  Graph g;
  const Tensor float8 = Tensor::from_vector<Float8E4M3FN>(
      {Float8E4M3FN{0x38}, Float8E4M3FN{0xC0}, Float8E4M3FN{0x7F}}, {3});
  const Tensor int4 = Tensor::from_vector<Int4>({Int4{-8}, Int4{7}}, {2});
  const Var a = g.constant(float8);
  const Var b = g.constant(int4);
  const Vars carried =
      opset24::Loop(Scalar<int64_t>(g, 3), Var(), {a, b}, {.body = [&](Args args) {
                      return Vars{args[1], opset24::Identity(args[2]), args[3], args[2]};
                    }});
  ASSERT_EQ(carried.size(), 3u);
  ASSERT_TRUE(carried[0].value().has_value()) << carried[0].value_status();
  EXPECT_EQ(*carried[0].value(), float8);
  ASSERT_TRUE(carried[1].value().has_value()) << carried[1].value_status();
  EXPECT_EQ(*carried[1].value(), int4);
  ASSERT_TRUE(carried[2].value().has_value()) << carried[2].value_status();
  EXPECT_EQ(carried[2].value()->dtype(), DataType::kFloat8E4M3FN);
  EXPECT_EQ(carried[2].value()->shape(), (absl::Span<const int64_t>{3, 3}));
  const Vars chosen = opset24::If(Scalar<bool>(g, false), {.else_branch = [&] { return Vars{b}; },
                                                           .then_branch = [&] { return Vars{b}; }});
  ASSERT_TRUE(chosen[0].value().has_value()) << chosen[0].value_status();
  EXPECT_EQ(*chosen[0].value(), int4);
}

TEST(LoopValues, AConditionEndsTheLoop) {
  Graph g;
  const Var start = Scalar<int64_t>(g, 0);
  const Vars out = op::Loop(Var(), Scalar<bool>(g, true), {start}, {.body = [&](Args args) {
                              const Var next = op::Add(args[2], Scalar<int64_t>(g, 2));
                              return Vars{op::Less(next, Scalar<int64_t>(g, 7)), next};
                            }});
  EXPECT_THAT(Int64Values(out[0]), ElementsAre(8));
}

TEST(LoopValues, ZeroTripsGiveTheInitialStateAndEmptyScans) {
  Graph g;
  const Var start = g.constant(Tensor::from_vector<float>({1, 2}, {2}));
  const Vars out = op::Loop(Scalar<int64_t>(g, 0), Var(), {start}, {.body = [&](Args args) {
                              // A slice of known shape (it reads an outer var), and one whose
                              // shape follows the state's (unknown dims inside the body).
                              return Vars{args[1], args[2], op::Neg(start), op::Neg(args[2])};
                            }});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_THAT(Floats(out[0]), ElementsAre(1, 2));
  ASSERT_TRUE(out[1].value().has_value());
  EXPECT_EQ(out[1].value()->shape(), (absl::Span<const int64_t>{0, 2}));
  EXPECT_TRUE(HasNoValue(out[2]));  // no trip tells its slice shape
}

TEST(LoopValues, ARunawayLoopGetsNoValueAndReturns) {
  Graph g(GraphOptions{.max_loop_trips = 1000});
  const Var start = Scalar<int64_t>(g, 0);
  const auto began = std::chrono::steady_clock::now();
  const Vars forever = op::Loop(Var(), Var(), {start}, {.body = [&](Args args) {
                                  return Vars{args[1], op::Add(args[2], Scalar<int64_t>(g, 1))};
                                }});
  EXPECT_TRUE(HasNoValue(forever[0]));
  EXPECT_EQ(forever[0].dtype(), DataType::kInt64);
  const Vars too_many = op::Loop(Scalar<int64_t>(g, 1001), Var(), {start}, {.body = [&](Args args) {
                                   return Vars{args[1], args[2]};
                                 }});
  EXPECT_TRUE(HasNoValue(too_many[0]));
  const Vars enough = op::Loop(Scalar<int64_t>(g, 1000), Var(), {start}, {.body = [&](Args args) {
                                 return Vars{args[1], args[2]};
                               }});
  EXPECT_THAT(Int64Values(enough[0]), ElementsAre(0));
  // Not a timing assertion: a generous bound that only a hang would break.
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::minutes(2));
}

TEST(LoopValues, TheDefaultTripLimitIsAMillion) {
  EXPECT_EQ(GraphOptions{}.max_loop_trips, 1000000);
}

TEST(LoopValues, ReadsOuterValuesAndNestsIfAndLoop) {
  Graph g;
  const Var step = Scalar<int64_t>(g, 10);
  const Var start = Scalar<int64_t>(g, 0);
  const Vars out = op::Loop(
      Scalar<int64_t>(g, 4), Var(), {start}, {.body = [&](Args args) {
        const Var odd = op::Cast(op::Mod(args[0], Scalar<int64_t>(g, 2)), DataType::kBool);
        const Vars chosen = op::If(odd, {.else_branch = [&] { return Vars{step}; },
                                         .then_branch = [&] { return Vars{op::Neg(step)}; }});
        // An inner loop adding args[0] + 1 ones.
        const Vars inner = op::Loop(op::Add(args[0], Scalar<int64_t>(g, 1)), Var(), {chosen[0]},
                                    {.body = [&](Args in) {
                                      return Vars{in[1], op::Add(in[2], Scalar<int64_t>(g, 1))};
                                    }});
        return Vars{args[1], op::Add(args[2], inner[0])};
      }});
  // Trips 0..3: 10+1, -10+2, 10+3, -10+4.
  EXPECT_THAT(Int64Values(out[0]), ElementsAre(10));
}

TEST(LoopValues, AnUnknownOuterValueLeavesTheLoopWithoutValue) {
  Graph g;
  const Var x = g.argument("x", DataType::kInt64, {});
  const Vars out =
      op::Loop(Scalar<int64_t>(g, 2), Var(), {Scalar<int64_t>(g, 0)}, {.body = [&](Args args) {
                 return Vars{args[1], op::Add(args[2], x)};
               }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_TRUE(HasNoValue(out[0]));
}

TEST(LoopValues, CarriesSequences) {
  Graph g;
  const Var empty = One(make_node(g, "SequenceEmpty", {}, {{"dtype", int64_t{7}}}));
  const Vars out = op::Loop(Scalar<int64_t>(g, 3), Var(), {empty}, {.body = [&](Args args) {
                              return Vars{args[1], op::SequenceInsert(args[2], args[0])};
                            }});
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  const std::optional<Value> value = out[0].any_value();
  ASSERT_TRUE(value.has_value());
  ASSERT_EQ(value->kind(), Value::Kind::kSequence);
  ASSERT_EQ(value->elements().size(), 3u);
  EXPECT_EQ(value->elements()[2].tensor().data<int64_t>()[0], 2);
  EXPECT_THAT(Int64Values(op::ConcatFromSequence(out[0], {.axis = 0, .new_axis = 1})),
              ElementsAre(0, 1, 2));
}

TEST(ScanValues, SumsRowsForwardAndBackward) {
  Graph g;
  const Var state = g.constant(Tensor::from_vector<float>({0, 0}, {2}));
  const Var rows = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2}));
  const Vars out = op::Scan({state, rows}, {.body =
                                                [&](Args args) {
                                                  const Var sum = op::Add(args[0], args[1]);
                                                  return Vars{sum, sum};
                                                },
                                            .num_scan_inputs = 1,
                                            .scan_input_directions = std::vector<int64_t>{1},
                                            .scan_output_axes = std::vector<int64_t>{1}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_THAT(Floats(out[0]), ElementsAre(9, 12));
  // Running sums from the last row up, stacked as columns: [[5,8,9],[6,10,12]].
  EXPECT_THAT(Floats(out[1]), ElementsAre(5, 8, 9, 6, 10, 12));
  EXPECT_EQ(out[1].value()->shape(), (absl::Span<const int64_t>{2, 3}));
}

TEST(ScanValues, ScansAlongTheLastAxis) {
  Graph g;
  const Var columns = g.constant(Tensor::from_vector<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Vars out = op::Scan({columns}, {.body = [&](Args args) { return Vars{op::Neg(args[0])}; },
                                        .num_scan_inputs = 1,
                                        .scan_input_axes = std::vector<int64_t>{-1},
                                        .scan_output_directions = std::vector<int64_t>{1}});
  // Columns [1,4], [2,5], [3,6] negated, stacked in reverse order along axis 0.
  EXPECT_THAT(Int64Values(out[0]), ElementsAre(-3, -6, -2, -5, -1, -4));
}

TEST(SequenceMapValues, MapsEachElementWithTheOtherInputs) {
  Graph g;
  const Var a = g.constant(Tensor::from_vector<float>({1, 2}, {2}));
  const Var b = g.constant(Tensor::from_vector<float>({3}, {1}));
  const Var seq = op::SequenceConstruct({a, b});
  const Var ten = g.constant(Tensor::scalar<float>(10));
  const Vars out = op::SequenceMap(seq, {ten}, {.body = [&](Args args) {
                                     return Vars{op::Add(args[0], args[1]), op::Shape(args[0])};
                                   }});
  ASSERT_EQ(out.size(), 2u);
  const std::optional<Value> sums = out[0].any_value();
  ASSERT_TRUE(sums.has_value());
  ASSERT_EQ(sums->elements().size(), 2u);
  EXPECT_THAT(sums->elements()[0].tensor().data<float>(), ElementsAre(11, 12));
  EXPECT_THAT(sums->elements()[1].tensor().data<float>(), ElementsAre(13));
  EXPECT_THAT(Int64Values(op::SequenceAt(out[1], Scalar<int64_t>(g, -1))), ElementsAre(1));
}

TEST(SequenceValues, ConstructAtInsertEraseLength) {
  Graph g;
  const Var a = Scalar<int64_t>(g, 1);
  const Var b = Scalar<int64_t>(g, 2);
  const Var seq = op::SequenceConstruct({a, b});
  EXPECT_THAT(Int64Values(op::SequenceAt(seq, Scalar<int64_t>(g, -2))), ElementsAre(1));
  const Var inserted = op::SequenceInsert(seq, Scalar<int64_t>(g, 7), Scalar<int32_t>(g, 0));
  EXPECT_THAT(Int64Values(op::ConcatFromSequence(inserted, {.axis = 0, .new_axis = 1})),
              ElementsAre(7, 1, 2));
  const Var erased = op::SequenceErase(inserted);
  EXPECT_THAT(Int64Values(op::SequenceLength(erased)), ElementsAre(2));
  EXPECT_THAT(Int64Values(op::SequenceAt(erased, Scalar<int64_t>(g, 1))), ElementsAre(1));
}

TEST(SequenceValues, PositionsOutOfRangeFailTheOp) {
  Graph g;
  const Var seq = op::SequenceConstruct({Scalar<int64_t>(g, 1)});
  EXPECT_TRUE(FailsWith(op::SequenceAt(seq, Scalar<int64_t>(g, 1)),
                        {"SequenceAt", "input 1 (position)", "out of range"}));
  EXPECT_TRUE(FailsWith(op::SequenceInsert(seq, Scalar<int64_t>(g, 1), Scalar<int64_t>(g, 3)),
                        {"SequenceInsert", "position 3"}));
  const Var empty = One(make_node(g, "SequenceEmpty", {}, {{"dtype", int64_t{1}}}));
  EXPECT_TRUE(FailsWith(op::SequenceErase(empty), {"SequenceErase", "empty"}));
  EXPECT_TRUE(FailsWith(op::ConcatFromSequence(empty, {.axis = 0}), {"ConcatFromSequence"}));
}

TEST(SequenceValues, SplitToSequenceAndBack) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Var pieces = op::SplitToSequence(x, Scalar<int64_t>(g, 2), {.axis = 1});
  EXPECT_THAT(Int64Values(op::SequenceLength(pieces)), ElementsAre(2));
  EXPECT_THAT(Floats(op::SequenceAt(pieces, Scalar<int64_t>(g, 1))), ElementsAre(3, 6));
  EXPECT_THAT(Floats(op::ConcatFromSequence(pieces, {.axis = 1})), ElementsAre(1, 2, 3, 4, 5, 6));
  const Var rows = op::SplitToSequence(x, Var(), {.axis = 0, .keepdims = 0});
  EXPECT_EQ(op::SequenceAt(rows, Scalar<int64_t>(g, 0)).value()->shape(),
            (absl::Span<const int64_t>{3}));
  EXPECT_TRUE(FailsWith(op::SplitToSequence(x, kernel_test::Int64s(g, {1, 1}), {.axis = 1}),
                        {"SplitToSequence", "split"}));
}

TEST(SequenceValues, BudgetLeavesPiecesWithoutValue) {
  Graph g(GraphOptions{.max_value_bytes = 8});
  const Var x = g.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {6}));
  const Var pieces = op::SplitToSequence(x, Scalar<int64_t>(g, 3));
  ASSERT_TRUE(pieces.ok()) << pieces.status();
  EXPECT_FALSE(pieces.any_value().has_value());
  EXPECT_EQ(g.stats().live_value_bytes, 0);
}

TEST(ValueAccessors, TheWrongKindGivesNothingNeverAborts) {
  const Value tensor = Tensor::scalar<float>(1.0f);
  const Value sequence = Value::Sequence({tensor});
  EXPECT_TRUE(tensor.elements().empty());
  EXPECT_EQ(tensor.keys().dtype(), DataType::kUndefined);
  EXPECT_EQ(sequence.tensor().dtype(), DataType::kUndefined);
  EXPECT_EQ(sequence.map_values().dtype(), DataType::kUndefined);
  EXPECT_EQ(sequence.elements().size(), 1u);
  EXPECT_FALSE(Value::Map(Tensor::scalar<float>(1.0f), Tensor::scalar<float>(1.0f)).ok());
}

TEST(OptionalValues, HoldOrNot) {
  Graph g;
  const Var x = Scalar<float>(g, 2.5f);
  const Var some = op::Optional(x);
  // Without an input the op has no operand to find its graph by: make_node takes the graph.
  const Var none =
      One(make_node(g, "Optional", {}, {{"type", VarType::Tensor(DataType::kFloat, {{}})}}));
  ASSERT_TRUE(some.ok()) << some.status();
  ASSERT_TRUE(none.ok()) << none.status();
  ASSERT_TRUE(some.any_value().has_value());
  ASSERT_TRUE(none.any_value().has_value());
  const std::optional<Tensor> has_some = op::OptionalHasElement(some).value();
  const std::optional<Tensor> has_none = op::OptionalHasElement(none).value();
  ASSERT_TRUE(has_some.has_value() && has_none.has_value());
  EXPECT_EQ(has_some->data<bool>()[0], true);
  EXPECT_EQ(has_none->data<bool>()[0], false);
  EXPECT_THAT(Floats(op::OptionalGetElement(some)), ElementsAre(2.5f));
  EXPECT_TRUE(FailsWith(op::OptionalGetElement(none), {"OptionalGetElement", "empty optional"}));
  // From opset 18 a tensor is its own element, and an omitted input has none.
  const std::optional<Tensor> tensor_has = opset18::OptionalHasElement(x).value();
  ASSERT_TRUE(tensor_has.has_value());
  EXPECT_EQ(tensor_has->data<bool>()[0], true);
  EXPECT_THAT(Floats(opset18::OptionalGetElement(x)), ElementsAre(2.5f));
  const std::optional<Tensor> omitted =
      One(make_node(g, "OptionalHasElement", {Var()}, {}, {.version = 18})).value();
  ASSERT_TRUE(omitted.has_value());
  EXPECT_EQ(omitted->data<bool>()[0], false);
  const std::optional<Tensor> opset17_has = opset17::OptionalHasElement(some).value();
  ASSERT_TRUE(opset17_has.has_value());
  const std::optional<Value> identity = op::Identity(some).any_value();
  ASSERT_TRUE(identity.has_value());
  EXPECT_TRUE(identity->has_element());
}

TEST(SequenceValues, AreCollectedLikeAnyValue) {
  Graph g(GraphOptions{.collect_policy = CollectPolicy::kManual});
  const Var x = g.constant(Tensor::zeros(DataType::kFloat, {100, 10}));
  {
    const Var pieces = op::SplitToSequence(x, Var(), {.axis = 0});
    g.collect();
    EXPECT_EQ(g.stats().live_value_bytes, 4000);  // 100 pieces of 10 floats
  }
  const CollectStats freed = g.collect();
  EXPECT_EQ(freed.freed_bytes, 4000);
  EXPECT_EQ(g.stats().live_value_bytes, 0);
}

}  // namespace
}  // namespace graphgc
