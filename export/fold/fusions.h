// Fusions: exact rewrites of an ONNX model's main graph that turn work on constants into constants
// before it is imported and folded (graphgc::fold's FoldOptions::fuse).
//
//   BatchNormalization (inference form) into the Conv, ConvTranspose or Gemm before it;
//   Mul or Add by a per-channel constant into the Conv before it, Mul by a per-column constant
//   into the constant right operand of the MatMul before it;
//   Identity, and Dropout in inference form whose mask nobody reads, removed.
//
// A rewrite is applied only when every condition makes the result mean what the original meant
// (ONNX semantics at the model's ai.onnx opset); otherwise the nodes stay. Weights must be
// initializers that are not graph inputs (an initializer that is also a graph input may be
// overridden, so it is no constant). Bodies of If, Loop and Scan are never rewritten, and no name
// a body reads from outside is renamed or loses its producer. The graph's input and output names
// never change. A weight read elsewhere too is never scaled (its copy would grow the model by a
// whole weight); a new bias takes a fresh name. Initializers and value_info entries the rewrites
// leave unused are removed; the node order stays as it was, minus the removed nodes.
//
// Ownership: works in place on the caller's model. Threading: none; calls on different models are
// independent.
#ifndef GRAPHGC_FUSIONS_H_
#define GRAPHGC_FUSIONS_H_

#include <cstdint>
#include <functional>

#include "absl/status/statusor.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

struct FusionCounts {
  int64_t batchnorm_into_conv = 0;  // into Conv or ConvTranspose
  int64_t batchnorm_into_gemm = 0;
  int64_t mul_add_into_weights = 0;
  int64_t identity_removed = 0;
  int64_t dropout_removed = 0;

  // Each rewrite removes exactly one node.
  int64_t nodes_removed() const;
};

// Reads an initializer's tensor, external data included. An empty loader means FromTensorProto
// (graphgc/opset/proto/tensor_proto.h), which refuses external data.
using InitializerLoader = std::function<absl::StatusOr<Tensor>(const onnx::TensorProto&)>;

// Applies the rewrites until none applies. Errors: an initializer a rewrite needs that `load`
// cannot read (the status names it). Even then `model` is a valid rewrite of the original: the
// rewrites made before the error are complete, and no other change is half done.
absl::StatusOr<FusionCounts> ApplyFusions(onnx::ModelProto& model, const InitializerLoader& load);

}  // namespace graphgc::internal

#endif  // GRAPHGC_FUSIONS_H_
