#include "graphgc/opset/inference/native_inference.h"

#include "absl/container/flat_hash_map.h"

namespace graphgc::internal {
namespace {

thread_local bool native_disabled = false;

struct RuleEntry {
  absl::string_view op_type;
  int since_version;
  NativeInferenceFn infer;
};

// ai.onnx schemas only. The later versions of Shape (15), Unsqueeze and Squeeze (13), Conv (11)
// and Transpose (13), and Gather before 13, changed nothing but T's types, which InferWithSchema
// checks before. Gather 1 and 11 must not fall back to ONNX: their data propagation is 13's, which
// takes an index past int truncated.
constexpr RuleEntry kRules[] = {
    {"Shape", 15, InferShape15},
    {"Shape", 19, InferShape15},
    {"Shape", 21, InferShape15},
    {"Shape", 23, InferShape15},
    {"Shape", 24, InferShape15},
    {"Gather", 1, InferGather13},
    {"Gather", 11, InferGather13},
    {"Gather", 13, InferGather13},
    {"Concat", 13, InferConcat13},
    {"Cast", 13, InferCast13},
    {"Cast", 19, InferCast13},
    {"Cast", 21, InferCast13},
    {"Cast", 23, InferCast13},
    {"Cast", 24, InferCast13},
    {"Expand", 13, InferExpand13},
    {"Slice", 13, InferSlice13},
    {"Split", 13, InferSplit13},
    {"Split", 18, InferSplit18},
    {"Unsqueeze", 13, InferUnsqueeze13},
    {"Unsqueeze", 21, InferUnsqueeze13},
    {"Unsqueeze", 23, InferUnsqueeze13},
    {"Unsqueeze", 24, InferUnsqueeze13},
    {"Squeeze", 13, InferSqueeze13},
    {"Squeeze", 21, InferSqueeze13},
    {"Squeeze", 23, InferSqueeze13},
    {"Squeeze", 24, InferSqueeze13},
    {"Conv", 11, InferConv11},
    {"Conv", 22, InferConv11},
    {"MaxPool", 12, InferPool19},
    {"MaxPool", 22, InferPool22},
    {"AveragePool", 22, InferPool22},
    {"Transpose", 13, InferTranspose13},
    {"Transpose", 21, InferTranspose13},
    {"Transpose", 23, InferTranspose13},
    {"Transpose", 24, InferTranspose13},
    {"Softmax", 13, InferSoftmax13},
    {"LogSoftmax", 13, InferLogSoftmax13},
    {"Hardmax", 13, InferHardmax13},
    {"Where", 16, InferWhere16},
    {"BatchNormalization", 15, InferBatchNormalization15},
    {"LayerNormalization", 17, InferLayerNormalization17},
    {"Gemm", 13, InferGemm13},
    {"GlobalAveragePool", 1, InferGlobalPool},
    {"GlobalAveragePool", 22, InferGlobalPool},
    {"GlobalMaxPool", 1, InferGlobalPool},
    {"GlobalMaxPool", 22, InferGlobalPool},
    {"Flatten", 11, InferFlatten11},
    {"Flatten", 13, InferFlatten11},
    {"Flatten", 21, InferFlatten11},
    {"Flatten", 23, InferFlatten11},
    {"Flatten", 24, InferFlatten11},
    // The schemas whose ONNX rule is propagateShapeAndTypeFromFirstInput, one output each: input
    // 0's element type and shape (InferLikeFirstInput). The unary float math ops (Exp, Tanh, Erf,
    // the trigonometric ones) share it through one generator of ONNX's.
    {"Abs", 6, InferLikeFirstInput},
    {"Abs", 13, InferLikeFirstInput},
    {"Acos", 7, InferLikeFirstInput},
    {"Acos", 22, InferLikeFirstInput},
    {"Acosh", 9, InferLikeFirstInput},
    {"Acosh", 22, InferLikeFirstInput},
    {"Asin", 7, InferLikeFirstInput},
    {"Asin", 22, InferLikeFirstInput},
    {"Asinh", 9, InferLikeFirstInput},
    {"Asinh", 22, InferLikeFirstInput},
    {"Atan", 7, InferLikeFirstInput},
    {"Atan", 22, InferLikeFirstInput},
    {"Atanh", 9, InferLikeFirstInput},
    {"Atanh", 22, InferLikeFirstInput},
    {"BitwiseNot", 18, InferLikeFirstInput},
    {"Ceil", 6, InferLikeFirstInput},
    {"Ceil", 13, InferLikeFirstInput},
    {"Celu", 12, InferLikeFirstInput},
    {"Clip", 6, InferLikeFirstInput},
    {"Clip", 11, InferLikeFirstInput},
    {"Clip", 12, InferLikeFirstInput},
    {"Clip", 13, InferLikeFirstInput},
    {"Cos", 7, InferLikeFirstInput},
    {"Cos", 22, InferLikeFirstInput},
    {"Cosh", 9, InferLikeFirstInput},
    {"Cosh", 22, InferLikeFirstInput},
    {"CumSum", 11, InferLikeFirstInput},
    {"CumSum", 14, InferLikeFirstInput},
    {"Elu", 6, InferLikeFirstInput},
    {"Elu", 22, InferLikeFirstInput},
    {"Erf", 9, InferLikeFirstInput},
    {"Erf", 13, InferLikeFirstInput},
    {"Exp", 6, InferLikeFirstInput},
    {"Exp", 13, InferLikeFirstInput},
    {"Floor", 6, InferLikeFirstInput},
    {"Floor", 13, InferLikeFirstInput},
    {"Gelu", 20, InferLikeFirstInput},
    {"HardSigmoid", 6, InferLikeFirstInput},
    {"HardSigmoid", 22, InferLikeFirstInput},
    {"HardSwish", 14, InferLikeFirstInput},
    {"HardSwish", 22, InferLikeFirstInput},
    {"LRN", 1, InferLikeFirstInput},
    {"LRN", 13, InferLikeFirstInput},
    {"LeakyRelu", 6, InferLikeFirstInput},
    {"LeakyRelu", 16, InferLikeFirstInput},
    {"Log", 6, InferLikeFirstInput},
    {"Log", 13, InferLikeFirstInput},
    {"Mish", 18, InferLikeFirstInput},
    {"Mish", 22, InferLikeFirstInput},
    {"Neg", 6, InferLikeFirstInput},
    {"Neg", 13, InferLikeFirstInput},
    {"PRelu", 6, InferLikeFirstInput},
    {"PRelu", 7, InferLikeFirstInput},
    {"PRelu", 9, InferLikeFirstInput},
    {"PRelu", 16, InferLikeFirstInput},
    {"Reciprocal", 6, InferLikeFirstInput},
    {"Reciprocal", 13, InferLikeFirstInput},
    {"Relu", 6, InferLikeFirstInput},
    {"Relu", 13, InferLikeFirstInput},
    {"Relu", 14, InferLikeFirstInput},
    {"Round", 11, InferLikeFirstInput},
    {"Round", 22, InferLikeFirstInput},
    {"Selu", 6, InferLikeFirstInput},
    {"Selu", 22, InferLikeFirstInput},
    {"Shrink", 9, InferLikeFirstInput},
    {"Sigmoid", 6, InferLikeFirstInput},
    {"Sigmoid", 13, InferLikeFirstInput},
    {"Sign", 9, InferLikeFirstInput},
    {"Sign", 13, InferLikeFirstInput},
    {"Sin", 7, InferLikeFirstInput},
    {"Sin", 22, InferLikeFirstInput},
    {"Sinh", 9, InferLikeFirstInput},
    {"Sinh", 22, InferLikeFirstInput},
    {"Softplus", 1, InferLikeFirstInput},
    {"Softplus", 22, InferLikeFirstInput},
    {"Softsign", 1, InferLikeFirstInput},
    {"Softsign", 22, InferLikeFirstInput},
    {"Sqrt", 6, InferLikeFirstInput},
    {"Sqrt", 13, InferLikeFirstInput},
    {"Swish", 24, InferLikeFirstInput},
    {"Tan", 7, InferLikeFirstInput},
    {"Tan", 22, InferLikeFirstInput},
    {"Tanh", 6, InferLikeFirstInput},
    {"Tanh", 13, InferLikeFirstInput},
    {"ThresholdedRelu", 10, InferLikeFirstInput},
    {"ThresholdedRelu", 22, InferLikeFirstInput},
    // The binary ops whose ONNX rule is bidirectionalBroadcastShapeInference of the two inputs,
    // typed as input 0 (InferBroadcastLikeFirstInput) or bool (InferBroadcastToBool). Not Add, Sub
    // and Mul 14, whose schemas also propagate shape data (they are native ops, native_ops.h), and
    // not LessOrEqual and GreaterOrEqual, whose ONNX 1.19 inference differs
    // (test_greater_equal_bcast: int64 [3] against [5] is a bool of unknown shape there, not an
    // error).
    {"Add", 7, InferBroadcastLikeFirstInput},
    {"Add", 13, InferBroadcastLikeFirstInput},
    {"BitShift", 11, InferBroadcastLikeFirstInput},
    {"BitwiseAnd", 18, InferBroadcastLikeFirstInput},
    {"BitwiseOr", 18, InferBroadcastLikeFirstInput},
    {"BitwiseXor", 18, InferBroadcastLikeFirstInput},
    {"Div", 7, InferBroadcastLikeFirstInput},
    {"Div", 13, InferBroadcastLikeFirstInput},
    {"Div", 14, InferBroadcastLikeFirstInput},
    {"Mod", 10, InferBroadcastLikeFirstInput},
    {"Mod", 13, InferBroadcastLikeFirstInput},
    {"Mul", 7, InferBroadcastLikeFirstInput},
    {"Mul", 13, InferBroadcastLikeFirstInput},
    {"Pow", 7, InferBroadcastLikeFirstInput},
    {"Pow", 12, InferBroadcastLikeFirstInput},
    {"Pow", 13, InferBroadcastLikeFirstInput},
    {"Pow", 15, InferBroadcastLikeFirstInput},
    {"Sub", 7, InferBroadcastLikeFirstInput},
    {"Sub", 13, InferBroadcastLikeFirstInput},
    {"And", 7, InferBroadcastToBool},
    {"Equal", 7, InferBroadcastToBool},
    {"Equal", 11, InferBroadcastToBool},
    {"Equal", 13, InferBroadcastToBool},
    {"Equal", 19, InferBroadcastToBool},
    {"Greater", 7, InferBroadcastToBool},
    {"Greater", 9, InferBroadcastToBool},
    {"Greater", 13, InferBroadcastToBool},
    {"Less", 7, InferBroadcastToBool},
    {"Less", 9, InferBroadcastToBool},
    {"Less", 13, InferBroadcastToBool},
    {"Or", 7, InferBroadcastToBool},
    {"Xor", 7, InferBroadcastToBool},
    // The reductions of ONNX's ReduceOpGenerator (InferReduce13): axes as an attribute at 13 (but
    // ReduceSum), as an input from 18 (ReduceSum: 13).
    {"ReduceL1", 13, InferReduce13},
    {"ReduceL1", 18, InferReduce13},
    {"ReduceL2", 13, InferReduce13},
    {"ReduceL2", 18, InferReduce13},
    {"ReduceLogSum", 13, InferReduce13},
    {"ReduceLogSum", 18, InferReduce13},
    {"ReduceLogSumExp", 13, InferReduce13},
    {"ReduceLogSumExp", 18, InferReduce13},
    {"ReduceMax", 13, InferReduce13},
    {"ReduceMax", 18, InferReduce13},
    {"ReduceMax", 20, InferReduce13},
    {"ReduceMean", 13, InferReduce13},
    {"ReduceMean", 18, InferReduce13},
    {"ReduceMin", 13, InferReduce13},
    {"ReduceMin", 18, InferReduce13},
    {"ReduceMin", 20, InferReduce13},
    {"ReduceProd", 13, InferReduce13},
    {"ReduceProd", 18, InferReduce13},
    {"ReduceSum", 13, InferReduce13},
    {"ReduceSumSquare", 13, InferReduce13},
    {"ReduceSumSquare", 18, InferReduce13},
};

struct BodyRuleEntry {
  absl::string_view op_type;
  int since_version;
  NativeBodyRule* infer;
};

// If 16 to 24 run IfInferenceFunction; If 1, 11 and 13 their own older functions.
constexpr BodyRuleEntry kBodyRules[] = {
    {"If", 16, InferIf16}, {"If", 19, InferIf16}, {"If", 21, InferIf16},
    {"If", 23, InferIf16}, {"If", 24, InferIf16},
};

NativeInferenceFn ScanRules(const onnx::OpSchema& schema) {
  if (!schema.domain().empty()) return nullptr;
  const absl::string_view name = schema.Name();
  for (const RuleEntry& rule : kRules) {
    if (rule.op_type == name && rule.since_version == schema.since_version()) return rule.infer;
  }
  return nullptr;
}

}  // namespace

std::vector<std::pair<absl::string_view, int>> NativeRuleSchemas() {
  std::vector<std::pair<absl::string_view, int>> schemas;
  for (const RuleEntry& rule : kRules) schemas.emplace_back(rule.op_type, rule.since_version);
  for (const BodyRuleEntry& rule : kBodyRules) {
    schemas.emplace_back(rule.op_type, rule.since_version);
  }
  return schemas;
}

NativeBodyRule* FindNativeBodyInference(const onnx::OpSchema& schema) {
  if (native_disabled || !schema.domain().empty()) return nullptr;
  for (const BodyRuleEntry& rule : kBodyRules) {
    if (rule.op_type == schema.Name() && rule.since_version == schema.since_version()) {
      return rule.infer;
    }
  }
  return nullptr;
}

NativeInferenceFn FindNativeInference(const onnx::OpSchema& schema) {
  if (native_disabled) return nullptr;
  // Schemas live as long as the process, so their addresses key the answer (per thread, no lock).
  thread_local absl::flat_hash_map<const onnx::OpSchema*, NativeInferenceFn> found;
  auto [it, inserted] = found.try_emplace(&schema, nullptr);
  if (inserted) it->second = ScanRules(schema);
  return it->second;
}

ScopedSchemaInferenceOnly::ScopedSchemaInferenceOnly() : was_disabled_(native_disabled) {
  native_disabled = true;
}

ScopedSchemaInferenceOnly::~ScopedSchemaInferenceOnly() { native_disabled = was_disabled_; }

}  // namespace graphgc::internal
