// A SparseTensorProto as the dense tensor it stands for. ONNX uses sparse tensors as a storage
// format only: Constant's sparse_value and a graph's sparse_initializer are the dense tensors
// whose elements are the values at the indices and zero ("" for strings) elsewhere. graphgc
// holds them dense (its values and kernels are dense), so a model's sparse constants compute.
//
// The proto is untrusted input. Errors (never a crash), naming `what`: values that are not 1-D,
// negative dims, a dense tensor past graphgc's limits or past 1 GiB (a few bytes of proto may
// declare any dims; ResourceExhausted), indices that are not int64 of shape
// [NNZ] (linear positions) or [NNZ, rank] (coordinates), an index out of range or given twice,
// and what FromTensorProto refuses (external data among it). Threading: a pure function.
#ifndef GRAPHGC_OPSET_PROTO_SPARSE_TENSOR_PROTO_H_
#define GRAPHGC_OPSET_PROTO_SPARSE_TENSOR_PROTO_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

absl::StatusOr<Tensor> DenseFromSparseTensorProto(const onnx::SparseTensorProto& sparse,
                                                  absl::string_view what);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_PROTO_SPARSE_TENSOR_PROTO_H_
