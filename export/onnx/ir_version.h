// The lowest ONNX IR version a model can declare: the IR version of the first ONNX release that
// defined each opset it imports and each element type it uses (float8 came with IR 9, 4-bit
// integers with 10, float4e2m1 with 11, float8e8m0 with 12), and never below kOnnxIrVersion
// (8, to_onnx.h), the IR graphgc's exports have always declared: they rely on IR 4's initializers
// that are not inputs and IR 8's optional types and model-local functions. An older runtime then
// loads an export of an older opset: an opset-17 model declares IR 8, not the newest IR 12.
// Threading: a pure function of the model.
#ifndef GRAPHGC_EXPORT_ONNX_IR_VERSION_H_
#define GRAPHGC_EXPORT_ONNX_IR_VERSION_H_

#include <cstdint>
#include <optional>
#include <string>

#include "graphgc/export/onnx/to_onnx.h"  // kOnnxIrVersion
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The IR version of the first ONNX release that defined opset `version` of `domain` (ai.onnx or
// ai.onnx.ml); kOnnxIrVersion for any other domain.
int64_t IrVersionOfOpset(const std::string& domain, int64_t version);

// The IR version of the first ONNX release that defined the element type (TensorProto's
// DataType code); 3 for the types of the first releases.
int64_t IrVersionOfElementType(int32_t data_type);

// The lowest IR version `model` can declare (see above): its opset imports and the element
// types of its graph, nested graphs and functions.
int64_t LowestIrVersion(const onnx::ModelProto& model);

// The newest IR version graphgc's ONNX knows (12, ONNX 1.19). A model stamped with a newer one
// (onnx 1.23's make_model stamps 14 whatever its opsets) is read as this version: what it uses
// that is newer (an opset, an element type) is refused where it is read, by name.
inline constexpr int64_t kNewestKnownIrVersion = onnx::IR_VERSION;

// The warning for a model stamped newer than kNewestKnownIrVersion; empty for any other.
std::string NewerIrVersionWarning(const onnx::ModelProto& model);

// `model` itself, or a copy read as kNewestKnownIrVersion when it is stamped newer (for ONNX's
// checker and converter, which refuse a newer IR version outright).
const onnx::ModelProto& AtKnownIrVersion(const onnx::ModelProto& model,
                                         std::optional<onnx::ModelProto>& copy);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_ONNX_IR_VERSION_H_
