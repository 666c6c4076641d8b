#include "graphgc/opset/values/kernel_registry.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/inference/schema_lookup.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/opset/values/function_kernel.h"
#include "onnx/defs/data_type_utils.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {
namespace {

struct Registry {
  std::mutex mutex;
  kernels::KernelTable table;
  absl::flat_hash_map<std::string, std::unique_ptr<const ResolvedOp>> resolved;
  // Keys (Key below) of custom ops whose kernels may give other values for the same operands.
  absl::flat_hash_set<std::string> nondeterministic;
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

// The element type an ONNX type string names, parsed by ONNX and read as graphgc's VarType:
// "tensor(float)", "seq(tensor(float))", "optional(tensor(float))" and a map's value,
// "map(string, float)", give float; a type graphgc has no VarType for gives none.
DataTypeSet ElementTypesOf(const std::string& type_str) {
  absl::StatusOr<VarType> type = absl::InternalError("unparsed");
  try {
    const onnx::TypeProto& proto =
        onnx::Utils::DataTypeUtils::ToTypeProto(onnx::Utils::DataTypeUtils::ToType(type_str));
    type = FromTypeProto(proto, type_str);
  } catch (const std::exception&) {  // a type string ONNX itself does not parse
    return {};
  }
  if (!type.ok()) return {};
  const VarType* inner = &*type;
  while (!inner->is_tensor()) inner = &inner->element();
  if (inner->dtype() == DataType::kUndefined) return {};
  return {inner->dtype()};
}

const onnx::OpSchema::TypeConstraintParam* FindTypeParam(const onnx::OpSchema& schema,
                                                         absl::string_view name) {
  for (const auto& param : schema.typeConstraintParams()) {
    if (param.type_param_str == name) return &param;
  }
  return nullptr;
}

// What the schema admits for a formal's type string: a type parameter's allowed types, or the
// fixed type the formal names.
DataTypeSet AdmittedTypes(const onnx::OpSchema& schema, absl::string_view type_str) {
  const onnx::OpSchema::TypeConstraintParam* param = FindTypeParam(schema, type_str);
  if (param == nullptr) return ElementTypesOf(std::string(type_str));
  DataTypeSet admitted;
  for (const std::string& allowed : param->allowed_type_strs) {
    admitted = admitted | ElementTypesOf(allowed);
  }
  return admitted;
}

void AddFormalChecks(const std::vector<onnx::OpSchema::FormalParameter>& formals, bool output,
                     const kernels::TypeConstraint& constraint,
                     std::vector<OperandTypeCheck>& checks) {
  for (size_t i = 0; i < formals.size(); ++i) {
    if (formals[i].GetTypeStr() != constraint.type_param) continue;
    checks.push_back({constraint.type_param, output, static_cast<int>(i),
                      formals[i].GetOption() == onnx::OpSchema::Variadic, constraint.types});
  }
}

// The operand checks of a declaration at this schema; nullopt when it names a type parameter the
// schema does not have (a registration that does not fit this version: the kernel is not used,
// and the registry's declaration test reports it).
std::optional<std::vector<OperandTypeCheck>> OperandChecks(const onnx::OpSchema& schema,
                                                           const kernels::KernelTypes& types) {
  std::vector<OperandTypeCheck> checks;
  for (const kernels::TypeConstraint& constraint : types.constraints()) {
    if (FindTypeParam(schema, constraint.type_param) == nullptr) return std::nullopt;
    AddFormalChecks(schema.inputs(), false, constraint, checks);
    AddFormalChecks(schema.outputs(), true, constraint, checks);
  }
  return checks;
}

// The primary type parameter of an op whose kernel declares none: its first input's (or, without
// inputs, its first output's) type string.
absl::string_view FirstFormalType(const onnx::OpSchema& schema) {
  if (!schema.inputs().empty()) return schema.inputs().front().GetTypeStr();
  if (!schema.outputs().empty()) return schema.outputs().front().GetTypeStr();
  return "";
}

void SetComputedTypes(const onnx::OpSchema& schema, const kernels::KernelTypes* declared,
                      ResolvedOp& op) {
  if (op.kernel == nullptr && op.value_kernel == nullptr) return;
  if (declared != nullptr && !declared->constraints().empty()) {
    const kernels::TypeConstraint& primary = declared->constraints().front();
    op.primary_type_param = primary.type_param;
    op.admitted_types = AdmittedTypes(schema, primary.type_param);
    op.computed_types = primary.types & op.admitted_types;
    return;
  }
  const absl::string_view type_str = FirstFormalType(schema);
  if (FindTypeParam(schema, type_str) != nullptr) op.primary_type_param = std::string(type_str);
  op.admitted_types = AdmittedTypes(schema, type_str);
  op.computed_types = op.admitted_types;
}

// Ops whose outputs' elements are elements of their inputs (or their dims, Shape), no arithmetic.
bool MovesElementsOnly(const onnx::OpSchema& schema) {
  static constexpr absl::string_view kMovers[] = {"Shape",    "Gather",  "Concat",
                                                  "Slice",    "Squeeze", "Unsqueeze",
                                                  "Identity", "Reshape", "Flatten"};
  if (!schema.domain().empty()) return false;
  return std::find(std::begin(kMovers), std::end(kMovers), schema.Name()) != std::end(kMovers);
}

DataTypeSet TypesEveryCheckAdmits(const std::vector<OperandTypeCheck>& checks) {
  if (checks.empty()) return {};
  DataTypeSet admitted = checks.front().types;
  for (const OperandTypeCheck& check : checks) admitted = admitted & check.types;
  return admitted;
}

void AddSchemaFacts(const onnx::OpSchema& schema, const kernels::KernelEntry* entry,
                    const kernels::ValueKernelEntry* value_entry, ResolvedOp& op) {
  for (const auto& [name, attribute] : schema.attributes()) {
    std::optional<kernels::KernelAttributeValue> value = DefaultValue(attribute.default_value);
    if (value.has_value()) op.defaults.push_back({name, *std::move(value)});
  }
  for (const auto& formal : schema.inputs()) op.input_names.push_back(formal.GetName());
  const kernels::KernelTypes* declared = nullptr;
  if (entry != nullptr) {
    if (std::optional<std::vector<OperandTypeCheck>> checks = OperandChecks(schema, entry->types)) {
      op.kernel = &entry->kernel;
      op.kernel_checks = *std::move(checks);
      op.types_every_kernel_check_admits = TypesEveryCheckAdmits(op.kernel_checks);
      declared = &entry->types;
    }
  }
  if (value_entry != nullptr) {
    if (std::optional<std::vector<OperandTypeCheck>> checks =
            OperandChecks(schema, value_entry->types)) {
      op.value_kernel = &value_entry->kernel;
      op.value_kernel_checks = *std::move(checks);
      if (declared == nullptr) declared = &value_entry->types;
    }
  }
  if (op.kernel == nullptr) {
    if (std::optional<kernels::Kernel> body = FunctionBodyKernel(schema)) {
      op.function_body = *std::move(body);
      op.kernel = &op.function_body;
    }
  }
  SetComputedTypes(schema, declared, op);
  op.value_is_shape_data = op.kernel != nullptr && MovesElementsOnly(schema);
}

// Ops without a schema (custom ops): their kernels, unchecked.
void AddKernelsWithoutSchema(const kernels::KernelEntry* entry,
                             const kernels::ValueKernelEntry* value_entry, ResolvedOp& op) {
  if (entry != nullptr) op.kernel = &entry->kernel;
  if (value_entry != nullptr) op.value_kernel = &value_entry->kernel;
  if (entry != nullptr) {
    op.computed_types = entry->types.primary();
  } else if (value_entry != nullptr) {
    op.computed_types = value_entry->types.primary();
  }
}

const onnx::OpSchema* SchemaOf(absl::string_view domain, absl::string_view op_type,
                               int since_version) {
  if (!IsOnnxDefinedDomain(domain)) return nullptr;
  return FindSchema(op_type, since_version, domain);
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
  const std::string key = Key(domain, op_type, since_version);
  std::unique_ptr<const ResolvedOp>& slot = registry.resolved[key];
  if (slot == nullptr) {
    auto op = std::make_unique<ResolvedOp>();
    op->since_version = since_version;
    op->deterministic = !registry.nondeterministic.contains(key);
    const kernels::KernelEntry* entry = registry.table.find(domain, op_type, since_version);
    const kernels::ValueKernelEntry* value_entry =
        registry.table.find_value_kernel(domain, op_type, since_version);
    if (const onnx::OpSchema* schema = SchemaOf(domain, op_type, since_version)) {
      AddSchemaFacts(*schema, entry, value_entry, *op);
    } else {
      AddKernelsWithoutSchema(entry, value_entry, *op);
    }
    slot = std::move(op);
  }
  return slot.get();
}

std::optional<UndeclaredOperand> FindUndeclaredOperand(absl::Span<const OperandTypeCheck> checks,
                                                       absl::Span<const DataType> inputs,
                                                       absl::Span<const DataType> outputs) {
  for (const OperandTypeCheck& check : checks) {
    const absl::Span<const DataType> operands = check.output ? outputs : inputs;
    const size_t first = static_cast<size_t>(check.first);
    const size_t end = check.variadic ? operands.size() : std::min(first + 1, operands.size());
    for (size_t i = first; i < end; ++i) {
      const DataType dtype = operands[i];
      if (dtype != DataType::kUndefined && !check.types.contains(dtype)) {
        return UndeclaredOperand{&check, static_cast<int>(i), dtype};
      }
    }
  }
  return std::nullopt;
}

void RegisterCustomKernel(absl::string_view domain, absl::string_view op_type, int version,
                          kernels::Kernel kernel, bool deterministic) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (!deterministic) registry.nondeterministic.insert(Key(domain, op_type, version));
  // A custom op has no schema to name type parameters by; its inference function decides.
  registry.table.add(domain, op_type, version, version, kernels::KernelTypes::Unconstrained(),
                     std::move(kernel));
}

Attribute ToAttribute(const kernels::KernelAttribute& attribute) {
  return std::visit(
      [&](const auto& v) {
        return Attribute{std::string(attribute.name), AttributeValue(v)};
      },
      attribute.value);
}

std::vector<std::string> OpsWithKernels() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.table.keys();
}

void VisitKernelDeclarations(const kernels::KernelTable::EntryVisitor& visit) {
  struct Declaration {
    std::string domain, op_type;
    int first, last;
    kernels::KernelTypes types;
  };
  std::vector<Declaration> declarations;
  {
    // Copied out under the lock, visited after it: a visitor may resolve ops (which locks).
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    registry.table.for_each_entry([&](absl::string_view domain, absl::string_view op_type,
                                      int first, int last, const kernels::KernelTypes& types) {
      declarations.push_back({std::string(domain), std::string(op_type), first, last, types});
    });
  }
  for (const Declaration& d : declarations) visit(d.domain, d.op_type, d.first, d.last, d.types);
}

}  // namespace graphgc::internal
