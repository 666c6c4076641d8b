// ExternalDataFile: the side file of an ONNX model's external data, written as the tensors are
// made, a chunk at a time, so a model of many gigabytes never sits in memory. Each tensor starts
// at an offset aligned to kExternalDataAlignment (what ONNX's own writer does, so runtimes may map
// it). Owns its open file; single-threaded.
#ifndef GRAPHGC_TOOLS_MODEL_GEN_EXTERNAL_DATA_FILE_H_
#define GRAPHGC_TOOLS_MODEL_GEN_EXTERNAL_DATA_FILE_H_

#include <cstdint>
#include <fstream>
#include <string>

#include "model_writer.h"
#include "onnx/onnx_pb.h"

namespace fold_models {

inline constexpr int64_t kExternalDataAlignment = 64 * 1024;

class ExternalDataFile {
 public:
  // `location` is the file name the model refers to (relative to the model's folder); `path`
  // where it is written.
  ExternalDataFile(const std::string& path, const std::string& location);

  // Writes `count` floats from `weights`, uniform in [low, high), and points `tensor` (a FLOAT
  // initializer whose dims the caller set) at them. False when the write fails.
  bool AppendRandomFloats(onnx::TensorProto& tensor, int64_t count, float low, float high,
                          WeightSource& weights);

  // Flushes and closes the file; false when anything written did not reach it.
  bool Close();

  int64_t bytes_written() const { return offset_; }

 private:
  bool PadToAlignment();

  std::ofstream file_;
  std::string location_;
  int64_t offset_ = 0;
};

}  // namespace fold_models

#endif  // GRAPHGC_TOOLS_MODEL_GEN_EXTERNAL_DATA_FILE_H_
