#include "graphgc/export/onnx/external_data.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"
#include "graphgc/opset/proto/tensor_proto.h"

namespace graphgc::internal {

// ONNX's raw layout is little-endian; tensors view it as host elements.
static_assert(std::endian::native == std::endian::little, "external data assumes little-endian");

namespace fs = std::filesystem;

class MappedFile {
 public:
  // Maps the regular file at `path` read-only; `what` names it in errors.
  static absl::StatusOr<std::shared_ptr<const MappedFile>> Open(const std::string& path,
                                                                const std::string& what);
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
    close(fd_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return static_cast<const char*>(data_); }
  size_t size() const { return size_; }
  // Open for as long as the mapping: copies read the file through it (ExternalDataWriter::Copy).
  int fd() const { return fd_; }
  bool Contains(const void* bytes, size_t count) const {
    const char* start = static_cast<const char*>(bytes);
    return data_ != nullptr && start >= data() && start <= data() + size_ &&
           count <= static_cast<size_t>(data() + size_ - start);
  }
  // The mapping is read-only and never written, so it holds no page of its own: dropping its
  // pages loses nothing, and the next read faults them in again from the page cache.
  void DropResidentPages() const {
    if (data_ != nullptr) madvise(data_, size_, MADV_DONTNEED);
  }

 private:
  MappedFile(int fd, void* data, size_t size) : fd_(fd), data_(data), size_(size) {}
  int fd_;
  void* data_;  // nullptr for an empty file
  size_t size_;
};

namespace {

std::string ErrnoText(int error) { return std::strerror(error); }

// Closes a file descriptor when the scope ends.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path,
                                                                   const std::string& what) {
  // The path is canonical already; O_NOFOLLOW refuses a symlink swapped in since, and O_NONBLOCK
  // keeps a FIFO from blocking the open (it is refused below, as is anything not a regular file).
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    return absl::NotFoundError(absl::StrCat(what, ": cannot open: ", ErrnoText(error)));
  }
  FdCloser closer(fd);
  struct stat info;
  if (fstat(fd, &info) != 0) {
    const int error = errno;
    return absl::InternalError(absl::StrCat(what, ": cannot stat: ", ErrnoText(error)));
  }
  if (!S_ISREG(info.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": not a regular file"));
  }
  const size_t size = static_cast<size_t>(info.st_size);  // st_size >= 0 for a regular file
  void* data = nullptr;
  if (size > 0) {
    data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      const int error = errno;
      return absl::ResourceExhaustedError(absl::StrCat(what, ": cannot map: ", ErrnoText(error)));
    }
  }
  const int kept = fcntl(fd, F_DUPFD_CLOEXEC, 0);  // the mapping's own, closed with it
  if (kept < 0) {
    const int error = errno;
    if (data != nullptr) munmap(data, size);
    return absl::ResourceExhaustedError(
        absl::StrCat(what, ": cannot keep open: ", ErrnoText(error)));
  }
  return std::shared_ptr<const MappedFile>(new MappedFile(kept, data, size));
}

namespace {

// Where a tensor's bytes are, from its external_data entries.
struct ExternalLocation {
  std::string location;
  int64_t offset = 0;
  std::optional<int64_t> length;
};

std::string TensorLabel(const onnx::TensorProto& proto) {
  return absl::StrCat("tensor '", proto.name(), "'");
}

// A non-negative decimal integer that fits in int64 (no sign, no spaces).
std::optional<int64_t> ParseByteCount(const std::string& text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), absl::ascii_isdigit)) {
    return std::nullopt;
  }
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value)) return std::nullopt;  // overflow
  return value;
}

// The entries' values, each key at most once. "checksum" and keys of other writers (e.g.
// "basepath") do not change where the bytes are.
absl::StatusOr<ExternalLocation> ParseEntries(const onnx::TensorProto& proto) {
  const std::string* location = nullptr;
  const std::string* offset = nullptr;
  const std::string* length = nullptr;
  for (const onnx::StringStringEntryProto& entry : proto.external_data()) {
    const std::string& key = entry.key();
    const std::string** slot = key == "location" ? &location
                               : key == "offset" ? &offset
                               : key == "length" ? &length
                                                 : nullptr;
    if (slot == nullptr) continue;
    if (*slot != nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(TensorLabel(proto), ": external_data has two '", key, "' entries"));
    }
    *slot = &entry.value();
  }
  if (location == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(TensorLabel(proto), ": external data without a location"));
  }
  ExternalLocation where;
  where.location = *location;
  for (auto [key, text] : {std::pair{"offset", offset}, std::pair{"length", length}}) {
    if (text == nullptr) continue;
    std::optional<int64_t> value = ParseByteCount(*text);
    if (!value.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(TensorLabel(proto), ", external data file '",
                                                     *location, "': '", key,
                                                     "' is not a byte count: '", *text, "'"));
    }
    if (text == offset) {
      where.offset = *value;
    } else {
      where.length = *value;
    }
  }
  return where;
}

// A location must name a file below the model folder by itself: relative, without "..".
absl::Status CheckLocationSyntax(const std::string& location, const std::string& what) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": the location ", why));
  };
  if (location.empty()) return bad("is empty");
  if (location.find('\0') != std::string::npos) return bad("contains a NUL character");
  const fs::path path(location);
  if (path.has_root_path()) return bad("is an absolute path; it must be relative to the model");
  for (const fs::path& component : path) {
    if (component == "..") return bad("contains '..'; it must stay inside the model folder");
  }
  return absl::OkStatus();
}

// True if `path` is `folder` or below it; both canonical.
bool IsInside(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (const fs::path& part : folder) {
    if (part.empty()) continue;  // a trailing separator of the folder
    if (p == path.end() || *p != part) return false;
    ++p;
  }
  return true;
}

// A copy of the file's bytes in raw_data's form (tensor_proto.h: FromRawData).
absl::StatusOr<Tensor> CopyElements(DataType dtype, const Shape& shape, const char* bytes,
                                    size_t size, const std::string& what) {
  absl::StatusOr<Tensor> out = FromRawData(dtype, shape, absl::string_view(bytes, size));
  if (!out.ok()) {
    return absl::Status(out.status().code(), absl::StrCat(what, ": ", out.status().message()));
  }
  return out;
}

}  // namespace

ExternalDataReader::ExternalDataReader(std::string model_dir) : model_dir_(std::move(model_dir)) {}

absl::Status ExternalDataReader::ResolveModelDir() {
  if (!canonical_model_dir_.empty()) return absl::OkStatus();
  std::error_code error;
  const fs::path canonical = fs::canonical(fs::path(model_dir_), error);
  if (error) {
    return absl::NotFoundError(
        absl::StrCat("model folder '", model_dir_, "' cannot be resolved: ", error.message()));
  }
  if (!fs::is_directory(canonical, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("model folder '", model_dir_, "' is not a folder"));
  }
  canonical_model_dir_ = canonical.string();
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const MappedFile>> ExternalDataReader::Map(
    const std::string& location, const std::string& what) {
  if (absl::Status syntax = CheckLocationSyntax(location, what); !syntax.ok()) return syntax;
  if (absl::Status dir = ResolveModelDir(); !dir.ok()) {
    return absl::Status(dir.code(), absl::StrCat(what, ": ", dir.message()));
  }
  const fs::path folder(canonical_model_dir_);
  std::error_code error;
  const fs::path resolved = fs::canonical(folder / fs::path(location), error);
  if (error) {
    return absl::NotFoundError(
        absl::StrCat(what, ": not found in '", model_dir_, "': ", error.message()));
  }
  // A symlink inside the folder may point anywhere (CVE-2022-25882): judge where it lands.
  if (!IsInside(resolved, folder)) {
    return absl::PermissionDeniedError(absl::StrCat(what, ": resolves to '", resolved.string(),
                                                    "', outside the model folder '", model_dir_,
                                                    "'"));
  }
  const std::string key = resolved.string();
  if (auto cached = files_.find(key); cached != files_.end()) return cached->second;
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(key, what);
  if (!file.ok()) return file.status();
  files_.emplace(key, *file);
  return file;
}

absl::StatusOr<Tensor> ExternalDataReader::Load(const onnx::TensorProto& proto) {
  if (proto.data_location() != onnx::TensorProto::EXTERNAL) return FromTensorProto(proto);
  absl::StatusOr<ExternalLocation> where = ParseEntries(proto);
  if (!where.ok()) return where.status();
  const std::string what =
      absl::StrCat(TensorLabel(proto), ", external data file '", where->location, "'");
  if (!IsSupportedDataType(proto.data_type())) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": unsupported element type ", proto.data_type()));
  }
  const DataType dtype = static_cast<DataType>(proto.data_type());
  if (dtype == DataType::kString) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": string tensors have no raw form to keep as external data"));
  }
  const Shape shape(proto.dims().begin(), proto.dims().end());
  const absl::StatusOr<int64_t> count = ElementCount(shape);
  if (!count.ok()) {
    return absl::Status(count.status().code(), absl::StrCat(what, ": ", count.status().message()));
  }
  // ElementCount bounds the count so that this product fits.
  const int64_t expected = RawDataBytes(dtype, *count);
  if (model_dir_.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": no model folder was given to read external data from (model_dir)"));
  }
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = Map(where->location, what);
  if (!file.ok()) return file.status();
  const int64_t length = where->length.value_or(expected);
  if (length != expected) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": length ", length, " bytes, but ",
                                                   DataTypeName(dtype), ShapeToString(shape),
                                                   " has ", expected));
  }
  const uint64_t file_size = (*file)->size();
  const uint64_t offset = static_cast<uint64_t>(where->offset);  // parsed non-negative
  if (offset > file_size || static_cast<uint64_t>(length) > file_size - offset) {
    return absl::OutOfRangeError(absl::StrCat(what, ": bytes ", offset, " to ", offset + length,
                                              " lie past the end of the file (", file_size,
                                              " bytes)"));
  }
  if (expected == 0) return Tensor::zeros_checked(dtype, shape);
  const char* bytes = (*file)->data() + offset;
  const size_t size = static_cast<size_t>(length);
  const bool aligned = reinterpret_cast<uintptr_t>(bytes) % ElementSize(dtype) == 0;
  // Bools are canonicalized and 4-bit elements unpacked (one per byte in memory): both copy.
  if (!aligned || dtype == DataType::kBool || IsPackedInRawData(dtype)) {
    return CopyElements(dtype, shape, bytes, size, what);
  }
  absl::StatusOr<Tensor> view =
      Tensor::view_external(dtype, shape, bytes, size, std::shared_ptr<const void>(*file));
  if (!view.ok()) {
    return absl::Status(view.status().code(), absl::StrCat(what, ": ", view.status().message()));
  }
  return view;
}

void ExternalDataReader::ReleaseResidentPages() const {
  for (const auto& [path, file] : files_) file->DropResidentPages();
}

std::optional<FileRange> ExternalDataReader::SourceOf(const Tensor& tensor) const {
  if (!tensor.is_external_view() || tensor.nbytes() == 0) return std::nullopt;
  for (const auto& [path, file] : files_) {
    if (file->Contains(tensor.raw_data(), tensor.nbytes())) {
      return FileRange{file, static_cast<const char*>(tensor.raw_data()) - file->data(),
                       static_cast<int64_t>(tensor.nbytes())};
    }
  }
  return std::nullopt;
}

absl::StatusOr<onnx::ModelProto> LoadModelFile(const std::string& path) {
  const std::string what = absl::StrCat("model file '", path, "'");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    const std::string message = absl::StrCat(what, ": cannot open: ", ErrnoText(error));
    return error == ENOENT ? absl::NotFoundError(message) : absl::InvalidArgumentError(message);
  }
  FdCloser closer(fd);
  struct stat info;
  if (fstat(fd, &info) != 0) {
    const int error = errno;
    return absl::InternalError(absl::StrCat(what, ": cannot stat: ", ErrnoText(error)));
  }
  if (S_ISDIR(info.st_mode)) return absl::InvalidArgumentError(absl::StrCat(what, " is a folder"));
  if (S_ISREG(info.st_mode) && info.st_size == 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, " is empty"));
  }
  if (S_ISREG(info.st_mode) && info.st_size > INT_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " has ", info.st_size,
        " bytes, more than protobuf can read (2 GB - 1); large tensors belong in external data"));
  }
  google::protobuf::io::FileInputStream stream(fd);
  onnx::ModelProto model;
  bool parsed;
  {
    google::protobuf::io::CodedInputStream coded(&stream);
    coded.SetTotalBytesLimit(INT_MAX);
    parsed = model.ParseFromCodedStream(&coded);
  }
  if (stream.GetErrno() != 0) {
    return absl::DataLossError(absl::StrCat(what, ": read error: ", ErrnoText(stream.GetErrno())));
  }
  if (!parsed) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is not an ONNX model (corrupt, truncated, or over 2 GB - 1)"));
  }
  if (!model.has_graph() && model.ir_version() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is not an ONNX model (no ir_version, no graph)"));
  }
  return model;
}

namespace {

bool TensorIsExternal(const onnx::TensorProto& tensor) {
  return tensor.data_location() == onnx::TensorProto::EXTERNAL;
}

bool SparseIsExternal(const onnx::SparseTensorProto& sparse) {
  return TensorIsExternal(sparse.values()) || TensorIsExternal(sparse.indices());
}

bool GraphUsesExternalData(const onnx::GraphProto& graph);

bool NodesUseExternalData(const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes) {
  for (const onnx::NodeProto& node : nodes) {
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_t() && TensorIsExternal(attribute.t())) return true;
      if (attribute.has_sparse_tensor() && SparseIsExternal(attribute.sparse_tensor())) {
        return true;
      }
      if (attribute.has_g() && GraphUsesExternalData(attribute.g())) return true;
      for (const auto& tensor : attribute.tensors()) {
        if (TensorIsExternal(tensor)) return true;
      }
      for (const auto& sparse : attribute.sparse_tensors()) {
        if (SparseIsExternal(sparse)) return true;
      }
      for (const auto& graph : attribute.graphs()) {
        if (GraphUsesExternalData(graph)) return true;
      }
    }
  }
  return false;
}

// Recursion depth is bounded by protobuf's parse depth limit.
bool GraphUsesExternalData(const onnx::GraphProto& graph) {
  for (const auto& tensor : graph.initializer()) {
    if (TensorIsExternal(tensor)) return true;
  }
  for (const auto& sparse : graph.sparse_initializer()) {
    if (SparseIsExternal(sparse)) return true;
  }
  return NodesUseExternalData(graph.node());
}

}  // namespace

bool UsesExternalData(const onnx::ModelProto& model) {
  if (GraphUsesExternalData(model.graph())) return true;
  for (const onnx::FunctionProto& function : model.functions()) {
    if (NodesUseExternalData(function.node())) return true;
  }
  return false;
}

namespace {

absl::Status CheckFileName(const std::string& name) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("external data file name '", name, "' ", why));
  };
  if (name.empty()) return bad("is empty");
  if (name == "." || name == "..") return bad("is not a file name");
  if (name.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
    return bad("must be a bare file name (no '/', '\\' or NUL)");
  }
  return absl::OkStatus();
}

// Empties a repeated field and gives its memory back (Clear() keeps the capacity).
template <class Field>
void ReleaseField(Field* field) {
  Field().Swap(field);
}

void SetTypeAndDims(const Tensor& tensor, onnx::TensorProto* proto) {
  proto->set_data_type(static_cast<int32_t>(tensor.dtype()));
  proto->clear_dims();
  for (int64_t dim : tensor.shape()) proto->add_dims(dim);
}

// Writes go out in pieces of at most this size: write() may stop short of larger requests.
constexpr size_t kMaxWriteChunk = size_t{1} << 30;

}  // namespace

ExternalDataWriter::ExternalDataWriter(std::string output_dir, std::string file_name)
    : output_dir_(std::move(output_dir)),
      file_name_(std::move(file_name)),
      status_(CheckFileName(file_name_)) {
  final_path_ =
      output_dir_.empty() ? file_name_ : (fs::path(output_dir_) / fs::path(file_name_)).string();
}

ExternalDataWriter::~ExternalDataWriter() { Discard(); }

void ExternalDataWriter::Discard() {
  if (fd_ < 0) return;
  close(fd_);
  fd_ = -1;
  unlink(temp_path_.c_str());
}

absl::Status ExternalDataWriter::Fail(absl::Status status) {
  if (status_.ok()) status_ = status;
  Discard();
  return status_;
}

bool ExternalDataWriter::ShouldWrite(const Tensor& tensor, int64_t threshold) {
  if (tensor.dtype() == DataType::kString || tensor.dtype() == DataType::kUndefined) return false;
  return static_cast<int64_t>(tensor.nbytes()) > threshold;
}

absl::Status ExternalDataWriter::OpenIfNeeded() {
  if (fd_ >= 0) return absl::OkStatus();
  if (finished_) {
    return absl::FailedPreconditionError(
        absl::StrCat("external data file '", final_path_, "': written after Finish()"));
  }
  // A fresh name in the same folder, renamed over the final one by Finish(): the file being
  // replaced may be mapped by the reader of the model being rewritten.
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_path_ = absl::StrCat(final_path_, ".tmp", getpid(), "_", attempt);
    fd_ = open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) return absl::OkStatus();
    if (errno != EEXIST) break;
  }
  const int error = errno;
  return Fail(absl::InvalidArgumentError(absl::StrCat("external data file '", final_path_,
                                                      "': cannot create '", temp_path_,
                                                      "': ", ErrnoText(error))));
}

absl::Status ExternalDataWriter::Append(const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = write(fd_, bytes, std::min(size, kMaxWriteChunk));
    if (written < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      return Fail(absl::DataLossError(absl::StrCat("external data file '", final_path_,
                                                   "': write failed: ", ErrnoText(error))));
    }
    bytes += written;
    size -= static_cast<size_t>(written);
    end_ += written;
  }
  return absl::OkStatus();
}

absl::Status ExternalDataWriter::Write(const Tensor& tensor, onnx::TensorProto* proto) {
  if (!status_.ok()) return status_;
  if (tensor.dtype() == DataType::kString || tensor.dtype() == DataType::kUndefined) {
    return absl::InvalidArgumentError(
        absl::StrCat(TensorLabel(*proto), ": ", DataTypeName(tensor.dtype()),
                     " tensors have no raw form to write as external data"));
  }
  SetTypeAndDims(tensor, proto);
  if (IsPackedInRawData(tensor.dtype())) return WriteRaw(ToRawData(tensor), proto);
  // Elements in memory are in their raw form already (little-endian; bools are 0 or 1): no copy.
  return WriteRaw(absl::string_view(static_cast<const char*>(tensor.raw_data()), tensor.nbytes()),
                  proto);
}

absl::StatusOr<int64_t> ExternalDataWriter::StartTensor() {
  if (!status_.ok()) return status_;
  if (absl::Status opened = OpenIfNeeded(); !opened.ok()) return opened;
  static constexpr char kZeros[kAlignment] = {};
  const int64_t padding = (kAlignment - end_ % kAlignment) % kAlignment;
  if (absl::Status padded = Append(kZeros, static_cast<size_t>(padding)); !padded.ok()) {
    return padded;
  }
  return end_;
}

void ExternalDataWriter::FinishTensor(int64_t offset, int64_t length,
                                      onnx::TensorProto* proto) const {
  std::string().swap(*proto->mutable_raw_data());  // gives its memory back
  proto->clear_raw_data();
  ReleaseField(proto->mutable_float_data());
  ReleaseField(proto->mutable_int32_data());
  ReleaseField(proto->mutable_string_data());
  ReleaseField(proto->mutable_int64_data());
  ReleaseField(proto->mutable_double_data());
  ReleaseField(proto->mutable_uint64_data());
  proto->clear_external_data();
  auto add_entry = [proto](const std::string& key, const std::string& value) {
    onnx::StringStringEntryProto* entry = proto->add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  };
  add_entry("location", file_name_);
  add_entry("offset", std::to_string(offset));
  add_entry("length", std::to_string(length));
  proto->set_data_location(onnx::TensorProto::EXTERNAL);
}

absl::Status ExternalDataWriter::WriteRaw(absl::string_view bytes, onnx::TensorProto* proto) {
  absl::StatusOr<int64_t> offset = StartTensor();
  if (!offset.ok()) return offset.status();
  if (absl::Status appended = Append(bytes.data(), bytes.size()); !appended.ok()) return appended;
  // `bytes` may be this proto's raw_data: it is written before the fields are cleared.
  FinishTensor(*offset, static_cast<int64_t>(bytes.size()), proto);
  return absl::OkStatus();
}

absl::Status ExternalDataWriter::Copy(const Tensor& tensor, const FileRange& source,
                                      onnx::TensorProto* proto) {
  if (!status_.ok()) return status_;
  if (source.file == nullptr || source.length != static_cast<int64_t>(tensor.nbytes()) ||
      tensor.dtype() == DataType::kString || IsPackedInRawData(tensor.dtype())) {
    return absl::InternalError(absl::StrCat("graphgc bug: ", TensorLabel(*proto),
                                            ": copied from a file range that is not its bytes"));
  }
  absl::StatusOr<int64_t> offset = StartTensor();
  if (!offset.ok()) return offset.status();
  if (absl::Status copied = AppendFromFile(source.file->fd(), source.offset, source.length);
      !copied.ok()) {
    return copied;
  }
  SetTypeAndDims(tensor, proto);
  FinishTensor(*offset, source.length, proto);
  return absl::OkStatus();
}

absl::Status ExternalDataWriter::AppendFromFile(int fd, int64_t offset, int64_t length) {
  auto failed = [this](absl::string_view how, int error) {
    return Fail(absl::DataLossError(absl::StrCat("external data file '", final_path_, "': ", how,
                                                 " failed: ", ErrnoText(error))));
  };
  loff_t from = offset;
  int64_t left = length;
  // The kernel copies between the two files (or shares their blocks), page cache to page cache.
  while (left > 0) {
    const ssize_t copied = copy_file_range(
        fd, &from, fd_, nullptr, static_cast<size_t>(std::min<int64_t>(left, kMaxWriteChunk)), 0);
    if (copied > 0) {
      left -= copied;
      end_ += copied;
      continue;
    }
    if (copied < 0 && errno == EINTR) continue;
    if (copied == 0) return failed("copying (the source file is shorter than it was)", EIO);
    // Another file system, or a kernel without it: copy through a small buffer instead.
    if (errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP || errno == EINVAL) break;
    return failed("copy_file_range", errno);
  }
  constexpr size_t kPiece = size_t{1} << 20;
  std::unique_ptr<char[]> piece;
  while (left > 0) {
    if (piece == nullptr) piece = std::make_unique<char[]>(kPiece);
    const ssize_t got = pread(fd, piece.get(), std::min<size_t>(kPiece, left), from);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failed("reading the source file", errno);
    if (got == 0) return failed("copying (the source file is shorter than it was)", EIO);
    if (absl::Status appended = Append(piece.get(), static_cast<size_t>(got)); !appended.ok()) {
      return appended;
    }
    from += got;
    left -= got;
  }
  return absl::OkStatus();
}

absl::Status ExternalDataWriter::Finish() {
  if (!status_.ok()) return status_;
  finished_ = true;
  if (fd_ < 0) return absl::OkStatus();
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temp_path_.c_str());
    status_ = absl::DataLossError(
        absl::StrCat("external data file '", final_path_, "': close failed: ", ErrnoText(error)));
    return status_;
  }
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0) {
    const int error = errno;
    unlink(temp_path_.c_str());
    status_ =
        absl::DataLossError(absl::StrCat("external data file '", final_path_, "': cannot rename '",
                                         temp_path_, "' to it: ", ErrnoText(error)));
    return status_;
  }
  return absl::OkStatus();
}

absl::Status MoveToExternalData(onnx::ModelProto& model, ExternalDataWriter& writer,
                                int64_t threshold) {
  for (onnx::TensorProto& initializer : *model.mutable_graph()->mutable_initializer()) {
    if (TensorIsExternal(initializer)) continue;
    // Types graphgc does not know (complex) and strings stay inline: their size in the file is
    // not known, or they have no raw form.
    if (!IsSupportedDataType(initializer.data_type())) continue;
    const DataType dtype = static_cast<DataType>(initializer.data_type());
    if (dtype == DataType::kString) continue;
    const Shape shape(initializer.dims().begin(), initializer.dims().end());
    const absl::StatusOr<int64_t> count = ElementCount(shape);
    if (!count.ok()) {
      return absl::Status(count.status().code(),
                          absl::StrCat(TensorLabel(initializer), ": ", count.status().message()));
    }
    const int64_t bytes = RawDataBytes(dtype, *count);
    if (bytes <= threshold) continue;
    if (initializer.has_raw_data()) {
      if (static_cast<int64_t>(initializer.raw_data().size()) != bytes) {
        return absl::InvalidArgumentError(
            absl::StrCat(TensorLabel(initializer), ": ", initializer.raw_data().size(),
                         " bytes of raw_data for ", DataTypeName(dtype), ShapeToString(shape)));
      }
      if (absl::Status written = writer.WriteRaw(initializer.raw_data(), &initializer);
          !written.ok()) {
        return written;
      }
      continue;
    }
    // Typed fields have no raw form: convert (one tensor at a time) and write that.
    absl::StatusOr<Tensor> tensor = FromTensorProto(initializer);
    if (!tensor.ok()) return tensor.status();
    if (absl::Status written = writer.Write(*tensor, &initializer); !written.ok()) return written;
  }
  return absl::OkStatus();
}

}  // namespace graphgc::internal
