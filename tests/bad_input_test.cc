// A catalogue of bad input: every call here is a mistake a user can make. Each must give a status
// that says what was wrong (never an abort, never an exception), and lose nothing: the outputs
// built before it export to the same bytes, and their values are unchanged.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset17.h"

namespace graphgc {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string Message(const absl::Status& status) { return std::string(status.message()); }

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    x_ = graph_.argument("x", DataType::kFloat, {2, 3});
    c_ = graph_.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
    y_ = op::Relu(op::Add(x_, c_));
    z_ = op::Mul(c_, c_);
    ASSERT_TRUE(z_.value().has_value());
    z_value_ = *z_.value();
    before_ = Export();
  }

  std::string Export() {
    absl::StatusOr<onnx::ModelProto> model = to_onnx(graph_, {{"y", y_}, {"z", z_}});
    EXPECT_TRUE(model.ok()) << model.status();
    return model.ok() ? model->SerializeAsString() : "";
  }

  // The earlier outputs export to the same bytes and keep their values.
  void ExpectNothingLost() {
    EXPECT_EQ(Export(), before_);
    ASSERT_TRUE(z_.value().has_value());
    EXPECT_EQ(*z_.value(), z_value_);
    EXPECT_TRUE(y_.ok() && x_.ok() && c_.ok());
  }

  Var Floats(std::vector<float> values, std::vector<int64_t> shape) {
    return graph_.constant(Tensor::from_vector<float>(std::move(values), shape));
  }
  Var Ints(std::vector<int64_t> values) {
    return graph_.constant(Tensor::from_vector<int64_t>(std::move(values)));
  }

  Graph graph_;
  Var x_, c_, y_, z_;
  Tensor z_value_;
  std::string before_;
};

// --- The three calls that used to abort the process ---

TEST_F(BadInputTest, APropagatedValueBecomesAConstant) {
  const int64_t live_before = graph_.stats().live_value_bytes;
  Var constant = graph_.constant(*z_.value());
  ASSERT_TRUE(constant.ok()) << constant.status();
  EXPECT_EQ(*constant.value(), z_value_);
  // The buffer is the arena's now: it no longer counts as a value, and collecting frees no bytes
  // of it even once z is gone.
  EXPECT_EQ(graph_.stats().live_value_bytes, live_before - static_cast<int64_t>(z_value_.nbytes()));
  Var w = op::Add(constant, z_);
  ASSERT_TRUE(w.value().has_value());
  EXPECT_EQ(w.value()->data<float>()[5], 72.0f);
  ExpectNothingLost();
  z_ = Var();
  graph_.collect(CollectMode::kEveryVar);
  EXPECT_EQ(*constant.value(), z_value_);
}

TEST_F(BadInputTest, AConstantOfRankAboveTheLimit) {
  const std::vector<int64_t> shape(kMaxRank + 1, 1);
  Var constant = graph_.constant(Tensor::zeros(DataType::kFloat, shape));
  EXPECT_FALSE(constant.ok());
  EXPECT_THAT(Message(constant.status()),
              AllOf(HasSubstr("Constant"), HasSubstr("rank 32768"), HasSubstr("limit of 32767")));
  Var argument = graph_.argument("deep", DataType::kFloat, shape);
  const int64_t huge = int64_t{1} << 40;
  Var vast = graph_.argument("vast", DataType::kFloat, {huge, huge, huge});
  EXPECT_THAT(Message(vast.status()), AllOf(HasSubstr("vast"), HasSubstr("too many elements")));
  Var maybe_empty = graph_.argument("maybe_empty", DataType::kFloat, {huge, huge, -1});
  EXPECT_TRUE(maybe_empty.ok()) << maybe_empty.status();  // the unknown dim may be 0
  EXPECT_THAT(Message(argument.status()), AllOf(HasSubstr("deep"), HasSubstr("rank 32768")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, AConcatOfMoreInputsThanANodeHolds) {
  const Var one = Floats({1}, {1});
  const std::vector<Var> inputs(70000, one);
  Var concat = op::Concat(inputs, {.axis = 0});
  EXPECT_THAT(Message(concat.status()),
              AllOf(HasSubstr("Concat"), HasSubstr("70000 inputs"), HasSubstr("limit of 65535")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, ASplitIntoMoreOutputsThanANodeHolds) {
  const Var long_vector = graph_.constant(Tensor::zeros(DataType::kFloat, {70000}));
  std::vector<Var> parts = op::Split(long_vector, Var(), {.axis = 0}, 70000);
  ASSERT_FALSE(parts.empty());
  EXPECT_THAT(Message(parts[0].status()),
              AllOf(HasSubstr("Split"), HasSubstr("70000 outputs"), HasSubstr("limit of 65535")));
  ExpectNothingLost();
}

// Found by api_fuzzer: ONNX 1.19's Split-18 inference allocates num_outputs parts, then reads
// one per output of the node.
TEST_F(BadInputTest, ASplitWhoseNumOutputsIsNotItsOutputCount) {
  const Var vector = graph_.constant(Tensor::zeros(DataType::kFloat, {6}));
  for (int64_t attribute : {int64_t{1} << 60, int64_t{2}, int64_t{0}}) {
    std::vector<Var> parts = op::Split(vector, Var(), {.axis = 0, .num_outputs_ = attribute}, 3);
    ASSERT_FALSE(parts.empty());
    EXPECT_THAT(Message(parts[0].status()),
                AllOf(HasSubstr("Split"), HasSubstr("'num_outputs' is"), HasSubstr("3 outputs")));
  }
  std::vector<Var> parts = op::Split(vector, Var(), {.axis = 0, .num_outputs_ = 3}, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].shape(), std::vector<int64_t>{2});
  ExpectNothingLost();
}

TEST_F(BadInputTest, AnOpaqueNodeWithMoreOutputsThanANodeHolds) {
  OpaqueNodeOptions options;
  options.domain = "com.example";
  options.output_types.resize(70000);
  std::vector<Var> outputs = make_opaque_node(graph_, "Wide", {x_}, {}, options);
  ASSERT_FALSE(outputs.empty());
  EXPECT_THAT(Message(outputs[0].status()), HasSubstr("70000 outputs"));
  ExpectNothingLost();
}

// --- Shapes ---

TEST_F(BadInputTest, ShapesWhoseElementCountOverflows) {
  const int64_t huge = int64_t{1} << 40;
  absl::StatusOr<Tensor> checked = Tensor::zeros_checked(DataType::kFloat, {huge, huge});
  EXPECT_FALSE(checked.ok());
  EXPECT_THAT(Message(checked.status()), HasSubstr("[1099511627776,1099511627776]"));
  const Tensor unchecked = Tensor::zeros(DataType::kFloat, {huge, huge});
  EXPECT_EQ(unchecked.dtype(), DataType::kUndefined);
  Var constant = graph_.constant(unchecked);
  EXPECT_THAT(Message(constant.status()), AllOf(HasSubstr("Constant"), HasSubstr("empty")));

  const int64_t peak = graph_.stats().peak_value_bytes;
  Var expanded = op::Expand(Floats({1}, {1}), Ints({huge, huge, huge}));
  EXPECT_FALSE(expanded.ok());
  EXPECT_THAT(Message(expanded.status()),
              AllOf(HasSubstr("Expand"), HasSubstr("too many elements")));
  Var filled = op::ConstantOfShape(Ints({huge, huge}));
  EXPECT_FALSE(filled.ok());
  EXPECT_THAT(Message(filled.status()),
              AllOf(HasSubstr("ConstantOfShape"), HasSubstr("too many elements")));
  EXPECT_EQ(graph_.stats().peak_value_bytes, peak);  // nothing was allocated
  ExpectNothingLost();
}

// Found by kernel_fuzzer (UBSan): an empty Reshape-5 inferred as [2,0,2^40,2^40]; its kernel
// multiplied the dims. An empty type whose dims multiply past int64 gets no value.
TEST_F(BadInputTest, AnEmptyTypeWhoseDimsMultiplyPastInt64) {
  const int64_t huge = int64_t{1} << 40;
  const Var empty = graph_.constant(Tensor::zeros(DataType::kFloat, {2, 0}));
  Var reshaped = make_node("Reshape", {empty, Ints({2, 0, huge, huge})}, {}, {.version = 5})[0];
  ASSERT_TRUE(reshaped.ok()) << reshaped.status();
  EXPECT_EQ(reshaped.shape(), std::make_optional(std::vector<int64_t>{2, 0, huge, huge}));
  EXPECT_FALSE(reshaped.value().has_value());
  ExpectNothingLost();
}

TEST_F(BadInputTest, TensorFactoriesGivenBadShapesReturnTheEmptyTensor) {
  EXPECT_EQ(Tensor::from_vector<float>({1, 2, 3}, {2, 2}).dtype(), DataType::kUndefined);
  EXPECT_EQ(Tensor::zeros(DataType::kFloat, {-3}).dtype(), DataType::kUndefined);
  const Tensor t = Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(t.reshaped({3}).dtype(), DataType::kUndefined);
  EXPECT_TRUE(t.data<double>().empty());  // the wrong element type reads nothing
  EXPECT_EQ(t.data<float>().size(), 4u);
  absl::StatusOr<Tensor> created = Tensor::create<float>({1, 2, 3}, {2, 2});
  EXPECT_THAT(Message(created.status()), HasSubstr("3 values given for shape [2,2]"));
}

TEST_F(BadInputTest, NegativeAndAbsurdDims) {
  Var argument = graph_.argument("bad", DataType::kFloat, {2, -5});
  EXPECT_THAT(Message(argument.status()), AllOf(HasSubstr("bad"), HasSubstr("-5")));
  Var reshaped = op::Reshape(c_, Ints({-2, 3}));
  EXPECT_THAT(Message(reshaped.status()), AllOf(HasSubstr("Reshape"), HasSubstr("-2")));
  // Found by kernel_fuzzer (UBSan): the product of the known target dims overflowed.
  Var overflowing = op::Reshape(c_, Ints({-1, 15, int64_t{6846034380963803489}}));
  EXPECT_THAT(Message(overflowing.status()), AllOf(HasSubstr("Reshape"), HasSubstr("too many")));
  Var filled = op::ConstantOfShape(Ints({2, -1}));
  EXPECT_THAT(Message(filled.status()), AllOf(HasSubstr("ConstantOfShape"), HasSubstr("-1")));
  const int64_t absurd = std::numeric_limits<int64_t>::max();
  Var expanded = op::Expand(Floats({1}, {1}), Ints({absurd, 2}));
  EXPECT_FALSE(expanded.ok());
  EXPECT_THAT(Message(expanded.status()), HasSubstr("Expand"));
  ExpectNothingLost();
}

TEST_F(BadInputTest, AnArgumentTypeNestedTooDeep) {
  VarType type = VarType::Tensor(DataType::kFloat, std::vector<int64_t>{1});
  for (int i = 0; i < 100; ++i) type = VarType::Sequence(type);
  Var argument = graph_.argument("nested", type);
  EXPECT_THAT(Message(argument.status()), AllOf(HasSubstr("nested"), HasSubstr("deeper than 64")));
  ExpectNothingLost();
}

// --- Attributes and axes ---

TEST_F(BadInputTest, AxesOutOfRange) {
  Var softmax = op::Softmax(c_, {.axis = 5});
  EXPECT_THAT(Message(softmax.status()), AllOf(HasSubstr("Softmax"), HasSubstr("5")));
  // Errors from ONNX's own inference name what it was given: the inputs' types and the attributes.
  Var concat = op::Concat({c_, c_}, {.axis = -3});
  EXPECT_THAT(
      Message(concat.status()),
      AllOf(HasSubstr("Concat"), HasSubstr("float[2,3], float[2,3]"), HasSubstr("axis=-3")));
  Var reduced = op::ReduceSum(c_, Ints({7}));
  EXPECT_THAT(Message(reduced.status()), AllOf(HasSubstr("ReduceSum"), HasSubstr("rank was 2")));
  Var gathered = op::Gather(c_, Ints({0}), {.axis = 2});
  EXPECT_THAT(Message(gathered.status()), AllOf(HasSubstr("Gather"), HasSubstr("axis=2")));
  Var index_past_end = op::Gather(c_, Ints({9}), {.axis = 0});
  EXPECT_THAT(Message(index_past_end.status()), AllOf(HasSubstr("Gather"), HasSubstr("9")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, NegativeRepeatsAndPads) {
  Var tiled = op::Tile(c_, Ints({-1, 1}));
  EXPECT_THAT(Message(tiled.status()), AllOf(HasSubstr("Tile"), HasSubstr("-1")));
  // Negative pads crop; cropping more than a dim holds is an error.
  Var padded = opset17::Pad(c_, Ints({0, -4, 0, 0}));  // Pad-18 has no kernel yet
  EXPECT_THAT(Message(padded.status()), HasSubstr("Pad"));
  ExpectNothingLost();
}

TEST_F(BadInputTest, AttributesOfTheWrongType) {
  std::vector<Var> softmax = make_node("Softmax", {c_}, {{"axis", std::string("last")}});
  EXPECT_THAT(Message(softmax[0].status()), AllOf(HasSubstr("Softmax"), HasSubstr("axis")));
  std::vector<Var> cast = make_node("Cast", {c_}, {{"to", 1.5f}});
  EXPECT_THAT(Message(cast[0].status()), AllOf(HasSubstr("Cast"), HasSubstr("to")));
  std::vector<Var> unknown = make_node("Relu", {c_}, {{"no_such_attribute", int64_t{1}}});
  EXPECT_THAT(Message(unknown[0].status()),
              AllOf(HasSubstr("Relu"), HasSubstr("no_such_attribute")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, ASubgraphIdGivenAsAnAttribute) {
  const Var cond = graph_.constant(Tensor::scalar<bool>(true));
  std::vector<Var> outputs =
      make_node("If", {cond}, {{"then_branch", SubgraphId(7)}, {"else_branch", SubgraphId(9)}});
  EXPECT_THAT(Message(outputs[0].status()), AllOf(HasSubstr("If"), HasSubstr("Subgraph")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, ABodyBuilderThatDestroysItsGraph) {
  auto doomed = std::make_unique<Graph>();
  const Var cond = doomed->constant(Tensor::scalar<bool>(true));
  const Var x = doomed->constant(Tensor::from_vector<float>({1, 2}));
  std::vector<Var> outputs = op::If(cond, {.else_branch = [&] { return std::vector<Var>{x}; },
                                           .then_branch =
                                               [&] {
                                                 doomed.reset();
                                                 return std::vector<Var>{x};
                                               }});
  ASSERT_FALSE(outputs.empty());
  EXPECT_FALSE(outputs[0].ok());
  EXPECT_FALSE(x.ok());
  ExpectNothingLost();
}

// Found by kernel_fuzzer (AddressSanitizer): has_kernel viewed a temporary string for the domain.
TEST_F(BadInputTest, HasKernelTakesTheSpelledOutOnnxDomain) {
  EXPECT_TRUE(has_kernel("Relu", {.domain = "ai.onnx"}));
  EXPECT_TRUE(has_kernel("Relu", {.domain = ""}));
  EXPECT_FALSE(has_kernel("Relu", {.domain = "com.nowhere"}));
}

// Found by api_fuzzer: an untyped output of an opaque node fed to an ONNX op threw out of ONNX.
TEST_F(BadInputTest, AnUntypedOpaqueOutputIntoAnOnnxOp) {
  OpaqueNodeOptions options;
  options.domain = "com.example";
  options.output_types.resize(1);  // untyped
  std::vector<Var> opaque = make_opaque_node(graph_, "Mystery", {x_}, {}, options);
  ASSERT_TRUE(opaque[0].ok()) << opaque[0].status();
  Var relu = op::Relu(opaque[0]);
  EXPECT_THAT(Message(relu.status()), AllOf(HasSubstr("Relu"), HasSubstr("undefined")));
  Var softmax = op::Softmax(opaque[0]);  // through ONNX's schema checks
  EXPECT_THAT(Message(softmax.status()), AllOf(HasSubstr("Softmax"), HasSubstr("no known type")));
  ExpectNothingLost();
}

// Found by the fuzzers: attributes ONNX 1.12's inference divides by or indexes with, unchecked
// (SIGFPE, SIGSEGV before CheckInferenceGuards).
TEST_F(BadInputTest, AttributesOnnxInferenceTakesOnTrust) {
  const Var image = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 4, 2, 2}));
  Var depth = op::DepthToSpace(image, {.blocksize = 0});
  EXPECT_THAT(Message(depth.status()), AllOf(HasSubstr("DepthToSpace"), HasSubstr("blocksize")));
  Var huge = op::DepthToSpace(image, {.blocksize = int64_t{1} << 54});  // its square wraps to 0
  EXPECT_THAT(Message(huge.status()), AllOf(HasSubstr("DepthToSpace"), HasSubstr("below 2^31")));
  Var space = op::SpaceToDepth(image, {.blocksize = 0});
  EXPECT_THAT(Message(space.status()), AllOf(HasSubstr("SpaceToDepth"), HasSubstr("blocksize")));
  const Var weight = graph_.constant(Tensor::zeros(DataType::kFloat, {4, 4, 1, 1}));
  Var conv = op::Conv(image, weight, Var(), {.group = 0});
  EXPECT_THAT(Message(conv.status()), AllOf(HasSubstr("Conv"), HasSubstr("group")));
  const Var data = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 0}));
  const Var indices = graph_.constant(Tensor::zeros(DataType::kInt64, {3, 3, 1, 1}));
  Var gathered = op::GatherND(data, indices, {.batch_dims = -2});
  EXPECT_THAT(Message(gathered.status()), AllOf(HasSubstr("GatherND"), HasSubstr("batch_dims")));
  Var past_rank = op::GatherND(data, indices, {.batch_dims = 2});
  EXPECT_THAT(Message(past_rank.status()), AllOf(HasSubstr("GatherND"), HasSubstr("rank 2")));
  // Found by kernel_fuzzer: ONNX's inference reads transB as an int, so 2^52 was off there and on
  // in the kernel, whose value then had another shape than the var's type.
  Var product = op::Gemm(c_, c_, Var(), {.transB = int64_t{1} << 52});
  EXPECT_THAT(Message(product.status()),
              AllOf(HasSubstr("Gemm"), HasSubstr("'transB'"), HasSubstr("within 32 bits")));
  // Found by api_fuzzer (SIGFPE in ONNX's inference): SplitToSequence into pieces of 0.
  Var pieces = op::SplitToSequence(c_, graph_.constant(Tensor::scalar<int64_t>(0)));
  EXPECT_THAT(Message(pieces.status()),
              AllOf(HasSubstr("SplitToSequence"), HasSubstr("split must be positive")));
  const Var lengths = graph_.constant(Tensor::from_vector<int64_t>({1, 1}));
  Var reversed = op::ReverseSequence(c_, lengths, {.batch_axis = 3});
  EXPECT_THAT(Message(reversed.status()),
              AllOf(HasSubstr("ReverseSequence"), HasSubstr("batch_axis")));
  // Found by api_fuzzer (SIGSEGV in ONNX 1.19's inference): OneHot of an empty depth.
  const Var hot_values = graph_.constant(Tensor::from_vector<float>({0, 1}));
  for (const Tensor& depth :
       {Tensor::zeros(DataType::kInt64, {0}), Tensor::zeros(DataType::kFloat, {1, 0}),
        Tensor::from_vector<int32_t>({3, 3})}) {
    Var hot = op::OneHot(lengths, graph_.constant(depth), hot_values);
    EXPECT_THAT(Message(hot.status()),
                AllOf(HasSubstr("OneHot"), HasSubstr("depth"), HasSubstr("exactly one")));
  }
  // ONNX 1.19's Attention inference divides the value's hidden size by kv_num_heads.
  const Var sequence = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 2, 4}));
  auto attention = op::Attention(sequence, sequence, sequence, Var(), Var(), Var(), Var(),
                                 {.kv_num_heads = 0, .q_num_heads = 2});
  EXPECT_THAT(Message(attention.Y.status()),
              AllOf(HasSubstr("Attention"), HasSubstr("'kv_num_heads' is 0")));
  // ONNX 1.19's Col2Im inference multiplies block_shape's entries unchecked.
  const Var columns = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 4, 1}));
  const Var image_shape = graph_.constant(Tensor::from_vector<int64_t>({2, 2}));
  for (std::vector<int64_t> block :
       {std::vector<int64_t>{0, 2}, {int64_t{1} << 40, 2}, {int64_t{1} << 20, int64_t{1} << 20}}) {
    Var image = op::Col2Im(columns, image_shape, graph_.constant(Tensor::from_vector(block)));
    EXPECT_THAT(Message(image.status()), AllOf(HasSubstr("Col2Im"), HasSubstr("block_shape")));
  }
  ExpectNothingLost();
}

// Found by the fuzzers: attributes ONNX's checker rejects made nodes that could not export, and a
// PRelu slope that does not broadcast to X got a value larger than X's type.
TEST_F(BadInputTest, AttributesEveryExportCanHoldAndOneWayBroadcasts) {
  std::vector<Var> empty_list = make_node("Transpose", {c_}, {{"perm", std::vector<int64_t>{}}});
  EXPECT_THAT(Message(empty_list[0].status()),
              AllOf(HasSubstr("Transpose"), HasSubstr("'perm' is an empty list")));
  std::vector<Var> unnamed = make_node("Relu", {c_}, {{"", int64_t{1}}});
  EXPECT_THAT(Message(unnamed[0].status()), AllOf(HasSubstr("Relu"), HasSubstr("no name")));
  const Var scalar = graph_.constant(Tensor::scalar<int32_t>(-1));
  const Var slope = graph_.constant(Tensor::from_vector<int32_t>({2, 3}));
  Var prelu = op::PRelu(scalar, slope);
  EXPECT_THAT(Message(prelu.status()), AllOf(HasSubstr("PRelu"), HasSubstr("does not broadcast")));
  ExpectNothingLost();
}

// Found by kernel_fuzzer (UBSan): LinearRegressor's rows times `targets` overflowed when X has
// no features (no coefficient bounds targets then).
TEST_F(BadInputTest, ALinearRegressorWithAbsurdTargets) {
  const Var x = graph_.constant(Tensor::zeros(DataType::kFloat, {3, 0}));
  Var y = make_node("LinearRegressor", {x}, {{"targets", int64_t{1} << 62}},
                    {.domain = "ai.onnx.ml"})[0];
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_FALSE(y.value().has_value());
  ExpectNothingLost();
}

// Found by kernel_fuzzer: ZipMap given labels of both types got a value of the other type.
TEST_F(BadInputTest, TwoClassLabelListsForOneOp) {
  std::vector<Var> zipped =
      make_node("ZipMap", {c_},
                {{"classlabels_int64s", std::vector<int64_t>{1, 2, 3}},
                 {"classlabels_strings", std::vector<std::string>{"a", "b", "c"}}},
                {.domain = "ai.onnx.ml"});
  EXPECT_THAT(Message(zipped[0].status()),
              AllOf(HasSubstr("ZipMap"), HasSubstr("only one of them")));
  ExpectNothingLost();
}

// Found by the fuzzers: ONNX 1.12's convolution and recurrent inference read dims unchecked.
TEST_F(BadInputTest, ConvolutionAndRecurrentInputsOfTheWrongRank) {
  const Var flat = graph_.constant(Tensor::zeros(DataType::kFloat, {0, 4}));
  const Var weight = graph_.constant(Tensor::zeros(DataType::kFloat, {0, 0, 0}));
  Var transposed = op::ConvTranspose(flat, weight);
  EXPECT_THAT(Message(transposed.status()),
              AllOf(HasSubstr("ConvTranspose"), HasSubstr("input 0 has rank 2")));
  const Var image = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 4}));
  Var conv = op::Conv(image, graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 1, 1})));
  EXPECT_THAT(Message(conv.status()), AllOf(HasSubstr("Conv"), HasSubstr("input 1 has rank 4")));
  // Found by kernel_fuzzer (SIGSEGV in ONNX's STFT inference): a scalar signal, a scalar window.
  const Var scalar = graph_.constant(Tensor::scalar<float>(1));
  const Var step = graph_.constant(Tensor::scalar<int64_t>(1));
  Var stft = op::STFT(scalar, step);
  EXPECT_THAT(Message(stft.status()), AllOf(HasSubstr("STFT"), HasSubstr("input 0 has rank 0")));
  const Var signal = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 8, 1}));
  Var windowed = op::STFT(signal, step, scalar);
  EXPECT_THAT(Message(windowed.status()),
              AllOf(HasSubstr("STFT"), HasSubstr("input 2 has rank 0")));
  Var rnn =
      make_node("RNN", {c_, weight, weight}, {{"hidden_size", int64_t{1}}}, {.version = 5})[0];
  EXPECT_THAT(Message(rnn.status()), AllOf(HasSubstr("RNN"), HasSubstr("input 0 has rank 2")));
  // Found by kernel_fuzzer in CI (SIGSEGV in ONNX's convPoolShapeInference): DeformConv's X
  // without spatial dims and a W with one, so the inference indexes empty dilations.
  const Var offset = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 2}));
  Var deformed =
      op::DeformConv(graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1})),
                     graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 1})), offset);
  EXPECT_THAT(Message(deformed.status()),
              AllOf(HasSubstr("DeformConv"), HasSubstr("input 0 has rank 2")));
  // ONNX's TreeEnsemble-5 inference reads leaf_weights' dim 0 unchecked: a scalar there.
  const auto ones = [](std::vector<int64_t> values) { return values; };
  Var forest = make_node("TreeEnsemble", {graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1}))},
                         {{"nodes_splits", Tensor::zeros(DataType::kFloat, {1})},
                          {"nodes_featureids", ones({0})},
                          {"nodes_modes", Tensor::zeros(DataType::kUint8, {1})},
                          {"nodes_truenodeids", ones({0})},
                          {"nodes_falsenodeids", ones({0})},
                          {"nodes_trueleafs", ones({1})},
                          {"nodes_falseleafs", ones({1})},
                          {"tree_roots", ones({0})},
                          {"leaf_targetids", ones({0})},
                          {"leaf_weights", Tensor::scalar<float>(1)}},
                         {.domain = "ai.onnx.ml", .version = 5})[0];
  EXPECT_THAT(Message(forest.status()),
              AllOf(HasSubstr("TreeEnsemble"), HasSubstr("leaf_weights")));
  // Found by kernel_fuzzer (SIGSEGV in ONNX's Gemm-6 inference): scalars for A and B.
  for (const int version : {6, 7, 9, 11, 13}) {
    Var gemm = make_node("Gemm", {scalar, scalar, scalar}, {}, {.version = version})[0];
    EXPECT_THAT(Message(gemm.status()), AllOf(HasSubstr("Gemm"), HasSubstr("rank")))
        << "opset " << version;
  }
  ExpectNothingLost();
}

// Found by reading ONNX 1.19.1's inference: reads past a list, loops and allocations sized by a
// dim, a division that traps. Each is an error naming the op, or a typed var; never a crash or
// hang.
TEST_F(BadInputTest, OnnxInferenceHazardsOfOpset18To24) {
  const Var rois = graph_.constant(Tensor::zeros(DataType::kFloat, {2, 5}));
  // MaxRoiPool reads pooled_shape[0] and [1] whatever X's rank.
  Var pooled =
      make_node("MaxRoiPool", {graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 8})), rois},
                {{"pooled_shape", std::vector<int64_t>{2}}}, {.version = 22})[0];
  EXPECT_THAT(Message(pooled.status()), AllOf(HasSubstr("MaxRoiPool"), HasSubstr("rank")));
  // MaxUnpool reads I's dim 1 with I's shape unknown.
  const Var unknown_indices = graph_.argument("indices", VarType::Tensor(DataType::kInt64));
  Var unpooled = make_node(
      "MaxUnpool", {graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 2})), unknown_indices},
      {{"kernel_shape", std::vector<int64_t>{2}}}, {.version = 22})[0];
  EXPECT_TRUE(unpooled.ok()) << unpooled.status();
  const Var flat_indices = graph_.constant(Tensor::zeros(DataType::kInt64, {2}));
  Var unpooled_flat = make_node(
      "MaxUnpool", {graph_.constant(Tensor::zeros(DataType::kFloat, {1, 1, 2})), flat_indices},
      {{"kernel_shape", std::vector<int64_t>{2}}}, {.version = 22})[0];
  EXPECT_THAT(Message(unpooled_flat.status()), AllOf(HasSubstr("MaxUnpool"), HasSubstr("rank")));
  // convPoolShapeInference counts a dim down by the stride, one step at a time.
  const Var long_signal = graph_.argument("long", DataType::kFloat, {1, 1, int64_t{1} << 40});
  Var maxpool = make_node("MaxPool", {long_signal},
                          {{"kernel_shape", std::vector<int64_t>{1}},
                           {"strides", std::vector<int64_t>{2}},
                           {"auto_pad", std::string("SAME_UPPER")}},
                          {.version = 22})[0];
  ASSERT_TRUE(maxpool.ok()) << maxpool.status();
  EXPECT_EQ(maxpool.shape()->at(2), -1);  // left to the value, as a dim past 2^24 is
  // getShapeInput adds one dim per entry of a shape input without a value.
  const Var long_shape = graph_.argument("shape", DataType::kInt64, {int64_t{3} << 30});
  Var reshaped = make_node("Reshape", {c_, long_shape}, {}, {.version = 24})[0];
  EXPECT_THAT(Message(reshaped.status()), AllOf(HasSubstr("Reshape"), HasSubstr("rank")));
  Var filled = make_node("ConstantOfShape", {long_shape}, {}, {.version = 24})[0];
  EXPECT_THAT(Message(filled.status()), AllOf(HasSubstr("ConstantOfShape"), HasSubstr("rank")));
  Var expanded = make_node("Expand", {c_, long_shape}, {}, {.version = 13})[0];
  EXPECT_THAT(Message(expanded.status()), AllOf(HasSubstr("Expand"), HasSubstr("rank")));
  Var columns = make_node(
      "Col2Im",
      {graph_.constant(Tensor::zeros(DataType::kFloat, {1, 4, 9})), long_shape, long_shape}, {},
      {.version = 18})[0];
  EXPECT_THAT(Message(columns.status()), AllOf(HasSubstr("Col2Im"), HasSubstr("rank")));
  // Reshape's product of the target's entries wraps (2^64 - 1); with data of 2^63 elements it
  // would trap.
  Var wrapped = make_node("Reshape", {c_, Ints({3, 5, 17, 257, 641, 65537, 6700417, -1})}, {},
                          {.version = 24})[0];
  EXPECT_THAT(Message(wrapped.status()), AllOf(HasSubstr("Reshape"), HasSubstr("past int64")));
  // Slice's data propagation steps an int by an int64 step: 2^32 never advances.
  const Var dims = op::Shape(x_);
  Var sliced = op::Slice(dims, Ints({0}), Ints({1}), Ints({0}), Ints({int64_t{1} << 32}));
  ASSERT_TRUE(sliced.ok()) << sliced.status();
  EXPECT_EQ(*sliced.value(), Tensor::from_vector<int64_t>({2}));
  ExpectNothingLost();
}

// Found by kernel_fuzzer in CI: ConvTranspose's output channels, W's dim 1 times a group near
// 2^62, overflowed int64 (UBSan). Geometry past 2^30 and empty tensors whose dims multiply past
// int64 get no value; the vars stay typed.
TEST_F(BadInputTest, ConvolutionGeometryPastInt64) {
  const Var image = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 4, 3}));
  const Var weight = graph_.constant(Tensor::zeros(DataType::kFloat, {4, 4, 2}));
  Var grouped = op::ConvTranspose(image, weight, Var(), {.group = int64_t{1} << 62});
  ASSERT_TRUE(grouped.ok()) << grouped.status();
  EXPECT_FALSE(grouped.value().has_value());
  Var dilated = op::Conv(image, weight, Var(), {.dilations = {{int64_t{1} << 61}}});
  ASSERT_TRUE(dilated.ok()) << dilated.status();
  EXPECT_FALSE(dilated.value().has_value());
  const int64_t huge = int64_t{1} << 40;
  const Var empty = graph_.constant(Tensor::zeros(DataType::kFloat, {0, huge, huge}));
  Var pooled = op::MaxPool(empty, {.kernel_shape = {{1}}}).Y;
  ASSERT_TRUE(pooled.ok()) << pooled.status();
  EXPECT_EQ(pooled.shape(), std::make_optional(std::vector<int64_t>{0, huge, huge}));
  EXPECT_FALSE(pooled.value().has_value());
  ExpectNothingLost();
}

// Found by kernel_fuzzer: a ConvTranspose over an image with an empty spatial axis walked its
// (no) patch lines dividing by that axis's extent of 0 (UBSan). The result is the zero output.
TEST_F(BadInputTest, ConvTransposeOfAnEmptyImage) {
  const Var image = graph_.constant(Tensor::zeros(DataType::kFloat, {3, 0, 0, 2}));
  const Var weight = graph_.constant(Tensor::zeros(DataType::kFloat, {0, 4, 4, 4}));
  Var transposed = op::ConvTranspose(image, weight);
  ASSERT_TRUE(transposed.ok()) << transposed.status();
  EXPECT_EQ(transposed.shape(), std::make_optional(std::vector<int64_t>{3, 4, 3, 5}));
  ASSERT_TRUE(transposed.value().has_value());
  const Tensor value = *transposed.value();
  for (float element : value.data<float>()) EXPECT_EQ(element, 0.0f);
  ExpectNothingLost();
}

// Found by the fuzzers: a DFT of length 0 planned a transform over nothing (UBSan), and
// LayerNormalization's function body gave a value of another shape than its type for 0 dims.
TEST_F(BadInputTest, ZeroLengthSignalsAndZeroSizedNormalization) {
  const Var signal = graph_.constant(Tensor::zeros(DataType::kFloat, {1, 0, 1}));
  Var dft = op::DFT(signal);
  EXPECT_TRUE(dft.ok()) << dft.status();
  const Var empty = graph_.constant(Tensor::zeros(DataType::kDouble, {0, 0, 3}));
  const Var one = graph_.constant(Tensor::scalar<double>(1));
  Var normalized = op::LayerNormalization(empty, one, one).Y;
  EXPECT_TRUE(normalized.ok()) << normalized.status();
  if (normalized.value().has_value()) {
    EXPECT_EQ(normalized.value()->shape(),
              absl::Span<const int64_t>(std::vector<int64_t>{0, 0, 3}));
  }
  ExpectNothingLost();
}

// Found by kernel_fuzzer (UBSan): a denormal range made the scale 0 and the zero point NaN.
TEST_F(BadInputTest, DynamicQuantizationOfADenormalRange) {
  const Var tiny = graph_.constant(Tensor::scalar<float>(1e-45f));
  auto quantized = op::DynamicQuantizeLinear(tiny);
  EXPECT_TRUE(quantized.y.ok()) << quantized.y.status();
  EXPECT_FALSE(quantized.y.value().has_value());
  ExpectNothingLost();
}

// Found by api_fuzzer: LayerNormalization's inference indexed X's dims with `axis` unchecked.
TEST_F(BadInputTest, LayerNormalizationAxisPastTheRank) {
  Var normalized = op::LayerNormalization(c_, c_, Var(), {.axis = 5}).Y;
  EXPECT_THAT(Message(normalized.status()),
              AllOf(HasSubstr("LayerNormalization"), HasSubstr("'axis' is 5")));
  Var negative = op::LayerNormalization(c_, c_, Var(), {.axis = -3}).Y;
  EXPECT_THAT(Message(negative.status()), HasSubstr("'axis' is -3"));
  Var fine = op::LayerNormalization(c_, c_, Var(), {.axis = -2}).Y;
  EXPECT_TRUE(fine.ok()) << fine.status();
  // Found by api_fuzzer (SIGSEGV in ONNX's inference): the default axis -1 of a scalar X.
  const Var scalar = graph_.constant(Tensor::scalar<float>(1));
  Var of_scalar = op::LayerNormalization(scalar, scalar).Y;
  EXPECT_THAT(Message(of_scalar.status()),
              AllOf(HasSubstr("LayerNormalization"), HasSubstr("'axis' is -1")));
  ExpectNothingLost();
}

// Found by api_fuzzer (ASan: bad free inside ONNX's einsumRankInference): malformed equations.
TEST_F(BadInputTest, MalformedEinsumEquations) {
  for (const char* equation : {"ij,jk->ik->i", "i.j->i", "ij,jk,kl->il", "ij->j!"}) {
    Var product = op::Einsum({c_, c_}, {.equation = equation});
    EXPECT_THAT(Message(product.status()), AllOf(HasSubstr("Einsum"), HasSubstr("equation")))
        << equation;
  }
  Var fine = op::Einsum({c_, c_}, {.equation = "ij,ij->i"});
  EXPECT_TRUE(fine.ok()) << fine.status();
  Var ellipsis = op::Einsum({c_}, {.equation = "...j->..."});
  EXPECT_TRUE(ellipsis.ok()) << ellipsis.status();
  // Found by api_fuzzer (the same bad free): an upper-case letter without an output term.
  Var implicit = op::Einsum({c_, c_}, {.equation = "iJ,iJ"});
  EXPECT_THAT(Message(implicit.status()),
              AllOf(HasSubstr("Einsum"), HasSubstr("upper-case 'J' without an output term")));
  ExpectNothingLost();
}

TEST_F(BadInputTest, UnknownOpsAndDomains) {
  std::vector<Var> op = make_node("NoSuchOp", {c_});
  EXPECT_THAT(Message(op[0].status()), HasSubstr("NoSuchOp"));
  std::vector<Var> domain = make_node("Relu", {c_}, {}, {.domain = "com.nowhere"});
  EXPECT_THAT(Message(domain[0].status()), HasSubstr("com.nowhere"));
  std::vector<Var> future = make_node("Relu", {c_}, {}, {.version = 99});
  EXPECT_THAT(Message(future[0].status()), AllOf(HasSubstr("Relu"), HasSubstr("99")));
  ExpectNothingLost();
}

// --- Handles ---

TEST_F(BadInputTest, HandlesFromADestroyedGraph) {
  Var orphan;
  {
    Graph other;
    orphan = other.constant(Tensor::scalar<float>(1));
  }
  EXPECT_FALSE(orphan.ok());
  EXPECT_FALSE(orphan.value().has_value());
  Var sum = op::Add(orphan, c_);
  EXPECT_THAT(Message(sum.status()), HasSubstr("Add"));
  Var alone = op::Relu(orphan);
  EXPECT_THAT(Message(alone.status()), HasSubstr("Relu"));
  EXPECT_FALSE(to_onnx(graph_, {{"o", orphan}}).ok());
  ExpectNothingLost();
}

TEST_F(BadInputTest, HandlesFromAnotherGraph) {
  Graph other;
  Var stranger = other.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  Var sum = op::Add(c_, stranger);
  EXPECT_THAT(Message(sum.status()), AllOf(HasSubstr("Add"), HasSubstr("another Graph")));
  absl::StatusOr<onnx::ModelProto> model = to_onnx(graph_, {{"s", stranger}});
  EXPECT_FALSE(model.ok());
  EXPECT_THAT(Message(model.status()), HasSubstr("another Graph"));
  ExpectNothingLost();
}

TEST_F(BadInputTest, FailedAndEmptyVarsAsInputs) {
  Var failed = op::Add(c_, graph_.constant(Tensor::from_vector<float>({1, 2, 3, 4}, {4})));
  ASSERT_FALSE(failed.ok());
  Var downstream = op::Relu(failed);
  EXPECT_THAT(Message(downstream.status()), HasSubstr("Add"));  // the cause is named
  Var empty;
  EXPECT_FALSE(empty.ok());
  Var with_empty = op::Add(c_, empty);
  EXPECT_THAT(Message(with_empty.status()), HasSubstr("Add"));
  EXPECT_FALSE(to_onnx(graph_, {{"f", downstream}}).ok());
  EXPECT_FALSE(to_onnx(graph_, {{"e", empty}}).ok());
  ExpectNothingLost();
}

// --- Malformed models ---

// A model with input a: float[2] and output out, to which a test adds its nodes.
onnx::ModelProto ModelWith() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("m");
  onnx::ValueInfoProto* input = graph->add_input();
  input->set_name("a");
  input->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  input->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  graph->add_output()->set_name("out");
  return model;
}

void AddNode(onnx::ModelProto& model, const std::string& op, std::vector<std::string> inputs,
             std::vector<std::string> outputs) {
  onnx::NodeProto* node = model.mutable_graph()->add_node();
  node->set_op_type(op);
  for (const std::string& input : inputs) node->add_input(input);
  for (const std::string& output : outputs) node->add_output(output);
}

class MalformedModelTest : public BadInputTest {
 protected:
  void ExpectRefused(const onnx::ModelProto& model, const std::string& expected) {
    absl::StatusOr<std::map<std::string, Var>> outputs =
        inline_model(graph_, model, {{"a", Floats({1, 2}, {2})}});
    EXPECT_FALSE(outputs.ok());
    EXPECT_THAT(Message(outputs.status()), HasSubstr(expected));
    ExpectNothingLost();
  }
};

TEST_F(MalformedModelTest, ACycle) {
  onnx::ModelProto model = ModelWith();
  AddNode(model, "Relu", {"b"}, {"c"});
  AddNode(model, "Relu", {"c"}, {"b"});
  AddNode(model, "Add", {"a", "b"}, {"out"});
  ExpectRefused(model, "cycle");
}

TEST_F(MalformedModelTest, ADanglingName) {
  onnx::ModelProto model = ModelWith();
  AddNode(model, "Add", {"a", "nowhere"}, {"out"});
  ExpectRefused(model, "nowhere");
}

TEST_F(MalformedModelTest, RawDataOfTheWrongLength) {
  onnx::ModelProto model = ModelWith();
  onnx::TensorProto* weight = model.mutable_graph()->add_initializer();
  weight->set_name("w");
  weight->set_data_type(onnx::TensorProto::FLOAT);
  weight->add_dims(2);
  weight->set_raw_data(std::string(7, '\0'));
  AddNode(model, "Add", {"a", "w"}, {"out"});
  ExpectRefused(model, "w");
}

TEST_F(MalformedModelTest, DuplicateNames) {
  onnx::ModelProto model = ModelWith();
  AddNode(model, "Relu", {"a"}, {"out"});
  AddNode(model, "Neg", {"a"}, {"out"});
  ExpectRefused(model, "out");
}

// Found by import_fuzzer: an unnamed output imported, then could not be exported.
TEST_F(MalformedModelTest, AnUnnamedOutput) {
  onnx::ModelProto model = ModelWith();
  model.mutable_graph()->mutable_output(0)->set_name("");
  AddNode(model, "Relu", {"a"}, {""});
  ExpectRefused(model, "an output has no name");
}

// Found by import_fuzzer: Slice-1 (attributes, one input) given opset 10's three inputs, one
// of them untyped (made by an op of an unknown domain), imported as an opaque node and then failed
// the checker on export.
TEST_F(MalformedModelTest, AnUntypedNodeWithMoreInputsThanItsVersionTakes) {
  onnx::ModelProto model = ModelWith();
  model.mutable_opset_import(0)->set_version(9);
  onnx::OperatorSetIdProto* custom = model.add_opset_import();
  custom->set_domain("com.example");
  custom->set_version(1);
  AddNode(model, "Mystery", {"a"}, {"untyped"});
  model.mutable_graph()->mutable_node(0)->set_domain("com.example");
  for (const char* name : {"starts", "ends"}) {
    onnx::TensorProto* bound = model.mutable_graph()->add_initializer();
    bound->set_name(name);
    bound->set_data_type(onnx::TensorProto::INT64);
    bound->add_dims(1);
    bound->add_int64_data(std::string(name) == "starts" ? 0 : 1);
  }
  AddNode(model, "Slice", {"untyped", "starts", "ends"}, {"out"});
  ExpectRefused(model, "input size 3");
}

// Found by import_fuzzer: a Conv in domain ai.onnx.training, which ONNX defines but graphgc does
// not know, became an opaque node, and the export failed ONNX's checker (which rejects every op
// of that domain in ONNX 1.12). An op ONNX defines in a domain graphgc does not know is checked
// against its schema too.
TEST_F(MalformedModelTest, AnOpInAnOnnxDomainWithoutThatOp) {
  onnx::ModelProto model = ModelWith();
  AddNode(model, "Conv", {"a"}, {"out"});
  model.mutable_graph()->mutable_node(0)->set_domain("ai.onnx.training");
  ExpectRefused(model, "ONNX defines no operator Conv in domain 'ai.onnx.training'");
  onnx::ModelProto gradient = ModelWith();
  AddNode(gradient, "Gradient", {"a"}, {"out"});  // no xs or y attributes: not what ONNX defines
  gradient.mutable_graph()->mutable_node(0)->set_domain("ai.onnx.preview.training");
  ExpectRefused(gradient, "Gradient");
}

TEST_F(MalformedModelTest, AnOpsetTooNew) {
  onnx::ModelProto model = ModelWith();
  model.mutable_opset_import(0)->set_version(99);
  AddNode(model, "Relu", {"a"}, {"out"});
  ExpectRefused(model, "99");
}

TEST_F(MalformedModelTest, NotAModelAtAll) {
  const onnx::ModelProto model;  // no graph, no opset import
  absl::StatusOr<std::map<std::string, Var>> outputs = inline_model(graph_, model);
  // A model without a graph has nothing to add: an empty result or a status, never a crash.
  if (outputs.ok()) {
    EXPECT_TRUE(outputs->empty());
  } else {
    EXPECT_THAT(Message(outputs.status()), HasSubstr("inline_model"));
  }
  ExpectNothingLost();
}

// --- Budgets and custom kernels ---

TEST(BadInputBudgetTest, ValuesPastTheLiveBudgetAreNotPropagated) {
  GraphOptions options;
  options.max_live_value_bytes = int64_t{1} << 20;
  Graph graph(options);
  Var big = graph.constant(Tensor::zeros(DataType::kFloat, {1 << 17}));  // 512 KiB, arena data
  Var first = op::Add(big, big);                                         // 512 KiB: fits
  ASSERT_TRUE(first.value().has_value());
  Var second = op::Mul(first, big);  // 512 KiB more: exactly at the budget
  Var third = op::Sub(second, big);  // would pass it with first and second alive
  EXPECT_TRUE(third.ok()) << third.status();
  EXPECT_FALSE(third.value().has_value());
  EXPECT_EQ(third.shape(), std::vector<int64_t>{1 << 17});
  EXPECT_GE(graph.stats().values_skipped_for_budget, 1);
  EXPECT_LE(graph.stats().peak_value_bytes, options.max_live_value_bytes);
  // Once first goes, the collector makes room and values flow again.
  first = Var();
  Var fourth = op::Sub(second, big);
  EXPECT_TRUE(fourth.value().has_value());
  EXPECT_LE(graph.stats().peak_value_bytes, options.max_live_value_bytes);
}

TEST(BadInputCustomKernelTest, AKernelReturningTheWrongShapeGivesNoValue) {
  CustomOp op;
  op.domain = "com.example.bad_input";
  op.op_type = "Liar";
  op.min_inputs = op.max_inputs = 1;
  op.infer = [](const CustomOpContext& context) -> absl::StatusOr<std::vector<TensorType>> {
    return std::vector<TensorType>{context.inputs[0]};
  };
  op.kernel = [](const CustomOpContext&) -> std::optional<std::vector<Tensor>> {
    return std::vector<Tensor>{Tensor::from_vector<float>({1, 2, 3})};  // not the input's shape
  };
  ASSERT_TRUE(register_op(op).ok());
  CustomOp thrower = op;
  thrower.op_type = "Thrower";
  thrower.kernel = [](const CustomOpContext&) -> std::optional<std::vector<Tensor>> {
    throw std::runtime_error("kernel bug");
  };
  thrower.infer = [](const CustomOpContext&) -> absl::StatusOr<std::vector<TensorType>> {
    throw std::runtime_error("inference bug");
  };
  ASSERT_TRUE(register_op(thrower).ok());

  Graph graph;
  Var x = graph.constant(Tensor::from_vector<float>({1, 2}, {2}));
  Var lie = make_node("Liar", {x}, {}, {.domain = "com.example.bad_input"})[0];
  ASSERT_TRUE(lie.ok()) << lie.status();
  EXPECT_EQ(lie.shape(), std::vector<int64_t>{2});
  EXPECT_FALSE(lie.value().has_value());
  Var thrown = make_node("Thrower", {x}, {}, {.domain = "com.example.bad_input"})[0];
  EXPECT_THAT(Message(thrown.status()), AllOf(HasSubstr("Thrower"), HasSubstr("inference bug")));
  EXPECT_TRUE(to_onnx(graph, {{"lie", lie}}).ok());
}

}  // namespace
}  // namespace graphgc
