// Converting a model to another opset must not change what it computes. Every model of ONNX's
// test data is imported at its own opset with its test inputs, then converted (ONNX's version
// converter, export/onnx/opset_conversion.h) up to the newest opset and down to the one before
// its own, 12, 9 and 7; wherever a conversion is made and both imports give an output a value,
// the values must agree (floats within 1e-5, relative; NaN with NaN; everything else exactly).
// Each model taken down is also exported at that opset and imported again as it is by default,
// converted back up to the newest: the way a user's old model comes in, through the adapters
// of every opset between (no test model is at opset 10, so Resize-10's adapter went unchecked
// until this round trip and legacy_resampling_conversion_test).
// A conversion the import refuses (the model keeps its opset, with a warning) is fine; a crash
// (this test ends) or another value is not. ONNX's Softmax 13 to 12 adapter changed values, and
// its adapters that move an input back into an attribute read past omitted inputs
// (export/onnx/down_conversion_guard.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/graphgc.h"
#include "onnx_conformance_util.h"

namespace graphgc {
namespace {

namespace fs = std::filesystem;

struct Imported {
  int opset = 0;
  std::map<std::string, std::optional<Tensor>> outputs;
  // The imported graph exported at that opset (inputs as constants); nullopt if it does not
  // export.
  std::optional<onnx::ModelProto> exported;
};

// The model imported at `opset` (0: its own) with test_data_set_0's inputs; nullopt when the
// import fails.
std::optional<Imported> ImportAt(const onnx::ModelProto& model, const fs::path& dir, int opset) {
  Graph g;
  const std::map<std::string, Var> inputs = onnx_conformance::BindTestInputs(model, dir, g);
  auto imported = import_model(g, model, inputs, {.opset = opset});
  if (!imported.ok()) return std::nullopt;
  Imported result;
  result.opset = imported->onnx_opset;
  for (const auto& [name, var] : imported->outputs) result.outputs[name] = var.value();
  std::vector<std::pair<std::string, Var>> outputs(imported->outputs.begin(),
                                                   imported->outputs.end());
  absl::StatusOr<onnx::ModelProto> exported = to_onnx(g, outputs);
  if (exported.ok()) result.exported = *std::move(exported);
  return result;
}

// A model taken down to an older opset, then imported as it is by default: converted up to the
// newest with the adapters of every opset between (the way a user's old model comes in).
std::optional<Imported> BackUp(const Imported& converted_down) {
  if (!converted_down.exported.has_value()) return std::nullopt;
  Graph g;
  auto imported = import_model(g, *converted_down.exported);
  if (!imported.ok() || imported->onnx_opset != kNewestOnnxOpset) return std::nullopt;
  Imported result;
  result.opset = imported->onnx_opset;
  for (const auto& [name, var] : imported->outputs) result.outputs[name] = var.value();
  return result;
}

bool SameShape(const Tensor& a, const Tensor& b) {
  return std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end());
}

bool Agree(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || !SameShape(a, b)) return false;
  if (a.dtype() != DataType::kFloat) return a == b;
  const auto x = a.data<float>();
  const auto y = b.data<float>();
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))) continue;
    if (!(std::abs(x[i] - y[i]) <= 1e-5f * std::max(1.0f, std::abs(x[i])))) return false;
  }
  return true;
}

int OnnxOpset(const onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import()) {
    if (opset.domain().empty() || opset.domain() == "ai.onnx") return opset.version();
  }
  return 0;
}

struct Tally {
  int models = 0;
  int conversions = 0;  // made, and compared
  int round_trips = 0;  // down, then back up to the newest, and compared
};

void ExpectSameOutputs(const Imported& own, const Imported& converted, const fs::path& dir,
                       const std::string& how) {
  for (const auto& [name, value] : own.outputs) {
    auto it = converted.outputs.find(name);
    if (!value.has_value() || it == converted.outputs.end() || !it->second.has_value()) continue;
    EXPECT_TRUE(Agree(*value, *it->second))
        << dir.filename().string() << ": output '" << name << "' differs " << how;
  }
}

void CheckModel(const fs::path& dir, Tally& tally) {
  absl::StatusOr<onnx::ModelProto> model = load_model((dir / "model.onnx").string());
  if (!model.ok()) return;  // the conformance tests account for the suites' unreadable models
  const int from = OnnxOpset(*model);
  const std::optional<Imported> own = ImportAt(*model, dir, 0);
  if (!own.has_value()) return;
  ++tally.models;
  for (const int target : {kNewestOnnxOpset, from - 1, 12, 9, 7}) {
    if (target == from || target < 1) continue;
    const std::optional<Imported> converted = ImportAt(*model, dir, target);
    if (!converted.has_value() || converted->opset != target) continue;
    ++tally.conversions;
    ExpectSameOutputs(*own, *converted, dir,
                      absl::StrCat("at opset ", from, " and converted to ", target));
    if (target >= from || target == kNewestOnnxOpset) continue;
    if (const std::optional<Imported> back = BackUp(*converted)) {
      ++tally.round_trips;
      ExpectSameOutputs(*own, *back, dir,
                        absl::StrCat("at opset ", from, " and converted to ", target,
                                     ", then up to ", kNewestOnnxOpset));
    }
  }
}

Tally CheckSuite(const fs::path& suite) {
  Tally tally;
  for (const std::string& dir : onnx_conformance::ListTestDirs(suite)) CheckModel(dir, tally);
  return tally;
}

const fs::path kDebianData = "/usr/share/libonnx-testdata/data";

TEST(ConversionValuesTest, OlderPyTorchModels) {
  for (const char* suite : {"pytorch-converted", "pytorch-operator", "simple"}) {
    const Tally tally = CheckSuite(kDebianData / suite);
    EXPECT_GT(tally.conversions, tally.models / 2) << suite;
    std::cout << suite << ": " << tally.models << " models, " << tally.conversions
              << " conversions, " << tally.round_trips << " round trips\n";
  }
}

TEST(ConversionValuesTest, NodeCasesOfOnnx112) {
  const Tally tally = CheckSuite(kDebianData / "node");
  EXPECT_GT(tally.models, 800);
  EXPECT_GT(tally.conversions, tally.models);
  EXPECT_GT(tally.round_trips, tally.models / 5);
  std::cout << tally.models << " models, " << tally.conversions << " conversions, "
            << tally.round_trips << " round trips\n";
}

TEST(ConversionValuesTest, NodeCasesOfOnnx119) {
  const Tally tally = CheckSuite(GRAPHGC_ONNX_NODE_SUITE);
  EXPECT_GT(tally.models, 1400);
  EXPECT_GT(tally.conversions, tally.models / 2);
  EXPECT_GT(tally.round_trips, tally.models / 2);
  std::cout << tally.models << " models, " << tally.conversions << " conversions, "
            << tally.round_trips << " round trips\n";
}

}  // namespace
}  // namespace graphgc
