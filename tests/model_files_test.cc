// load_model and save_model: models as files, with ONNX external data read back into the model
// and written out beside it; locations that leave the model's folder are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

class ModelFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("graphgc_model_files_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "model");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // y = x + w, w a 1000-float initializer.
  onnx::ModelProto ModelWithWeights() {
    std::vector<float> weights(1000);
    std::iota(weights.begin(), weights.end(), 0.5f);
    weights_ = weights;
    Graph g;
    Var x = g.argument("x", DataType::kFloat, {1000});
    Var w = g.constant(Tensor::from_vector<float>(weights, {1000}));
    ExportOptions options;
    options.values_as_initializers = true;
    auto model = to_onnx(g, {{"y", op::Add(x, w)}}, options);
    EXPECT_TRUE(model.ok()) << model.status();
    EXPECT_EQ(model->graph().initializer_size(), 1);
    return *model;
  }

  // The model saved with its weights in "weights.bin"; the model's path.
  std::string SaveWithExternalData() {
    const std::string path = (dir_ / "model" / "model.onnx").string();
    const absl::Status saved =
        save_model(ModelWithWeights(), path, {.external_data_file = "weights.bin"});
    EXPECT_TRUE(saved.ok()) << saved;
    return path;
  }

  // y for x = 0: the weights, computed by inlining `model`.
  std::vector<float> Run(const onnx::ModelProto& model, const InlineOptions& options = {}) {
    Graph g;
    Var x = g.constant(Tensor::zeros(DataType::kFloat, {1000}));
    auto outputs = inline_model(g, model, {{"x", x}}, options);
    EXPECT_TRUE(outputs.ok()) << outputs.status();
    if (!outputs.ok() || !outputs->at("y").value().has_value()) return {};
    const auto values = outputs->at("y").value()->data<float>();
    return std::vector<float>(values.begin(), values.end());
  }

  fs::path dir_;
  std::vector<float> weights_;
};

TEST_F(ModelFilesTest, ExternalDataIsWrittenBesideTheModelAndReadBackIntoIt) {
  const std::string path = SaveWithExternalData();
  ASSERT_TRUE(fs::exists(dir_ / "model" / "weights.bin"));
  EXPECT_GE(fs::file_size(dir_ / "model" / "weights.bin"), 4000u);
  EXPECT_LT(fs::file_size(path), 1000u);  // the weights are not in the model

  auto loaded = load_model(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const onnx::TensorProto& w = loaded->graph().initializer(0);
  EXPECT_NE(w.data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(w.external_data_size(), 0);
  EXPECT_EQ(w.raw_data().size(), 4000u);
  EXPECT_THAT(Run(*loaded), ElementsAreArray(weights_));
  // Standing alone, it saves and loads without its side file.
  const std::string alone = (dir_ / "alone.onnx").string();
  ASSERT_TRUE(save_model(*loaded, alone).ok());
  auto again = load_model(alone);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->SerializeAsString(), loaded->SerializeAsString());
}

TEST_F(ModelFilesTest, ExternalDataLeftInPlaceIsMappedByInlineModel) {
  const std::string path = SaveWithExternalData();
  auto loaded = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->graph().initializer(0).data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_THAT(Run(*loaded, {.model_dir = (dir_ / "model").string()}), ElementsAreArray(weights_));
}

TEST_F(ModelFilesTest, LocationsOutsideTheModelsFolderAreRefused) {
  const std::string path = SaveWithExternalData();
  auto model = load_model(path, {.load_external_data = false});
  ASSERT_TRUE(model.ok()) << model.status();
  fs::copy_file(dir_ / "model" / "weights.bin", dir_ / "outside.bin");
  fs::create_symlink(dir_ / "outside.bin", dir_ / "model" / "link.bin");
  for (const std::string& location :
       {std::string("../outside.bin"), (dir_ / "outside.bin").string(), std::string("link.bin")}) {
    onnx::ModelProto escaping = *model;
    for (auto& entry : *escaping.mutable_graph()->mutable_initializer(0)->mutable_external_data()) {
      if (entry.key() == "location") entry.set_value(location);
    }
    const std::string escaping_path = (dir_ / "model" / "escaping.onnx").string();
    ASSERT_TRUE(save_model(escaping, escaping_path).ok());
    auto loaded = load_model(escaping_path);
    ASSERT_FALSE(loaded.ok()) << location;
    EXPECT_THAT(loaded.status().message(), HasSubstr("load_model: ")) << location;
    EXPECT_THAT(loaded.status().message(), HasSubstr(location)) << location;
  }
}

TEST_F(ModelFilesTest, FilesThatAreNotModelsAreErrorsNamingThem) {
  const std::string missing = (dir_ / "missing.onnx").string();
  auto not_there = load_model(missing);
  ASSERT_FALSE(not_there.ok());
  EXPECT_THAT(not_there.status().message(), HasSubstr(missing));
  const std::string text = (dir_ / "text.onnx").string();
  std::ofstream(text) << "not a model at all";
  auto garbage = load_model(text);
  ASSERT_FALSE(garbage.ok());
  EXPECT_THAT(garbage.status().message(), HasSubstr("is not an ONNX model"));
  const absl::Status bad_name = save_model(ModelWithWeights(), (dir_ / "m.onnx").string(),
                                           {.external_data_file = "../up.bin"});
  EXPECT_FALSE(bad_name.ok());
}

}  // namespace
}  // namespace graphgc
