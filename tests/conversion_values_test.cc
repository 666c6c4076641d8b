// Converting a model to another opset must not change what it computes. Every model of ONNX's
// test data is imported at its own opset with its test inputs, then converted (ONNX's version
// converter, export/onnx/opset_conversion.h) up to the newest opset and down to the one before
// its own, 12, 9 and 7; wherever a conversion is made and both imports give an output a value,
// the values must agree (floats within 1e-5, relative; NaN with NaN; everything else exactly).
// A conversion the import refuses (the model keeps its opset, with a warning) is fine; a crash
// (this test ends) or another value is not. ONNX's Softmax 13 to 12 adapter changed values, and
// its adapters that move an input back into an attribute read past omitted inputs
// (export/onnx/down_conversion_guard.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
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
};

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
    for (const auto& [name, value] : own->outputs) {
      auto it = converted->outputs.find(name);
      if (!value.has_value() || it == converted->outputs.end() || !it->second.has_value()) continue;
      EXPECT_TRUE(Agree(*value, *it->second))
          << dir.filename().string() << ": output '" << name << "' at opset " << from
          << " and converted to " << target << " differ";
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
  }
}

TEST(ConversionValuesTest, NodeCasesOfOnnx112) {
  const Tally tally = CheckSuite(kDebianData / "node");
  EXPECT_GT(tally.models, 800);
  EXPECT_GT(tally.conversions, tally.models);
}

TEST(ConversionValuesTest, NodeCasesOfOnnx119) {
  const Tally tally = CheckSuite(GRAPHGC_ONNX_NODE_SUITE);
  EXPECT_GT(tally.models, 1400);
  EXPECT_GT(tally.conversions, tally.models / 2);
}

}  // namespace
}  // namespace graphgc
