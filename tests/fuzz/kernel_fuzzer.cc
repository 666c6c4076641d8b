// Fuzz target: every registered kernel with random inputs and attributes.
//
// The first bytes pick an op that has a kernel; the rest give it constant inputs of random element
// types, shapes and elements (so every input has a value and the kernel runs), and attributes of
// its schema. Checked (a violation aborts, which libFuzzer reports): no crash and no sanitizer
// report; an output that got a value has exactly the type inference gave it; and a failure is a
// status naming the op, never an internal error of the library.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_input.h"
#include "fuzz_values.h"
#include "graphgc/graphgc.h"

namespace graphgc::fuzz {
namespace {

[[noreturn]] void Finding(const std::string& what) {
  std::fprintf(stderr, "kernel_fuzzer finding: %s\n", what.c_str());
  std::abort();
}

struct KernelOp {
  std::string domain;
  std::string op_type;
  const onnx::OpSchema* schema;
  std::vector<int> versions;  // the domain's opset versions at which the op has a kernel
};

// The ai.onnx and ai.onnx.ml ops with a kernel at some opset version, in a fixed order. An op
// whose kernel ends before the newest opset (Pad, Resize: values up to 17) stays in, at the
// versions it computes.
const std::vector<KernelOp>& KernelOps() {
  static const std::vector<KernelOp>* ops = [] {
    auto* list = new std::vector<KernelOp>();
    for (const onnx::OpSchema* schema : Schemas()) {
      KernelOp op{schema->domain(), schema->Name(), schema, {}};
      const int newest = SupportedOpsetVersion(op.domain);
      for (int version = 1; version <= newest; ++version) {
        if (has_kernel(op.op_type, {.domain = op.domain, .version = version})) {
          op.versions.push_back(version);
        }
      }
      if (!op.versions.empty()) list->push_back(std::move(op));
    }
    return list;
  }();
  return *ops;
}

void CheckOutput(const std::string& op_type, const Var& output) {
  if (!output.ok()) {
    const std::string message(output.status().message());
    if (message.find(op_type) == std::string::npos) {
      Finding(op_type + " failed with a status that does not name it: " + message);
    }
    if (output.status().code() == absl::StatusCode::kInternal) {
      Finding(op_type + " failed with an internal error: " + message);
    }
    return;
  }
  std::optional<Tensor> value = output.value();
  if (!value.has_value()) return;
  if (value->dtype() != output.dtype()) {
    Finding(op_type + ": a value of type " + std::string(DataTypeName(value->dtype())) +
            " for an output typed " + std::string(DataTypeName(output.dtype())));
  }
  const std::optional<std::vector<int64_t>> shape = output.shape();
  if (!shape.has_value()) return;
  const auto dims = value->shape();
  bool fits = dims.size() == shape->size();
  for (size_t d = 0; fits && d < dims.size(); ++d) {
    fits = (*shape)[d] == -1 || (*shape)[d] == dims[d];
  }
  if (!fits) {
    Finding(op_type + ": a value of shape " + ShapeToString(dims) + " for an output of shape " +
            ShapeToString(*shape));
  }
}

void RunOne(FuzzInput& in) {
  const std::vector<KernelOp>& ops = KernelOps();
  if (ops.empty()) Finding("no op has a kernel");
  const KernelOp& op = ops[in.pick(ops.size())];
  GraphOptions options;
  options.max_value_bytes = 64 << 10;
  options.max_loop_trips = 1000;
  Graph graph(options);
  const int max_inputs = std::min(op.schema->max_input(), 5);
  const int count = static_cast<int>(
      in.int_in(std::min(op.schema->min_input(), max_inputs), std::max(max_inputs, 0)));
  std::vector<Var> inputs;
  for (int i = 0; i < count; ++i) {
    // Mostly the first input's element type again: most ops constrain their inputs to one type.
    const DataType dtype = (i > 0 && in.flag()) ? inputs[0].dtype() : AnyDataType(in);
    if (in.pick(12) == 0 && i > 0) {
      inputs.emplace_back();  // an omitted optional input
      continue;
    }
    inputs.push_back(
        graph.constant(AnyTensor(in, dtype == DataType::kUndefined ? DataType::kFloat : dtype)));
  }
  const std::vector<Attribute> attributes = AnyAttributes(in, *op.schema);
  NodeOptions node_options{.domain = op.domain};
  // The newest version when it computes, else (and sometimes anyway) one that does.
  if (op.versions.back() != SupportedOpsetVersion(op.domain) || in.pick(4) == 0) {
    node_options.version = op.versions[in.pick(op.versions.size())];
  }
  if (std::getenv("GRAPHGC_FUZZ_TRACE") != nullptr) {  // for triage
    std::fprintf(stderr, "%s version %d\n", op.op_type.c_str(), node_options.version);
    for (const Var& input : inputs) {
      std::fprintf(stderr, "  input %s %s\n", input.type().ToString().c_str(),
                   input.shape().has_value() ? ShapeToString(*input.shape()).c_str() : "");
    }
    for (const Attribute& attribute : attributes) {
      std::fprintf(stderr, "  attribute %s (%zu)\n", attribute.name.c_str(),
                   attribute.value.index());
      if (const int64_t* i = std::get_if<int64_t>(&attribute.value)) {
        std::fprintf(stderr, "    = %lld\n", static_cast<long long>(*i));
      }
    }
  }
  std::vector<Var> outputs = make_node(graph, op.op_type, inputs, attributes, node_options);
  for (const Var& output : outputs) CheckOutput(op.op_type, output);
}

}  // namespace
}  // namespace graphgc::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  graphgc::fuzz::FuzzInput in(data, size);
  graphgc::fuzz::RunOne(in);
  return 0;
}
