// Tensors in and out of TensorProtos and .pb files (export/onnx/tensor_files.h), and the printed
// forms of Tensor, Var and VarType.
#include "graphgc/export/onnx/tensor_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "onnx_conformance_util.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string FileBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string Printed(const auto& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

// The declared type of the .pb file `file` (input_K.pb or output_K.pb) of a test's model.
const onnx::TypeProto* DeclaredType(const onnx::ModelProto& model, const std::string& file) {
  const bool input = file.rfind("input_", 0) == 0;
  const bool output = file.rfind("output_", 0) == 0;
  if (!input && !output) return nullptr;
  const int index = std::atoi(file.c_str() + (input ? 6 : 7));
  const auto& values = input ? model.graph().input() : model.graph().output();
  return index < values.size() ? &values.Get(index).type() : nullptr;
}

// Every tensor file of ONNX's node test data reads into a Tensor; written back, one stored as
// raw_data (or string_data) gives the very bytes of the file, and one stored in typed fields reads
// back into the same tensor.
TEST(TensorFilesTest, EveryTestDataTensorRoundTrips) {
  const std::vector<std::string> dirs = onnx_conformance::ListTestDirs();
  ASSERT_GE(dirs.size(), onnx_conformance::kMinimumTestCount)
      << "ONNX's node test data is missing (install libonnx-testdata)";
  int same_bytes = 0;
  int same_tensor = 0;
  int unsupported = 0;
  for (const std::string& dir : dirs) {
    onnx::ModelProto model;
    ASSERT_TRUE(onnx_conformance::ParseFile(fs::path(dir) / "model.onnx", &model)) << dir;
    for (const fs::directory_entry& set : fs::directory_iterator(dir)) {
      if (!set.is_directory()) continue;
      for (const fs::directory_entry& file : fs::directory_iterator(set.path())) {
        const onnx::TypeProto* type = DeclaredType(model, file.path().filename().string());
        if (type == nullptr || !type->has_tensor_type()) continue;  // sequences, optionals
        const std::string bytes = FileBytes(file.path());
        onnx::TensorProto proto;
        ASSERT_TRUE(proto.ParseFromString(bytes)) << file.path();
        const absl::StatusOr<Tensor> tensor = load_tensor(file.path().string());
        if (!tensor.ok()) {
          // Only element types graphgc does not hold (complex numbers) may fail.
          EXPECT_THAT(std::string(tensor.status().message()), HasSubstr("element type"))
              << file.path() << ": " << tensor.status();
          ++unsupported;
          continue;
        }
        const absl::StatusOr<onnx::TensorProto> written = to_tensor_proto(*tensor, proto.name());
        ASSERT_TRUE(written.ok()) << written.status();
        if (proto.has_raw_data() || proto.string_data_size() > 0 || tensor->size() == 0) {
          EXPECT_EQ(written->SerializeAsString(), bytes) << file.path();
          ++same_bytes;
        } else {
          const absl::StatusOr<Tensor> again = from_tensor_proto(*written);
          ASSERT_TRUE(again.ok()) << again.status();
          EXPECT_EQ(Printed(*again), Printed(*tensor)) << file.path();
          EXPECT_EQ(again->nbytes(), tensor->nbytes());
          ++same_tensor;
        }
      }
    }
  }
  std::printf("tensor files: %d written back byte for byte, %d read back equal, %d unsupported\n",
              same_bytes, same_tensor, unsupported);
  EXPECT_GT(same_bytes, 1000);
}

TEST(TensorFilesTest, SavedFilesLoadBackAndKeepTheirName) {
  const fs::path dir = fs::temp_directory_path() / absl::StrCat("graphgc_tensor_files_", getpid());
  fs::create_directories(dir);
  const Tensor floats = Tensor::from_vector<float>({1.5f, -2, 3, 4, 5, 6}, {2, 3});
  const Tensor strings = Tensor::from_vector<std::string>({"a", "", "b\n"}, {3});
  for (const Tensor& tensor : {floats, strings}) {
    const std::string path = (dir / "t.pb").string();
    ASSERT_TRUE(save_tensor(tensor, path, "named").ok());
    const absl::StatusOr<Tensor> loaded = load_tensor(path);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(Printed(*loaded), Printed(tensor));
    onnx::TensorProto proto;
    ASSERT_TRUE(proto.ParseFromString(FileBytes(path)));
    EXPECT_EQ(proto.name(), "named");
  }
  fs::remove_all(dir);
}

// ONNX's test data holds raw_data only; protos written by other tools use the typed fields.
TEST(TensorFilesTest, TypedFieldsReadLikeRawData) {
  onnx::TensorProto floats;
  floats.set_data_type(onnx::TensorProto::FLOAT);
  floats.add_dims(2);
  floats.add_float_data(1.5f);
  floats.add_float_data(-2);
  EXPECT_EQ(Printed(*from_tensor_proto(floats)), "float[2] {1.5, -2}");
  onnx::TensorProto halves;  // 16-bit floats as bit patterns in int32_data
  halves.set_data_type(onnx::TensorProto::FLOAT16);
  halves.add_dims(2);
  halves.add_int32_data(0x3C00);  // 1
  halves.add_int32_data(0xC000);  // -2
  EXPECT_EQ(Printed(*from_tensor_proto(halves)), "float16[2] {1, -2}");
  onnx::TensorProto flags;
  flags.set_data_type(onnx::TensorProto::BOOL);
  flags.add_dims(2);
  flags.add_int32_data(1);
  flags.add_int32_data(0);
  EXPECT_EQ(Printed(*from_tensor_proto(flags)), "bool[2] {true, false}");
  onnx::TensorProto longs;
  longs.set_data_type(onnx::TensorProto::INT64);
  longs.add_int64_data(-7);  // no dims: a scalar
  EXPECT_EQ(Printed(*from_tensor_proto(longs)), "int64[] {-7}");
  onnx::TensorProto unsigned_longs;
  unsigned_longs.set_data_type(onnx::TensorProto::UINT64);
  unsigned_longs.add_dims(1);
  unsigned_longs.add_uint64_data(uint64_t{1} << 63);
  EXPECT_EQ(Printed(*from_tensor_proto(unsigned_longs)), "uint64[1] {9223372036854775808}");
  onnx::TensorProto doubles;
  doubles.set_data_type(onnx::TensorProto::DOUBLE);
  doubles.add_dims(1);
  doubles.add_double_data(0.25);
  const absl::StatusOr<Tensor> tensor = from_tensor_proto(doubles);
  ASSERT_TRUE(tensor.ok());
  // Written back as raw_data: the same tensor, in the form numpy_helper writes.
  const absl::StatusOr<onnx::TensorProto> written = to_tensor_proto(*tensor, "d");
  ASSERT_TRUE(written.ok());
  EXPECT_TRUE(written->has_raw_data());
  EXPECT_EQ(written->double_data_size(), 0);
  EXPECT_EQ(Printed(*from_tensor_proto(*written)), "double[1] {0.25}");
}

TEST(TensorFilesTest, MistakesAreStatuses) {
  const absl::StatusOr<onnx::TensorProto> empty = to_tensor_proto(Tensor());
  EXPECT_THAT(std::string(empty.status().message()), HasSubstr("empty"));
  EXPECT_FALSE(save_tensor(Tensor(), "/nonexistent/never.pb").ok());
  EXPECT_EQ(load_tensor("/nonexistent/never.pb").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(save_tensor(Tensor::scalar<float>(1), "/nonexistent/dir/t.pb").ok());

  const fs::path junk = fs::temp_directory_path() / absl::StrCat("graphgc_junk_", getpid());
  std::ofstream(junk, std::ios::binary) << "\xff\xff\xff\xff not a proto";
  EXPECT_THAT(std::string(load_tensor(junk.string()).status().message()),
              HasSubstr("not a serialized TensorProto"));
  fs::remove(junk);

  onnx::TensorProto external;
  external.set_data_type(onnx::TensorProto::FLOAT);
  external.add_dims(2);
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_THAT(std::string(from_tensor_proto(external).status().message()),
              HasSubstr("external data"));
  onnx::TensorProto short_data;
  short_data.set_data_type(onnx::TensorProto::FLOAT);
  short_data.add_dims(3);
  short_data.add_float_data(1);
  EXPECT_FALSE(from_tensor_proto(short_data).ok());
  onnx::TensorProto complex;
  complex.set_data_type(onnx::TensorProto::COMPLEX64);
  EXPECT_FALSE(from_tensor_proto(complex).ok());
}

TEST(PrintTest, TensorsShowTypeShapeAndTheFirstElements) {
  EXPECT_EQ(Printed(Tensor::from_vector<float>({1.5f, -2, 3, 4, 5, 6}, {2, 3})),
            "float[2,3] {1.5, -2, 3, 4, 5, 6}");
  EXPECT_EQ(Printed(Tensor::from_vector<int64_t>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {10})),
            "int64[10] {0, 1, 2, 3, 4, 5, 6, 7, ... (10 in all)}");
  EXPECT_EQ(Printed(Tensor::from_vector<std::string>({"a\"b", "\n"}, {2})),
            "string[2] {\"a\\\"b\", \"\\n\"}");
  EXPECT_EQ(Printed(Tensor::from_vector<int8_t>({-1, 65}, {2})), "int8[2] {-1, 65}");
  EXPECT_EQ(Printed(Tensor::from_vector<bool>({true, false}, {2})), "bool[2] {true, false}");
  EXPECT_EQ(Printed(Tensor::scalar<double>(0.25)), "double[] {0.25}");
  EXPECT_EQ(Printed(Tensor::from_vector<float>({}, {0, 3})), "float[0,3] {}");
  EXPECT_EQ(Printed(Tensor()), "undefined[0]");
}

TEST(PrintTest, VarsShowTheirTypeValueOrFailure) {
  EXPECT_EQ(Printed(Var()), "Var(empty)");
  Graph g;
  const Var x = g.argument("x", DataType::kFloat, {-1, 3});
  EXPECT_EQ(Printed(x), "Var(tensor(float)[-1,3])");
  const Var c = g.constant(Tensor::from_vector<float>({1, 2}, {2}));
  EXPECT_EQ(Printed(op::Neg(c)), "Var(tensor(float)[2] = float[2] {-1, -2})");
  const Var failed = op::Add(x, g.argument("d", DataType::kDouble, {3}));
  EXPECT_THAT(Printed(failed), HasSubstr("Var(failed: INVALID_ARGUMENT: Add"));
  EXPECT_EQ(Printed(VarType::Sequence(VarType::Tensor(DataType::kInt64, std::vector<int64_t>{2}))),
            "seq(tensor(int64)[2])");
}

}  // namespace
}  // namespace graphgc
