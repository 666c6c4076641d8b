// External data: tensors viewing memory they do not own (Tensor::view_external), the reader that
// maps side files (bit-exact values, views without copies, a copy when misaligned, every escape
// and bad entry refused with a message naming tensor and file), LoadModelFile on bad files, the
// writer (4096-aligned offsets, round trip, bad names, nothing left behind) and
// MoveToExternalData, whose result the ONNX checker accepts.
#include "graphgc/export/onnx/external_data.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "onnx/checker.h"
#include "onnx/onnx_pb.h"
#include "proc_status.h"

namespace {

namespace fs = std::filesystem;
using graphgc::DataType;
using graphgc::Tensor;
using graphgc::internal::ExternalDataReader;
using graphgc::internal::ExternalDataWriter;
using graphgc::internal::FileRange;
using graphgc::internal::LoadModelFile;
using graphgc::internal::MoveToExternalData;
using graphgc::internal::UsesExternalData;
using ::testing::HasSubstr;
using Dims = std::vector<int64_t>;

// ---- Tensor::view_external --------------------------------------------------------------------

TEST(ViewExternal, ViewsTheBytesWithoutCopyAndKeepsTheOwnerAlive) {
  auto values = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4, 5, 6});
  std::weak_ptr<std::vector<float>> watch = values;
  const float* data = values->data();
  absl::StatusOr<Tensor> view =
      Tensor::view_external(DataType::kFloat, {2, 3}, data, 6 * sizeof(float), std::move(values));
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->raw_data(), data);
  EXPECT_TRUE(view->is_external_view());
  EXPECT_EQ(view->buffer_bytes(), 6 * sizeof(float));
  EXPECT_EQ(*view, Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  Tensor reshaped = view->reshaped({6});
  *view = Tensor();
  EXPECT_FALSE(watch.expired()) << "a reshaped copy still views the memory";
  EXPECT_EQ(reshaped.data<float>()[5], 6.0f);
  reshaped = Tensor();
  EXPECT_TRUE(watch.expired()) << "the last view gone, the owner is released";
}

TEST(ViewExternal, RefusesWhatCannotBeViewed) {
  auto memory = std::make_shared<std::vector<int64_t>>(4, 7);
  const char* bytes = reinterpret_cast<const char*>(memory->data());
  std::shared_ptr<const void> owner = memory;
  EXPECT_FALSE(
      Tensor::view_external(DataType::kString, {1}, bytes, sizeof(std::string), owner).ok());
  EXPECT_FALSE(Tensor::view_external(DataType::kInt64, {3}, bytes, 16, owner).ok());
  EXPECT_FALSE(Tensor::view_external(DataType::kInt64, {-1}, bytes, 8, owner).ok());
  EXPECT_FALSE(Tensor::view_external(DataType::kInt64, {1}, bytes, 8, nullptr).ok());
  absl::StatusOr<Tensor> misaligned =
      Tensor::view_external(DataType::kInt64, {1}, bytes + 4, 8, owner);
  ASSERT_FALSE(misaligned.ok());
  EXPECT_THAT(misaligned.status().message(), HasSubstr("aligned"));
  // One-byte elements are aligned anywhere.
  EXPECT_TRUE(Tensor::view_external(DataType::kUint8, {3}, bytes + 1, 3, owner).ok());
  absl::StatusOr<Tensor> empty = Tensor::view_external(DataType::kFloat, {0, 4}, nullptr, 0, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->size(), 0);
}

// ---- Test files -------------------------------------------------------------------------------

// A fresh folder per test (tests run in parallel processes), removed afterwards.
class ExternalDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::path(::testing::TempDir()) /
            ("external_data_test_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "model");
    fs::create_directories(root_ / "outside");
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string model_dir() const { return (root_ / "model").string(); }

  static void WriteFile(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_TRUE(out.good()) << path;
  }

  static std::string ReadFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream contents;
    contents << in.rdbuf();
    return contents.str();
  }

  fs::path root_;
};

template <class T>
std::string BytesOf(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

onnx::TensorProto ExternalProto(const std::string& name, DataType dtype, const Dims& dims,
                                const std::string& location, const std::string& offset,
                                const std::string& length) {
  onnx::TensorProto proto;
  proto.set_name(name);
  proto.set_data_type(static_cast<int32_t>(dtype));
  for (int64_t dim : dims) proto.add_dims(dim);
  proto.set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const std::string& key, const std::string& value) {
    if (value.empty()) return;
    auto* entry = proto.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  };
  add("location", location);
  add("offset", offset);
  add("length", length);
  return proto;
}

std::string EntryOf(const onnx::TensorProto& proto, const std::string& key) {
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == key) return entry.value();
  }
  return "";
}

// True if `address` lies in a mapping of the file at `path` (per /proc/self/maps).
bool InMappingOf(const void* address, const fs::path& path) {
  const std::string canonical = fs::canonical(path).string();
  std::ifstream maps("/proc/self/maps");
  std::string line;
  const auto where = reinterpret_cast<uintptr_t>(address);
  while (std::getline(maps, line)) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos || line.substr(slash) != canonical) continue;
    uintptr_t start = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &start, &end) != 2) continue;
    if (where >= start && where < end) return true;
  }
  return false;
}

bool FileIsMapped(const fs::path& path) {
  const std::string canonical = fs::canonical(path).string();
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const size_t slash = line.find('/');
    if (slash != std::string::npos && line.substr(slash) == canonical) return true;
  }
  return false;
}

// ---- Reading ----------------------------------------------------------------------------------

TEST_F(ExternalDataTest, LoadsFloatAndInt64BitExactAsViewsOfOneMapping) {
  const std::vector<float> floats = {1.5f, -0.0f, 3.25e-39f, 7.0f, -2.5f, 1e30f};
  const std::vector<int64_t> ints = {INT64_MIN, -1, 0, 1, INT64_MAX};
  std::string file = BytesOf(floats);
  file.resize(64, '\0');
  file += BytesOf(ints);
  WriteFile(root_ / "model" / "weights.bin", file);

  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> f =
      reader.Load(ExternalProto("f", DataType::kFloat, {2, 3}, "weights.bin", "0", "24"));
  absl::StatusOr<Tensor> i =
      reader.Load(ExternalProto("i", DataType::kInt64, {5}, "./weights.bin", "64", "40"));
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(i.ok()) << i.status();
  EXPECT_EQ(*f, Tensor::from_vector<float>(floats, {2, 3}));
  EXPECT_EQ(*i, Tensor::from_vector<int64_t>(ints));
  EXPECT_TRUE(f->is_external_view());
  EXPECT_TRUE(i->is_external_view());
  // One mapping shared by both (two spellings, one file): their elements are as far apart as in
  // the file.
  EXPECT_EQ(static_cast<const char*>(i->raw_data()) - static_cast<const char*>(f->raw_data()), 64);
  EXPECT_TRUE(InMappingOf(f->raw_data(), root_ / "model" / "weights.bin"));
}

TEST_F(ExternalDataTest, MisalignedOffsetIsCopiedBitExact) {
  const std::vector<float> floats = {0.1f, 0.2f, -0.3f, 4e-42f};
  WriteFile(root_ / "model" / "w.bin", "x" + BytesOf(floats));
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> f =
      reader.Load(ExternalProto("f", DataType::kFloat, {4}, "w.bin", "1", ""));
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_FALSE(f->is_external_view());
  EXPECT_EQ(*f, Tensor::from_vector<float>(floats));
}

TEST_F(ExternalDataTest, BoolBytesBecomeCanonical) {
  WriteFile(root_ / "model" / "b.bin", std::string("\x00\x02\x01\xff", 4));
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> b = reader.Load(ExternalProto("b", DataType::kBool, {4}, "b.bin", "", ""));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*b, Tensor::from_vector<bool>({false, true, true, true}));
}

TEST_F(ExternalDataTest, FourBitElementsAreUnpackedAndPackedAgain) {
  // Five uint4 elements packed in three bytes, low nibble first; memory holds one per byte.
  WriteFile(root_ / "model" / "u4.bin", std::string("\x21\x43\x05", 3));
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> u4 =
      reader.Load(ExternalProto("u4", DataType::kUint4, {5}, "u4.bin", "", "3"));
  ASSERT_TRUE(u4.ok()) << u4.status();
  EXPECT_FALSE(u4->is_external_view());
  const auto* bytes = static_cast<const uint8_t*>(u4->raw_data());
  EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + 5), (std::vector<uint8_t>{1, 2, 3, 4, 5}));
  EXPECT_FALSE(reader.Load(ExternalProto("u4", DataType::kUint4, {5}, "u4.bin", "", "5")).ok());

  ExternalDataWriter writer(root_ / "model", "u4_out.bin");
  onnx::TensorProto proto;
  proto.set_name("u4");
  ASSERT_TRUE(writer.Write(*u4, &proto).ok());
  ASSERT_TRUE(writer.Finish().ok());
  absl::StatusOr<Tensor> again = reader.Load(proto);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *u4);
}

TEST_F(ExternalDataTest, LargeTensorIsAViewOfTheMappingNotACopy) {
  constexpr int64_t kCount = int64_t{16} << 20;  // 64 MiB of floats
  const fs::path path = root_ / "model" / "big.bin";
  {
    std::vector<float> values(kCount);
    for (int64_t k = 0; k < kCount; ++k) values[k] = static_cast<float>(k % 1000003);
    WriteFile(path, BytesOf(values));
  }
  Tensor big;
  {
    ExternalDataReader reader(model_dir());
    absl::StatusOr<Tensor> loaded = reader.Load(ExternalProto(
        "big", DataType::kFloat, {4096, 4096}, "big.bin", "0", std::to_string(kCount * 4)));
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    big = *std::move(loaded);
  }
  // The reader is gone; the tensor still views the mapping, which keeps the file's bytes.
  EXPECT_TRUE(big.is_external_view());
  EXPECT_TRUE(InMappingOf(big.raw_data(), path));
  EXPECT_TRUE(InMappingOf(static_cast<const char*>(big.raw_data()) + kCount * 4 - 1, path));
  auto values = big.data<float>();
  EXPECT_EQ(values[0], 0.0f);
  EXPECT_EQ(values[1000004], 1.0f);
  EXPECT_EQ(values[kCount - 1], static_cast<float>((kCount - 1) % 1000003));
  big = Tensor();
  EXPECT_FALSE(FileIsMapped(path)) << "the last view gone, the file is unmapped";
}

int64_t ResidentFileKiB() { return graphgc_tests::ProcStatusKib("RssFile"); }

double SumOf(const Tensor& tensor) {
  double sum = 0;
  for (float value : tensor.data<float>()) sum += value;
  return sum;
}

TEST_F(ExternalDataTest, ReleasedPagesLeaveTheProcessAndReadTheSameBytes) {
  constexpr int64_t kCount = int64_t{16} << 20;  // 64 MiB of floats
  {
    std::vector<float> values(kCount);
    for (int64_t k = 0; k < kCount; ++k) values[k] = static_cast<float>(k % 1009);
    WriteFile(root_ / "model" / "big.bin", BytesOf(values));
  }
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> big = reader.Load(ExternalProto(
      "big", DataType::kFloat, {4096, 4096}, "big.bin", "0", std::to_string(kCount * 4)));
  ASSERT_TRUE(big.ok()) << big.status();
  const int64_t before = ResidentFileKiB();
  ASSERT_GE(before, 0) << "no RssFile in /proc/self/status";
  const double sum = SumOf(*big);  // every page read
  const int64_t read = ResidentFileKiB();
  EXPECT_GE(read - before, 60 << 10) << "reading 64 MiB made them resident";
  reader.ReleaseResidentPages();
  const int64_t released = ResidentFileKiB();
  EXPECT_LE(released - before, 4 << 10) << "released: " << released << " KiB, before " << before;
  EXPECT_EQ(SumOf(*big), sum) << "the tensor reads the same bytes again";
}

TEST_F(ExternalDataTest, AViewsSourceIsItsFileRangeAndCopiesBitForBit) {
  std::vector<float> values(300000);
  for (size_t k = 0; k < values.size(); ++k) values[k] = static_cast<float>(k) * 0.25f - 3.0f;
  WriteFile(root_ / "model" / "w.bin", std::string(8192, 'x') + BytesOf(values));
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> view =
      reader.Load(ExternalProto("w", DataType::kFloat, {300, 1000}, "w.bin", "8192", "1200000"));
  ASSERT_TRUE(view.ok()) << view.status();
  const std::optional<FileRange> source = reader.SourceOf(*view);
  ASSERT_TRUE(source.has_value());
  EXPECT_EQ(source->offset, 8192);
  EXPECT_EQ(source->length, 1200000);
  const Tensor reshaped = view->reshaped({1000, 300});
  ASSERT_TRUE(reader.SourceOf(reshaped).has_value()) << "a reshaped view has the same bytes";
  EXPECT_FALSE(reader.SourceOf(Tensor::from_vector<float>({1, 2}, {2})).has_value());
  EXPECT_FALSE(ExternalDataReader(model_dir()).SourceOf(*view).has_value())
      << "another reader did not map it";

  // Into the same file system (copy_file_range), and into /dev/shm when it is another one
  // (copy_file_range refuses: read and written in pieces).
  std::vector<fs::path> folders = {root_ / "out"};
  struct stat here, shm;
  if (stat(root_.c_str(), &here) == 0 && stat("/dev/shm", &shm) == 0 && here.st_dev != shm.st_dev) {
    folders.push_back(fs::path("/dev/shm") / root_.filename());
  }
  for (const fs::path& folder : folders) {
    fs::create_directories(folder);
    onnx::TensorProto proto;
    proto.set_name("w");
    {
      ExternalDataWriter writer(folder.string(), "copy.bin");
      ASSERT_TRUE(writer.Write(Tensor::from_vector<uint8_t>({1, 2, 3}), &proto).ok());
      absl::Status copied = writer.Copy(reshaped, *source, &proto);
      ASSERT_TRUE(copied.ok()) << copied;
      ASSERT_TRUE(writer.Finish().ok());
    }
    EXPECT_EQ(EntryOf(proto, "offset"), "4096") << folder;
    EXPECT_THAT(proto.dims(), ::testing::ElementsAre(1000, 300));
    ExternalDataReader back(folder.string());
    absl::StatusOr<Tensor> loaded = back.Load(proto);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(*loaded, reshaped) << folder;
    if (folder != root_ / "out") fs::remove_all(folder);
  }
}

TEST_F(ExternalDataTest, ModelFolderMayBeASymlink) {
  WriteFile(root_ / "model" / "w.bin", BytesOf(std::vector<int32_t>{5, 6}));
  fs::create_directory_symlink(root_ / "model", root_ / "alias");
  ExternalDataReader reader((root_ / "alias").string());
  absl::StatusOr<Tensor> w =
      reader.Load(ExternalProto("w", DataType::kInt32, {2}, "w.bin", "", ""));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(*w, Tensor::from_vector<int32_t>({5, 6}));
}

TEST_F(ExternalDataTest, SymlinkStayingInsideTheFolderIsFollowed) {
  fs::create_directories(root_ / "model" / "data");
  WriteFile(root_ / "model" / "data" / "w.bin", BytesOf(std::vector<int32_t>{9}));
  fs::create_symlink("data/w.bin", root_ / "model" / "link.bin");
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> w =
      reader.Load(ExternalProto("w", DataType::kInt32, {1}, "link.bin", "", "4"));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(*w, Tensor::from_vector<int32_t>({9}));
}

TEST_F(ExternalDataTest, InlineTensorsGoThroughFromTensorProto) {
  onnx::TensorProto proto;
  proto.set_name("inline");
  proto.set_data_type(static_cast<int32_t>(DataType::kInt64));
  proto.add_dims(2);
  proto.add_int64_data(3);
  proto.add_int64_data(-4);
  ExternalDataReader reader("");
  absl::StatusOr<Tensor> t = reader.Load(proto);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, Tensor::from_vector<int64_t>({3, -4}));
}

// The load error for `proto`, which must name the tensor (and the file, when given).
absl::Status LoadError(ExternalDataReader& reader, const onnx::TensorProto& proto) {
  absl::StatusOr<Tensor> t = reader.Load(proto);
  EXPECT_FALSE(t.ok()) << "loaded " << proto.name();
  if (t.ok()) return absl::OkStatus();
  EXPECT_THAT(t.status().message(), HasSubstr("'" + proto.name() + "'"));
  const std::string location = EntryOf(proto, "location");
  if (!location.empty()) {
    EXPECT_THAT(t.status().message(), HasSubstr(location));
  }
  return t.status();
}

TEST_F(ExternalDataTest, EscapingLocationsAreRefused) {
  WriteFile(root_ / "outside" / "secret.bin", std::string(16, 's'));
  WriteFile(root_ / "model" / "w.bin", std::string(16, 'w'));
  fs::create_symlink(root_ / "outside" / "secret.bin", root_ / "model" / "abs_link.bin");
  fs::create_symlink("../outside/secret.bin", root_ / "model" / "rel_link.bin");
  fs::create_directory_symlink(root_ / "outside", root_ / "model" / "subdir");
  ExternalDataReader reader(model_dir());
  const std::string absolute = (root_ / "outside" / "secret.bin").string();

  absl::Status status =
      LoadError(reader, ExternalProto("abs", DataType::kFloat, {4}, absolute, "", ""));
  EXPECT_THAT(status.message(), HasSubstr("absolute"));
  status = LoadError(reader,
                     ExternalProto("up", DataType::kFloat, {4}, "../outside/secret.bin", "", ""));
  EXPECT_THAT(status.message(), HasSubstr(".."));
  status = LoadError(reader, ExternalProto("up_later", DataType::kFloat, {4},
                                           "subdir/../../outside/secret.bin", "", ""));
  EXPECT_THAT(status.message(), HasSubstr(".."));
  for (const char* link : {"abs_link.bin", "rel_link.bin", "subdir/secret.bin"}) {
    status = LoadError(reader, ExternalProto("link", DataType::kFloat, {4}, link, "", ""));
    EXPECT_EQ(status.code(), absl::StatusCode::kPermissionDenied) << link;
    EXPECT_THAT(status.message(), HasSubstr("outside the model folder")) << link;
  }
  // A folder is not a data file.
  fs::create_directories(root_ / "model" / "folder");
  status = LoadError(reader, ExternalProto("dir", DataType::kFloat, {0}, "folder", "", ""));
  EXPECT_THAT(status.message(), HasSubstr("not a regular file"));
  // Nor is a FIFO, which must not block the reader either.
  ASSERT_EQ(mkfifo((root_ / "model" / "fifo").c_str(), 0600), 0);
  status = LoadError(reader, ExternalProto("fifo", DataType::kFloat, {0}, "fifo", "", ""));
  EXPECT_THAT(status.message(), HasSubstr("not a regular file"));
  // The refusals did not stop lawful loads.
  EXPECT_TRUE(reader.Load(ExternalProto("ok", DataType::kFloat, {4}, "w.bin", "", "")).ok());
}

TEST_F(ExternalDataTest, MissingFileAndBadEntriesAreErrors) {
  WriteFile(root_ / "model" / "w.bin", std::string(100, '\0'));
  ExternalDataReader reader(model_dir());
  absl::Status status =
      LoadError(reader, ExternalProto("missing", DataType::kFloat, {1}, "nope.bin", "", ""));
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  status = LoadError(reader, ExternalProto("past_end", DataType::kFloat, {2}, "w.bin", "96", "8"));
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange);
  status = LoadError(reader,
                     ExternalProto("offset_past_end", DataType::kUint8, {1}, "w.bin", "101", "1"));
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange);
  // offset + length overflows int64: must not wrap into range.
  status = LoadError(reader, ExternalProto("overflow", DataType::kFloat, {2}, "w.bin",
                                           "9223372036854775800", "8"));
  EXPECT_EQ(status.code(), absl::StatusCode::kOutOfRange);
  status = LoadError(reader, ExternalProto("mismatch", DataType::kFloat, {3}, "w.bin", "0", "8"));
  EXPECT_THAT(status.message(), HasSubstr("length 8"));
  for (const char* bad : {"-4", "+4", "4x", " 4", "99999999999999999999"}) {
    status =
        LoadError(reader, ExternalProto("bad_offset", DataType::kUint8, {1}, "w.bin", bad, ""));
    EXPECT_THAT(status.message(), HasSubstr("offset")) << bad;
  }
  status = LoadError(reader, ExternalProto("no_location", DataType::kFloat, {1}, "", "0", "4"));
  EXPECT_THAT(status.message(), HasSubstr("location"));
  status =
      LoadError(reader, ExternalProto("negative_dim", DataType::kFloat, {-2}, "w.bin", "0", ""));
  EXPECT_THAT(status.message(), HasSubstr("negative"));
  status = LoadError(reader, ExternalProto("string", DataType::kString, {1}, "w.bin", "0", ""));
  EXPECT_THAT(status.message(), HasSubstr("string"));
  status = LoadError(reader, ExternalProto("huge_dims", DataType::kDouble,
                                           {int64_t{1} << 40, int64_t{1} << 40}, "w.bin", "0", ""));
  EXPECT_THAT(status.message(), HasSubstr("too many elements"));
}

TEST_F(ExternalDataTest, EmptyModelDirRefusesExternalData) {
  WriteFile(root_ / "model" / "w.bin", std::string(4, '\0'));
  ExternalDataReader reader("");
  absl::Status status =
      LoadError(reader, ExternalProto("w", DataType::kFloat, {1}, "w.bin", "", ""));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), HasSubstr("no model folder"));
}

TEST_F(ExternalDataTest, MissingModelDirIsAnError) {
  ExternalDataReader reader((root_ / "no_such_folder").string());
  absl::Status status =
      LoadError(reader, ExternalProto("w", DataType::kFloat, {1}, "w.bin", "", ""));
  EXPECT_THAT(status.message(), HasSubstr("no_such_folder"));
}

// ---- Writing ----------------------------------------------------------------------------------

TEST_F(ExternalDataTest, WriterRoundTripsAt4096AlignedOffsets) {
  const Tensor a = Tensor::from_vector<float>({1, 2, 3, 4, 5}, {5});
  std::vector<int64_t> many(3000);
  for (size_t k = 0; k < many.size(); ++k) many[k] = static_cast<int64_t>(k * k) - 7;
  const Tensor b = Tensor::from_vector<int64_t>(many, {30, 100});
  const Tensor c = Tensor::from_vector<uint8_t>({9, 8, 7});
  onnx::TensorProto pa, pb, pc;
  pa.set_name("a");
  pb.set_name("b");
  pc.set_name("c");
  pa.add_float_data(99);  // stale fields the writer must clear
  pb.set_raw_data("stale");
  {
    ExternalDataWriter writer(model_dir(), "weights.data");
    ASSERT_TRUE(writer.Write(a, &pa).ok());
    ASSERT_TRUE(writer.Write(b, &pb).ok());
    ASSERT_TRUE(writer.Write(c, &pc).ok());
    EXPECT_FALSE(fs::exists(root_ / "model" / "weights.data")) << "in place before Finish()";
    absl::Status finished = writer.Finish();
    ASSERT_TRUE(finished.ok()) << finished;
    EXPECT_EQ(writer.bytes_written(), 4096 + 24000 + 4096 - 24000 % 4096 + 3);
  }
  EXPECT_EQ(EntryOf(pa, "offset"), "0");
  EXPECT_EQ(EntryOf(pb, "offset"), "4096");
  EXPECT_EQ(EntryOf(pc, "offset"), std::to_string(4096 * 7));
  EXPECT_EQ(EntryOf(pb, "length"), "24000");
  EXPECT_EQ(EntryOf(pa, "location"), "weights.data");
  for (const onnx::TensorProto* p : {&pa, &pb, &pc}) {
    EXPECT_EQ(p->data_location(), onnx::TensorProto::EXTERNAL);
    EXPECT_FALSE(p->has_raw_data());
    EXPECT_EQ(p->float_data_size(), 0);
  }
  EXPECT_EQ(pb.data_type(), static_cast<int32_t>(DataType::kInt64));
  EXPECT_THAT(pb.dims(), ::testing::ElementsAre(30, 100));
  // Padding is zeros; the file ends with the last tensor.
  const std::string file = ReadFile(root_ / "model" / "weights.data");
  ASSERT_EQ(file.size(), 4096u * 7 + 3);
  EXPECT_EQ(file.substr(20, 4096 - 20), std::string(4096 - 20, '\0'));
  // Nothing else is left in the folder.
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(root_ / "model")) ++entries;
  EXPECT_EQ(entries, 1);

  ExternalDataReader reader(model_dir());
  for (auto [proto, tensor] : {std::pair{&pa, &a}, std::pair{&pb, &b}, std::pair{&pc, &c}}) {
    absl::StatusOr<Tensor> loaded = reader.Load(*proto);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(*loaded, *tensor) << proto->name();
    EXPECT_TRUE(loaded->is_external_view()) << proto->name();
  }
}

TEST_F(ExternalDataTest, WriterReplacesAFileThatIsStillMapped) {
  const fs::path path = root_ / "model" / "w.data";
  WriteFile(path, BytesOf(std::vector<float>{1, 2, 3, 4}));
  ExternalDataReader reader(model_dir());
  absl::StatusOr<Tensor> old =
      reader.Load(ExternalProto("old", DataType::kFloat, {4}, "w.data", "", ""));
  ASSERT_TRUE(old.ok()) << old.status();
  ExternalDataWriter writer(model_dir(), "w.data");
  onnx::TensorProto proto;
  proto.set_name("new");
  ASSERT_TRUE(writer.Write(Tensor::from_vector<float>({5, 6}), &proto).ok());
  ASSERT_TRUE(writer.Finish().ok());
  // The old tensor still reads the old bytes; the file now holds the new ones.
  EXPECT_EQ(*old, Tensor::from_vector<float>({1, 2, 3, 4}));
  EXPECT_EQ(ReadFile(path), BytesOf(std::vector<float>{5, 6}));
}

TEST_F(ExternalDataTest, WriterRefusesBadNamesAndStrings) {
  const Tensor t = Tensor::from_vector<float>({1});
  for (const char* name : {"", ".", "..", "../w.data", "sub/w.data", "/tmp/w.data", "a\\b"}) {
    ExternalDataWriter writer(model_dir(), name);
    onnx::TensorProto proto;
    absl::Status status = writer.Write(t, &proto);
    EXPECT_FALSE(status.ok()) << name;
    EXPECT_THAT(status.message(), HasSubstr("file name")) << name;
    EXPECT_FALSE(writer.Finish().ok()) << name;
  }
  ExternalDataWriter writer(model_dir(), "w.data");
  onnx::TensorProto proto;
  proto.set_name("s");
  absl::Status status = writer.Write(Tensor::from_vector<std::string>({"x"}), &proto);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("'s'"));
  EXPECT_FALSE(ExternalDataWriter::ShouldWrite(Tensor::from_vector<std::string>({"long"}), 0));
  EXPECT_TRUE(ExternalDataWriter::ShouldWrite(Tensor::from_vector<float>({1, 2}), 7));
  EXPECT_FALSE(ExternalDataWriter::ShouldWrite(Tensor::from_vector<float>({1, 2}), 8));
  // Nothing written: nothing created.
  EXPECT_TRUE(writer.Finish().ok());
  EXPECT_FALSE(fs::exists(root_ / "model" / "w.data"));
  // Writing after Finish() would need a second file under the same name.
  EXPECT_FALSE(writer.Write(t, &proto).ok());
}

TEST_F(ExternalDataTest, WriterWithoutFinishLeavesNothing) {
  {
    ExternalDataWriter writer(model_dir(), "w.data");
    onnx::TensorProto proto;
    ASSERT_TRUE(writer.Write(Tensor::from_vector<float>({1, 2}), &proto).ok());
  }
  EXPECT_TRUE(fs::is_empty(root_ / "model"));
}

TEST_F(ExternalDataTest, WriterReportsAMissingOutputFolder) {
  ExternalDataWriter writer((root_ / "absent").string(), "w.data");
  onnx::TensorProto proto;
  absl::Status status = writer.Write(Tensor::from_vector<float>({1}), &proto);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("w.data"));
  EXPECT_FALSE(writer.Finish().ok());
}

// ---- Models -----------------------------------------------------------------------------------

// Y = MatMul(X, W) + B with W [64,64] in raw_data, B [64] in float_data, a small shape initializer.
onnx::ModelProto MatMulModel() {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("g");
  auto add_value = [](google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                      const std::string& name, const Dims& dims) {
    onnx::ValueInfoProto* info = list->Add();
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) tensor->mutable_shape()->add_dim()->set_dim_value(d);
  };
  add_value(graph->mutable_input(), "X", {1, 64});
  add_value(graph->mutable_output(), "Y", {1, 64});
  onnx::TensorProto* w = graph->add_initializer();
  w->set_name("W");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(64);
  w->add_dims(64);
  std::vector<float> weights(64 * 64);
  for (size_t k = 0; k < weights.size(); ++k) weights[k] = static_cast<float>(k) * 0.5f - 3.0f;
  w->set_raw_data(BytesOf(weights));
  onnx::TensorProto* b = graph->add_initializer();
  b->set_name("B");
  b->set_data_type(onnx::TensorProto::FLOAT);
  b->add_dims(300);
  for (int k = 0; k < 300; ++k) b->add_float_data(static_cast<float>(k) / 7);
  onnx::TensorProto* small = graph->add_initializer();
  small->set_name("small");
  small->set_data_type(onnx::TensorProto::INT64);
  small->add_dims(2);
  small->add_int64_data(1);
  small->add_int64_data(64);
  onnx::NodeProto* matmul = graph->add_node();
  matmul->set_op_type("MatMul");
  matmul->add_input("X");
  matmul->add_input("W");
  matmul->add_output("XW");
  onnx::NodeProto* slice = graph->add_node();  // B[0:64]: uses B without another input
  slice->set_op_type("Slice");
  slice->add_input("B");
  slice->add_input("zero");
  slice->add_input("sixty_four");
  slice->add_output("B64");
  for (auto [name, value] : {std::pair{"zero", 0}, std::pair{"sixty_four", 64}}) {
    onnx::TensorProto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(1);
    t->add_int64_data(value);
  }
  onnx::NodeProto* add = graph->add_node();
  add->set_op_type("Add");
  add->add_input("XW");
  add->add_input("B64");
  add->add_output("Y");
  return model;
}

const onnx::TensorProto& Initializer(const onnx::ModelProto& model, const std::string& name) {
  for (const auto& t : model.graph().initializer()) {
    if (t.name() == name) return t;
  }
  ADD_FAILURE() << "no initializer " << name;
  return model.graph().initializer(0);
}

TEST_F(ExternalDataTest, MovedInitializersPassTheCheckerAndLoadBack) {
  const onnx::ModelProto original = MatMulModel();
  ASSERT_NO_THROW(onnx::checker::check_model(original));
  onnx::ModelProto model = original;
  ExternalDataWriter writer(model_dir(), "model.onnx.data");
  ASSERT_TRUE(MoveToExternalData(model, writer, 1024).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_TRUE(UsesExternalData(model));
  EXPECT_FALSE(UsesExternalData(original));
  EXPECT_EQ(Initializer(model, "W").data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(Initializer(model, "B").data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(Initializer(model, "B").float_data_size(), 0);
  EXPECT_EQ(Initializer(model, "small").data_location(), onnx::TensorProto::DEFAULT);
  EXPECT_EQ(Initializer(model, "small").int64_data_size(), 2);

  const std::string model_path = (root_ / "model" / "model.onnx").string();
  {
    std::ofstream out(model_path, std::ios::binary);
    ASSERT_TRUE(model.SerializeToOstream(&out));
  }
  EXPECT_NO_THROW(onnx::checker::check_model(model_path));
  // The in-memory check_model looks for data files in the current folder: check each tensor
  // against the model folder instead.
  onnx::checker::CheckerContext context;
  context.set_ir_version(8);
  context.set_model_dir(model_dir());
  for (const onnx::TensorProto& initializer : model.graph().initializer()) {
    EXPECT_NO_THROW(onnx::checker::check_tensor(initializer, context)) << initializer.name();
  }

  absl::StatusOr<onnx::ModelProto> reloaded = LoadModelFile(model_path);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  ExternalDataReader reader(model_dir());
  ExternalDataReader inline_reader("");
  for (const char* name : {"W", "B", "small"}) {
    absl::StatusOr<Tensor> moved = reader.Load(Initializer(*reloaded, name));
    absl::StatusOr<Tensor> before = inline_reader.Load(Initializer(original, name));
    ASSERT_TRUE(moved.ok()) << moved.status();
    ASSERT_TRUE(before.ok()) << before.status();
    EXPECT_EQ(*moved, *before) << name;
  }
}

TEST_F(ExternalDataTest, MoveRefusesRawDataThatDoesNotMatchTheDims) {
  onnx::ModelProto model = MatMulModel();
  model.mutable_graph()->mutable_initializer(0)->mutable_raw_data()->resize(64 * 64 * 4 - 4);
  ExternalDataWriter writer(model_dir(), "model.onnx.data");
  absl::Status status = MoveToExternalData(model, writer, 1024);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("'W'"));
}

TEST_F(ExternalDataTest, UsesExternalDataLooksIntoBodiesAndFunctions) {
  onnx::ModelProto model;
  onnx::NodeProto* node = model.mutable_graph()->add_node();
  node->set_op_type("If");
  onnx::AttributeProto* branch = node->add_attribute();
  branch->set_name("then_branch");
  onnx::NodeProto* inner = branch->mutable_g()->add_node();
  inner->set_op_type("Constant");
  onnx::AttributeProto* value = inner->add_attribute();
  value->set_name("value");
  value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  EXPECT_FALSE(UsesExternalData(model));
  value->mutable_t()->set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_TRUE(UsesExternalData(model));

  onnx::ModelProto with_function;
  onnx::NodeProto* constant = with_function.add_functions()->add_node();
  constant->set_op_type("Constant");
  onnx::AttributeProto* sparse = constant->add_attribute();
  sparse->set_name("sparse_value");
  sparse->mutable_sparse_tensor()->mutable_values()->set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_TRUE(UsesExternalData(with_function));
}

TEST_F(ExternalDataTest, LoadModelFileReportsBadFiles) {
  const fs::path dir = root_ / "model";
  absl::StatusOr<onnx::ModelProto> model = LoadModelFile((dir / "absent.onnx").string());
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(model.status().message(), HasSubstr("absent.onnx"));

  WriteFile(dir / "empty.onnx", "");
  model = LoadModelFile((dir / "empty.onnx").string());
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("empty"));

  model = LoadModelFile(dir.string());
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("folder"));

  WriteFile(dir / "text.onnx", "this is plainly not a model\n\xff\xff\xff\xff");
  model = LoadModelFile((dir / "text.onnx").string());
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("not an ONNX model"));

  // Past protobuf's limit: refused by its size, before reading (a sparse file).
  { std::ofstream create(dir / "huge.onnx"); }
  fs::resize_file(dir / "huge.onnx", std::uintmax_t{1} << 31);
  model = LoadModelFile((dir / "huge.onnx").string());
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("2 GB"));

  const std::string whole = MatMulModel().SerializeAsString();
  WriteFile(dir / "whole.onnx", whole);
  model = LoadModelFile((dir / "whole.onnx").string());
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->SerializeAsString(), whole);

  // Cut inside W's raw_data, and at every 97th byte: an error or a model, never a crash.
  WriteFile(dir / "truncated.onnx", whole.substr(0, whole.size() / 2));
  model = LoadModelFile((dir / "truncated.onnx").string());
  ASSERT_FALSE(model.ok());
  EXPECT_THAT(model.status().message(), HasSubstr("truncated"));
  for (size_t cut = 1; cut < whole.size(); cut += 97) {
    WriteFile(dir / "cut.onnx", whole.substr(0, cut));
    (void)LoadModelFile((dir / "cut.onnx").string());
  }
}

}  // namespace
