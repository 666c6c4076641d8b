// Fuzz target: bytes -> ModelProto -> inline_model into a graph that already holds vars -> export.
//
// Checked on every input (a violation aborts, which libFuzzer reports):
// - inline_model returns a status or outputs, never crashes (the sanitizers watch memory);
// - the vars made before it keep their values, and their export is byte-identical;
// - the imported outputs that are ok export, and the export passes ONNX's checker;
// - every initializer that from_tensor_proto reads prints, and writes back into a proto that reads
//   back into the same tensor.
// The model is tried twice: with its inputs unbound (they become arguments) and with every input
// bound to an existing var. Inputs of odd length are imported into a graph that evicts values
// under a 64 KiB cap (OnBudget::kEvictAndRecompute, either policy): there every output's value
// must also be readable or say why, never report a graphgc bug.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "fuzz_values.h"
#include "graphgc/graphgc.h"

namespace graphgc::fuzz {
namespace {

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "import_fuzzer finding: %s\n", what.c_str());
  std::abort();
}

struct Before {
  Graph graph;
  Var x, c, y, z;
  Tensor z_value;
  std::string exported;

  explicit Before(const GraphOptions& options) : graph(options) {
    x = graph.argument("x", DataType::kFloat, {2, 3});
    c = graph.constant(Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
    y = op::Relu(op::Add(x, c));
    z = op::Mul(c, c);
    z_value = *z.value();
    exported = Export();
  }

  // `evicting`: 0 keeps values under 64 MiB by dropping new ones; 1 and 2 evict under 64 KiB,
  // least recently used first or cheapest to compute again per byte first.
  static GraphOptions Options(int evicting) {
    GraphOptions options;
    options.max_value_bytes = 1 << 20;
    options.max_live_value_bytes = 64 << 20;
    options.max_loop_trips = 1000;
    if (evicting > 0) {
      options.max_live_value_bytes = 64 << 10;
      options.on_budget = OnBudget::kEvictAndRecompute;
      options.eviction_policy = evicting == 1 ? EvictionPolicy::kLeastRecentlyUsed
                                              : EvictionPolicy::kCheapestToRecomputePerByte;
    }
    return options;
  }

  std::string Export() {
    absl::StatusOr<onnx::ModelProto> model = to_onnx(graph, {{"y", y}, {"z", z}});
    if (!model.ok()) Finding("the earlier outputs no longer export: " + model.status().ToString());
    return model->SerializeAsString();
  }

  void CheckNothingLost() {
    if (Export() != exported) Finding("the export of the earlier outputs changed");
    std::optional<Tensor> value = z.value();
    if (!value.has_value() || *value != z_value) Finding("an earlier value changed");
  }
};

// Under eviction a value is computed again when read: that must work or say why.
void CheckValuesReadable(const NamedVars& outputs) {
  for (const auto& [name, var] : outputs) {
    if (var.any_value().has_value()) continue;
    const absl::Status why = var.value_status();
    if (why.ok() || absl::StrContains(why.message(), "graphgc bug")) {
      Finding("output '" + name + "' has no value and says: " + why.ToString());
    }
  }
}

void TryImport(const onnx::ModelProto& model, bool bind_inputs, int evicting) {
  Before before(Before::Options(evicting));
  std::map<std::string, Var> inputs;
  if (bind_inputs) {
    for (const onnx::ValueInfoProto& input : model.graph().input()) inputs[input.name()] = before.c;
  }
  // Unbound inputs become arguments under a prefix; models of older opsets are converted first.
  InlineOptions inline_options;
  if (!bind_inputs) inline_options.prefix = "imported/";
  absl::StatusOr<std::map<std::string, Var>> outputs =
      inline_model(before.graph, model, inputs, inline_options);
  before.CheckNothingLost();
  if (!outputs.ok()) return;
  NamedVars ok_outputs;
  for (const auto& [name, var] : *outputs) {
    if (var.ok()) ok_outputs.emplace_back(name, var);
  }
  if (ok_outputs.empty()) return;
  if (evicting > 0) CheckValuesReadable(ok_outputs);
  ExportOptions options;
  options.check = true;
  absl::StatusOr<onnx::ModelProto> exported = to_onnx(before.graph, ok_outputs, options);
  if (!exported.ok() && !IsKnownExportLimit(exported.status())) {
    Finding("imported ok outputs do not export: " + exported.status().ToString());
  }
  if (exported.ok()) {
    // to_onnx_bytes writes most nodes as bytes itself: they must be what protobuf writes.
    const absl::StatusOr<std::string> bytes = to_onnx_bytes(before.graph, ok_outputs);
    if (!bytes.ok() || *bytes != exported->SerializeAsString()) {
      Finding("to_onnx_bytes is not the bytes of to_onnx's model: " + bytes.status().ToString());
    }
  }
  before.CheckNothingLost();
}

// Same type, shape and elements, bit for bit (NaN payloads included).
bool SameTensor(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() ||
      !std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end())) {
    return false;
  }
  if (a.dtype() == DataType::kString) {
    const auto x = a.data<std::string>();
    const auto y = b.data<std::string>();
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }
  return a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0);
}

void TryTensorProtos(const onnx::ModelProto& model) {
  for (const onnx::TensorProto& proto : model.graph().initializer()) {
    const absl::StatusOr<Tensor> tensor = from_tensor_proto(proto);
    if (!tensor.ok()) continue;
    const absl::StatusOr<onnx::TensorProto> written = to_tensor_proto(*tensor, proto.name());
    if (!written.ok())
      Finding("a tensor read from a proto does not write: " + written.status().ToString());
    const absl::StatusOr<Tensor> again = from_tensor_proto(*written);
    if (!again.ok() || !SameTensor(*again, *tensor)) {
      Finding("a tensor written to a proto does not read back the same");
    }
    std::ostringstream printed;  // printing must not crash on any element type or size
    printed << *tensor;
  }
}

}  // namespace
}  // namespace graphgc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(data, static_cast<int>(size))) return 0;
  graphgc::fuzz::TryTensorProtos(model);
  // Odd lengths evict (1 or 3 mod 4 picks the policy): the corpus keeps its meaning.
  const int evicting = size % 2 == 0 ? 0 : size % 4 == 1 ? 1 : 2;
  graphgc::fuzz::TryImport(model, false, evicting);
  graphgc::fuzz::TryImport(model, true, evicting);
  return 0;
}
