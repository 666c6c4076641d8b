#include "graphgc/opset/build/kernel_run.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

std::optional<kernels::KernelAttributeValue> KernelValueOf(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::optional<kernels::KernelAttributeValue> {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_constructible_v<kernels::KernelAttributeValue, T> &&
                      !std::is_same_v<T, Subgraph> && !std::is_same_v<T, SubgraphId> &&
                      !std::is_same_v<T, VarType>) {
          return kernels::KernelAttributeValue(v);
        } else {
          return std::nullopt;
        }
      },
      value);
}

// The node's own attributes as the kernel reads them (views of their names; subgraphs and types,
// which no kernel reads, left out). The schema's defaults go beside them (KernelCall::defaults).
using KernelAttributeList = absl::InlinedVector<kernels::KernelAttribute, 4>;
KernelAttributeList KernelAttributes(const std::vector<Attribute>& given) {
  KernelAttributeList out;
  for (const Attribute& attribute : given) {
    if (std::optional<kernels::KernelAttributeValue> v = KernelValueOf(attribute.value)) {
      out.push_back({attribute.name, *std::move(v)});
    }
  }
  return out;
}

}  // namespace

absl::Status CheckTensorValue(size_t index, const Tensor& value, OutputType& type) {
  if (!kernels::Fits(value, type.dtype, type.shape)) {
    return absl::InternalError(absl::StrCat(
        "graphgc bug: the kernel's output ", index, " is ", DataTypeName(value.dtype()), " ",
        ShapeToString(value.shape()), " but inference gave ", DataTypeName(type.dtype), " ",
        type.shape.has_value() ? ShapeToString(*type.shape) : "of unknown rank"));
  }
  // Fits matched every known dim; only unknown ones (or an unknown rank) take the value's.
  const bool complete =
      type.shape.has_value() &&
      std::all_of(type.shape->begin(), type.shape->end(), [](int64_t dim) { return dim >= 0; });
  if (!complete) type.shape.emplace(value.shape().begin(), value.shape().end());
  return absl::OkStatus();
}

namespace {

bool HasNonTensors(absl::Span<const OperandInfo> infos, absl::Span<const OutputType> types) {
  for (const OperandInfo& info : infos) {
    if (info.present && info.non_tensor.has_value()) return true;
  }
  for (const OutputType& type : types) {
    if (type.non_tensor.has_value()) return true;
  }
  return false;
}

// Checks and stores the kernel's values (tensors or any kind) for `types`.
template <class Results>
absl::Status TakeValues(Results& results, OutputTypes& types, OutputValues& values) {
  if (results.size() != types.size()) {
    return absl::InternalError(absl::StrCat("graphgc bug: the kernel returned ", results.size(),
                                            " values for ", types.size(), " outputs"));
  }
  // Refined in place: on an error the node fails, and its types with it.
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].has_value()) continue;
    if constexpr (std::is_same_v<typename Results::value_type, std::optional<Tensor>>) {
      GRAPHGC_RETURN_IF_ERROR(CheckTensorValue(i, *results[i], types[i]));  // the common case
    } else {
      GRAPHGC_RETURN_IF_ERROR(CheckOutputValue(i, *results[i], types[i]));
    }
  }
  values.assign(std::make_move_iterator(results.begin()), std::make_move_iterator(results.end()));
  return absl::OkStatus();
}

// Kernels multiply dims freely (planes N * C, padded kernel extents, an output's element count),
// so no value is computed from or into an empty tensor whose dims would overflow that product
// (DimsMultiplySafely); of an inferred shape, the known dims count.
bool KernelsCanMultiplyDims(absl::Span<const OperandInfo> infos, const OutputTypes& types) {
  for (const OperandInfo& info : infos) {
    if (info.present && info.value.has_value() && !DimsMultiplySafely(info.value->shape())) {
      return false;
    }
  }
  for (const OutputType& type : types) {
    if (!type.shape.has_value()) continue;
    Shape known;
    for (int64_t dim : *type.shape) {
      if (dim >= 0) known.push_back(dim);
    }
    if (!DimsMultiplySafely(known)) return false;
  }
  return true;
}

// Whether every operand the kernel's declaration checks has an element type it declared: a
// kernel is never called for a type it did not declare (kernels/kernel_types.h).
bool OperandTypesDeclared(absl::Span<const OperandTypeCheck> checks,
                          absl::Span<const OperandInfo> infos, const OutputTypes& types) {
  if (checks.empty()) return true;
  absl::InlinedVector<DataType, 4> inputs;
  absl::InlinedVector<DataType, 2> outputs;
  for (const OperandInfo& info : infos) {
    inputs.push_back(info.present && !info.non_tensor.has_value() ? info.dtype
                                                                  : DataType::kUndefined);
  }
  for (const OutputType& type : types) {
    outputs.push_back(type.non_tensor.has_value() ? DataType::kUndefined : type.dtype);
  }
  return !FindUndeclaredOperand(checks, inputs, outputs).has_value();
}

}  // namespace

absl::Status TakeOutputValues(OutputValues& results, OutputTypes& types, OutputValues& values) {
  return TakeValues(results, types, values);
}

absl::Status RunKernel(const KernelOp& kernel_op, absl::Span<const OperandInfo> infos,
                       const std::vector<Attribute>& attributes, int64_t max_value_bytes,
                       OutputTypes& types, OutputValues& values) {
  const ResolvedOp& op = *kernel_op.resolution;
  if (!KernelsCanMultiplyDims(infos, types)) return absl::OkStatus();
  // Sequences, optionals and maps need a value kernel; tensors take the tensor kernel if any.
  const bool use_value_kernel = HasNonTensors(infos, types) || op.kernel == nullptr;
  if (use_value_kernel && op.value_kernel == nullptr) return absl::OkStatus();
  if (!OperandTypesDeclared(use_value_kernel ? op.value_kernel_checks : op.kernel_checks, infos,
                            types)) {
    return absl::OkStatus();
  }
  absl::InlinedVector<const Tensor*, 4> inputs;
  for (const OperandInfo& info : infos) {
    inputs.push_back(info.present && info.value.has_value() ? &*info.value : nullptr);
  }
  absl::InlinedVector<std::optional<Shape>, 1> shapes;
  if (kernel_op.reads_shapes_only) {
    for (const OperandInfo& info : infos) shapes.push_back(info.shape);
  }
  absl::InlinedVector<kernels::OutputSpec, 1> outputs;
  for (const OutputType& type : types) outputs.push_back({type.dtype, type.shape});
  const KernelAttributeList kernel_attributes = KernelAttributes(attributes);
  absl::InlinedVector<std::optional<Value>, 3> any_values;
  if (use_value_kernel) {
    for (const OperandInfo& info : infos) {
      any_values.push_back(info.present ? OperandValue(info) : std::nullopt);
    }
  }
  kernels::KernelCall call;
  call.values = any_values;
  call.op_type = kernel_op.op_type;
  call.version = op.since_version;
  call.inputs = inputs;
  call.input_shapes = shapes;
  call.input_names =
      kernel_op.input_names.empty() ? absl::MakeConstSpan(op.input_names) : kernel_op.input_names;
  call.attributes = kernel_attributes;
  call.defaults = op.defaults;
  call.outputs = outputs;
  call.max_value_bytes = max_value_bytes;
  call.threads = std::max(kernel_op.threads, 1);
  if (use_value_kernel) {
    kernels::ValueKernelResult result = (*op.value_kernel)(kernels::KernelContext(call));
    if (!result.ok())
      return kernels::MeansNoValue(result.status()) ? absl::OkStatus() : result.status();
    return TakeValues(*result, types, values);
  }
  kernels::KernelResult result = (*op.kernel)(kernels::KernelContext(call));
  if (!result.ok())
    return kernels::MeansNoValue(result.status()) ? absl::OkStatus() : result.status();
  return TakeValues(*result, types, values);
}

}  // namespace graphgc::internal
