#include "graphgc/opset/build/custom_op.h"

#include <map>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/custom_op_registry.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/values/kernel_registry.h"

namespace graphgc {
namespace {

using Key = std::tuple<std::string, std::string, int>;  // domain, op type, version

struct Registry {
  std::mutex mutex;
  std::map<Key, std::shared_ptr<const CustomOp>> ops;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: nodes may outlive static teardown
  return *registry;
}

absl::Status Validate(const CustomOp& op) {
  // ai.onnx.training too: ONNX's checker rejects any op of it that ONNX does not define.
  if (internal::IsOnnxDefinedDomain(op.domain) || op.domain == "ai.onnx.training") {
    return absl::InvalidArgumentError(
        absl::StrCat("register_op: domain '", op.domain, "' is reserved for ONNX"));
  }
  if (op.op_type.empty()) return absl::InvalidArgumentError("register_op: empty op_type");
  if (op.version < 1) return absl::InvalidArgumentError("register_op: version must be >= 1");
  if (op.min_inputs < 0 || op.max_inputs < op.min_inputs || op.min_outputs < 1 ||
      op.max_outputs < op.min_outputs) {
    return absl::InvalidArgumentError(
        absl::StrCat("register_op: ", op.op_type, ": inconsistent input or output counts"));
  }
  if (!op.infer) {
    return absl::InvalidArgumentError(
        absl::StrCat("register_op: ", op.op_type, " has no inference function"));
  }
  return absl::OkStatus();
}

// The user's kernel behind the registry's contract. A value that does not match the output's
// inferred type is dropped (the user's kernel is wrong; the var gets no value, never a lie).
kernels::KernelResult RunCustomKernel(const CustomOp& op, const kernels::KernelContext& context) {
  CustomOpContext custom;
  for (int i = 0; i < context.num_inputs(); ++i) {
    const Tensor& value = context.input(i);
    custom.inputs.push_back(TensorType{
        value.dtype(), std::vector<int64_t>(value.shape().begin(), value.shape().end())});
    custom.values.push_back(value);
  }
  custom.num_outputs = context.num_outputs();
  for (const kernels::KernelAttribute& a : context.attributes()) {
    custom.attributes.push_back(internal::ToAttribute(a));
  }
  std::optional<std::vector<Tensor>> values;
  try {
    values = op.kernel(custom);
  } catch (...) {
    values.reset();  // a kernel that throws declines: the outputs get no value
  }
  kernels::KernelOutputs outputs(static_cast<size_t>(context.num_outputs()));
  if (!values.has_value() || values->size() != outputs.size()) return outputs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const kernels::OutputSpec& spec = context.output(static_cast<int>(i));
    const Tensor& value = (*values)[i];
    if (spec.shape.has_value() && kernels::Fits(value, spec.dtype, spec.shape)) outputs[i] = value;
  }
  return outputs;
}

}  // namespace

const Attribute* CustomOpContext::attribute(const std::string& name) const {
  for (const Attribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

absl::Status register_op(CustomOp op) {
  if (absl::Status valid = Validate(op); !valid.ok()) return valid;
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  Key key{op.domain, op.op_type, op.version};
  if (registry.ops.count(key) != 0) {
    return absl::AlreadyExistsError(absl::StrCat("register_op: ", op.domain, "::", op.op_type,
                                                 " version ", op.version, " is registered"));
  }
  auto registered = std::make_shared<const CustomOp>(std::move(op));
  registry.ops.emplace(std::move(key), registered);
  if (registered->kernel) {
    internal::RegisterCustomKernel(
        registered->domain, registered->op_type, registered->version,
        [registered](const kernels::KernelContext& context) {
          return RunCustomKernel(*registered, context);
        },
        registered->deterministic);
  }
  return absl::OkStatus();
}

namespace internal {

int CustomDomainVersion(absl::string_view domain) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  int version = 0;
  for (const auto& [key, op] : registry.ops) {
    if (std::get<0>(key) == domain) version = std::max(version, std::get<2>(key));
  }
  return version;
}

std::shared_ptr<const CustomOp> FindCustomOp(absl::string_view domain, absl::string_view op_type,
                                             int version) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::shared_ptr<const CustomOp> best;
  for (const auto& [key, op] : registry.ops) {
    if (std::get<0>(key) == domain && std::get<1>(key) == op_type && std::get<2>(key) <= version &&
        (best == nullptr || best->version < std::get<2>(key))) {
      best = op;
    }
  }
  return best;
}

}  // namespace internal
}  // namespace graphgc
