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
// and Transpose (13) changed nothing but T's types, which InferWithSchema checks before.
constexpr RuleEntry kRules[] = {
    {"Shape", 15, InferShape15},
    {"Shape", 19, InferShape15},
    {"Shape", 21, InferShape15},
    {"Shape", 23, InferShape15},
    {"Shape", 24, InferShape15},
    {"Gather", 13, InferGather13},
    {"Concat", 13, InferConcat13},
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
};

struct SchemaVersion {
  absl::string_view op_type;
  int since_version;
};

// The schemas whose ONNX rule is propagateShapeAndTypeFromFirstInput, one output each: input 0's
// element type and shape (InferLikeFirstInput). The unary float math ops (Exp, Tanh, Erf, the
// trigonometric ones) share it through one generator of ONNX's.
constexpr SchemaVersion kLikeFirstInput[] = {
    {"Abs", 6},
    {"Abs", 13},
    {"Acos", 7},
    {"Acos", 22},
    {"Acosh", 9},
    {"Acosh", 22},
    {"Asin", 7},
    {"Asin", 22},
    {"Asinh", 9},
    {"Asinh", 22},
    {"Atan", 7},
    {"Atan", 22},
    {"Atanh", 9},
    {"Atanh", 22},
    {"BitwiseNot", 18},
    {"Ceil", 6},
    {"Ceil", 13},
    {"Celu", 12},
    {"Clip", 6},
    {"Clip", 11},
    {"Clip", 12},
    {"Clip", 13},
    {"Cos", 7},
    {"Cos", 22},
    {"Cosh", 9},
    {"Cosh", 22},
    {"CumSum", 11},
    {"CumSum", 14},
    {"Elu", 6},
    {"Elu", 22},
    {"Erf", 9},
    {"Erf", 13},
    {"Exp", 6},
    {"Exp", 13},
    {"Floor", 6},
    {"Floor", 13},
    {"Gelu", 20},
    {"HardSigmoid", 6},
    {"HardSigmoid", 22},
    {"HardSwish", 14},
    {"HardSwish", 22},
    {"LRN", 1},
    {"LRN", 13},
    {"LeakyRelu", 6},
    {"LeakyRelu", 16},
    {"Log", 6},
    {"Log", 13},
    {"Mish", 18},
    {"Mish", 22},
    {"Neg", 6},
    {"Neg", 13},
    {"PRelu", 6},
    {"PRelu", 7},
    {"PRelu", 9},
    {"PRelu", 16},
    {"Reciprocal", 6},
    {"Reciprocal", 13},
    {"Relu", 6},
    {"Relu", 13},
    {"Relu", 14},
    {"Round", 11},
    {"Round", 22},
    {"Selu", 6},
    {"Selu", 22},
    {"Shrink", 9},
    {"Sigmoid", 6},
    {"Sigmoid", 13},
    {"Sign", 9},
    {"Sign", 13},
    {"Sin", 7},
    {"Sin", 22},
    {"Sinh", 9},
    {"Sinh", 22},
    {"Softplus", 1},
    {"Softplus", 22},
    {"Softsign", 1},
    {"Softsign", 22},
    {"Sqrt", 6},
    {"Sqrt", 13},
    {"Swish", 24},
    {"Tan", 7},
    {"Tan", 22},
    {"Tanh", 6},
    {"Tanh", 13},
    {"ThresholdedRelu", 10},
    {"ThresholdedRelu", 22},
};

// The binary ops whose ONNX rule is bidirectionalBroadcastShapeInference of the two inputs, typed
// as input 0 (InferBroadcastLikeFirstInput) or bool (InferBroadcastToBool). Not Add, Sub and Mul
// 14, whose schemas also propagate shape data (they are native ops, native_ops.h), and not
// LessOrEqual and GreaterOrEqual, whose ONNX 1.19 inference differs (test_greater_equal_bcast:
// int64 [3] against [5] is a bool of unknown shape there, not an error).
constexpr SchemaVersion kBroadcastLikeFirstInput[] = {
    {"Add", 7},         {"Add", 13}, {"BitShift", 11}, {"BitwiseAnd", 18}, {"BitwiseOr", 18},
    {"BitwiseXor", 18}, {"Div", 7},  {"Div", 13},      {"Div", 14},        {"Mod", 10},
    {"Mod", 13},        {"Mul", 7},  {"Mul", 13},      {"Pow", 7},         {"Pow", 12},
    {"Pow", 13},        {"Pow", 15}, {"Sub", 7},       {"Sub", 13},
};
constexpr SchemaVersion kBroadcastToBool[] = {
    {"And", 7},     {"Equal", 7},   {"Equal", 11},   {"Equal", 13}, {"Equal", 19},
    {"Greater", 7}, {"Greater", 9}, {"Greater", 13}, {"Less", 7},   {"Less", 9},
    {"Less", 13},   {"Or", 7},      {"Xor", 7},
};

// The reductions of ONNX's ReduceOpGenerator (InferReduce13): axes as an attribute at 13 (but
// ReduceSum), as an input from 18 (ReduceSum: 13).
constexpr SchemaVersion kReductions[] = {
    {"ReduceL1", 13},        {"ReduceL1", 18},     {"ReduceL2", 13},        {"ReduceL2", 18},
    {"ReduceLogSum", 13},    {"ReduceLogSum", 18}, {"ReduceLogSumExp", 13}, {"ReduceLogSumExp", 18},
    {"ReduceMax", 13},       {"ReduceMax", 18},    {"ReduceMax", 20},       {"ReduceMean", 13},
    {"ReduceMean", 18},      {"ReduceMin", 13},    {"ReduceMin", 18},       {"ReduceMin", 20},
    {"ReduceProd", 13},      {"ReduceProd", 18},   {"ReduceSum", 13},       {"ReduceSumSquare", 13},
    {"ReduceSumSquare", 18},
};

bool Lists(absl::Span<const SchemaVersion> table, absl::string_view name, int since_version) {
  for (const SchemaVersion& entry : table) {
    if (entry.op_type == name && entry.since_version == since_version) return true;
  }
  return false;
}

NativeInferenceFn ScanRules(const onnx::OpSchema& schema) {
  if (!schema.domain().empty()) return nullptr;
  const absl::string_view name = schema.Name();
  for (const RuleEntry& rule : kRules) {
    if (rule.op_type == name && rule.since_version == schema.since_version()) return rule.infer;
  }
  const int version = schema.since_version();
  if (Lists(kLikeFirstInput, name, version)) return InferLikeFirstInput;
  if (Lists(kBroadcastLikeFirstInput, name, version)) return InferBroadcastLikeFirstInput;
  if (Lists(kBroadcastToBool, name, version)) return InferBroadcastToBool;
  if (Lists(kReductions, name, version)) return InferReduce13;
  return nullptr;
}

}  // namespace

std::vector<std::pair<absl::string_view, int>> NativeRuleSchemas() {
  std::vector<std::pair<absl::string_view, int>> schemas;
  for (const RuleEntry& rule : kRules) schemas.emplace_back(rule.op_type, rule.since_version);
  for (absl::Span<const SchemaVersion> table :
       {absl::Span<const SchemaVersion>(kLikeFirstInput),
        absl::Span<const SchemaVersion>(kBroadcastLikeFirstInput),
        absl::Span<const SchemaVersion>(kBroadcastToBool),
        absl::Span<const SchemaVersion>(kReductions)}) {
    for (const SchemaVersion& entry : table)
      schemas.emplace_back(entry.op_type, entry.since_version);
  }
  return schemas;
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
