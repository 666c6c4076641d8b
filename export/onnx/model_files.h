// ONNX models as files: load_model and save_model, with ONNX external data (tensors kept in side
// files next to the model, as exporters write models over protobuf's 2 GB limit).
//
// A model is untrusted input. Loading reads external data only from files inside the model's
// folder: a location that is absolute, holds "..", or leads out through a symlink is an error
// (ONNX's own loader had this hole: CVE-2022-25882), as is an offset or length past the file's
// end. Saving with external data writes the side file first, under a temporary name, and the
// model after it.
// Threading: free functions without shared state.
#ifndef GRAPHGC_MODEL_FILES_H_
#define GRAPHGC_MODEL_FILES_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"

namespace graphgc {

// The folder the external data of the model file at `path` resolves in: the file's own folder
// ("." for a bare file name). load_model reads it from there; give it as InlineOptions::model_dir
// or FoldOptions::model_dir for a model you read from `path` yourself.
std::string model_folder(const std::string& path);

struct LoadModelOptions {
  // Read the tensors kept in external data into the model (as raw_data), so it stands alone.
  // false: leave them where they are; give the model's folder as InlineOptions::model_dir, and
  // inline_model maps them without copying.
  bool load_external_data = true;
};

// The binary ModelProto at `path`. Errors name the file: missing, unreadable, not a model, and
// for external data the tensor and the side file (see above).
absl::StatusOr<onnx::ModelProto> load_model(const std::string& path,
                                            const LoadModelOptions& options = {});

struct SaveModelOptions {
  // Initializers of more than external_data_threshold bytes go to this side file (a bare file
  // name, written in the model's folder) instead of into the model. Empty: none.
  std::string external_data_file;
  int64_t external_data_threshold = 1024;
};

// Serializes `model` to `path` (binary protobuf).
absl::Status save_model(const onnx::ModelProto& model, const std::string& path);
absl::Status save_model(const onnx::ModelProto& model, const std::string& path,
                        const SaveModelOptions& options);

}  // namespace graphgc

#endif  // GRAPHGC_MODEL_FILES_H_
