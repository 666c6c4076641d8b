// Value propagation of the tensor kernels (opset/kernels/tensor/) where ONNX's node data does not
// reach: every element type the schemas allow (strings, bool and the 16-bit floats included),
// empty tensors, NaN payloads, integer wraparound, negative axes and indices, omitted optional
// inputs, older schema versions, the op failing on bad known inputs, and the value budget.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Ints = std::vector<int64_t>;

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// Test values of any element type from small ints: v itself (as T), "s<v>" for strings, v odd
// for bool; -1 is T's zero (0, "", false), what padding and masks fill in.
template <class T>
T Value(int v) {
  if (v == -1) {
    if constexpr (kIsHalf<T>)
      return T::FromFloat(0.0f);
    else
      return T{};
  }
  if constexpr (std::is_same_v<T, std::string>) {
    return absl::StrCat("s", v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v % 2 != 0;
  } else if constexpr (kIsHalf<T>) {
    return T::FromFloat(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
std::vector<T> Values(std::initializer_list<int> ints) {
  std::vector<T> out;
  for (int v : ints) out.push_back(Value<T>(v));
  return out;
}

template <class T>
std::string Show(const T& value) {
  std::ostringstream out;
  if constexpr (kIsHalf<T>) {
    out << "0x" << std::hex << value.bits << " (" << value.ToFloat() << ")";
  } else if constexpr (sizeof(T) == 1) {
    out << static_cast<int>(value);
  } else {
    out << value;
  }
  return out.str();
}

// Equal elements: bit patterns for floating point (a NaN's payload must survive a move).
template <class T>
bool SameElement(const T& a, const T& b) {
  if constexpr (kIsHalf<T>) {
    return a.bits == b.bits;
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  } else {
    return a == b;
  }
}

// The var is ok, of element type T and shape `shape`, and its value holds `expected`.
template <class T>
::testing::AssertionResult HasValue(const Var& var, const std::vector<T>& expected,
                                    const Dims& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.dtype() != gg::DataTypeOf<T>::value) {
    return ::testing::AssertionFailure() << "element type " << gg::DataTypeName(var.dtype());
  }
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return ::testing::AssertionFailure() << "the var has no value";
  const Dims value_shape(value->shape().begin(), value->shape().end());
  if (value_shape != shape || var.shape() != std::optional<Dims>(shape)) {
    return ::testing::AssertionFailure() << "shape [" << absl::StrJoin(value_shape, ",")
                                         << "], expected [" << absl::StrJoin(shape, ",") << "]";
  }
  const auto actual = value->data<T>();
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure()
           << actual.size() << " elements, expected " << expected.size();
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    if (!SameElement<T>(actual[i], expected[i])) {
      return ::testing::AssertionFailure() << "element " << i << " is " << Show<T>(actual[i])
                                           << ", expected " << Show<T>(expected[i]);
    }
  }
  return ::testing::AssertionSuccess();
}

// The op failed with InvalidArgument, its message holding each of `parts`.
::testing::AssertionResult FailsWithInvalidArgument(const Var& var,
                                                    std::initializer_list<std::string> parts) {
  if (var.ok()) return ::testing::AssertionFailure() << "the op succeeded";
  const absl::Status status = var.status();
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    return ::testing::AssertionFailure() << "status " << status;
  }
  for (const std::string& part : parts) {
    if (std::string(status.message()).find(part) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << part << "' is not in: " << status.message();
    }
  }
  return ::testing::AssertionSuccess();
}

Var Node(const std::string& type, std::vector<Var> inputs, std::vector<Attribute> attributes = {},
         int version = kKernelOpset) {
  return gg::make_node(type, inputs, attributes, {.version = version})[0];
}

std::vector<Var> Nodes(const std::string& type, std::vector<Var> inputs,
                       std::vector<Attribute> attributes, int version, int num_outputs) {
  return gg::make_node(type, inputs, attributes, {.version = version, .num_outputs = num_outputs});
}

// --- Every element type moves ------------------------------------------------------------------

template <class T>
class MoveTest : public ::testing::Test {};

using AllTypes =
    ::testing::Types<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t,
                     uint16_t, uint32_t, uint64_t, bool, std::string>;
TYPED_TEST_SUITE(MoveTest, AllTypes);

TYPED_TEST(MoveTest, Transpose) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5}), {2, 3});
  EXPECT_TRUE(HasValue<T>(Node("Transpose", {x}), Values<T>({0, 3, 1, 4, 2, 5}), {3, 2}));
  const Var y = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), {2, 3, 2});
  EXPECT_TRUE(HasValue<T>(Node("Transpose", {y}, {{"perm", Ints{1, 0, 2}}}),
                          Values<T>({0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11}), {3, 2, 2}));
}

TYPED_TEST(MoveTest, SliceBackwardFromTheEnd) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({0, 1, 2, 3, 4}), {5});
  // start -1 is the last element; end INT64_MIN clamps to before the first.
  const Var y =
      Node("Slice", {x, Int64s(g, {-1}), Int64s(g, {kInt64Min}), Int64s(g, {0}), Int64s(g, {-2})});
  EXPECT_TRUE(HasValue<T>(y, Values<T>({4, 2, 0}), {3}));
}

TYPED_TEST(MoveTest, GatherRowsWithNegativeIndex) {
  using T = TypeParam;
  Graph g;
  const Var data = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5}), {3, 2});
  const Var rows = Node("Gather", {data, Int64s(g, {2, 0, -1})});
  EXPECT_TRUE(HasValue<T>(rows, Values<T>({4, 5, 0, 1, 4, 5}), {3, 2}));
  const Var column = Node("Gather", {data, Const<int32_t>(g, {1}, {1})}, {{"axis", int64_t{-1}}});
  EXPECT_TRUE(HasValue<T>(column, Values<T>({1, 3, 5}), {3, 1}));
}

TYPED_TEST(MoveTest, ConcatAndSplit) {
  using T = TypeParam;
  Graph g;
  const Var a = Const<T>(g, Values<T>({0, 1}), {2, 1});
  const Var b = Const<T>(g, Values<T>({2, 3, 4, 5}), {2, 2});
  const Var joined = Node("Concat", {a, b}, {{"axis", int64_t{-1}}});
  EXPECT_TRUE(HasValue<T>(joined, Values<T>({0, 2, 3, 1, 4, 5}), {2, 3}));
  const std::vector<Var> parts =
      Nodes("Split", {joined, Int64s(g, {1, 2})}, {{"axis", int64_t{1}}}, kKernelOpset, 2);
  EXPECT_TRUE(HasValue<T>(parts[0], Values<T>({0, 1}), {2, 1}));
  EXPECT_TRUE(HasValue<T>(parts[1], Values<T>({2, 3, 4, 5}), {2, 2}));
}

TYPED_TEST(MoveTest, TileAndExpand) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({0, 1, 2}), {3, 1});
  EXPECT_TRUE(HasValue<T>(Node("Tile", {x, Int64s(g, {2, 2})}),
                          Values<T>({0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}), {6, 2}));
  EXPECT_TRUE(HasValue<T>(Node("Expand", {x, Int64s(g, {2, 1, 2})}),
                          Values<T>({0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}), {2, 3, 2}));
}

TYPED_TEST(MoveTest, PadModes) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({1, 2, 3, 4}), {2, 2});
  const Var nine = Const<T>(g, Values<T>({9}), {});
  EXPECT_TRUE(HasValue<T>(Node("Pad", {x, Int64s(g, {0, 1, 1, 0}), nine}),
                          Values<T>({9, 1, 2, 9, 3, 4, 9, 9, 9}), {3, 3}));
  // Omitted constant_value: zero, "" or false.
  EXPECT_TRUE(HasValue<T>(Node("Pad", {x, Int64s(g, {0, 0, 0, 1})}),
                          Values<T>({1, 2, -1, 3, 4, -1}), {2, 3}));
  const Var row = Const<T>(g, Values<T>({1, 2, 3}), {1, 3});
  EXPECT_TRUE(
      HasValue<T>(Node("Pad", {row, Int64s(g, {0, 2, 0, 1})}, {{"mode", std::string("reflect")}}),
                  Values<T>({3, 2, 1, 2, 3, 2}), {1, 6}));
  EXPECT_TRUE(
      HasValue<T>(Node("Pad", {row, Int64s(g, {0, 2, 0, 1})}, {{"mode", std::string("edge")}}),
                  Values<T>({1, 1, 1, 2, 3, 3}), {1, 6}));
}

TYPED_TEST(MoveTest, GatherAndScatterElements) {
  using T = TypeParam;
  Graph g;
  const Var data = Const<T>(g, Values<T>({1, 2, 3, 4}), {2, 2});
  const Var indices = Const<int64_t>(g, {0, 0, 1, 0}, {2, 2});
  EXPECT_TRUE(HasValue<T>(Node("GatherElements", {data, indices}, {{"axis", int64_t{1}}}),
                          Values<T>({1, 1, 4, 3}), {2, 2}));
  const Var row = Const<T>(g, Values<T>({1, 2, 3, 4, 5}), {1, 5});
  const Var updates = Const<T>(g, Values<T>({11, 21}), {1, 2});
  EXPECT_TRUE(
      HasValue<T>(Node("ScatterElements", {row, Const<int32_t>(g, {1, -2}, {1, 2}), updates},
                       {{"axis", int64_t{-1}}}),
                  Values<T>({1, 11, 3, 21, 5}), {1, 5}));
}

TYPED_TEST(MoveTest, GatherAndScatterND) {
  using T = TypeParam;
  Graph g;
  const Var data = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5, 6, 7}), {2, 2, 2});
  EXPECT_TRUE(HasValue<T>(Node("GatherND", {data, Const<int64_t>(g, {1, 0, 0, -1}, {2, 2})}),
                          Values<T>({4, 5, 2, 3}), {2, 2}));
  EXPECT_TRUE(HasValue<T>(
      Node("GatherND", {data, Const<int64_t>(g, {1, 0}, {2, 1})}, {{"batch_dims", int64_t{1}}}),
      Values<T>({2, 3, 4, 5}), {2, 2}));
  const Var flat = Const<T>(g, Values<T>({1, 2, 3, 4, 5, 6, 7, 8}), {8});
  const Var updates = Const<T>(g, Values<T>({9, 10, 11, 12}), {4});
  EXPECT_TRUE(
      HasValue<T>(Node("ScatterND", {flat, Const<int64_t>(g, {4, 3, 1, -1}, {4, 1}), updates}),
                  Values<T>({1, 11, 3, 10, 9, 6, 7, 12}), {8}));
}

TYPED_TEST(MoveTest, CompressAndReverseSequence) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({1, 2, 3, 4, 5, 6}), {3, 2});
  const Var condition = Const<bool>(g, {false, true, true}, {3});
  if constexpr (std::is_same_v<T, BFloat16>) {  // not in these schemas' types
    EXPECT_TRUE(IsRefusedFor(Node("Compress", {x, condition}), "bfloat16"));
    EXPECT_TRUE(IsRefusedFor(Node("ReverseSequence", {x, Int64s(g, {3, 2})}), "bfloat16"));
    return;
  }
  EXPECT_TRUE(HasValue<T>(Node("Compress", {x, condition}, {{"axis", int64_t{0}}}),
                          Values<T>({3, 4, 5, 6}), {2, 2}));
  EXPECT_TRUE(HasValue<T>(Node("Compress", {x, condition}), Values<T>({2, 3}), {2}));
  const Var steps = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5, 6, 7, 8}), {3, 3});
  // time_axis 0, batch_axis 1: column b reverses its first lens[b] entries.
  EXPECT_TRUE(HasValue<T>(Node("ReverseSequence", {steps, Int64s(g, {3, 2, 1})}),
                          Values<T>({6, 4, 2, 3, 1, 5, 0, 7, 8}), {3, 3}));
}

TYPED_TEST(MoveTest, DepthToSpaceAndBack) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({0, 1, 2, 3, 4, 5, 6, 7}), {1, 8, 1, 1});
  const Var dcr = Node("DepthToSpace", {x}, {{"blocksize", int64_t{2}}});
  EXPECT_TRUE(HasValue<T>(dcr, Values<T>({0, 2, 4, 6, 1, 3, 5, 7}), {1, 2, 2, 2}));
  EXPECT_TRUE(HasValue<T>(
      Node("DepthToSpace", {x}, {{"blocksize", int64_t{2}}, {"mode", std::string("CRD")}}),
      Values<T>({0, 1, 2, 3, 4, 5, 6, 7}), {1, 2, 2, 2}));
  EXPECT_TRUE(HasValue<T>(Node("SpaceToDepth", {dcr}, {{"blocksize", int64_t{2}}}),
                          Values<T>({0, 1, 2, 3, 4, 5, 6, 7}), {1, 8, 1, 1}));
}

TYPED_TEST(MoveTest, TriluZeroesOutsideTheTriangle) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}), {2, 2, 3});
  EXPECT_TRUE(HasValue<T>(Node("Trilu", {x}), Values<T>({1, 2, 3, -1, 5, 6, 7, 8, 9, -1, 11, 12}),
                          {2, 2, 3}));
  EXPECT_TRUE(HasValue<T>(Node("Trilu", {x, Scalar<int64_t>(g, -1)}, {{"upper", int64_t{0}}}),
                          Values<T>({-1, -1, -1, 4, -1, -1, -1, -1, -1, 10, -1, -1}), {2, 2, 3}));
  EXPECT_TRUE(HasValue<T>(Node("Trilu", {x, Scalar<int64_t>(g, kInt64Max)}),
                          Values<T>({-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}), {2, 2, 3}));
}

TYPED_TEST(MoveTest, OneHotValuesOfEveryType) {
  using T = TypeParam;
  Graph g;
  const Var indices = Const<int64_t>(g, {0, 2, -1, 3}, {4});
  const Var off_on = Const<T>(g, Values<T>({-1, 7}), {2});
  if constexpr (std::is_same_v<T, BFloat16>) {  // not in OneHot's types
    EXPECT_TRUE(
        IsRefusedFor(Node("OneHot", {indices, Scalar<float>(g, 3.5f), off_on}), "bfloat16"));
    return;
  }
  EXPECT_TRUE(HasValue<T>(Node("OneHot", {indices, Scalar<float>(g, 3.5f), off_on}),
                          Values<T>({7, -1, -1, -1, -1, 7, -1, -1, 7, -1, -1, -1}), {4, 3}));
}

TYPED_TEST(MoveTest, NonZeroAndConstantOfShape) {
  using T = TypeParam;
  Graph g;
  const Var x = Const<T>(g, Values<T>({-1, 1, 3, -1, -1, 5}), {2, 3});
  EXPECT_TRUE(HasValue<int64_t>(Node("NonZero", {x}), {0, 0, 1, 1, 2, 2}, {2, 3}));
  if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, BFloat16>) {  // its types
    const Var filled = Node("ConstantOfShape", {Int64s(g, {2, 1})},
                            {{"value", Tensor::from_vector<T>(Values<T>({7}), {1})}});
    EXPECT_TRUE(HasValue<T>(filled, Values<T>({7, 7}), {2, 1}));
  }
}

// --- Values that survive moves bit for bit ------------------------------------------------------

TEST(TensorKernelTest, MovesKeepNaNPayloads) {
  Graph g;
  const Float16 nan16{0x7e01};
  const float nan32 = std::bit_cast<float>(0x7fc00123u);
  const Var h = Const<Float16>(g, {nan16, Float16{0x3c00}}, {2, 1});
  EXPECT_TRUE(HasValue<Float16>(Node("Transpose", {h}), {nan16, Float16{0x3c00}}, {1, 2}));
  const Var f = Const<float>(g, {nan32, 1.0f}, {2});
  EXPECT_TRUE(HasValue<float>(Node("Tile", {f, Int64s(g, {2})}), {nan32, 1, nan32, 1}, {4}));
  EXPECT_TRUE(HasValue<float>(Node("Gather", {f, Int64s(g, {0})}), {nan32}, {1}));
}

// --- Empty tensors -------------------------------------------------------------------------------

TEST(TensorKernelTest, EmptyTensors) {
  Graph g;
  const Var empty = Const<float>(g, {}, {0, 3});
  EXPECT_TRUE(HasValue<float>(Node("Transpose", {empty}), {}, {3, 0}));
  EXPECT_TRUE(HasValue<float>(Node("Tile", {empty, Int64s(g, {5, 2})}), {}, {0, 6}));
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_TRUE(HasValue<float>(Node("Gather", {x, Int64s(g, {})}), {}, {0}));
  EXPECT_TRUE(HasValue<float>(Node("Tile", {x, Int64s(g, {0})}), {}, {0}));
  EXPECT_TRUE(HasValue<float>(Node("Slice", {x, Int64s(g, {2}), Int64s(g, {1})}), {}, {0}));
  EXPECT_TRUE(HasValue<float>(Node("Concat", {Const<float>(g, {}, {0}), x}, {{"axis", int64_t{0}}}),
                              {1, 2, 3}, {3}));
  EXPECT_TRUE(
      HasValue<float>(Node("Pad", {Const<float>(g, {}, {0}), Int64s(g, {1, 1})}), {0, 0}, {2}));
  EXPECT_TRUE(
      HasValue<int64_t>(Node("NonZero", {Const<int32_t>(g, {0, 0, 0, 0}, {2, 2})}), {}, {2, 0}));
  EXPECT_TRUE(HasValue<float>(Node("Compress", {x, Const<bool>(g, {false}, {1})}), {}, {0}));
  EXPECT_TRUE(HasValue<float>(Node("Unique", {Const<float>(g, {}, {0})}), {}, {0}));
  EXPECT_TRUE(HasValue<float>(
      Node("Range", {Scalar<float>(g, 3), Scalar<float>(g, 1), Scalar<float>(g, 1)}), {}, {0}));
}

// --- Slice ---------------------------------------------------------------------------------------

TEST(TensorKernelTest, SliceClampsAndDefaultsLikeOnnx) {
  Graph g;
  const Var x = Const<int32_t>(g, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  // Omitted axes and steps; ends past the dims clamp.
  EXPECT_TRUE(HasValue<int32_t>(Node("Slice", {x, Int64s(g, {1, -3}), Int64s(g, {100, 3})}),
                                {5, 6, 9, 10}, {2, 2}));
  // Negative axis, a step larger than the dim.
  EXPECT_TRUE(HasValue<int32_t>(Node("Slice", {x, Int64s(g, {0}), Int64s(g, {kInt64Max}),
                                               Int64s(g, {-1}), Int64s(g, {kInt64Max})}),
                                {0, 4, 8}, {3, 1}));
  EXPECT_TRUE(HasValue<int32_t>(Node("Slice", {x, Int64s(g, {kInt64Max}), Int64s(g, {kInt64Min}),
                                               Int64s(g, {0}), Int64s(g, {kInt64Min})}),
                                {8, 9, 10, 11}, {1, 4}));
  // Opset 1: attributes, step 1.
  EXPECT_TRUE(HasValue<int32_t>(
      Node("Slice", {x}, {{"starts", Ints{-2}}, {"ends", Ints{1000}}, {"axes", Ints{1}}}, 1),
      {2, 3, 6, 7, 10, 11}, {3, 2}));
}

TEST(TensorKernelTest, SliceBackwardToIntMaxHasNoValue) {
  // ONNX clamps the end to the dim (an empty slice); ONNX Runtime slices to the first element.
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  for (int64_t end : {int64_t{std::numeric_limits<int32_t>::max()}, kInt64Max}) {
    EXPECT_TRUE(HasNoValue(
        Node("Slice", {x, Int64s(g, {-1}), Int64s(g, {end}), Int64s(g, {0}), Int64s(g, {-1})})));
  }
}

TEST(TensorKernelTest, SliceStepZeroFails) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_FALSE(
      Node("Slice", {x, Int64s(g, {0}), Int64s(g, {3}), Int64s(g, {0}), Int64s(g, {0})}).ok());
}

// --- Split ---------------------------------------------------------------------------------------

TEST(TensorKernelTest, SplitVersions) {
  Graph g;
  const Var x = Const<int64_t>(g, {1, 2, 3, 4, 5, 6}, {6});
  const std::vector<Var> equal = Nodes("Split", {x}, {}, kKernelOpset, 3);
  EXPECT_TRUE(HasValue<int64_t>(equal[0], {1, 2}, {2}));
  EXPECT_TRUE(HasValue<int64_t>(equal[2], {5, 6}, {2}));
  const std::vector<Var> attribute = Nodes("Split", {x}, {{"split", Ints{4, 0, 2}}}, 11, 3);
  EXPECT_TRUE(HasValue<int64_t>(attribute[0], {1, 2, 3, 4}, {4}));
  EXPECT_TRUE(HasValue<int64_t>(attribute[1], {}, {0}));
  EXPECT_TRUE(HasValue<int64_t>(attribute[2], {5, 6}, {2}));
  const std::vector<Var> old = Nodes("Split", {x}, {}, 2, 2);
  EXPECT_TRUE(HasValue<int64_t>(old[1], {4, 5, 6}, {3}));
}

TEST(TensorKernelTest, SplitThatDoesNotFitFails) {
  Graph g;
  const Var x = Const<int64_t>(g, {1, 2, 3, 4, 5}, {5});
  EXPECT_FALSE(Nodes("Split", {x}, {}, kKernelOpset, 2)[0].ok());
  EXPECT_FALSE(Nodes("Split", {x, Int64s(g, {1, 2})}, {}, kKernelOpset, 2)[0].ok());
}

// Opset 18: num_outputs parts of ceil(extent / n), the last one smaller; a split that would leave
// a negative last part (ONNX Runtime refuses it, ONNX's reference pads with empty parts) has no
// value.
TEST(TensorKernelTest, SplitOf18TakesNumOutputs) {
  Graph g;
  const Var x = Const<int64_t>(g, {1, 2, 3, 4, 5}, {5});
  const std::vector<Var> three = Nodes("Split", {x}, {{"num_outputs", int64_t{3}}}, 18, 3);
  EXPECT_TRUE(HasValue<int64_t>(three[0], {1, 2}, {2}));
  EXPECT_TRUE(HasValue<int64_t>(three[1], {3, 4}, {2}));
  EXPECT_TRUE(HasValue<int64_t>(three[2], {5}, {1}));
  const std::vector<Var> given = Nodes("Split", {x, Int64s(g, {1, 4})}, {}, 18, 2);
  EXPECT_TRUE(HasValue<int64_t>(given[1], {2, 3, 4, 5}, {4}));
  for (const Var& part : Nodes("Split", {x}, {{"num_outputs", int64_t{4}}}, 18, 4)) {
    EXPECT_TRUE(!part.ok() || HasNoValue(part));  // ONNX's inference may refuse it first
  }
}

// Opset 18's reductions max and min, which 16 and 17 do not have.
TEST(TensorKernelTest, ScatterReductionsMaxAndMinFrom18) {
  Graph g;
  const Var data = Const<float>(g, {1, 5, 3}, {3});
  const Var indices = Int64s(g, {0, 1, 0});
  const Var updates = Const<float>(g, {4, 2, 0}, {3});
  EXPECT_TRUE(HasValue<float>(
      Node("ScatterElements", {data, indices, updates}, {{"reduction", std::string("max")}}, 18),
      {4, 5, 3}, {3}));
  EXPECT_TRUE(HasValue<float>(
      Node("ScatterElements", {data, indices, updates}, {{"reduction", std::string("min")}}, 18),
      {0, 2, 3}, {3}));
  const Var nd =
      Node("ScatterND", {data, Const<int64_t>(g, {1}, {1, 1}), Const<float>(g, {9}, {1})},
           {{"reduction", std::string("max")}}, 18);
  EXPECT_TRUE(HasValue<float>(nd, {1, 9, 3}, {3}));
  EXPECT_FALSE(
      Node("ScatterElements", {data, indices, updates}, {{"reduction", std::string("max")}}, 17)
          .ok());
}

// --- Gathers and scatters ------------------------------------------------------------------------

TEST(TensorKernelTest, IndexOutOfRangeFailsNamingTheIndex) {
  Graph g;
  const Var data = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(FailsWithInvalidArgument(Node("Gather", {data, Int64s(g, {0, 2})}),
                                       {"Gather", "input 1 (indices)", "index 2"}));
  EXPECT_TRUE(FailsWithInvalidArgument(Node("Gather", {data, Int64s(g, {-3})}), {"index -3"}));
  EXPECT_TRUE(FailsWithInvalidArgument(
      Node("GatherElements", {data, Const<int64_t>(g, {0, 3}, {1, 2})}, {{"axis", int64_t{1}}}),
      {"input 1 (indices)", "index 3"}));
  EXPECT_TRUE(FailsWithInvalidArgument(Node("GatherND", {data, Const<int64_t>(g, {1, 5}, {1, 2})}),
                                       {"input 1 (indices)", "index 5"}));
  EXPECT_TRUE(FailsWithInvalidArgument(
      Node("ScatterElements", {data, Const<int64_t>(g, {-4}, {1, 1}), Const<float>(g, {9}, {1, 1})},
           {{"axis", int64_t{1}}}),
      {"input 1 (indices)", "index -4"}));
  EXPECT_TRUE(FailsWithInvalidArgument(
      Node("ScatterND", {data, Const<int64_t>(g, {2}, {1, 1}), Const<float>(g, {7, 8, 9}, {1, 3})}),
      {"input 1 (indices)", "index 2"}));
}

TEST(TensorKernelTest, ScatterReductionsWrapAndRepeat) {
  Graph g;
  const Var data = Const<int8_t>(g, {100, 1, 2}, {3});
  const Var indices = Const<int64_t>(g, {0, 0, 2}, {3});
  const Var updates = Const<int8_t>(g, {20, 10, 5}, {3});
  EXPECT_TRUE(HasValue<int8_t>(
      Node("ScatterElements", {data, indices, updates}, {{"reduction", std::string("add")}}),
      {-126, 1, 7}, {3}));
  EXPECT_TRUE(HasValue<int8_t>(
      Node("ScatterElements", {data, indices, updates}, {{"reduction", std::string("mul")}}),
      {32, 1, 10}, {3}));
  // Without a reduction the last of duplicate indices wins.
  EXPECT_TRUE(HasValue<int8_t>(Node("ScatterElements", {data, indices, updates}), {10, 1, 5}, {3}));
  const Var halves = Const<Float16>(g, {Float16::FromFloat(1.5f), Float16::FromFloat(2)}, {2});
  EXPECT_TRUE(HasValue<Float16>(
      Node("ScatterND",
           {halves, Const<int64_t>(g, {1, 1}, {2, 1}),
            Const<Float16>(g, {Float16::FromFloat(3), Float16::FromFloat(0.5f)}, {2})},
           {{"reduction", std::string("mul")}}),
      {Float16::FromFloat(1.5f), Float16::FromFloat(3)}, {2}));
  // Opset 9's Scatter is ScatterElements without reductions.
  EXPECT_TRUE(HasValue<int8_t>(
      Node("Scatter", {data, Const<int32_t>(g, {2}, {1}), Const<int8_t>(g, {-1}, {1})}, {}, 9),
      {100, 1, -1}, {3}));
}

TEST(TensorKernelTest, ScatterReductionOnStringsHasNoValue) {
  Graph g;
  const Var data = Const<std::string>(g, {"a", "b"}, {2});
  EXPECT_TRUE(HasNoValue(Node(
      "ScatterElements", {data, Const<int64_t>(g, {0}, {1}), Const<std::string>(g, {"c"}, {1})},
      {{"reduction", std::string("add")}})));
}

TEST(TensorKernelTest, GatherOfALargeTableCopiesRows) {
  Graph g;
  std::vector<float> table(1000 * 16);
  for (size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i);
  std::vector<int64_t> rows(5000);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>((i * 7919) % 1000);
  const Var out = Node("Gather", {Const<float>(g, table, {1000, 16}), Int64s(g, rows)});
  ASSERT_TRUE(out.ok());
  const std::optional<Tensor> value = out.value();
  ASSERT_TRUE(value.has_value());
  const auto values = value->data<float>();
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < 16; ++j) {
      ASSERT_EQ(values[i * 16 + j], table[static_cast<size_t>(rows[i]) * 16 + j]) << i << "," << j;
    }
  }
}

TEST(TensorKernelTest, TransposeOfALargeMatrixIsBlockedCorrectly) {
  Graph g;
  const int64_t rows = 67, cols = 131;  // not multiples of the block
  std::vector<int32_t> x(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i);
  const Var y =
      Node("Transpose", {Const<int32_t>(g, x, {1, rows, cols})}, {{"perm", Ints{2, 0, 1}}});
  ASSERT_TRUE(y.ok());
  const std::optional<Tensor> value = y.value();
  ASSERT_TRUE(value.has_value());
  const auto values = value->data<int32_t>();
  for (int64_t c = 0; c < cols; ++c) {
    for (int64_t r = 0; r < rows; ++r) {
      ASSERT_EQ(values[static_cast<size_t>(c * rows + r)], x[static_cast<size_t>(r * cols + c)]);
    }
  }
}

// --- Pad -----------------------------------------------------------------------------------------

TEST(TensorKernelTest, PadCropsThenPads) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4}, {4});
  EXPECT_TRUE(HasValue<float>(Node("Pad", {x, Int64s(g, {-1, 2})}), {2, 3, 4, 0, 0}, {5}));
  EXPECT_TRUE(HasValue<float>(
      Node("Pad", {x, Int64s(g, {-1, 1})}, {{"mode", std::string("reflect")}}), {2, 3, 4, 3}, {4}));
  EXPECT_TRUE(FailsWithInvalidArgument(Node("Pad", {x, Int64s(g, {-3, -2})}), {"input 1 (pads)"}));
}

TEST(TensorKernelTest, PadReflectWiderThanTheDimHasNoValue) {
  Graph g;
  const Var x = Const<float>(g, {1, 2}, {2});
  EXPECT_TRUE(HasNoValue(Node("Pad", {x, Int64s(g, {2, 0})}, {{"mode", std::string("reflect")}})));
}

TEST(TensorKernelTest, PadBeforeOpset11TakesAttributes) {
  Graph g;
  const Var x = Const<Float16>(g, {Float16::FromFloat(1), Float16::FromFloat(2)}, {2});
  EXPECT_TRUE(HasValue<Float16>(
      Node("Pad", {x}, {{"pads", Ints{1, 0}}, {"value", 0.5f}}, 2),
      {Float16::FromFloat(0.5f), Float16::FromFloat(1), Float16::FromFloat(2)}, {3}));
}

// Opset 18's axes input and 19's mode "wrap"; the values are ONNX Runtime 1.32's.
TEST(TensorKernelTest, PadOf18TakesAxesAnd19Wraps) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  const std::vector<Attribute> wrap = {{"mode", std::string("wrap")}};
  EXPECT_TRUE(
      HasValue<float>(Node("Pad", {x, Int64s(g, {2, 1})}, wrap, 19), {2, 3, 1, 2, 3, 1}, {6}));
  EXPECT_TRUE(HasValue<float>(Node("Pad", {x, Int64s(g, {5, 4})}, wrap, 19),
                              {2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}, {12}));
  // Crops first, then wraps what is left.
  EXPECT_TRUE(HasValue<float>(Node("Pad", {x, Int64s(g, {-1, 2})}, wrap, 19), {2, 3, 2, 3}, {4}));
  EXPECT_TRUE(HasValue<float>(Node("Pad", {x, Int64s(g, {2, -1})}, wrap, 24), {1, 2, 1, 2}, {4}));
  EXPECT_TRUE(FailsWithInvalidArgument(Node("Pad", {x, Int64s(g, {1, 1})}, wrap, 18), {"mode"}));
  const Var empty = Const<float>(g, {}, {0});
  EXPECT_TRUE(HasNoValue(Node("Pad", {empty, Int64s(g, {1, 1})}, wrap, 19)));

  const Var m = Const<float>(g, {0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_TRUE(HasValue<float>(Node("Pad", {m, Int64s(g, {1, 2}), Var(), Int64s(g, {-1})}, wrap, 19),
                              {2, 0, 1, 2, 0, 1, 5, 3, 4, 5, 3, 4}, {2, 6}));
  const Var reversed = Int64s(g, {1, 0});
  EXPECT_TRUE(HasValue<float>(Node("Pad", {m, Int64s(g, {1, 0, 1, 0}), Var(), reversed},
                                   {{"mode", std::string("reflect")}}, 18),
                              {1, 0, 1, 2, 1, 4, 3, 4, 5, 4}, {2, 5}));
  const Var rows = Const<int32_t>(g, {0}, {1});
  EXPECT_TRUE(
      HasValue<float>(Node("Pad", {m, Int64s(g, {0, 1}), Const<float>(g, {7}, {}), rows}, {}, 18),
                      {0, 1, 2, 3, 4, 5, 7, 7, 7}, {3, 3}));
  // Without axes every dim is listed, as before 18.
  EXPECT_TRUE(HasValue<float>(Node("Pad", {m, Int64s(g, {0, 0, 0, 1})}, {}, 21),
                              {0, 1, 2, 0, 3, 4, 5, 0}, {2, 4}));
  EXPECT_FALSE(Node("Pad", {m, Int64s(g, {1, 1, 1, 1}), Var(), Int64s(g, {1, -1})}, {}, 18).ok());
  EXPECT_FALSE(Node("Pad", {m, Int64s(g, {1, 1}), Var(), Int64s(g, {2})}, {}, 18).ok());
}

// TensorScatter (opset 24); the values are ONNX Runtime 1.32's.
TEST(TensorKernelTest, TensorScatterWritesEachBatchsUpdateAtItsIndex) {
  Graph g;
  std::vector<float> past(16);
  for (size_t i = 0; i < past.size(); ++i) past[i] = static_cast<float>(i);
  const Var cache = Const<float>(g, past, {2, 4, 2});
  const Var update = Const<float>(g, {-1, -2, -3, -4, -5, -6, -7, -8}, {2, 2, 2});
  EXPECT_TRUE(HasValue<float>(Node("TensorScatter", {cache, update, Int64s(g, {0, 2})}, {}, 24),
                              {-1, -2, -3, -4, 4, 5, 6, 7, 8, 9, 10, 11, -5, -6, -7, -8},
                              {2, 4, 2}));
  EXPECT_TRUE(HasValue<float>(Node("TensorScatter", {cache, update, Int64s(g, {3, 1})},
                                   {{"mode", std::string("circular")}}, 24),
                              {-3, -4, 2, 3, 4, 5, -1, -2, 8, 9, -5, -6, -7, -8, 14, 15},
                              {2, 4, 2}));
  // Without write_indices every batch writes at 0; past the end only circular mode may go.
  EXPECT_TRUE(HasValue<float>(Node("TensorScatter", {cache, update}, {}, 24),
                              {-1, -2, -3, -4, 4, 5, 6, 7, -5, -6, -7, -8, 12, 13, 14, 15},
                              {2, 4, 2}));
  EXPECT_FALSE(
      Node("TensorScatter", {cache, update, Int64s(g, {3, 0})}, {}, 24).value().has_value());
}

// --- Generators ----------------------------------------------------------------------------------

// Range's operands of one element and shape [1] read as scalars, as ONNX Runtime 1.32 and ONNX's
// reference read them (ONNX's own AffineGrid body passes such a limit), known or not.
TEST(TensorKernelTest, RangeReadsOneElementOperandsAsScalars) {
  Graph g;
  const Var start = Const<int64_t>(g, {1}, {1});
  EXPECT_TRUE(HasValue<int64_t>(Node("Range", {start, Int64s(g, {7}), Scalar<int64_t>(g, 2)}),
                                {1, 3, 5}, {3}));
  const Var limit = g.argument("limit", DataType::kInt64, {1});
  const Var unknown = Node("Range", {start, limit, Int64s(g, {2})});
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_EQ(unknown.shape(), (std::vector<int64_t>{-1}));
  // Two elements are no scalar.
  EXPECT_FALSE(Node("Range", {Int64s(g, {1, 2}), Int64s(g, {7}), Int64s(g, {2})}).ok());
}

TEST(TensorKernelTest, RangeWrapsNothingAndCountsExactly) {
  Graph g;
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  EXPECT_TRUE(HasValue<int32_t>(Node("Range", {Scalar<int32_t>(g, kMax - 2),
                                               Scalar<int32_t>(g, kMax), Scalar<int32_t>(g, 5)}),
                                {kMax - 2}, {1}));
  EXPECT_TRUE(
      HasValue<int64_t>(Node("Range", {Scalar<int64_t>(g, kInt64Max - 10),
                                       Scalar<int64_t>(g, kInt64Max), Scalar<int64_t>(g, 4)}),
                        {kInt64Max - 10, kInt64Max - 6, kInt64Max - 2}, {3}));
  // limit - start overflows: ONNX's inference and ONNX Runtime wrap it and find no elements.
  EXPECT_TRUE(
      HasNoValue(Node("Range", {Scalar<int64_t>(g, kInt64Min), Scalar<int64_t>(g, kInt64Max),
                                Scalar<int64_t>(g, int64_t{1} << 62)})));
  EXPECT_TRUE(HasValue<int16_t>(
      Node("Range", {Scalar<int16_t>(g, 10), Scalar<int16_t>(g, 3), Scalar<int16_t>(g, -3)}),
      {10, 7, 4}, {3}));
  // int16's limit - start is computed in int: no overflow, no decline.
  EXPECT_TRUE(HasValue<int16_t>(
      Node("Range",
           {Scalar<int16_t>(g, -30000), Scalar<int16_t>(g, 30000), Scalar<int16_t>(g, 20000)}),
      {-30000, -10000, 10000}, {3}));
  // Each value adds delta to the previous one, in float.
  std::vector<float> tenths;
  float v = 0;
  for (int i = 0; i < 10; ++i, v += 0.1f) tenths.push_back(v);
  EXPECT_TRUE(HasValue<float>(
      Node("Range", {Scalar<float>(g, 0), Scalar<float>(g, 1), Scalar<float>(g, 0.1f)}), tenths,
      {10}));
}

TEST(TensorKernelTest, RangeWithDeltaZeroFails) {
  Graph g;
  EXPECT_FALSE(
      Node("Range", {Scalar<int64_t>(g, 0), Scalar<int64_t>(g, 5), Scalar<int64_t>(g, 0)}).ok());
}

TEST(TensorKernelTest, ConstantOfShapeDefaultsToFloatZero) {
  Graph g;
  EXPECT_TRUE(HasValue<float>(Node("ConstantOfShape", {Int64s(g, {2, 2})}), {0, 0, 0, 0}, {2, 2}));
  EXPECT_TRUE(HasValue<float>(Node("ConstantOfShape", {Int64s(g, {})}), {0}, {}));
  EXPECT_TRUE(HasValue<int32_t>(
      Node("ConstantOfShape", {Int64s(g, {0, 3})}, {{"value", Tensor::from_vector<int32_t>({5})}}),
      {}, {0, 3}));
}

TEST(TensorKernelTest, EyeLikeDiagonalsAndTypes) {
  Graph g;
  const Var x = Const<int32_t>(g, {0, 0, 0, 0, 0, 0}, {2, 3});
  EXPECT_TRUE(HasValue<int32_t>(Node("EyeLike", {x}), {1, 0, 0, 0, 1, 0}, {2, 3}));
  EXPECT_TRUE(HasValue<double>(Node("EyeLike", {x}, {{"k", int64_t{1}}, {"dtype", int64_t{11}}}),
                               {0, 1, 0, 0, 0, 1}, {2, 3}));
  EXPECT_TRUE(HasValue<bool>(Node("EyeLike", {x}, {{"k", int64_t{-1}}, {"dtype", int64_t{9}}}),
                             {false, false, false, true, false, false}, {2, 3}));
  EXPECT_TRUE(HasValue<BFloat16>(Node("EyeLike", {x}, {{"k", kInt64Min}, {"dtype", int64_t{16}}}),
                                 std::vector<BFloat16>(6, BFloat16::FromFloat(0)), {2, 3}));
}

TEST(TensorKernelTest, OneHotNegativeIndicesByVersion) {
  Graph g;
  const Var indices = Const<float>(g, {-1.7f, 1.9f, 5}, {3});
  const Var off_on = Const<int32_t>(g, {0, 1}, {2});
  // Opset 11: -1.7 casts to -1, the last class; 5 is out of range: all off.
  EXPECT_TRUE(HasValue<int32_t>(
      Node("OneHot", {indices, Scalar<int64_t>(g, 3), off_on}, {{"axis", int64_t{0}}}),
      {0, 0, 0, 0, 1, 0, 1, 0, 0}, {3, 3}));
  // Opset 9: ONNX has negative indices out of range, ONNX Runtime counts them from the end.
  EXPECT_TRUE(HasNoValue(Node("OneHot", {indices, Scalar<int64_t>(g, 3), off_on}, {}, 9)));
  EXPECT_TRUE(HasValue<int32_t>(
      Node("OneHot", {Const<float>(g, {1.9f, -5, 5}, {3}), Scalar<int64_t>(g, 3), off_on}, {}, 9),
      {0, 1, 0, 0, 0, 0, 0, 0, 0}, {3, 3}));
  EXPECT_FALSE(Node("OneHot", {indices, Scalar<int64_t>(g, 0), off_on}).ok());
}

// --- Data-dependent sizes ------------------------------------------------------------------------

TEST(TensorKernelTest, UniqueSortedAndInOrderOfAppearance) {
  Graph g;
  const Var x = Const<int32_t>(g, {2, 1, 1, 3, 4, 3}, {6});
  const std::vector<Var> sorted = Nodes("Unique", {x}, {}, kKernelOpset, 4);
  EXPECT_TRUE(HasValue<int32_t>(sorted[0], {1, 2, 3, 4}, {4}));
  EXPECT_TRUE(HasValue<int64_t>(sorted[1], {1, 0, 3, 4}, {4}));
  EXPECT_TRUE(HasValue<int64_t>(sorted[2], {1, 0, 0, 2, 3, 2}, {6}));
  EXPECT_TRUE(HasValue<int64_t>(sorted[3], {2, 1, 2, 1}, {4}));
  const std::vector<Var> found = Nodes("Unique", {x}, {{"sorted", int64_t{0}}}, kKernelOpset, 4);
  EXPECT_TRUE(HasValue<int32_t>(found[0], {2, 1, 3, 4}, {4}));
  EXPECT_TRUE(HasValue<int64_t>(found[2], {0, 1, 1, 2, 3, 2}, {6}));
  const Var words = Const<std::string>(g, {"b", "a", "b"}, {3});
  EXPECT_TRUE(HasValue<std::string>(Node("Unique", {words}), {"a", "b"}, {2}));
  const Var rows =
      Const<Float16>(g,
                     {Float16::FromFloat(1), Float16::FromFloat(0), Float16::FromFloat(0),
                      Float16::FromFloat(1), Float16::FromFloat(1), Float16::FromFloat(0)},
                     {3, 2});
  EXPECT_TRUE(HasValue<Float16>(
      Node("Unique", {rows}, {{"axis", int64_t{-2}}}),
      {Float16::FromFloat(0), Float16::FromFloat(1), Float16::FromFloat(1), Float16::FromFloat(0)},
      {2, 2}));
}

TEST(TensorKernelTest, UniqueOfNaNHasNoValue) {
  Graph g;
  const Var x = Const<float>(g, {1, std::numeric_limits<float>::quiet_NaN()}, {2});
  EXPECT_TRUE(HasNoValue(Node("Unique", {x})));
}

TEST(TensorKernelTest, NonZeroTreatsNaNAsNonZeroAndMinusZeroAsZero) {
  Graph g;
  const Var x = Const<double>(g, {-0.0, std::numeric_limits<double>::quiet_NaN(), 2}, {3});
  EXPECT_TRUE(HasValue<int64_t>(Node("NonZero", {x}), {1, 2}, {1, 2}));
  const Var words = Const<std::string>(g, {"", "x"}, {2});
  EXPECT_TRUE(HasValue<int64_t>(Node("NonZero", {words}), {1}, {1, 1}));
}

TEST(TensorKernelTest, CompressIgnoresConditionPastTheInput) {
  Graph g;
  const Var x = Const<int64_t>(g, {1, 2}, {2});
  EXPECT_TRUE(
      HasValue<int64_t>(Node("Compress", {x, Const<bool>(g, {true, false, true}, {3})}), {1}, {1}));
}

// --- Dropout -------------------------------------------------------------------------------------

TEST(TensorKernelTest, DropoutOutsideTraining) {
  Graph g;
  const Var x = Const<float>(g, {1, 2}, {2});
  const std::vector<Var> inference = Nodes("Dropout", {x}, {}, kKernelOpset, 2);
  EXPECT_TRUE(HasValue<float>(inference[0], {1, 2}, {2}));
  EXPECT_TRUE(HasValue<bool>(inference[1], {true, true}, {2}));
  const std::vector<Var> zero_ratio =
      Nodes("Dropout", {x, Scalar<double>(g, 0), Scalar<bool>(g, true)}, {}, kKernelOpset, 2);
  EXPECT_TRUE(HasValue<float>(zero_ratio[0], {1, 2}, {2}));
  EXPECT_TRUE(HasValue<bool>(zero_ratio[1], {true, true}, {2}));
  const std::vector<Var> training =
      Nodes("Dropout", {x, Var(), Scalar<bool>(g, true)}, {}, kKernelOpset, 2);
  EXPECT_TRUE(HasNoValue(training[0]));
  EXPECT_TRUE(HasNoValue(training[1]));
  // Opset 10 runs in test mode, but says nothing of the mask.
  const std::vector<Var> v10 = Nodes("Dropout", {x}, {}, 10, 2);
  EXPECT_TRUE(HasValue<float>(v10[0], {1, 2}, {2}));
  EXPECT_TRUE(HasNoValue(v10[1]));
  // Opset 6 trains unless is_test.
  EXPECT_TRUE(HasNoValue(Node("Dropout", {x}, {}, 6)));
  EXPECT_TRUE(HasValue<float>(Node("Dropout", {x}, {{"is_test", int64_t{1}}}, 6), {1, 2}, {2}));
}

// --- Failures on bad known inputs ----------------------------------------------------------------

TEST(TensorKernelTest, BadShapesAndCountsFail) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3}, {3});
  EXPECT_FALSE(Node("Tile", {x, Int64s(g, {-1})}).ok());
  EXPECT_FALSE(Node("Expand", {x, Int64s(g, {2})}).ok());
  const Var steps = Const<float>(g, {1, 2, 3, 4}, {2, 2});
  EXPECT_TRUE(FailsWithInvalidArgument(Node("ReverseSequence", {steps, Int64s(g, {3, 1})}),
                                       {"input 1 (sequence_lens)", "length 3"}));
}

// --- The value budget ----------------------------------------------------------------------------

// The process's peak resident set, in KiB.
int64_t PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(TensorKernelBudgetTest, HugeOutputsGetNoValue) {
  Graph g(gg::GraphOptions{.max_value_bytes = 1 << 20});
  const int64_t before = PeakRssKib();
  const Var x = Const<float>(g, {1, 2}, {1, 2});
  const Var tiled = Node("Tile", {x, Int64s(g, {1000000, 500000})});
  EXPECT_TRUE(HasNoValue(tiled));
  EXPECT_EQ(tiled.shape(), std::optional<Dims>(Dims{1000000, 1000000}));
  EXPECT_TRUE(HasNoValue(Node("Expand", {x, Int64s(g, {1000000, 1000000, 2})})));
  EXPECT_TRUE(HasNoValue(Node("ConstantOfShape", {Int64s(g, {1000000, 1000000})})));
  EXPECT_TRUE(HasNoValue(
      Node("Range", {Scalar<double>(g, 0), Scalar<double>(g, 1e12), Scalar<double>(g, 1)})));
  EXPECT_TRUE(HasNoValue(Node("Pad", {x, Int64s(g, {0, 0, 0, int64_t{1} << 40})})));
  // Sizes only the values tell: 2^17 + 8 non-zero elements need more than 1 MiB of int64.
  const Var ones = g.constant(Tensor::from_vector<uint8_t>(std::vector<uint8_t>((1 << 17) + 8, 1)));
  EXPECT_TRUE(HasNoValue(Node("NonZero", {ones})));
  EXPECT_TRUE(HasValue<uint8_t>(Node("Compress", {ones, Const<bool>(g, {true}, {1})}), {1}, {1}));
  EXPECT_LT(PeakRssKib() - before, 64 * 1024);
}

// --- Views and shapes ----------------------------------------------------------------------------

TEST(TensorKernelTest, ViewsShareTheBuffer) {
  Graph g;
  const Var x = Const<float>(g, {1, 2, 3, 4, 5, 6}, {2, 3});
  const Var flat = Node("Flatten", {x}, {{"axis", int64_t{0}}});
  EXPECT_TRUE(HasValue<float>(flat, {1, 2, 3, 4, 5, 6}, {1, 6}));
  EXPECT_EQ(flat.value()->buffer(), x.value()->buffer());
  EXPECT_TRUE(
      HasValue<float>(Node("Unsqueeze", {x, Int64s(g, {-1})}), {1, 2, 3, 4, 5, 6}, {2, 3, 1}));
  EXPECT_TRUE(
      HasValue<float>(Node("Reshape", {x, Int64s(g, {0, -1, 1})}), {1, 2, 3, 4, 5, 6}, {2, 3, 1}));
  EXPECT_TRUE(HasValue<int64_t>(Node("Shape", {x}, {{"start", int64_t{-1}}}), {3}, {1}));
  EXPECT_TRUE(
      HasValue<int64_t>(Node("Shape", {x}, {{"start", int64_t{1}}, {"end", int64_t{0}}}), {}, {0}));
  EXPECT_TRUE(HasValue<int64_t>(Node("Size", {x}), {6}, {}));
}

TEST(TensorKernelTest, ConcatOfOpset1DefaultsToAxis1) {
  Graph g;
  const Var a = Const<float>(g, {1, 2}, {2, 1});
  const Var b = Const<float>(g, {3, 4}, {2, 1});
  const Var joined = Node("Concat", {a, b}, {}, 1);
  EXPECT_TRUE(HasValue<float>(joined, {1, 3, 2, 4}, {2, 2}));
}

}  // namespace
