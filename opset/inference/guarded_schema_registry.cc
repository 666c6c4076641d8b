#include "graphgc/opset/inference/guarded_schema_registry.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/types/span.h"
#include "graphgc/opset/inference/inference_guards.h"
#include "graphgc/opset/inference/schema_inference.h"
#include "graphgc/opset/inference/shape_data.h"
#include "graphgc/opset/proto/attribute_proto.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/defs/shape_inference.h"

namespace graphgc::internal {
namespace {

// The node's context as the schema's inference function is given it: the base context, with
// the data graphgc would not give hidden. It also describes the inputs and attributes as
// graphgc's checks read them.
class CheckedContext final : public onnx::InferenceContext {
 public:
  explicit CheckedContext(onnx::InferenceContext& base) : base_(base) {}

  // The checks InferWithSchema makes before the inference function runs.
  absl::Status Check(const onnx::OpSchema& schema) {
    GRAPHGC_RETURN_IF_ERROR(DescribeInputs());
    GRAPHGC_RETURN_IF_ERROR(CheckInputsForSchema(schema, inputs_));
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<Attribute> attributes, SchemaAttributes(schema));
    const int num_outputs = static_cast<int>(base_.getNumOutputs());
    GRAPHGC_RETURN_IF_ERROR(CheckInferenceGuards(schema, inputs_, attributes, num_outputs));
    return CheckOutputCount(schema, num_outputs);
  }

  const onnx::AttributeProto* getAttribute(const std::string& name) const override {
    return base_.getAttribute(name);
  }
  size_t getNumInputs() const override { return base_.getNumInputs(); }
  const onnx::TypeProto* getInputType(size_t index) const override {
    return base_.getInputType(index);
  }
  bool hasInput(size_t index) const override { return base_.hasInput(index); }
  const onnx::TensorProto* getInputData(size_t index) const override {
    if (index < data_hidden_.size() && data_hidden_[index]) return nullptr;
    return base_.getInputData(index);
  }
  size_t getNumOutputs() const override { return base_.getNumOutputs(); }
  onnx::TypeProto* getOutputType(size_t index) override { return base_.getOutputType(index); }
  bool hasOutput(size_t index) override { return base_.hasOutput(index); }
  onnx::GraphInferencer* getGraphAttributeInferencer(const std::string& name) override {
    return base_.getGraphAttributeInferencer(name);
  }
  const onnx::SparseTensorProto* getInputSparseData(size_t) const override { return nullptr; }
  const onnx::TensorShapeProto* getSymbolicInput(size_t index) const override {
    return base_.getSymbolicInput(index);
  }
  std::string getDisplayName() const override { return base_.getDisplayName(); }

 private:
  absl::Status DescribeInputs() {
    const size_t count = base_.getNumInputs();
    inputs_.resize(count);
    data_hidden_.assign(count, false);
    for (size_t i = 0; i < count; ++i) {
      GRAPHGC_RETURN_IF_ERROR(DescribeInput(i));
    }
    return absl::OkStatus();
  }

  // An input without a type is an omitted one to the checks: an untyped required input fails.
  absl::Status DescribeInput(size_t index) {
    OperandInfo& input = inputs_[index];
    const onnx::TypeProto* type = base_.getInputType(index);
    if (type == nullptr) {
      input.present = false;
      return absl::OkStatus();
    }
    GRAPHGC_ASSIGN_OR_RETURN(VarType var_type, FromTypeProto(*type, absl::StrCat("input ", index)));
    if (!var_type.is_tensor()) {
      input.non_tensor = std::move(var_type);
      return absl::OkStatus();
    }
    input.dtype = var_type.dtype();
    if (var_type.shape().has_value()) {
      input.shape = Shape(var_type.shape()->begin(), var_type.shape()->end());
    }
    DescribeData(index);
    return absl::OkStatus();
  }

  void DescribeData(size_t index) {
    const onnx::TensorProto* data = base_.getInputData(index);
    if (data == nullptr) return;
    std::optional<Tensor> value = ReadData(*data, inputs_[index].shape);
    data_hidden_[index] = !value.has_value();
    inputs_[index].value = std::move(value);
  }

  // The tensor of a known input's data, if small and readable. ONNX's whole-model inference
  // gives the constants a Constant node makes of value_ints and the like without dims (its
  // functions read the elements alone): those take the input's type's shape.
  static std::optional<Tensor> ReadData(const onnx::TensorProto& data,
                                        const std::optional<Shape>& declared) {
    const bool takes_declared = data.dims_size() == 0 && declared.has_value() && !declared->empty();
    const absl::Span<const int64_t> dims =
        takes_declared ? absl::MakeConstSpan(*declared)
                       : absl::MakeConstSpan(data.dims().data(), data.dims_size());
    const absl::StatusOr<int64_t> count = ElementCount(dims);
    if (!count.ok() || *count > kMaxInferenceDataElements) return std::nullopt;
    absl::StatusOr<Tensor> read;
    if (takes_declared) {
      onnx::TensorProto shaped = data;
      for (const int64_t dim : dims) shaped.add_dims(dim);
      read = FromTensorProto(shaped);
    } else {
      read = FromTensorProto(data);
    }
    if (!read.ok()) return std::nullopt;
    return *std::move(read);
  }

  // The attributes the schema declares, as the node gives them: each of the declared type, the
  // required ones present. Graph attributes and those graphgc has no value for are checked for
  // their type only (no guard reads them).
  absl::StatusOr<std::vector<Attribute>> SchemaAttributes(const onnx::OpSchema& schema) const {
    std::vector<Attribute> attributes;
    for (const auto& [name, declared] : schema.attributes()) {
      const onnx::AttributeProto* given = base_.getAttribute(name);
      if (given == nullptr) {
        if (!declared.required) continue;
        return MissingAttributeError(name);
      }
      if (given->type() != declared.type) {
        return AttributeTypeError(name, declared.type, given->type());
      }
      if (given->type() == onnx::AttributeProto::GRAPH) continue;
      absl::StatusOr<Attribute> attribute = FromAttributeProto(*given);
      if (attribute.ok()) attributes.push_back(*std::move(attribute));
    }
    return attributes;
  }

  onnx::InferenceContext& base_;
  std::vector<OperandInfo> inputs_;
  std::vector<bool> data_hidden_;
};

void RunGuarded(const onnx::OpSchema& schema, onnx::InferenceContext& context) {
  CheckedContext checked(context);
  const absl::Status status = checked.Check(schema);
  if (!status.ok()) {
    fail_shape_inference(schema.Name(), " (opset ", schema.since_version(),
                         "): ", status.message());
  }
  schema.GetTypeAndShapeInferenceFunction()(checked);
}

class GuardedRegistry final : public onnx::ISchemaRegistry {
 public:
  // NOLINTNEXTLINE(google-default-arguments): ONNX's interface declares the default.
  const onnx::OpSchema* GetSchema(const std::string& key, const int max_inclusive_version,
                                  const std::string& domain) const override {
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Instance()->GetSchema(key, max_inclusive_version, domain);
    return schema == nullptr ? nullptr : Guarded(*schema);
  }

 private:
  const onnx::OpSchema* Guarded(const onnx::OpSchema& schema) const {
    absl::MutexLock lock(&mutex_);
    std::unique_ptr<onnx::OpSchema>& guarded = guarded_[&schema];
    if (guarded == nullptr) {
      guarded = std::make_unique<onnx::OpSchema>(schema);
      if (schema.has_type_and_shape_inference_function()) {
        const onnx::OpSchema* original = &schema;  // ONNX's schemas live as long as the process
        guarded->TypeAndShapeInferenceFunction(
            [original](onnx::InferenceContext& context) { RunGuarded(*original, context); });
      }
    }
    return guarded.get();
  }

  mutable absl::Mutex mutex_;
  mutable absl::flat_hash_map<const onnx::OpSchema*, std::unique_ptr<onnx::OpSchema>> guarded_
      ABSL_GUARDED_BY(mutex_);
};

}  // namespace

const onnx::ISchemaRegistry* GuardedSchemaRegistry() {
  static const GuardedRegistry* const registry = new GuardedRegistry();
  return registry;
}

}  // namespace graphgc::internal
