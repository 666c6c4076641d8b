#include "graphgc/opset/values/kernel_registry.h"

#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/opset/values/function_kernel.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

struct Registry {
  std::mutex mutex;
  kernels::KernelTable table;
  absl::flat_hash_map<std::string, std::unique_ptr<const ResolvedOp>> resolved;
};

Registry& TheRegistry() {
  static Registry* const registry = [] {
    auto* r = new Registry;
    kernels::RegisterBuiltinKernels(r->table);
    return r;
  }();
  return *registry;
}

std::optional<kernels::KernelAttributeValue> DefaultValue(const onnx::AttributeProto& proto) {
  using onnx::AttributeProto;
  switch (proto.type()) {
    case AttributeProto::INT:
      return proto.i();
    case AttributeProto::FLOAT:
      return proto.f();
    case AttributeProto::STRING:
      return proto.s();
    case AttributeProto::INTS:
      return std::vector<int64_t>(proto.ints().begin(), proto.ints().end());
    case AttributeProto::FLOATS:
      return std::vector<float>(proto.floats().begin(), proto.floats().end());
    case AttributeProto::STRINGS:
      return std::vector<std::string>(proto.strings().begin(), proto.strings().end());
    case AttributeProto::TENSOR: {
      absl::StatusOr<Tensor> tensor = FromTensorProto(proto.t());
      if (!tensor.ok()) return std::nullopt;
      return *std::move(tensor);
    }
    default:
      return std::nullopt;
  }
}

void AddSchemaFacts(absl::string_view domain, absl::string_view op_type, int since_version,
                    ResolvedOp& op) {
  if (!domain.empty() && domain != "ai.onnx.ml") return;
  const onnx::OpSchema* schema =
      onnx::OpSchemaRegistry::Schema(std::string(op_type), since_version, std::string(domain));
  if (schema == nullptr) return;
  for (const auto& [name, attribute] : schema->attributes()) {
    std::optional<kernels::KernelAttributeValue> value = DefaultValue(attribute.default_value);
    if (value.has_value()) op.defaults.push_back({name, *std::move(value)});
  }
  for (const auto& formal : schema->inputs()) op.input_names.push_back(formal.GetName());
  if (op.kernel == nullptr) {
    if (std::optional<kernels::Kernel> body = FunctionBodyKernel(*schema)) {
      op.function_body = *std::move(body);
      op.kernel = &op.function_body;
    }
  }
}

std::string Key(absl::string_view domain, absl::string_view op_type, int version) {
  return absl::StrCat(domain, absl::string_view("\0", 1), op_type, absl::string_view("\0", 1),
                      version);
}

}  // namespace

const ResolvedOp* ResolveOp(absl::string_view domain, absl::string_view op_type,
                            int since_version) {
  if (domain == "ai.onnx") domain = "";
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  std::unique_ptr<const ResolvedOp>& slot = registry.resolved[Key(domain, op_type, since_version)];
  if (slot == nullptr) {
    auto op = std::make_unique<ResolvedOp>();
    op->kernel = registry.table.find(domain, op_type, since_version);
    op->value_kernel = registry.table.find_value_kernel(domain, op_type, since_version);
    AddSchemaFacts(domain, op_type, since_version, *op);
    slot = std::move(op);
  }
  return slot.get();
}

void RegisterCustomKernel(absl::string_view domain, absl::string_view op_type, int version,
                          kernels::Kernel kernel) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.table.add(domain, op_type, version, version, std::move(kernel));
}

Attribute ToAttribute(const kernels::KernelAttribute& attribute) {
  return std::visit(
      [&](const auto& v) {
        return Attribute{attribute.name, AttributeValue(v)};
      },
      attribute.value);
}

std::vector<std::string> OpsWithKernels() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.table.keys();
}

}  // namespace graphgc::internal
