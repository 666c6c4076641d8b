// External data: ONNX tensors whose bytes live in a side file next to the model (models over the
// 2 GB protobuf limit), read in place and written out.
//
// Reading maps each side file once, read-only, and hands out tensors that view the mapping without
// copying (a copy only when a tensor's offset is not aligned for its element type, or for bools,
// whose bytes must be made 0 or 1). A model is untrusted input: a location must be a relative path
// with no ".." that stays inside the model's folder after symlinks are resolved, and every offset
// and length is checked against the file and the tensor's dims.
// Writing appends each tensor's raw little-endian bytes, 4096-aligned, to one side file, created
// under a temporary name on the first write and renamed into place by Finish(): a side file that
// is also being read (folding a model in place) is never truncated under its mapping.
//
// Ownership: tensors from a reader keep their file's mapping alive after the reader is gone.
// Threading: a reader or a writer is used by one thread at a time; the tensors it gives are
// shared freely.
#ifndef GRAPHGC_EXTERNAL_DATA_H_
#define GRAPHGC_EXTERNAL_DATA_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// One side file, mapped read-only for as long as any tensor views it.
class MappedFile;

// Where a tensor's elements lie in a side file a reader mapped: the file's descriptor (open while
// `file` lives) and the byte range.
struct FileRange {
  std::shared_ptr<const MappedFile> file;
  int64_t offset = 0;
  int64_t length = 0;
};

class ExternalDataReader {
 public:
  // `model_dir`: the folder the model was read from; locations resolve inside it and nowhere else.
  // Empty: a tensor with external data is an error.
  explicit ExternalDataReader(std::string model_dir);

  // The tensor `proto` describes: external data viewed in its mapped file, anything else through
  // FromTensorProto. Errors name the tensor and the file: no model folder, a location that is
  // absolute, has "..", escapes the folder or is not a regular file; a missing or unreadable
  // file; bad offset or length entries; bytes that do not match the dims or lie past the end.
  absl::StatusOr<Tensor> Load(const onnx::TensorProto& proto);

  // Gives back the pages of the mapped files that reading has made resident: they count in the
  // process's RSS until the mapping goes, so a fold that reads every weight once would otherwise
  // end holding the whole model. Tensors viewing the files stay valid and read the same bytes
  // (faulted in again from the page cache).
  void ReleaseResidentPages() const;

  // Where `tensor`'s elements lie in a file this reader mapped (a tensor Load viewed, or a
  // reshaped view of one); nullopt for any other tensor.
  std::optional<FileRange> SourceOf(const Tensor& tensor) const;

 private:
  // The mapping of the file `location` names, mapped on first use; `what` names tensor and file
  // in errors.
  absl::StatusOr<std::shared_ptr<const MappedFile>> Map(const std::string& location,
                                                        const std::string& what);
  absl::Status ResolveModelDir();

  std::string model_dir_;
  std::string canonical_model_dir_;  // resolved on first use
  absl::flat_hash_map<std::string, std::shared_ptr<const MappedFile>> files_;  // by canonical path
};

// Reads a binary ModelProto from `path` (up to 2 GB - 1, protobuf's limit; larger models keep
// their tensors in external data). Errors: the file cannot be opened or read, is empty, or is not
// a model (corrupt or truncated).
absl::StatusOr<onnx::ModelProto> LoadModelFile(const std::string& path);

// True if any tensor of the model (initializers, attributes, subgraph bodies, functions) keeps
// its data in an external file.
bool UsesExternalData(const onnx::ModelProto& model);

class ExternalDataWriter {
 public:
  static constexpr int64_t kAlignment = 4096;

  // Tensors go to `file_name` in `output_dir` (empty: the current folder). `file_name` must be a
  // bare file name (not empty, no '/', '\\', NUL, not "." or ".."); a bad name is reported by
  // Write() and Finish(). Nothing is created before the first Write().
  ExternalDataWriter(std::string output_dir, std::string file_name);
  // Without Finish(), the partly written file is removed.
  ~ExternalDataWriter();
  ExternalDataWriter(const ExternalDataWriter&) = delete;
  ExternalDataWriter& operator=(const ExternalDataWriter&) = delete;

  // True for a tensor worth moving out: more than `threshold` bytes, and not strings (which have
  // no raw form).
  static bool ShouldWrite(const Tensor& tensor, int64_t threshold);

  // Appends the tensor's bytes at the next 4096-aligned offset and makes `proto` refer to them:
  // data_type and dims set, data_location EXTERNAL, external_data {location, offset, length},
  // raw_data and typed fields cleared; the name is left to the caller. Errors: strings, a bad
  // file name, a write error (which also fails every later call).
  absl::Status Write(const Tensor& tensor, onnx::TensorProto* proto);
  // The same for raw little-endian bytes already in memory (a TensorProto's raw_data).
  absl::Status WriteRaw(absl::string_view bytes, onnx::TensorProto* proto);
  // The same for `tensor`, whose elements are the bytes of `source` (ExternalDataReader::SourceOf),
  // copied file to file by the kernel (copy_file_range; read and written in 1 MiB pieces where
  // the two files' file systems cannot do that), so that they never become part of this process's
  // memory.
  absl::Status Copy(const Tensor& tensor, const FileRange& source, onnx::TensorProto* proto);

  // Closes the file and moves it to its name; reports any write error. Nothing to do if nothing
  // was written (no file is created). Writing after Finish() is an error.
  absl::Status Finish();

  const std::string& file_name() const { return file_name_; }
  // Bytes in the side file so far (padding included).
  int64_t bytes_written() const { return end_; }

 private:
  absl::Status OpenIfNeeded();
  // Opens the file if needed and pads it to the next aligned offset, where a tensor's bytes go.
  absl::StatusOr<int64_t> StartTensor();
  // Makes `proto` refer to the `length` bytes at `offset`, its own elements cleared.
  void FinishTensor(int64_t offset, int64_t length, onnx::TensorProto* proto) const;
  absl::Status Append(const void* data, size_t size);
  absl::Status AppendFromFile(int fd, int64_t offset, int64_t length);
  absl::Status Fail(absl::Status status);
  void Discard();

  std::string output_dir_;
  std::string file_name_;
  std::string final_path_;
  std::string temp_path_;
  int fd_ = -1;
  int64_t end_ = 0;
  bool finished_ = false;
  absl::Status status_;  // the first error, sticky
};

// Moves the main graph's inline initializers (raw_data or typed fields) of more than `threshold`
// bytes into `writer`'s file; initializers already external and strings stay as they are. The
// caller still calls writer.Finish(). Errors: an initializer whose data does not match its dims,
// a write error.
absl::Status MoveToExternalData(onnx::ModelProto& model, ExternalDataWriter& writer,
                                int64_t threshold);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXTERNAL_DATA_H_
