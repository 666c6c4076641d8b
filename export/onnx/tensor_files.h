// Tensors as ONNX TensorProtos, in memory and in files (the .pb files of ONNX's test data).
//
// to_tensor_proto writes the elements as raw_data (strings as string_data), as onnx's
// numpy_helper.from_array does, so a file written by it reads back into the same tensor, and a
// test-data file read here and written back gives the same bytes. from_tensor_proto reads
// raw_data and every typed field (float_data, int32_data, ...). Errors are statuses, never a
// crash: an empty tensor, an element type graphgc does not hold, data that does not match the
// dims, external data (a lone tensor file has no model folder to resolve it in).
// Threading: free functions without state.
#ifndef GRAPHGC_TENSOR_FILES_H_
#define GRAPHGC_TENSOR_FILES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

// The TensorProto of `tensor`, named `name` (no name field when empty).
absl::StatusOr<onnx::TensorProto> to_tensor_proto(const Tensor& tensor,
                                                  absl::string_view name = "");
// The tensor a TensorProto holds.
absl::StatusOr<Tensor> from_tensor_proto(const onnx::TensorProto& proto);

// A serialized TensorProto read from `path`.
absl::StatusOr<Tensor> load_tensor(const std::string& path);
// `tensor` written to `path` as a serialized TensorProto named `name`.
absl::Status save_tensor(const Tensor& tensor, const std::string& path,
                         absl::string_view name = "");

}  // namespace graphgc

#endif  // GRAPHGC_TENSOR_FILES_H_
