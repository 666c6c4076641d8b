#include "graphgc/opset/inference/native_inference.h"

#include "absl/container/flat_hash_map.h"

namespace graphgc::internal {
namespace {

thread_local bool native_disabled = false;

struct NativeRule {
  absl::string_view op_type;
  int since_version;
  NativeInferenceFn infer;
};

// ai.onnx schemas only. The later versions of Shape (15), Unsqueeze and Squeeze (13), Conv (11)
// and Transpose (13) changed nothing but T's types, which InferWithSchema checks before.
constexpr NativeRule kRules[] = {
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
};

}  // namespace

namespace {
NativeInferenceFn ScanRules(const onnx::OpSchema& schema) {
  if (!schema.domain().empty()) return nullptr;
  const absl::string_view name = schema.Name();
  for (const NativeRule& rule : kRules) {
    if (rule.op_type == name && rule.since_version == schema.since_version()) return rule.infer;
  }
  return nullptr;
}
}  // namespace

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
