// The threading contract: distinct Graphs on distinct threads at once, and Tensors shared across
// threads read-only. Four threads each build, propagate, collect, export and import in their own
// graph, all reading one shared constant Tensor. CI also runs this test under ThreadSanitizer
// (tools/run-tests, build-tsan), which reports any data race.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/valuestore/value_store.h"

namespace graphgc {
namespace {

constexpr int kThreads = 4;
constexpr int64_t kElements = 4096;

// Builds a chain over the shared tensor; returns an empty string on success, else what failed.
std::string WorkOneGraph(const Tensor& shared, int thread, int steps) {
  GraphOptions options;
  options.min_trigger_bytes = 64 << 10;  // collect often, automatically too
  Graph g(options);
  const Var weight = g.constant(shared);
  Var a = op::Mul(weight, g.constant(Tensor::scalar<float>(static_cast<float>(thread))));
  for (int i = 0; i < steps; ++i) {
    a = op::Relu(op::Add(a, weight));
    if (i % 16 == 0)
      g.collect(i % 32 == 0 ? CollectMode::kEveryVar : CollectMode::kChangedSinceLast);
    if (shared.data<float>()[static_cast<size_t>(i) % kElements] != 0.5f) return "shared changed";
  }
  // Every element is thread * 0.5 + steps * 0.5.
  const std::optional<Tensor> value = a.value();
  if (!value.has_value()) return "no value";
  const float expected = 0.5f * static_cast<float>(thread) + 0.5f * static_cast<float>(steps);
  for (float v : value->data<float>()) {
    if (std::fabs(v - expected) > 1e-3f) return "wrong value " + std::to_string(v);
  }
  absl::StatusOr<onnx::ModelProto> model = to_onnx(g, {{"a", a}});
  if (!model.ok()) return model.status().ToString();
  // Import the model into a second graph of this thread, bound to a value there.
  Graph h;
  Var zeros = h.constant(Tensor::zeros(DataType::kFloat, {kElements}));
  absl::StatusOr<std::map<std::string, Var>> imported = inline_model(h, *model, {});
  if (!imported.ok()) return imported.status().ToString();
  if (imported->at("a").shape() != std::vector<int64_t>{kElements}) return "imported shape";
  const Var sum = op::Add(imported->at("a"), zeros);
  if (!sum.value().has_value()) return "the imported chain has no value";
  return "";
}

// Runs work(thread, round) for `rounds` rounds on each of kThreads threads, started together so
// that they overlap; each thread stops at its first failure (a non-empty string), which is
// expected to be none.
void ExpectEveryThreadSucceeds(int rounds, const std::function<std::string(int, int)>& work) {
  std::vector<std::string> results(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) {
      }
      for (int round = 0; round < rounds && results[t].empty(); ++round) {
        results[t] = work(t, round);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(results[t], "") << "thread " << t;
}

// Four value stores on four threads count one shared buffer at once: one of them at a time holds
// the buffer's claim (value_store.h), the others count it in their tables, and the claim changes
// hands as the holder lets go. Each store must see exactly its own slots.
TEST(ThreadsTest, FourValueStoresCountOneSharedBuffer) {
  const Tensor shared = Tensor::from_vector<float>(std::vector<float>(kElements, 0.5f));
  const int64_t bytes = static_cast<int64_t>(shared.buffer_bytes());
  ExpectEveryThreadSucceeds(1, [&](int thread, int) -> std::string {
    internal::ValueStore store;
    std::vector<ValueRef> refs;
    for (int i = 0; i < 2000; ++i) {
      if ((i + thread) % 3 != 0 || refs.empty()) {
        refs.push_back(store.insert(shared));
      } else {
        const size_t freed = store.release(refs.back());
        refs.pop_back();
        if (freed != (refs.empty() ? static_cast<size_t>(bytes) : 0)) return "freed wrong";
      }
      if (store.live_bytes() != (refs.empty() ? 0 : bytes)) return "live bytes wrong";
    }
    while (!refs.empty()) {
      store.release(refs.back());
      refs.pop_back();
    }
    return store.live_bytes() == 0 ? "" : "bytes left";
  });
}

TEST(ThreadsTest, FourGraphsOnFourThreadsShareOneTensor) {
  const Tensor shared = Tensor::from_vector<float>(std::vector<float>(kElements, 0.5f));
  ExpectEveryThreadSucceeds(3, [&](int thread, int) { return WorkOneGraph(shared, thread, 200); });
  EXPECT_EQ(shared.data<float>()[0], 0.5f);
}

// An opset-11 Softmax with axis 0 of a [2, 2] input: it normalises all four elements (Softmax-11
// flattens the input to [1, 4] from the axis on), Softmax-13 one axis only, so ONNX's converter
// rewrites it on the way to the newest opset.
onnx::ModelProto OldSoftmaxModel() {
  onnx::ModelProto model;
  model.set_ir_version(6);
  onnx::OperatorSetIdProto* opset = model.add_opset_import();
  opset->set_version(11);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("old_softmax");
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type("Softmax");
  node.add_input("x");
  node.add_output("y");
  onnx::AttributeProto& axis = *node.add_attribute();
  axis.set_name("axis");
  axis.set_type(onnx::AttributeProto::INT);
  axis.set_i(0);
  for (auto [info, name] :
       {std::pair{graph.add_input(), "x"}, std::pair{graph.add_output(), "y"}}) {
    info->set_name(name);
    onnx::TypeProto::Tensor& type = *info->mutable_type()->mutable_tensor_type();
    type.set_elem_type(onnx::TensorProto::FLOAT);
    for (int i = 0; i < 2; ++i) type.mutable_shape()->add_dim()->set_dim_value(2);
  }
  return model;
}

// Imports (converted to the newest opset and down to 9) on four threads at once: the version
// converter is one object shared by every conversion (export/onnx/opset_conversion.cc).
TEST(ThreadsTest, ModelsAreConvertedOnFourThreadsAtOnce) {
  const onnx::ModelProto model = OldSoftmaxModel();
  // Softmax of all of [[0, 1], [2, 3]].
  std::vector<float> expected = {1, std::exp(1.0f), std::exp(2.0f), std::exp(3.0f)};
  const float sum = expected[0] + expected[1] + expected[2] + expected[3];
  for (float& e : expected) e /= sum;
  ExpectEveryThreadSucceeds(20, [&](int, int round) -> std::string {
    Graph g;
    const Var x = g.constant(Tensor::from_vector<float>({0, 1, 2, 3}, std::vector<int64_t>{2, 2}));
    InlineOptions options;
    options.opset = round % 2 == 0 ? kNewestOnnxOpset : 9;
    const std::string at = " at opset " + std::to_string(options.opset);
    absl::StatusOr<ImportedModel> imported = import_model(g, model, {{"x", x}}, options);
    if (!imported.ok()) return imported.status().ToString();
    if (imported->onnx_opset != options.opset) return "kept" + at;
    const std::optional<Tensor> y = imported->outputs.at("y").value();
    if (!y.has_value()) return "no value" + at;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (std::fabs(y->data<float>()[i] - expected[i]) > 1e-6f) return "wrong value" + at;
    }
    return "";
  });
}

// Vars and Tensors handed from one thread to another (one thread at a time per graph): a Var made
// on one thread, read and dropped on another, after the first finished.
TEST(ThreadsTest, AGraphMovesBetweenThreads) {
  Graph g;
  Var a = g.constant(Tensor::from_vector<float>({1, 2, 3}));
  std::thread([&] { a = op::Add(a, a); }).join();
  std::thread([&] { g.collect(); }).join();
  ASSERT_TRUE(a.value().has_value());
  EXPECT_EQ(a.value()->data<float>()[2], 6.0f);
}

}  // namespace
}  // namespace graphgc
