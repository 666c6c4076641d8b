// Fuzz target: the public API driven by a program decoded from the input bytes.
//
// A pool of Var handles over two graphs; each step makes an argument or a constant, applies any
// ai.onnx / ai.onnx.ml op (random inputs from the pool, random attributes, random version), makes
// an opaque node, copies, moves or drops a handle, turns a value into a constant, collects in
// either mode, exports, or destroys a graph while its handles live on. Handles of one graph are
// freely passed to ops of the other.
//
// Checked after every step (a violation aborts, which libFuzzer reports):
// - after a collection, live value bytes equal the distinct value buffers live handles reach, and
//   an every-var collection then frees nothing more;
// - a failed var's status names its op, or an input of it failed;
// - every export of ok vars succeeds and passes ONNX's checker.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "fuzz_values.h"
#include "graphgc/graphgc.h"

namespace graphgc::fuzz {
namespace {

constexpr size_t kPoolSize = 12;
constexpr int kGraphs = 2;

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "api_fuzzer finding: %s\n", what.c_str());
  std::abort();
}

class World {
 public:
  explicit World(FuzzInput& in) : in_(in) {
    options_.max_value_bytes = 64 << 10;  // kernels stay fast; propagation still runs
    options_.max_live_value_bytes = in_.flag() ? 0 : int64_t{1} << in_.int_in(12, 20);
    options_.collect_policy = std::array{CollectPolicy::kAdaptive, CollectPolicy::kFixedThreshold,
                                         CollectPolicy::kManual}[in_.pick(3)];
    options_.threshold_bytes = int64_t{1} << in_.int_in(8, 16);
    options_.min_trigger_bytes = int64_t{1} << in_.int_in(8, 16);
    options_.keep_all_values = in_.pick(8) == 0;
    check_every_step_ = in_.flag();
    if (options_.max_live_value_bytes > 0 && in_.flag()) {
      options_.on_budget = OnBudget::kEvictAndRecompute;
      options_.eviction_policy = in_.flag() ? EvictionPolicy::kCheapestToRecomputePerByte
                                            : EvictionPolicy::kLeastRecentlyUsed;
    }
  }

  void Step() {
    const size_t kind = in_.pick(14);
    if (trace_) std::fprintf(stderr, "step %zu\n", kind);
    switch (kind) {
      case 0:
        return MakeArgument();
      case 1:
      case 2:
        return MakeConstant();
      case 3:
      case 4:
      case 5:
        return ApplyOp();
      case 6:
        pool_[in_.pick(kPoolSize)] = pool_[in_.pick(kPoolSize)];
        return;
      case 7: {
        Var& from = pool_[in_.pick(kPoolSize)];
        pool_[in_.pick(kPoolSize)] = std::move(from);
        return;
      }
      case 8:
        pool_[in_.pick(kPoolSize)] = Var();
        return;
      case 9:
        return Collect(in_.flag() ? CollectMode::kEveryVar : CollectMode::kChangedSinceLast);
      case 10:
        return Export();
      case 11:
        return in_.pick(4) == 0 ? DestroyGraph() : ValueAsConstant();
      case 12:
        return in_.flag() ? NameVar() : ExplainValue();
      default:
        return MakeOpaqueNode();
    }
  }

  void CheckAfterStep() {
    if (check_every_step_) {
      for (int k = 0; k < kGraphs; ++k) {
        if (graphs_[k] != nullptr) CheckAccounting(k, graphs_[k]->collect());
      }
    }
  }

  void CheckAtEnd() {
    for (int k = 0; k < kGraphs; ++k) {
      if (graphs_[k] != nullptr) CheckAccounting(k, graphs_[k]->collect());
    }
  }

 private:
  Graph& GraphAt(int k) {
    // The arena buffers noted so far stay noted: they are kept alive, so no new buffer can take
    // one's address, and a new graph may be given the same tensors.
    if (graphs_[k] == nullptr) graphs_[k] = std::make_unique<Graph>(options_);
    return *graphs_[k];
  }
  int AnyGraph() { return static_cast<int>(in_.pick(kGraphs)); }
  Var& AnySlot() { return pool_[in_.pick(kPoolSize)]; }

  // Tensors the arena owns are not value bytes; remembering them keeps their buffers (and so the
  // pointers used as their identity) alive.
  void NoteArenaTensor(int k, const Tensor& tensor) {
    if (tensor.buffer() == nullptr) return;
    arena_tensors_[k].push_back(tensor);
    arena_buffers_[k].insert(tensor.buffer());
  }
  void NoteArenaTensors(const std::vector<Attribute>& attributes) {
    for (const Attribute& attribute : attributes) {
      if (const Tensor* tensor = std::get_if<Tensor>(&attribute.value)) {
        for (int k = 0; k < kGraphs; ++k) NoteArenaTensor(k, *tensor);
      }
    }
  }

  void MakeArgument() {
    const int k = AnyGraph();
    std::string name = in_.pick(8) == 0 ? "" : "a" + std::to_string(in_.pick(6));
    const DataType dtype = AnyDataType(in_);
    const size_t form = in_.pick(6);
    if (form == 0) {
      AnySlot() = GraphAt(k).argument_unranked(name, dtype);
    } else if (form == 1) {  // some dims named (symbolic), exported as dim_param
      std::vector<Dim> dims;
      for (int64_t size : SmallShape(in_, true)) {
        if (in_.flag()) {
          dims.emplace_back(std::string(in_.flag() ? "N" : "M"));
        } else {
          dims.emplace_back(size);
        }
      }
      AnySlot() = GraphAt(k).argument(name, dtype, absl::Span<const Dim>(dims));
    } else {
      AnySlot() = GraphAt(k).argument(name, dtype, SmallShape(in_, true));
    }
  }

  // Names clash often: a small set of names, some of them argument names.
  void NameVar() {
    Var& var = AnySlot();
    const std::string name =
        in_.flag() ? "n" + std::to_string(in_.pick(3)) : "a" + std::to_string(in_.pick(6));
    const absl::Status named = var.set_name(name);
    if (named.ok() && var.name() != name) Finding("a var named '" + name + "' reads another name");
    if (!var.ok() && named.ok()) Finding("a failed or empty var took a name");
  }

  // value_status is OK exactly when the var holds a value, and a failed var gives its status.
  void ExplainValue() {
    const Var& var = AnySlot();
    const absl::Status why = var.value_status();
    if (!var.ok()) {
      if (why.ok()) Finding("a failed or empty var's value_status is OK");
      return;
    }
    // An evicted value (Unavailable) may be computed again by any_value(); then it is held.
    const bool evicted = why.code() == absl::StatusCode::kUnavailable &&
                         options_.on_budget == OnBudget::kEvictAndRecompute;
    const bool has_value = var.any_value().has_value();
    if (evicted) {
      if (has_value != var.value_status().ok()) {
        Finding("an evicted var read " + std::string(has_value ? "with" : "without") +
                " a value, and then its value_status is " + var.value_status().ToString());
      }
      return;
    }
    if (why.ok() != has_value) {
      Finding("value_status is " + why.ToString() + " but the var " +
              (has_value ? "has" : "has no") + " value");
    }
  }

  void MakeConstant() {
    const int k = AnyGraph();
    const Tensor tensor = AnyTensor(in_, AnyDataType(in_));
    NoteArenaTensor(k, tensor);
    AnySlot() = GraphAt(k).constant(tensor);
  }

  void ValueAsConstant() {
    const int k = AnyGraph();
    const Var& source = AnySlot();
    std::optional<Tensor> value = source.value();
    if (!value.has_value()) return;
    NoteArenaTensor(k, *value);
    AnySlot() = GraphAt(k).constant(*value);
  }

  void DestroyGraph() { graphs_[AnyGraph()].reset(); }

  std::vector<Var> Inputs(size_t max_count) {
    std::vector<Var> inputs(in_.pick(std::min<size_t>(max_count, 4) + 1));
    for (Var& input : inputs) input = in_.pick(10) == 0 ? Var() : AnySlot();
    return inputs;
  }

  void ApplyOp() {
    const auto& schemas = Schemas();
    const onnx::OpSchema& schema = *schemas[in_.pick(schemas.size())];
    std::vector<Var> inputs = Inputs(static_cast<size_t>(schema.max_input()));
    std::vector<Attribute> attributes = AnyAttributes(in_, schema);
    NoteArenaTensors(attributes);
    NodeOptions options;
    options.domain = schema.domain();
    const int versions[] = {0, schema.since_version(), 13, 17,
                            static_cast<int>(in_.int_in(1, kNewestOnnxOpset))};
    options.version = versions[in_.pick(std::size(versions))];
    if (in_.pick(4) == 0) options.num_outputs = static_cast<int>(in_.int_in(0, 4));
    if (trace_) std::fprintf(stderr, "  %s version %d\n", schema.Name().c_str(), options.version);
    std::vector<Var> outputs =
        inputs.empty() || in_.pick(4) == 0
            ? make_node(GraphAt(AnyGraph()), schema.Name(), inputs, attributes, options)
            : make_node(schema.Name(), inputs, attributes, options);
    CheckFailuresNameTheirOp(schema.Name(), inputs, outputs);
    if (trace_) {
      std::fprintf(stderr, "  -> %s\n",
                   outputs.empty() ? "nothing" : outputs[0].status().ToString().c_str());
    }
    for (Var& output : outputs) {
      if (in_.flag()) AnySlot() = std::move(output);
    }
  }

  void MakeOpaqueNode() {
    std::vector<Var> inputs = Inputs(4);
    OpaqueNodeOptions options;
    options.domain = in_.pick(8) == 0 ? "" : "com.fuzz";
    options.version = static_cast<int>(in_.int_in(0, 2));
    options.output_types.resize(in_.pick(4));
    for (auto& type : options.output_types) {
      if (in_.flag()) type = VarType::Tensor(AnyDataType(in_), SmallShape(in_, true));
    }
    std::vector<Var> outputs = make_opaque_node(GraphAt(AnyGraph()), "Opaque", inputs, {}, options);
    CheckFailuresNameTheirOp("Opaque", inputs, outputs);
    if (!outputs.empty()) AnySlot() = outputs.front();
  }

  static void CheckFailuresNameTheirOp(const std::string& op_type, const std::vector<Var>& inputs,
                                       const std::vector<Var>& outputs) {
    bool input_failed = false;
    for (const Var& input : inputs) input_failed = input_failed || (!input.empty() && !input.ok());
    for (const Var& output : outputs) {
      if (output.ok()) continue;
      const std::string message(output.status().message());
      if (message.find(op_type) == std::string::npos && !input_failed) {
        Finding("the status of a failed " + op_type + " does not name it: " + message);
      }
    }
  }

  void Collect(CollectMode mode) {
    const int k = AnyGraph();
    if (graphs_[k] == nullptr) return;
    CheckAccounting(k, graphs_[k]->collect(mode));
  }

  // After a collection: live bytes are exactly the distinct value buffers the pool reaches, and a
  // every-var collection frees nothing more.
  void CheckAccounting(int k, const CollectStats& collected) {
    Graph& graph = *graphs_[k];
    std::set<const void*> reached;
    int64_t reachable = 0;
    for (const Var& var : pool_) {
      if (!var.ok() || !Owns(graph, var)) continue;
      if (!var.value_status().ok()) continue;  // none, or evicted (reading would compute it)
      std::optional<Value> value = var.any_value();
      if (!value.has_value()) continue;
      for (const Tensor& tensor : value->tensors()) {  // a sequence's elements, a map's parts
        if (tensor.buffer() == nullptr || arena_buffers_[k].count(tensor.buffer()) != 0) continue;
        if (reached.insert(tensor.buffer()).second) {
          reachable += static_cast<int64_t>(tensor.buffer_bytes());
        }
      }
    }
    const GraphStats stats = graph.stats();
    if (stats.live_value_bytes != collected.live_bytes) {
      Finding("collect() reports " + std::to_string(collected.live_bytes) +
              " live bytes, stats() " + std::to_string(stats.live_value_bytes));
    }
    if (trace_) {
      for (const Var& var : pool_) {
        if (!var.ok() || !Owns(graph, var) || !var.value_status().ok()) continue;
        if (!var.value().has_value()) continue;
        std::fprintf(stderr, "  live %s bytes %zu arena %d\n", var.type().ToString().c_str(),
                     var.value()->buffer_bytes(),
                     static_cast<int>(arena_buffers_[k].count(var.value()->buffer())));
      }
    }
    if (!options_.keep_all_values && stats.live_value_bytes != reachable) {
      Finding("after collect(): " + std::to_string(stats.live_value_bytes) +
              " live value bytes, but live handles reach " + std::to_string(reachable));
    }
    const CollectStats full = graph.collect(CollectMode::kEveryVar);
    if (full.freed_bytes != 0 || full.freed_values != 0) {
      Finding("an every-var collection after collect() freed " + std::to_string(full.freed_bytes) +
              " more bytes");
    }
  }

  static bool Owns(const Graph& graph, const Var& var) { return var.core() == graph.core(); }

  void Export() {
    const int k = AnyGraph();
    if (graphs_[k] == nullptr) return;
    Graph& graph = *graphs_[k];
    NamedVars outputs;
    for (size_t n = in_.pick(4); n > 0; --n) {
      const Var& var = AnySlot();
      if (!var.ok() || !Owns(graph, var)) continue;
      outputs.emplace_back("o" + std::to_string(outputs.size()), var);
    }
    if (outputs.empty()) return;
    ExportOptions options;
    options.check = true;
    options.values_as_initializers = in_.flag();
    options.constants_as_initializers = in_.flag();
    absl::StatusOr<onnx::ModelProto> model = to_onnx(graph, outputs, options);
    if (!model.ok() && !IsKnownExportLimit(model.status())) {
      Finding("an export of ok vars failed: " + model.status().ToString());
    }
    if (model.ok()) CheckSameBytes(graph, outputs, options, *model);
  }

  // to_onnx_bytes writes most nodes as bytes itself: they must be what protobuf writes.
  void CheckSameBytes(const Graph& graph, const NamedVars& outputs, ExportOptions options,
                      const onnx::ModelProto& model) {
    options.check = false;  // the model was checked already
    const absl::StatusOr<std::string> bytes = to_onnx_bytes(graph, outputs, options);
    if (!bytes.ok() || *bytes != model.SerializeAsString()) {
      Finding("to_onnx_bytes is not the bytes of to_onnx's model: " + bytes.status().ToString());
    }
  }

  FuzzInput& in_;
  const bool trace_ = std::getenv("GRAPHGC_FUZZ_TRACE") != nullptr;  // for triage
  GraphOptions options_;
  bool check_every_step_ = false;
  std::array<std::unique_ptr<Graph>, kGraphs> graphs_;
  std::array<std::set<const void*>, kGraphs> arena_buffers_;
  std::array<std::vector<Tensor>, kGraphs> arena_tensors_;
  std::array<Var, kPoolSize> pool_;
};

}  // namespace
}  // namespace graphgc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  graphgc::fuzz::FuzzInput in(data, size);
  graphgc::fuzz::World world(in);
  for (int step = 0; step < 64 && !in.empty(); ++step) {
    world.Step();
    world.CheckAfterStep();
  }
  world.CheckAtEnd();
  return 0;
}
