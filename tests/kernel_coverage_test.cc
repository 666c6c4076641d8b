// Every deterministic ai.onnx operator of the tensor-math opset computes values: it has a kernel
// (or a function body whose ops have kernels) at opset 17. The list is the kernel-registry
// issue's; the neural-network, control-flow and signal operators come with their own families.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace {

const std::vector<std::string>& TensorMathOps() {
  static const std::vector<std::string> ops = {"Abs",
                                               "Acos",
                                               "Acosh",
                                               "Add",
                                               "And",
                                               "ArgMax",
                                               "ArgMin",
                                               "Asin",
                                               "Asinh",
                                               "Atan",
                                               "Atanh",
                                               "BitShift",
                                               "Cast",
                                               "CastLike",
                                               "Ceil",
                                               "Celu",
                                               "Clip",
                                               "Compress",
                                               "Concat",
                                               "Constant",
                                               "ConstantOfShape",
                                               "Cos",
                                               "Cosh",
                                               "CumSum",
                                               "DepthToSpace",
                                               "DequantizeLinear",
                                               "Det",
                                               "Div",
                                               "Dropout",
                                               "DynamicQuantizeLinear",
                                               "Einsum",
                                               "Elu",
                                               "Equal",
                                               "Erf",
                                               "Exp",
                                               "Expand",
                                               "EyeLike",
                                               "Flatten",
                                               "Floor",
                                               "Gather",
                                               "GatherElements",
                                               "GatherND",
                                               "Gemm",
                                               "Greater",
                                               "GreaterOrEqual",
                                               "HardSigmoid",
                                               "HardSwish",
                                               "Hardmax",
                                               "Identity",
                                               "IsInf",
                                               "IsNaN",
                                               "LeakyRelu",
                                               "Less",
                                               "LessOrEqual",
                                               "Log",
                                               "LogSoftmax",
                                               "LpNormalization",
                                               "MatMul",
                                               "MatMulInteger",
                                               "Max",
                                               "Mean",
                                               "Min",
                                               "Mod",
                                               "Mul",
                                               "Neg",
                                               "NegativeLogLikelihoodLoss",
                                               "NonZero",
                                               "Not",
                                               "OneHot",
                                               "Or",
                                               "PRelu",
                                               "Pad",
                                               "Pow",
                                               "QLinearMatMul",
                                               "QuantizeLinear",
                                               "Range",
                                               "Reciprocal",
                                               "ReduceL1",
                                               "ReduceL2",
                                               "ReduceLogSum",
                                               "ReduceLogSumExp",
                                               "ReduceMax",
                                               "ReduceMean",
                                               "ReduceMin",
                                               "ReduceProd",
                                               "ReduceSum",
                                               "ReduceSumSquare",
                                               "Relu",
                                               "Reshape",
                                               "ReverseSequence",
                                               "Round",
                                               "ScatterElements",
                                               "ScatterND",
                                               "Selu",
                                               "Shape",
                                               "Shrink",
                                               "Sigmoid",
                                               "Sign",
                                               "Sin",
                                               "Sinh",
                                               "Size",
                                               "Slice",
                                               "Softmax",
                                               "SoftmaxCrossEntropyLoss",
                                               "Softplus",
                                               "Softsign",
                                               "SpaceToDepth",
                                               "Split",
                                               "Sqrt",
                                               "Squeeze",
                                               "StringNormalizer",
                                               "Sub",
                                               "Sum",
                                               "Tan",
                                               "Tanh",
                                               "TfIdfVectorizer",
                                               "ThresholdedRelu",
                                               "Tile",
                                               "TopK",
                                               "Transpose",
                                               "Trilu",
                                               "Unique",
                                               "Unsqueeze",
                                               "Where",
                                               "Xor"};
  return ops;
}

TEST(KernelCoverageTest, EveryTensorMathOpComputesValues) {
  // At opset 17: the opsets after it change some of these ops beyond their types (Pad-18 takes
  // axes), versions kernel_versions_test keeps without a kernel until one is written.
  for (const std::string& op : TensorMathOps()) {
    EXPECT_TRUE(graphgc::has_kernel(op, {.version = 17})) << op;
  }
}

TEST(KernelCoverageTest, RandomOpsNeverPropagate) {
  for (const char* op :
       {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial"}) {
    EXPECT_FALSE(graphgc::has_kernel(op)) << op;
  }
  graphgc::Graph g;
  const graphgc::Var x = g.constant(graphgc::Tensor::from_vector<float>({0.5f, 0.25f}, {2}));
  const std::vector<graphgc::Var> bernoulli = graphgc::make_node("Bernoulli", {x});
  ASSERT_TRUE(bernoulli[0].ok()) << bernoulli[0].status();
  EXPECT_FALSE(bernoulli[0].value().has_value());
  const graphgc::Var ratio = g.constant(graphgc::Tensor::scalar<float>(0.5f));
  const graphgc::Var training = g.constant(graphgc::Tensor::scalar<bool>(true));
  const std::vector<graphgc::Var> dropout = graphgc::make_node("Dropout", {x, ratio, training});
  ASSERT_TRUE(dropout[0].ok()) << dropout[0].status();
  EXPECT_FALSE(dropout[0].value().has_value());
}

}  // namespace
