// Opset conversion: a model's ai.onnx nodes brought to another opset with ONNX's own version
// converter (onnx::version_conversion::ConvertVersion), so that an imported model older than
// opset 17 mixes with ops made today (a model declares one opset per domain).
//
// The converter cannot convert every model: some adapters need input shapes the model does not
// give, a node of another domain or a call of a model-local function stops it, and it does not
// go down where no adapter does. Such a model is kept as it is, with a warning saying why; the
// caller decides whether that is an error. A model ONNX's checker refuses is not handed to the
// converter (it is written for valid models); one whose tensors are in external data is, unchecked
// (the checker would look for the files relative to the current folder).
// What the converter drops and the model needs is put back: model-local functions, and the
// sequence and optional types of graph inputs, outputs and value_info.
// Internal to the export module; thread-safe (no shared state).
#ifndef GRAPHGC_OPSET_CONVERSION_H_
#define GRAPHGC_OPSET_CONVERSION_H_

#include <cstdint>
#include <optional>
#include <string>

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

struct OpsetConversion {
  // The converted model; nullopt when the model is kept as it is (no ai.onnx import, already at
  // the target, or not convertible).
  std::optional<onnx::ModelProto> model;
  // Why a model that needed converting was kept as it is; empty otherwise.
  std::string warning;
};

// The ai.onnx opset `model` imports ("" or "ai.onnx"); 0 if none.
int64_t OnnxOpsetOf(const onnx::ModelProto& model);

// `model` converted to ai.onnx opset `target` (1 to 17).
OpsetConversion ConvertOnnxOpset(const onnx::ModelProto& model, int target);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_CONVERSION_H_
