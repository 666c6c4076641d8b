// Opset conversion: a model's ai.onnx nodes brought to another opset with ONNX's own version
// converter (onnx::version_conversion::ConvertVersion), so that an imported model older than
// opset 17 mixes with ops made today (a model declares one opset per domain).
//
// The converter cannot convert every model: some adapters need input shapes the model does not
// give, a node of another domain or a call of a model-local function stops it, and it does not
// go down where no adapter does. Such a model is kept as it is, with a warning saying why; the
// caller decides whether that is an error. The converter is written for valid models and crashes
// on some invalid ones, so a model reaches it only once it imports at its own opset and ONNX's
// checker accepts it (the checker is skipped for a model whose tensors are in external data: it
// would look for the files relative to the current folder). Its adapters read shapes unchecked,
// so it reads no shape graphgc did not infer or check: node outputs take the inferred types,
// initializers' inputs their tensors' types, outputs of unknown rank are withheld (and put back
// after), and bodies go without shapes.
// What the converter drops and the model needs is put back: model-local functions, and the
// sequence and optional types of graph inputs, outputs and value_info. What Resize-10 and Upsample
// compute is written into the Resize nodes the converter makes of them (legacy_resampling.h),
// and a model whose resampling opset 11 cannot express keeps its opset.
// Internal to the export module; thread-safe (no shared state).
#ifndef GRAPHGC_OPSET_CONVERSION_H_
#define GRAPHGC_OPSET_CONVERSION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

struct OpsetConversion {
  // The converted model; nullopt when the model is kept as it is (no ai.onnx import, already at
  // the target, or not convertible).
  std::optional<onnx::ModelProto> model;
  // Why a model that needed converting was kept as it is; empty otherwise.
  std::string warning;
};

// The warning for a model kept at its ai.onnx opset `from` instead of converted to `target`.
std::string KeptAtOwnOpset(int64_t from, int target, absl::string_view why);

// The ai.onnx opset `model` imports ("" or "ai.onnx"); 0 if none.
int64_t OnnxOpsetOf(const onnx::ModelProto& model);

// Reads an initializer (external data too), as the import will.
using InitializerLoader = std::function<absl::StatusOr<Tensor>(const onnx::TensorProto&)>;

// `model` converted to ai.onnx opset `target` (1 to 17). The converter trusts its input (a graph
// output nothing defines crashes it), so the model is first imported at its own opset into a
// scratch graph, types only: a model that does not import is not converted (the warning says
// why), and the caller's own import then reports the problem.
OpsetConversion ConvertOnnxOpset(const onnx::ModelProto& model, int target,
                                 const InitializerLoader& load_initializer);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_CONVERSION_H_
