#include "graphgc/opset/inference/schema_inference.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/ir/arena.h"
#include "graphgc/ir/graph.h"
#include "graphgc/opset/inference/guarded_schema_registry.h"
#include "graphgc/opset/inference/inference_fixes.h"
#include "graphgc/opset/inference/inference_guards.h"
#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/shape_data.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/defs/data_type_utils.h"
#include "onnx/defs/shape_inference.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc::internal {
namespace {

using onnx::OpSchema;

std::string TensorTypeString(DataType dtype) {
  return absl::StrCat("tensor(", DataTypeName(dtype), ")");
}

// ONNX's type string of an operand: "tensor(float)", "seq(tensor(int64))", ...
std::string TypeString(const OperandInfo& operand) {
  return operand.non_tensor.has_value() ? operand.non_tensor->ToString()
                                        : TensorTypeString(operand.dtype);
}

// "float[2,3], (omitted), int64[?]; axis=-3, perm=[1,0]": what an inference error was given.
// " = [2,-1]" for a known integer input of a few elements (a shape, axes, pads), whose values
// ONNX's messages about them do not repeat; empty otherwise.
std::string SmallIntegerValue(const OperandInfo& in) {
  constexpr int64_t kMostShown = 16;
  if (!in.value.has_value() || in.value->size() > kMostShown) return "";
  if (in.dtype == DataType::kInt64) {
    return absl::StrCat(" = [", absl::StrJoin(in.value->data<int64_t>(), ","), "]");
  }
  if (in.dtype == DataType::kInt32) {
    return absl::StrCat(" = [", absl::StrJoin(in.value->data<int32_t>(), ","), "]");
  }
  return "";
}

std::string DescribeCall(absl::Span<const OperandInfo> inputs,
                         absl::Span<const Attribute> attributes) {
  std::string text = "inputs ";
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OperandInfo& in = inputs[i];
    absl::StrAppend(&text, i == 0 ? "" : ", ");
    if (!in.present) {
      absl::StrAppend(&text, "(omitted)");
    } else if (in.non_tensor.has_value()) {
      absl::StrAppend(&text, in.non_tensor->ToString());
    } else {
      absl::StrAppend(&text, DataTypeName(in.dtype),
                      in.shape.has_value() ? ShapeToString(*in.shape) : "[?]",
                      SmallIntegerValue(in));
    }
  }
  if (inputs.empty()) absl::StrAppend(&text, "(none)");
  for (size_t i = 0; i < attributes.size(); ++i) {
    absl::StrAppend(&text, i == 0 ? "; " : ", ", attributes[i].name, "=");
    const AttributeValue& value = attributes[i].value;
    if (const int64_t* integer = std::get_if<int64_t>(&value)) {
      absl::StrAppend(&text, *integer);
    } else if (const float* real = std::get_if<float>(&value)) {
      absl::StrAppend(&text, *real);
    } else if (const std::string* string = std::get_if<std::string>(&value)) {
      absl::StrAppend(&text, "\"", *string, "\"");
    } else if (const auto* integers = std::get_if<std::vector<int64_t>>(&value)) {
      absl::StrAppend(&text, "[", absl::StrJoin(*integers, ","), "]");
    } else if (const auto* reals = std::get_if<std::vector<float>>(&value)) {
      absl::StrAppend(&text, "[", absl::StrJoin(*reals, ","), "]");
    } else {
      absl::StrAppend(&text, "...");
    }
  }
  return text;
}

const OpSchema::FormalParameter& FormalInput(const OpSchema& schema, size_t index) {
  const auto& formals = schema.inputs();
  return formals[std::min(index, formals.size() - 1)];
}

std::string InputName(const OpSchema& schema, size_t index) {
  if (schema.inputs().empty()) return absl::StrCat("input ", index);
  return absl::StrCat("input ", index, " (", FormalInput(schema, index).GetName(), ")");
}

std::string AllowedTypes(const OpSchema::FormalParameter& formal) {
  std::vector<std::string> names;
  for (const auto* type : formal.GetTypes()) names.push_back(*type);
  std::sort(names.begin(), names.end());
  return absl::StrJoin(names, ", ");
}

absl::Status CheckInputCount(const OpSchema& schema, size_t count) {
  if (static_cast<int>(count) < schema.min_input() ||
      static_cast<int>(count) > schema.max_input()) {
    return absl::InvalidArgumentError(absl::StrCat(count, " inputs given; the schema (opset ",
                                                   schema.since_version(), ") takes ",
                                                   schema.min_input(), " to ", schema.max_input()));
  }
  return absl::OkStatus();
}

// ONNX's interned type of a type string, or nullptr where ONNX does not know it (ToType throws
// for "tensor(undefined)" and the like).
onnx::DataType OnnxTypeOfString(const std::string& type) {
  try {
    return onnx::Utils::DataTypeUtils::ToType(type);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// ONNX's interned type of an operand. ToType parses its string and takes a lock each time, which
// was a third of building a Conv: tensor types, the common case, are looked up once per process.
onnx::DataType OnnxTypeOf(const OperandInfo& operand) {
  if (operand.non_tensor.has_value()) return OnnxTypeOfString(TypeString(operand));
  constexpr int kCodes = 32;
  static const std::array<onnx::DataType, kCodes> kTensorTypes = [] {
    std::array<onnx::DataType, kCodes> types{};
    for (int code = 0; code < kCodes; ++code) {
      if (IsSupportedDataType(code)) {
        types[code] = OnnxTypeOfString(TensorTypeString(static_cast<DataType>(code)));
      }
    }
    return types;
  }();
  const auto code = static_cast<int32_t>(operand.dtype);
  return code >= 0 && code < kCodes ? kTensorTypes[code] : nullptr;
}

absl::Status CheckInputTypesOnce(const OpSchema& schema, absl::Span<const OperandInfo> inputs) {
  struct Binding {
    const std::string* param;  // the formal's type parameter ("T")
    onnx::DataType type;       // interned: equal types are equal pointers
    size_t first_use;
  };
  absl::InlinedVector<Binding, 4> bound;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OpSchema::FormalParameter& formal = FormalInput(schema, i);
    if (!inputs[i].present) {
      if (formal.GetOption() == OpSchema::Optional) continue;
      return absl::InvalidArgumentError(absl::StrCat(InputName(schema, i), " is required"));
    }
    const onnx::DataType type = OnnxTypeOf(inputs[i]);
    if (type == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(InputName(schema, i), " has no known type (", TypeString(inputs[i]),
                       "): an untyped output of an opaque node cannot feed an ONNX op"));
    }
    if (formal.GetTypes().count(type) == 0) {
      return absl::InvalidArgumentError(absl::StrCat(InputName(schema, i), " has type ", *type,
                                                     ", not one of ", AllowedTypes(formal)));
    }
    const bool variadic_mixed =
        formal.GetOption() == OpSchema::Variadic && !formal.GetIsHomogeneous();
    if (variadic_mixed) continue;
    const std::string& param = formal.GetTypeStr();
    const auto same_param = [&](const Binding& b) { return *b.param == param; };
    const auto it = std::find_if(bound.begin(), bound.end(), same_param);
    if (it == bound.end()) {
      bound.push_back({&param, type, i});
    } else if (it->type != type) {
      return absl::InvalidArgumentError(absl::StrCat(
          InputName(schema, i), " has type ", *type, " but ", InputName(schema, it->first_use),
          " has ", *it->type, "; both are of type ", param));
    }
  }
  return absl::OkStatus();
}

// The (schema, input types) pairs a thread's CheckInputTypes accepted lately. The check reads
// nothing else of a tensor operand than whether it is there and its element type, and a model
// calls the same op with the same types over and over: checked once, a pair is looked up after.
class AcceptedInputTypes {
 public:
  // The operands' presence and element types in one word; nullopt where they do not fit in it
  // (more than ten inputs, a sequence, optional or map, a code past 5 bits).
  static std::optional<uint64_t> KeyOf(absl::Span<const OperandInfo> inputs) {
    constexpr size_t kMaxInputs = 10;
    if (inputs.size() > kMaxInputs) return std::nullopt;
    uint64_t key = inputs.size();
    for (const OperandInfo& input : inputs) {
      const auto code = static_cast<uint32_t>(input.dtype);
      if (input.non_tensor.has_value() || code >= 32) return std::nullopt;
      key = key << 6 | (input.present ? 32 + code : 0);
    }
    return key;
  }
  bool Contains(const OpSchema& schema, uint64_t key) const {
    const Entry& entry = entries_[SlotOf(schema, key)];
    return entry.schema == &schema && entry.key == key;
  }
  void Insert(const OpSchema& schema, uint64_t key) {
    entries_[SlotOf(schema, key)] = {&schema, key};
  }

 private:
  struct Entry {
    const OpSchema* schema = nullptr;
    uint64_t key = 0;
  };
  static constexpr size_t kSlots = 256;
  static size_t SlotOf(const OpSchema& schema, uint64_t key) {
    const uint64_t mixed =
        (reinterpret_cast<uintptr_t>(&schema) ^ key) * uint64_t{0x9E3779B97F4A7C15};
    return static_cast<size_t>(mixed >> 56) % kSlots;
  }
  std::array<Entry, kSlots> entries_{};
};

absl::Status CheckInputTypes(const OpSchema& schema, absl::Span<const OperandInfo> inputs) {
  thread_local AcceptedInputTypes accepted;
  const std::optional<uint64_t> key = AcceptedInputTypes::KeyOf(inputs);
  if (key.has_value() && accepted.Contains(schema, *key)) return absl::OkStatus();
  absl::Status status = CheckInputTypesOnce(schema, inputs);
  if (status.ok() && key.has_value()) accepted.Insert(schema, *key);
  return status;
}

onnx::AttributeProto::AttributeType ProtoTypeOf(const AttributeValue& value) {
  using onnx::AttributeProto;
  static constexpr AttributeProto::AttributeType kByIndex[] = {
      AttributeProto::INT,       AttributeProto::FLOAT, AttributeProto::STRING,
      AttributeProto::TENSOR,    AttributeProto::INTS,  AttributeProto::FLOATS,
      AttributeProto::STRINGS,   AttributeProto::GRAPH, AttributeProto::GRAPH,
      AttributeProto::TYPE_PROTO};
  static_assert(std::size(kByIndex) == std::variant_size_v<AttributeValue>);
  return kByIndex[value.index()];
}

// ONNX's data propagation works on the elements of small int64 tensors (shape computations),
// as TensorShapeProtos: a dim_value per known element, an empty dim per unknown one.
std::optional<onnx::TensorShapeProto> ShapeDataOf(const OperandInfo& operand) {
  const std::optional<ShapeData> elements = ShapeDataOfOperand(operand);
  if (!elements.has_value()) return std::nullopt;
  onnx::TensorShapeProto data;
  for (size_t i = 0; i < elements->elements.size(); ++i) {
    onnx::TensorShapeProto::Dimension* dim = data.add_dim();
    if (elements->known(i)) dim->set_dim_value(elements->elements[i]);
  }
  return data;
}

Shape ElementsOf(const onnx::TensorShapeProto& data) {
  Shape elements;
  for (const auto& dim : data.dim()) {
    elements.push_back(dim.has_dim_value() ? dim.dim_value() : Arena::kUnknownElement);
  }
  return elements;
}

// A built body, as ONNX's If, Loop and Scan inference functions query it: the op passes the types
// it gives the body's arguments, the body answers with its results' types. The body was built on
// arguments of exactly the types the op defines, so this checks that the two agree.
class BodyInferencer final : public onnx::GraphInferencer {
 public:
  explicit BodyInferencer(const BodyTypes& body) : body_(body) {
    for (const OutputType& result : body.results) {
      results_.push_back(result.non_tensor.has_value() ? ToTypeProto(*result.non_tensor)
                                                       : ToTypeProto(result.dtype, result.shape));
    }
  }

  std::vector<const onnx::TypeProto*> doInferencing(
      const std::vector<const onnx::TypeProto*>& argument_types,
      const std::vector<const onnx::TensorProto*>&) override {
    if (argument_types.size() != body_.arguments.size()) {
      fail_type_inference("the body '", body_.attribute, "' has ", body_.arguments.size(),
                          " arguments but the op passes ", argument_types.size());
    }
    for (size_t i = 0; i < argument_types.size(); ++i) {
      const onnx::TypeProto* given = argument_types[i];
      if (given == nullptr || !given->has_tensor_type() || given->tensor_type().elem_type() == 0) {
        continue;
      }
      const DataType declared = body_.arguments[i].dtype;
      if (body_.arguments[i].non_tensor.has_value()) continue;
      if (given->tensor_type().elem_type() != static_cast<int32_t>(declared)) {
        fail_type_inference("argument ", i, " of the body '", body_.attribute, "' is ",
                            DataTypeName(declared), " but the op passes element type ",
                            given->tensor_type().elem_type());
      }
    }
    std::vector<const onnx::TypeProto*> results;
    for (const onnx::TypeProto& result : results_) results.push_back(&result);
    return results;
  }

 private:
  const BodyTypes& body_;
  std::vector<onnx::TypeProto> results_;
};

// The onnx::InferenceContext of one node, over graphgc's operand descriptions.
class OperandInferenceContext final : public onnx::InferenceContext {
 public:
  OperandInferenceContext(absl::Span<const OperandInfo> inputs,
                          absl::Span<const Attribute> attributes, int num_outputs,
                          absl::Span<const BodyTypes> bodies)
      : inputs_(inputs),
        input_types_(inputs.size()),
        input_data_(inputs.size()),
        output_types_(static_cast<size_t>(num_outputs)) {
    for (const BodyTypes& body : bodies) {
      bodies_.emplace(body.attribute, std::make_unique<BodyInferencer>(body));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].present) continue;
      input_types_[i] = inputs[i].non_tensor.has_value()
                            ? ToTypeProto(*inputs[i].non_tensor)
                            : ToTypeProto(inputs[i].dtype, inputs[i].shape);
    }
    for (const Attribute& attribute : attributes) {
      ToAttributeProto(attribute, &attributes_[attribute.name]);
    }
  }

  const onnx::AttributeProto* getAttribute(const std::string& name) const override {
    auto it = attributes_.find(name);
    return it == attributes_.end() ? nullptr : &it->second;
  }
  size_t getNumInputs() const override { return inputs_.size(); }
  const onnx::TypeProto* getInputType(size_t index) const override {
    return index < inputs_.size() && inputs_[index].present ? &input_types_[index] : nullptr;
  }
  const onnx::TensorProto* getInputData(size_t index) const override {
    if (index >= inputs_.size() || !inputs_[index].value.has_value()) return nullptr;
    if (inputs_[index].value->size() > kMaxInferenceDataElements) return nullptr;
    std::optional<onnx::TensorProto>& data = input_data_[index];
    if (!data.has_value()) data = ToTensorProto(*inputs_[index].value);
    return &*data;
  }
  size_t getNumOutputs() const override { return output_types_.size(); }
  // ONNX's inference may ask past the outputs given; .at() throws, and RunInference turns any
  // exception into a status.
  onnx::TypeProto* getOutputType(size_t index) override { return &output_types_.at(index); }
  onnx::GraphInferencer* getGraphAttributeInferencer(const std::string& name) override {
    auto it = bodies_.find(name);
    if (it == bodies_.end()) fail_type_inference("the graph attribute '", name, "' was not built");
    return it->second.get();
  }
  const onnx::SparseTensorProto* getInputSparseData(size_t) const override { return nullptr; }
  const onnx::TensorShapeProto* getSymbolicInput(size_t index) const override {
    if (index >= inputs_.size() || !inputs_[index].shape_data.has_value()) return nullptr;
    return ShapeData(index);
  }

  // Input `index` as data propagation sees it (a known small int64 value, or partly known shape
  // data); nullptr when there is none. Shared with ShapeDataContext, which reads the same.
  const onnx::TensorShapeProto* ShapeData(size_t index) const {
    if (index >= inputs_.size() || !inputs_[index].present) return nullptr;
    std::optional<onnx::TensorShapeProto>& data = shape_data_[index];
    if (!data.has_value()) data = ShapeDataOf(inputs_[index]);
    return data.has_value() ? &*data : nullptr;
  }

  const std::vector<onnx::TypeProto>& output_types() const { return output_types_; }
  const std::vector<onnx::TypeProto>& input_types() const { return input_types_; }
  // Writes the names (one per dim or element, "" for none) as dim_params on input `index`'s
  // unknown dims and on the unknown elements of its shape data.
  void NameInput(size_t index, const SymbolicNames& names) {
    if (index >= input_types_.size()) return;
    if (!names.dims.empty() && input_types_[index].has_tensor_type() &&
        input_types_[index].tensor_type().has_shape()) {
      NameDims(*input_types_[index].mutable_tensor_type()->mutable_shape(), names.dims);
    }
    if (!names.elements.empty() && ShapeData(index) != nullptr) {
      NameDims(*shape_data_[index], names.elements);
    }
  }
  const std::map<std::string, onnx::AttributeProto>& attributes() const { return attributes_; }

 private:
  static void NameDims(onnx::TensorShapeProto& shape, const std::vector<std::string>& names) {
    if (static_cast<size_t>(shape.dim_size()) != names.size()) return;
    for (int d = 0; d < shape.dim_size(); ++d) {
      onnx::TensorShapeProto::Dimension* dim = shape.mutable_dim(d);
      if (!names[d].empty() && !dim->has_dim_value()) dim->set_dim_param(names[d]);
    }
  }

  absl::Span<const OperandInfo> inputs_;
  std::vector<onnx::TypeProto> input_types_;
  mutable std::vector<std::optional<onnx::TensorProto>> input_data_;
  mutable std::vector<std::optional<onnx::TensorShapeProto>> shape_data_ =
      std::vector<std::optional<onnx::TensorShapeProto>>(inputs_.size());
  std::map<std::string, onnx::AttributeProto> attributes_;
  std::vector<onnx::TypeProto> output_types_;
  std::map<std::string, std::unique_ptr<BodyInferencer>> bodies_;
};

// ONNX's data propagation for one node (Shape, Gather, Concat, Slice, Unsqueeze, arithmetic...):
// what it knows of each output's elements, given what is known of the inputs'.
class ShapeDataContext final : public onnx::DataPropagationContext {
 public:
  explicit ShapeDataContext(const OperandInferenceContext& inferred)
      : inferred_(inferred), output_data_(inferred.output_types().size()) {}

  const onnx::AttributeProto* getAttribute(const std::string& name) const override {
    return inferred_.getAttribute(name);
  }
  size_t getNumInputs() const override { return inferred_.getNumInputs(); }
  const onnx::TypeProto* getInputType(size_t index) const override {
    return inferred_.getInputType(index);
  }
  size_t getNumOutputs() const override { return output_data_.size(); }
  const onnx::TypeProto* getOutputType(size_t index) const override {
    return index < output_data_.size() ? &inferred_.output_types()[index] : nullptr;
  }
  const onnx::TensorShapeProto* getInputData(size_t index) override {
    return inferred_.ShapeData(index);
  }
  void addOutputData(size_t index, onnx::TensorShapeProto&& data) override {
    if (index < output_data_.size()) output_data_[index] = std::move(data);
  }

  const std::vector<std::optional<onnx::TensorShapeProto>>& output_data() const {
    return output_data_;
  }

 private:
  const OperandInferenceContext& inferred_;
  std::vector<std::optional<onnx::TensorShapeProto>> output_data_;
};

absl::StatusOr<OutputType> ToOutputType(const onnx::TypeProto& type, size_t index) {
  absl::StatusOr<VarType> converted =
      FromTypeProto(type, absl::StrCat("output ", index, " as inferred"));
  if (!converted.ok()) return converted.status();
  return OutputTypeOf(*converted);
}

// The type of output `index` by its constraint alone, for the few schemas without an inference
// function (some ai.onnx.ml ops) and outputs an inference function leaves untyped: a type
// parameter an input bound gives that input's type, a constraint allowing one type gives it;
// the shape stays unknown.
absl::StatusOr<OutputType> TypeFromConstraint(const OpSchema& schema,
                                              absl::Span<const OperandInfo> inputs, int index) {
  const auto& formal = schema.outputs()[std::min<size_t>(index, schema.outputs().size() - 1)];
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].present && FormalInput(schema, i).GetTypeStr() == formal.GetTypeStr()) {
      return AnyOutput(inputs[i].dtype, std::nullopt, inputs[i].non_tensor);
    }
  }
  if (formal.GetTypes().size() == 1) {
    const onnx::TypeProto type =
        onnx::Utils::DataTypeUtils::ToTypeProto(*formal.GetTypes().begin());
    absl::StatusOr<VarType> only = FromTypeProto(type, absl::StrCat("output ", index));
    if (only.ok()) return OutputTypeOf(*only);
  }
  return absl::UnimplementedError(absl::StrCat(
      "output ", index, " (", formal.GetName(), ") is not typed by inference (schema of opset ",
      schema.since_version(), ") and its type constraint does not determine one"));
}

absl::StatusOr<OutputTypes> TypesFromConstraints(const OpSchema& schema,
                                                 absl::Span<const OperandInfo> inputs,
                                                 int num_outputs) {
  OutputTypes outputs;
  for (int i = 0; i < num_outputs; ++i) {
    GRAPHGC_ASSIGN_OR_RETURN(OutputType out, TypeFromConstraint(schema, inputs, i));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

// Runs the schema's inference function, or infers through its function body (GreaterOrEqual,
// ...) when it has none; false when it has neither.
bool RunInferenceFunction(const OpSchema& schema, OperandInferenceContext& context) {
  if (schema.has_type_and_shape_inference_function()) {
    schema.GetTypeAndShapeInferenceFunction()(context);
    return true;
  }
  // The body for the newest opset graphgc builds (a schema may carry one per opset).
  const onnx::FunctionProto* function =
      schema.HasFunction() ? schema.GetFunction(kNewestOnnxOpset) : nullptr;
  if (function == nullptr) return false;
  // The body's own nodes are checked as any node is: their inference trusts the same things.
  onnx::shape_inference::InferShapeForFunctionNode(*function, GuardedSchemaRegistry(), context);
  return true;
}

std::optional<std::vector<OperandInfo>> Widened(const OpSchema& schema,
                                                absl::Span<const OperandInfo> inputs,
                                                absl::Span<const Attribute> attributes) {
  if (!schema.domain().empty()) return std::nullopt;
  return WidenedForOnnxInference(schema.Name(), schema.since_version(), inputs, attributes);
}

absl::Status InferenceFailed(absl::string_view why, absl::Span<const OperandInfo> inputs,
                             absl::Span<const Attribute> attributes) {
  return absl::InvalidArgumentError(
      absl::StrCat("inference failed: ", why, " (", DescribeCall(inputs, attributes), ")"));
}

// A native rule's answer (it did not decline): its types, or its error as ONNX's would read.
absl::StatusOr<OutputTypes> Answered(absl::StatusOr<OutputTypes>& types,
                                     absl::Span<const OperandInfo> inputs,
                                     absl::Span<const Attribute> attributes) {
  if (types.ok()) return std::move(types);
  return InferenceFailed(types.status().message(), inputs, attributes);
}

absl::StatusOr<OutputTypes> RunInference(const OpSchema& schema,
                                         absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs,
                                         absl::Span<const BodyTypes> bodies) {
  if (NativeBodyRule* const native = FindNativeBodyInference(schema)) {
    absl::StatusOr<OutputTypes> types = native(bodies, num_outputs);
    if (!absl::IsUnimplemented(types.status())) return Answered(types, inputs, attributes);
  }
  const std::optional<std::vector<OperandInfo>> widened = Widened(schema, inputs, attributes);
  if (const NativeInferenceFn native = FindNativeInference(schema)) {
    absl::StatusOr<OutputTypes> types =
        native(widened.has_value() ? absl::Span<const OperandInfo>(*widened) : inputs, attributes,
               num_outputs);
    if (!absl::IsUnimplemented(types.status())) return Answered(types, inputs, attributes);
  }
  OperandInferenceContext context(widened.has_value() ? *widened : inputs, attributes, num_outputs,
                                  bodies);
  try {
    if (!RunInferenceFunction(schema, context)) {
      return TypesFromConstraints(schema, inputs, num_outputs);
    }
  } catch (const std::exception& e) {
    return InferenceFailed(e.what(), inputs, attributes);
  }
  std::vector<std::optional<onnx::TensorShapeProto>> shape_data;
  if (schema.has_data_propagation_function() && DataPropagationApplies(schema, inputs)) {
    ShapeDataContext propagation(context);
    try {
      schema.GetDataPropagationFunction()(propagation);
      shape_data = propagation.output_data();
    } catch (const std::exception&) {
      // Data propagation only sharpens what inference found; without it the types stand.
    }
  }
  OutputTypes outputs;
  for (size_t i = 0; i < context.output_types().size(); ++i) {
    const onnx::TypeProto& type = context.output_types()[i];
    if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) {
      // Some inference functions leave an output untyped (ONNX 1.12's SVMClassifier Z, ...):
      // its type constraint still types it.
      GRAPHGC_ASSIGN_OR_RETURN(OutputType typed,
                               TypeFromConstraint(schema, inputs, static_cast<int>(i)));
      outputs.push_back(std::move(typed));
      continue;
    }
    GRAPHGC_ASSIGN_OR_RETURN(OutputType out, ToOutputType(type, i));
    if (i < shape_data.size() && shape_data[i].has_value()) {
      out.shape_data = ElementsOf(*shape_data[i]);
    }
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace

absl::Status CheckAttributes(const OpSchema& schema, absl::Span<const Attribute> attributes) {
  absl::InlinedVector<absl::string_view, 8> seen;  // views of `attributes`' names
  for (const Attribute& attribute : attributes) {
    if (std::find(seen.begin(), seen.end(), attribute.name) != seen.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute '", attribute.name, "' is given twice"));
    }
    seen.push_back(attribute.name);
    auto it = schema.attributes().find(attribute.name);
    if (it == schema.attributes().end()) {
      return absl::InvalidArgumentError(absl::StrCat("unknown attribute '", attribute.name, "'"));
    }
    const auto expected = it->second.type;
    if (ProtoTypeOf(attribute.value) != expected) {
      return AttributeTypeError(attribute.name, expected, ProtoTypeOf(attribute.value));
    }
  }
  for (const auto& [name, attribute] : schema.attributes()) {
    if (attribute.required &&
        std::find(seen.begin(), seen.end(), absl::string_view(name)) == seen.end()) {
      return MissingAttributeError(name);
    }
  }
  return absl::OkStatus();
}

absl::Status AttributeTypeError(absl::string_view name,
                                onnx::AttributeProto::AttributeType expected,
                                onnx::AttributeProto::AttributeType given) {
  return absl::InvalidArgumentError(absl::StrCat(
      "attribute '", name, "' must be ", onnx::AttributeProto::AttributeType_Name(expected),
      ", not ", onnx::AttributeProto::AttributeType_Name(given)));
}

absl::Status MissingAttributeError(absl::string_view name) {
  return absl::InvalidArgumentError(absl::StrCat("missing required attribute '", name, "'"));
}

absl::Status CheckInputsForSchema(const OpSchema& schema, absl::Span<const OperandInfo> inputs) {
  GRAPHGC_RETURN_IF_ERROR(CheckInputCount(schema, inputs.size()));
  return CheckInputTypes(schema, inputs);
}

absl::Status CheckOutputCount(const OpSchema& schema, int num_outputs) {
  if (num_outputs < schema.min_output() || num_outputs > schema.max_output()) {
    return absl::InvalidArgumentError(absl::StrCat(
        num_outputs,
        " outputs requested; the schema "
        "(opset ",
        schema.since_version(), ") has ", schema.min_output(), " to ", schema.max_output()));
  }
  return absl::OkStatus();
}

absl::StatusOr<OutputTypes> InferWithSchema(const OpSchema& schema,
                                            absl::Span<const OperandInfo> inputs,
                                            absl::Span<const Attribute> attributes, int num_outputs,
                                            absl::Span<const BodyTypes> bodies) {
  GRAPHGC_RETURN_IF_ERROR(CheckInputsForSchema(schema, inputs));
  GRAPHGC_RETURN_IF_ERROR(CheckAttributes(schema, attributes));
  GRAPHGC_RETURN_IF_ERROR(CheckInferenceGuards(schema, inputs, attributes, num_outputs));
  GRAPHGC_RETURN_IF_ERROR(CheckOutputCount(schema, num_outputs));
  return RunInference(schema, inputs, attributes, num_outputs, bodies);
}

namespace {

// The dim_params of `shape`'s dims, "" for a dim without; empty when none has one.
std::vector<std::string> DimParams(const onnx::TensorShapeProto& shape) {
  std::vector<std::string> names;
  bool any = false;
  for (const auto& dim : shape.dim()) {
    names.push_back(dim.has_dim_param() ? dim.dim_param() : "");
    any = any || !names.back().empty();
  }
  return any ? names : std::vector<std::string>();
}

}  // namespace

std::vector<SymbolicNames> InferSymbolicNames(const OpSchema& schema,
                                              absl::Span<const OperandInfo> inputs,
                                              absl::Span<const SymbolicNames> input_names,
                                              absl::Span<const Attribute> attributes,
                                              int num_outputs) {
  std::vector<SymbolicNames> names(static_cast<size_t>(std::max(num_outputs, 0)));
  for (const Attribute& attribute : attributes) {
    if (ProtoTypeOf(attribute.value) == onnx::AttributeProto::GRAPH) return names;
  }
  // The checks InferWithSchema makes first: ONNX's inference functions trust them.
  if (!CheckInputsForSchema(schema, inputs).ok() || !CheckAttributes(schema, attributes).ok() ||
      !CheckInferenceGuards(schema, inputs, attributes, num_outputs).ok() ||
      !CheckOutputCount(schema, num_outputs).ok()) {
    return names;
  }
  const std::optional<std::vector<OperandInfo>> widened = Widened(schema, inputs, attributes);
  OperandInferenceContext context(widened.has_value() ? *widened : inputs, attributes, num_outputs,
                                  {});
  for (size_t i = 0; i < input_names.size() && i < inputs.size(); ++i) {
    if (inputs[i].present) context.NameInput(i, input_names[i]);
  }
  try {
    if (!RunInferenceFunction(schema, context)) return names;
  } catch (const std::exception&) {
    return names;  // the names are a courtesy; the node's own inference succeeded
  }
  for (size_t i = 0; i < names.size() && i < context.output_types().size(); ++i) {
    const onnx::TypeProto& type = context.output_types()[i];
    if (type.has_tensor_type() && type.tensor_type().has_shape()) {
      names[i].dims = DimParams(type.tensor_type().shape());
    }
  }
  if (schema.has_data_propagation_function() && DataPropagationApplies(schema, inputs)) {
    ShapeDataContext propagation(context);
    try {
      schema.GetDataPropagationFunction()(propagation);
    } catch (const std::exception&) {
      return names;
    }
    for (size_t i = 0; i < names.size() && i < propagation.output_data().size(); ++i) {
      if (propagation.output_data()[i].has_value()) {
        names[i].elements = DimParams(*propagation.output_data()[i]);
      }
    }
  }
  return names;
}

}  // namespace graphgc::internal
