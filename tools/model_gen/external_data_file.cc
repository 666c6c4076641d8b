#include "external_data_file.h"

#include <algorithm>
#include <vector>

namespace fold_models {
namespace {

// Floats generated and written per write call: 4 MB, whatever the tensor's size.
constexpr int64_t kChunkFloats = int64_t{1} << 20;

void AddEntry(onnx::TensorProto& tensor, const std::string& key, const std::string& value) {
  onnx::StringStringEntryProto& entry = *tensor.add_external_data();
  entry.set_key(key);
  entry.set_value(value);
}

}  // namespace

ExternalDataFile::ExternalDataFile(const std::string& path, const std::string& location)
    : file_(path, std::ios::binary | std::ios::trunc), location_(location) {}

bool ExternalDataFile::PadToAlignment() {
  const int64_t padding =
      (kExternalDataAlignment - offset_ % kExternalDataAlignment) % kExternalDataAlignment;
  const std::vector<char> zeros(static_cast<size_t>(padding), 0);
  file_.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  offset_ += padding;
  return static_cast<bool>(file_);
}

bool ExternalDataFile::AppendRandomFloats(onnx::TensorProto& tensor, int64_t count, float low,
                                          float high, WeightSource& weights) {
  if (!PadToAlignment()) return false;
  const int64_t start = offset_;
  std::vector<float> chunk;
  for (int64_t done = 0; done < count; done += kChunkFloats) {
    chunk.resize(static_cast<size_t>(std::min(kChunkFloats, count - done)));
    for (float& value : chunk) value = weights.Uniform(low, high);
    file_.write(reinterpret_cast<const char*>(chunk.data()),
                static_cast<std::streamsize>(chunk.size() * sizeof(float)));
    if (!file_) return false;
    offset_ += static_cast<int64_t>(chunk.size() * sizeof(float));
  }
  tensor.set_data_location(onnx::TensorProto::EXTERNAL);
  AddEntry(tensor, "location", location_);
  AddEntry(tensor, "offset", std::to_string(start));
  AddEntry(tensor, "length", std::to_string(offset_ - start));
  return true;
}

bool ExternalDataFile::Close() {
  file_.close();
  return static_cast<bool>(file_);
}

}  // namespace fold_models
