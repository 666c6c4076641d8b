// graphgc::fold with external data in and out (issue 32, models bigger than memory): the values a
// fold writes go to the output's side file as they are decided, not all at once at the export;
// the weights it keeps are copied file to file; and a data file shorter than its model says is an
// error naming the tensor and its bytes, with nothing left behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "onnx/onnx_pb.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kWidth = 256;                        // weights of [256, 256] floats
constexpr int64_t kWeightBytes = kWidth * kWidth * 4;  // 256 KiB each
constexpr int kTransposed = 8;                         // weights behind a Transpose

class FoldExternalDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           absl::StrCat("fold_external_data_test_", info->name(), "_", getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "model");
    fs::create_directories(dir_ / "out");
  }
  void TearDown() override { fs::remove_all(dir_); }

  static Tensor Weight(int seed) {
    std::vector<float> values(kWidth * kWidth);
    for (size_t k = 0; k < values.size(); ++k) {
      values[k] = static_cast<float>((k * 7 + seed * 13) % 97) / 97.0f - 0.5f;
    }
    return Tensor::from_vector<float>(values, {kWidth, kWidth});
  }

  // y = x @ T(w0) @ T(w1) ... @ T(w7) @ kept: eight weights stored transposed (the Transposes
  // fold) and one used as it is, all in "weights.bin" beside the model. `transposes_first`: the
  // model computes the eight Transposes before the first MatMul (its nodes in that order).
  std::string SaveModel(bool transposes_first = false) {
    Graph g;
    Var y = g.argument("x", DataType::kFloat, {1, kWidth});
    std::vector<Var> transposed;
    for (int i = 0; i < kTransposed; ++i) {
      Var weight = g.constant(Weight(i));
      if (transposes_first) transposed.push_back(op::Transpose(weight, {.perm = {1, 0}}));
      if (!transposes_first) y = op::MatMul(y, op::Transpose(weight, {.perm = {1, 0}}));
    }
    for (const Var& weight : transposed) y = op::MatMul(y, weight);
    y = op::MatMul(y, g.constant(Weight(100)));
    ExportOptions options;
    options.constants_as_initializers = true;
    absl::StatusOr<onnx::ModelProto> model = to_onnx(g, {{"y", y}}, options);
    EXPECT_TRUE(model.ok()) << model.status();
    const std::string path = (dir_ / "model" / "model.onnx").string();
    const absl::Status saved = save_model(*model, path, {.external_data_file = "weights.bin"});
    EXPECT_TRUE(saved.ok()) << saved;
    return path;
  }

  FoldOptions Options() const {
    FoldOptions options;
    options.model_dir = (dir_ / "model").string();
    options.output_dir = (dir_ / "out").string();
    options.external_data_file = "folded.bin";
    return options;
  }

  // y of `model` (external data read from `folder`) for a fixed x.
  static std::vector<float> Run(const onnx::ModelProto& model, const std::string& folder) {
    std::vector<float> x(kWidth);
    for (int64_t k = 0; k < kWidth; ++k) x[k] = static_cast<float>(k % 11) - 5.0f;
    Graph g;
    InlineOptions options;
    options.model_dir = folder;
    auto outputs = inline_model(
        g, model, {{"x", g.constant(Tensor::from_vector<float>(x, {1, kWidth}))}}, options);
    EXPECT_TRUE(outputs.ok()) << outputs.status();
    if (!outputs.ok() || !outputs->at("y").value().has_value()) return {};
    const auto values = outputs->at("y").value()->data<float>();
    return std::vector<float>(values.begin(), values.end());
  }

  fs::path dir_;
};

TEST_F(FoldExternalDataTest, WrittenValuesGoToTheFileAsDecidedAndAreNotAllHeld) {
  const std::string path = SaveModel();
  absl::StatusOr<onnx::ModelProto> model = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<FoldResult> folded = fold(*model, Options());
  ASSERT_TRUE(folded.ok()) << folded.status();

  EXPECT_EQ(folded->stats.nodes_folded, kTransposed);
  int external = 0;
  for (const onnx::TensorProto& initializer : folded->model.graph().initializer()) {
    if (initializer.data_location() != onnx::TensorProto::EXTERNAL) continue;
    ++external;
    EXPECT_EQ(initializer.external_data(0).value(), "folded.bin") << initializer.name();
  }
  EXPECT_EQ(external, kTransposed + 1);
  // Each Transpose's value was written and let go as its MatMul was read in: the values live at
  // once are a few, never the eight (2 MiB) a fold holding them to the export would keep.
  EXPECT_LE(folded->stats.peak_live_value_bytes, 2 * kWeightBytes + (int64_t{64} << 10));
  EXPECT_GT(fs::file_size(dir_ / "out" / "folded.bin"), (kTransposed + 1) * kWeightBytes - 1);
  // The most held after one node: a Transpose's mapped weight and its output, or a MatMul's.
  EXPECT_FALSE(folded->stats.peak_node.empty());
  EXPECT_GE(folded->stats.peak_node_bytes, kWeightBytes);
  EXPECT_LE(folded->stats.peak_node_bytes, 3 * kWeightBytes);

  const std::vector<float> before = Run(*model, (dir_ / "model").string());
  const std::vector<float> after = Run(folded->model, (dir_ / "out").string());
  ASSERT_EQ(before.size(), static_cast<size_t>(kWidth));
  EXPECT_EQ(after, before) << "the folded model computes the same bits";
}

TEST_F(FoldExternalDataTest, TransposesTheModelComputesFirstAreStillWrittenOneAtATime) {
  const std::string path = SaveModel(/*transposes_first=*/true);
  absl::StatusOr<onnx::ModelProto> model = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->graph().node(kTransposed - 1).op_type(), "Transpose");
  absl::StatusOr<FoldResult> folded = fold(*model, Options());
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(folded->stats.nodes_folded, kTransposed);
  // Each Transpose is computed just before its MatMul, so its value is written and let go there
  // rather than held from the top of the model with the seven others.
  EXPECT_LE(folded->stats.peak_live_value_bytes, 2 * kWeightBytes + (int64_t{64} << 10));
  EXPECT_EQ(Run(folded->model, (dir_ / "out").string()), Run(*model, (dir_ / "model").string()));
}

TEST_F(FoldExternalDataTest, AKeptWeightIsCopiedBitForBit) {
  const std::string path = SaveModel();
  absl::StatusOr<onnx::ModelProto> model = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(model.ok()) << model.status();
  absl::StatusOr<FoldResult> folded = fold(*model, Options());
  ASSERT_TRUE(folded.ok()) << folded.status();
  absl::StatusOr<onnx::ModelProto> original = load_model(path);
  ASSERT_TRUE(original.ok()) << original.status();
  std::map<std::string, std::string> original_bytes;
  for (const onnx::TensorProto& initializer : original->graph().initializer()) {
    original_bytes[initializer.name()] = initializer.raw_data();
  }
  absl::StatusOr<onnx::ModelProto> saved = [&] {
    const std::string out = (dir_ / "out" / "folded.onnx").string();
    const absl::Status written = save_model(folded->model, out);
    EXPECT_TRUE(written.ok()) << written;
    return load_model(out);
  }();
  ASSERT_TRUE(saved.ok()) << saved.status();
  int compared = 0;
  for (const onnx::TensorProto& initializer : saved->graph().initializer()) {
    auto it = original_bytes.find(initializer.name());
    if (it == original_bytes.end() || it->second.size() != static_cast<size_t>(kWeightBytes)) {
      continue;
    }
    EXPECT_TRUE(initializer.raw_data() == it->second) << initializer.name();
    ++compared;
  }
  EXPECT_GE(compared, 1);
}

TEST_F(FoldExternalDataTest, AShortDataFileIsAnErrorNamingTheTensorAndLeavesNothing) {
  const std::string path = SaveModel();
  absl::StatusOr<onnx::ModelProto> model = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(model.ok()) << model.status();
  const fs::path data = dir_ / "model" / "weights.bin";
  fs::resize_file(data, fs::file_size(data) - kWeightBytes / 2);
  absl::StatusOr<FoldResult> folded = fold(*model, Options());
  ASSERT_FALSE(folded.ok());
  // The last tensor in the file is the one cut short; its name and bytes are in the message.
  std::string last_name;
  int64_t last_offset = -1;
  for (const onnx::TensorProto& initializer : model->graph().initializer()) {
    for (const auto& entry : initializer.external_data()) {
      if (entry.key() == "offset" && std::stoll(entry.value()) > last_offset) {
        last_offset = std::stoll(entry.value());
        last_name = initializer.name();
      }
    }
  }
  EXPECT_THAT(std::string(folded.status().message()),
              ::testing::AllOf(::testing::HasSubstr(absl::StrCat("'", last_name, "'")),
                               ::testing::HasSubstr(absl::StrCat("bytes ", last_offset, " to ")),
                               ::testing::HasSubstr("past the end of the file")));
  EXPECT_TRUE(fs::is_empty(dir_ / "out")) << "no partial output";
}

}  // namespace
}  // namespace graphgc
