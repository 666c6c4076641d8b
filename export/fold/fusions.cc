#include "graphgc/export/fold/fusions.h"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/export/onnx/graph_names.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {

int64_t FusionCounts::nodes_removed() const {
  return batchnorm_into_conv + batchnorm_into_gemm + mul_add_into_weights + identity_removed +
         dropout_removed;
}

namespace {

// ---- Attributes: absent gives the default, a value of the wrong type gives nullopt (the node is
// then left alone: it is not what it seems).

std::optional<int64_t> IntAttribute(const onnx::NodeProto& node, absl::string_view name,
                                    int64_t fallback) {
  const onnx::AttributeProto* attribute = FindAttribute(node, name);
  return attribute == nullptr ? std::optional<int64_t>(fallback) : IntValue(*attribute);
}

std::optional<float> FloatAttribute(const onnx::NodeProto& node, absl::string_view name,
                                    float fallback) {
  const onnx::AttributeProto* attribute = FindAttribute(node, name);
  if (attribute == nullptr) return fallback;
  const bool untyped = attribute->type() == onnx::AttributeProto::UNDEFINED && attribute->has_f();
  if (attribute->type() != onnx::AttributeProto::FLOAT && !untyped) return std::nullopt;
  return attribute->f();
}

void SetFloatAttribute(onnx::NodeProto& node, absl::string_view name, float value) {
  for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
    if (attribute.name() != name) continue;
    attribute.set_type(onnx::AttributeProto::FLOAT);
    attribute.set_f(value);
    return;
  }
  onnx::AttributeProto* attribute = node.add_attribute();
  attribute->set_name(std::string(name));
  attribute->set_type(onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}

// ---- Names across scopes.

// Every name a graph or its bodies mention, so that a new name clashes with none of them.
void CollectNames(const onnx::GraphProto& graph, NameSet& names) {
  for (const auto& info : graph.input()) names.insert(info.name());
  for (const auto& info : graph.output()) names.insert(info.name());
  for (const auto& info : graph.value_info()) names.insert(info.name());
  for (const auto& initializer : graph.initializer()) names.insert(initializer.name());
  for (const auto& sparse : graph.sparse_initializer()) names.insert(sparse.values().name());
  for (const auto& node : graph.node()) {
    names.insert(node.input().begin(), node.input().end());
    names.insert(node.output().begin(), node.output().end());
    for (const onnx::GraphProto* body : BodiesOf(node)) CollectNames(*body, names);
  }
}

// ---- Numbers.

bool IsFloatOrDouble(int32_t data_type) {
  return data_type == onnx::TensorProto::FLOAT || data_type == onnx::TensorProto::DOUBLE;
}

// The dims of a tensor proto, or nullopt if one is negative or their product overflows.
std::optional<Shape> ProtoDims(const onnx::TensorProto& proto) {
  Shape dims(proto.dims().begin(), proto.dims().end());
  if (!ElementCount(dims).ok()) return std::nullopt;
  return dims;
}

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t dim : dims) product *= dim;
  return product;
}

std::vector<double> Widened(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kDouble) {
    auto data = tensor.data<double>();
    return std::vector<double>(data.begin(), data.end());
  }
  auto data = tensor.data<float>();
  return std::vector<double>(data.begin(), data.end());
}

bool AllFinite(absl::Span<const double> values) {
  for (double value : values) {
    if (!std::isfinite(value)) return false;
  }
  return true;
}

// `values` stored as `dtype` (float or double); nullopt if one of them is not finite once stored
// (a float overflow would change what the model computes).
absl::StatusOr<std::optional<Tensor>> Narrowed(absl::Span<const double> values, DataType dtype,
                                               absl::Span<const int64_t> shape) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, MutableTensor::allocate(dtype, shape));
  if (dtype == DataType::kDouble) {
    auto data = out.mutable_data<double>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
  } else {
    auto data = out.mutable_data<float>();
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] = static_cast<float>(values[i]);
      if (!std::isfinite(data[i])) return std::nullopt;
    }
  }
  if (!AllFinite(values)) return std::nullopt;
  return std::move(out).freeze();
}

// Whether a constant of shape `dims` broadcasts against a tensor of rank `rank` only along `axis`
// (of size `channels`) or not at all, so that the result keeps the tensor's shape.
bool BroadcastsAlongAxis(absl::Span<const int64_t> dims, int64_t rank, int64_t axis,
                         int64_t channels) {
  const int64_t count = static_cast<int64_t>(dims.size());
  if (count > rank) return false;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t dim = dims[i];
    const bool channel_axis = rank - count + i == axis;
    if (dim != 1 && !(channel_axis && dim == channels)) return false;
  }
  return true;
}

// The value for each channel of a constant BroadcastsAlongAxis accepted: one value for all, or
// one per channel.
// nullopt for any other element count (a malformed model's bias, say).
std::optional<std::vector<double>> PerChannel(const Tensor& constant, int64_t channels) {
  std::vector<double> values = Widened(constant);
  if (static_cast<int64_t>(values.size()) == channels) return values;
  if (values.size() != 1) return std::nullopt;
  return std::vector<double>(static_cast<size_t>(channels), values[0]);
}

// Which output channel the element at a flat index of a weight feeds:
// (i / group_block) * per_group + (i / inner) % per_group. This covers Conv ([M, C/g, k...]),
// ConvTranspose ([C, M/g, k...]: group g's rows feed channels g*M/g ...), Gemm's B and MatMul's
// right operand ([K, N] or [N, K]).
struct ChannelMap {
  int64_t inner = 1;
  int64_t per_group = 1;
  int64_t group_block = 1;
  int64_t operator()(int64_t i) const {
    return (i / group_block) * per_group + (i / inner) % per_group;
  }
};

// `weight` with each element times the scale of its channel, computed in double and stored as T
// (a weight may be large: no widened copy of it is made); nullopt if a result is not finite.
template <class T>
absl::StatusOr<std::optional<Tensor>> Scaled(const Tensor& weight, const ChannelMap& map,
                                             absl::Span<const double> scale) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out,
                           MutableTensor::allocate(weight.dtype(), weight.shape()));
  auto source = weight.data<T>();
  auto target = out.mutable_data<T>();
  for (size_t i = 0; i < source.size(); ++i) {
    const double channel_scale = scale[static_cast<size_t>(map(static_cast<int64_t>(i)))];
    target[i] = static_cast<T>(static_cast<double>(source[i]) * channel_scale);
    if (!std::isfinite(target[i])) return std::nullopt;
  }
  return std::move(out).freeze();
}

// Output channel c becomes c * scale[c] + shift[c]; an empty vector is 1 (scale) or 0 (shift).
struct ChannelAffine {
  std::vector<double> scale;
  std::vector<double> shift;
};

// A node whose output channels an affine map can be folded into: its weight and its bias (the
// bias name is empty when the node has none; bias_slot is where it goes).
struct AffineTarget {
  int node = -1;
  int weight_slot = 1;
  std::string weight;
  ChannelMap map;
  int64_t channels = 0;
  int bias_slot = 2;
  std::string bias;
  // Gemm: the bias is beta * C, broadcast from C's shape; the result sets beta to 1.
  bool gemm = false;
  float gemm_beta = 1;
};

struct Slot {
  int node;
  int index;
  bool operator==(const Slot& other) const { return node == other.node && index == other.index; }
};

// The rewrites, on an index of who produces and who reads each name of the main graph, kept up
// to date as the rewrites change the graph.
class Fuser {
 public:
  Fuser(onnx::ModelProto& model, InitializerLoader load)
      : graph_(*model.mutable_graph()),
        load_(std::move(load)),
        opset_(OnnxOpsetIn(model.opset_import())) {}

  absl::StatusOr<FusionCounts> Run() {
    if (opset_ <= 0 || !IndexGraph()) return counts_;
    absl::Status status = RewriteUntilDone();
    Finalize();
    if (!status.ok()) return status;
    return counts_;
  }

 private:
  onnx::NodeProto& Node(int n) { return *graph_.mutable_node(n); }

  // ---- The index.

  // False when the graph defines a name twice: such a model is refused at import, and is not
  // rewritten here.
  bool IndexGraph() {
    NameSet defined;
    for (const auto& input : graph_.input()) {
      if (!defined.insert(input.name()).second) return false;
      graph_inputs_.insert(input.name());
    }
    for (int i = 0; i < graph_.initializer_size(); ++i) {
      const std::string& name = graph_.initializer(i).name();
      if (!initializers_.emplace(name, i).second) return false;
      defined.insert(name);
    }
    for (const auto& sparse : graph_.sparse_initializer()) {
      if (!defined.insert(sparse.values().name()).second) return false;
    }
    removed_.assign(static_cast<size_t>(graph_.node_size()), false);
    for (int n = 0; n < graph_.node_size(); ++n) {
      const onnx::NodeProto& node = graph_.node(n);
      for (int i = 0; i < node.output_size(); ++i) {
        if (node.output(i).empty()) continue;
        if (!defined.insert(node.output(i)).second) return false;
        producer_[node.output(i)] = Slot{n, i};
      }
      for (int i = 0; i < node.input_size(); ++i) {
        if (!node.input(i).empty()) readers_[node.input(i)].push_back(Slot{n, i});
      }
      for (const onnx::GraphProto* body : BodiesOf(node)) {
        for (const std::string& name : FreeNames(*body)) body_reads_.insert(name);
      }
    }
    for (const auto& output : graph_.output()) ++graph_outputs_[output.name()];
    // Only a graph input's declared rank binds (a caller must feed that rank); value_info is a
    // hint a wrong model may get wrong.
    for (const auto& info : graph_.input()) {
      if (info.type().has_tensor_type() && info.type().tensor_type().has_shape()) {
        input_rank_[info.name()] = info.type().tensor_type().shape().dim_size();
      }
    }
    CollectNames(graph_, all_names_);
    return true;
  }

  // How many places read `name`: node inputs, bodies, graph outputs.
  int64_t Uses(const std::string& name) const {
    int64_t uses = 0;
    if (auto it = readers_.find(name); it != readers_.end()) uses += it->second.size();
    if (body_reads_.contains(name)) ++uses;
    if (auto it = graph_outputs_.find(name); it != graph_outputs_.end()) uses += it->second;
    return uses;
  }

  // The node that produces `name` if `reader` is the only thing reading it.
  std::optional<int> SoleProducerFor(const std::string& name, Slot reader) const {
    auto it = producer_.find(name);
    if (it == producer_.end() || Uses(name) != 1) return std::nullopt;
    auto readers = readers_.find(name);
    if (readers == readers_.end() || !(readers->second.front() == reader)) return std::nullopt;
    if (graph_.node(it->second.node).output_size() != 1) return std::nullopt;
    return it->second.node;
  }

  // An initializer the model cannot override (not also a graph input), of float or double.
  const onnx::TensorProto* FloatConstant(const std::string& name) const {
    auto it = initializers_.find(name);
    if (name.empty() || it == initializers_.end() || graph_inputs_.contains(name)) return nullptr;
    const onnx::TensorProto& proto = graph_.initializer(it->second);
    return IsFloatOrDouble(proto.data_type()) ? &proto : nullptr;
  }

  absl::StatusOr<Tensor> Load(const onnx::TensorProto& proto) const {
    absl::StatusOr<Tensor> tensor = load_ ? load_(proto) : FromTensorProto(proto);
    if (!tensor.ok()) {
      return absl::Status(
          tensor.status().code(),
          absl::StrCat("fusions: initializer '", proto.name(), "': ", tensor.status().message()));
    }
    const bool same_shape =
        absl::Span<const int64_t>(proto.dims().data(), proto.dims_size()) == tensor->shape();
    if (static_cast<int32_t>(tensor->dtype()) != proto.data_type() || !same_shape) {
      return absl::InvalidArgumentError(absl::StrCat(
          "fusions: initializer '", proto.name(), "' loaded as ", DataTypeName(tensor->dtype()),
          ShapeToString(tensor->shape()), ", not as its proto declares"));
    }
    return tensor;
  }

  void RemoveReader(const std::string& name, Slot slot) {
    auto it = readers_.find(name);
    if (it == readers_.end()) return;
    std::vector<Slot>& slots = it->second;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i] == slot) {
        slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    if (slots.empty()) readers_.erase(it);
    if (initializers_.contains(name)) orphan_candidates_.insert(name);
  }

  void RemoveNode(int n) {
    removed_[n] = true;
    const onnx::NodeProto& node = graph_.node(n);
    for (int i = 0; i < node.input_size(); ++i) {
      if (!node.input(i).empty()) RemoveReader(node.input(i), Slot{n, i});
    }
    for (const std::string& output : node.output()) {
      if (output.empty()) continue;
      producer_.erase(output);
      vanished_.insert(output);
    }
  }

  void RedirectReaders(const std::string& from, const std::string& to) {
    auto it = readers_.find(from);
    if (it == readers_.end()) return;
    std::vector<Slot> slots = std::move(it->second);
    readers_.erase(it);
    for (Slot slot : slots) {
      Node(slot.node).set_input(slot.index, to);
      readers_[to].push_back(slot);
    }
  }

  // The sole output of node `n` takes the name `to`; its readers follow.
  void RenameOutput(int n, const std::string& to) {
    const std::string from = graph_.node(n).output(0);
    Node(n).set_output(0, to);
    producer_.erase(from);
    producer_[to] = Slot{n, 0};
    vanished_.insert(from);
    RedirectReaders(from, to);
  }

  void SetInput(Slot slot, const std::string& name) {
    onnx::NodeProto& node = Node(slot.node);
    while (node.input_size() <= slot.index) node.add_input();
    if (!node.input(slot.index).empty()) RemoveReader(node.input(slot.index), slot);
    node.set_input(slot.index, name);
    readers_[name].push_back(slot);
  }

  std::string FreshName(const std::string& base) {
    std::string name = absl::StrCat(base, "_fused");
    for (int suffix = 1; all_names_.contains(name); ++suffix) {
      name = absl::StrCat(base, "_fused_", suffix);
    }
    all_names_.insert(name);
    return name;
  }

  // `value` becomes what node input `slot` reads in place of `old_name` (empty: none): in place
  // when nothing else reads the old initializer and its shape stays, else a new initializer.
  void WriteWeight(Slot slot, const std::string& old_name, const std::string& base,
                   const Tensor& value) {
    onnx::TensorProto proto = ToTensorProto(value);
    if (!old_name.empty() && Uses(old_name) == 1) {
      onnx::TensorProto& old = *graph_.mutable_initializer(initializers_.at(old_name));
      const bool same_shape =
          absl::Span<const int64_t>(old.dims().data(), old.dims_size()) == value.shape();
      if (same_shape && old.data_type() == proto.data_type()) {
        proto.set_name(old_name);
        old = std::move(proto);
        return;
      }
    }
    const std::string name = FreshName(old_name.empty() ? base : old_name);
    proto.set_name(name);
    initializers_[name] = graph_.initializer_size();
    *graph_.add_initializer() = std::move(proto);
    SetInput(slot, name);
  }

  // ---- The rewrites.

  absl::Status RewriteUntilDone() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int n = 0; n < graph_.node_size(); ++n) {
        if (removed_[n]) continue;
        GRAPHGC_ASSIGN_OR_RETURN(bool rewritten, TryRewrite(n));
        changed = changed || rewritten;
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<bool> TryRewrite(int n) {
    const onnx::NodeProto& node = graph_.node(n);
    if (!IsOnnxDomain(node.domain())) return false;
    if (node.op_type() == "Identity") return TryRemovePassThrough(n, counts_.identity_removed);
    if (node.op_type() == "Dropout") {
      GRAPHGC_ASSIGN_OR_RETURN(bool removable, DropoutIsRemovable(node));
      if (!removable) return false;
      return TryRemovePassThrough(n, counts_.dropout_removed);
    }
    if (node.op_type() == "BatchNormalization") return TryFuseBatchNorm(n);
    if (node.op_type() == "Mul" || node.op_type() == "Add") return TryFuseMulAdd(n);
    return false;
  }

  // Node `n` passes its first input through to its first output: readers of the output read the
  // input instead or, when the output's name must stay (a graph output, a name a body reads), the
  // input's producer takes that name.
  bool TryRemovePassThrough(int n, int64_t& count) {
    const onnx::NodeProto& node = graph_.node(n);
    if (node.input_size() < 1 || node.output_size() < 1) return false;
    const std::string in = node.input(0);
    const std::string out = node.output(0);
    if (in.empty() || out.empty() || in == out) return false;
    if (!graph_outputs_.contains(out) && !body_reads_.contains(out)) {
      RemoveNode(n);
      RedirectReaders(out, in);
    } else if (CanTakeName(in)) {
      const int producer = producer_.at(in).node;
      RemoveNode(n);
      RenameOutput(producer, out);
    } else {
      return false;
    }
    ++count;
    return true;
  }

  // Whether the name `name` can disappear with its producer's output renamed: it comes from the
  // sole output of a node, and neither the graph's interface nor a body knows it.
  bool CanTakeName(const std::string& name) const {
    auto it = producer_.find(name);
    if (it == producer_.end() || it->second.index != 0) return false;
    if (graph_.node(it->second.node).output_size() != 1) return false;
    return !graph_inputs_.contains(name) && !graph_outputs_.contains(name) &&
           !initializers_.contains(name) && !body_reads_.contains(name);
  }

  // Dropout is the identity in inference: opset 12 on, training_mode absent or a constant false;
  // opsets 7 to 11 have no training mode of their own; before 7, is_test set. Its mask must be
  // unread.
  absl::StatusOr<bool> DropoutIsRemovable(const onnx::NodeProto& node) const {
    if (node.input_size() < 1 || node.input_size() > 3 || node.output_size() < 1 ||
        node.output_size() > 2) {
      return false;
    }
    if (node.output_size() == 2 && !node.output(1).empty() && Uses(node.output(1)) > 0) {
      return false;
    }
    if (opset_ < 7) {
      std::optional<int64_t> is_test = IntAttribute(node, "is_test", 0);
      return is_test.has_value() && *is_test != 0;
    }
    if (opset_ < 12 || node.input_size() < 3 || node.input(2).empty()) return true;
    GRAPHGC_ASSIGN_OR_RETURN(std::optional<bool> training, ConstantBool(node.input(2)));
    return training.has_value() && !*training;
  }

  // The value of a one-element bool constant: an initializer that is not a graph input, or the
  // output of a Constant node.
  absl::StatusOr<std::optional<bool>> ConstantBool(const std::string& name) const {
    const onnx::TensorProto* proto = nullptr;
    if (auto it = initializers_.find(name); it != initializers_.end()) {
      if (!graph_inputs_.contains(name)) proto = &graph_.initializer(it->second);
    } else if (auto producer = producer_.find(name); producer != producer_.end()) {
      const onnx::NodeProto& node = graph_.node(producer->second.node);
      const onnx::AttributeProto* value = FindAttribute(node, "value");
      if (IsOnnxOp(node, "Constant") && node.attribute_size() == 1 && value != nullptr &&
          value->has_t()) {
        proto = &value->t();
      }
    }
    if (proto == nullptr || proto->data_type() != onnx::TensorProto::BOOL) return std::nullopt;
    std::optional<Shape> dims = ProtoDims(*proto);
    if (!dims.has_value() || Product(*dims) != 1) return std::nullopt;
    GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, Load(*proto));
    return tensor.data<bool>()[0];
  }

  // BatchNormalization computes with its mean and var inputs (not the batch's statistics) and
  // has only its first output: opset 14 on, training_mode 0; opsets 7 to 13, one output (more
  // outputs are the training mode); before 7, is_test set. spatial, where it exists, must be 1.
  bool BatchNormIsInference(const onnx::NodeProto& node) const {
    if (node.input_size() != 5 || node.output_size() < 1) return false;
    bool extra_outputs = false;
    for (int i = 1; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;
      extra_outputs = true;
      if (Uses(node.output(i)) > 0) return false;
    }
    if (opset_ < 9 && IntAttribute(node, "spatial", 1) != std::optional<int64_t>(1)) return false;
    if (opset_ < 7) {
      std::optional<int64_t> is_test = IntAttribute(node, "is_test", 0);
      return is_test.has_value() && *is_test != 0;
    }
    if (extra_outputs) return false;
    return opset_ < 14 || IntAttribute(node, "training_mode", 0) == std::optional<int64_t>(0);
  }

  absl::StatusOr<bool> TryFuseBatchNorm(int n) {
    const onnx::NodeProto& bn = graph_.node(n);
    if (!BatchNormIsInference(bn) || bn.input(0).empty() || bn.output(0).empty()) return false;
    std::optional<int> producer = SoleProducerFor(bn.input(0), Slot{n, 0});
    if (!producer.has_value()) return false;
    const onnx::NodeProto& node = graph_.node(*producer);
    std::optional<AffineTarget> target;
    if (IsOnnxOp(node, "Conv")) target = ConvTarget(*producer);
    if (IsOnnxOp(node, "ConvTranspose")) target = ConvTransposeTarget(*producer);
    if (IsOnnxOp(node, "Gemm")) target = GemmTarget(*producer);
    if (!target.has_value()) return false;
    std::optional<float> epsilon = FloatAttribute(bn, "epsilon", 1e-5f);
    if (!epsilon.has_value()) return false;

    std::vector<std::vector<double>> params;  // scale, B, mean, var
    for (int i = 1; i <= 4; ++i) {
      const onnx::TensorProto* proto = FloatConstant(bn.input(i));
      if (proto == nullptr || ProtoDims(*proto) != Shape{target->channels}) return false;
    }
    for (int i = 1; i <= 4; ++i) {
      GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, Load(*FloatConstant(bn.input(i))));
      params.push_back(Widened(tensor));
    }
    ChannelAffine affine;
    for (int64_t c = 0; c < target->channels; ++c) {
      const double scale = params[0][c] / std::sqrt(params[3][c] + static_cast<double>(*epsilon));
      affine.scale.push_back(scale);
      affine.shift.push_back(params[1][c] - params[2][c] * scale);
    }
    GRAPHGC_ASSIGN_OR_RETURN(bool fused, FoldAffine(*target, affine, bn.output(0), n));
    if (fused) ++(target->gemm ? counts_.batchnorm_into_gemm : counts_.batchnorm_into_conv);
    return fused;
  }

  // Mul or Add of a Conv's output and a per-channel constant; Mul of a MatMul's output (with a
  // constant [K, N] right operand) and a per-column constant.
  absl::StatusOr<bool> TryFuseMulAdd(int n) {
    const onnx::NodeProto& node = graph_.node(n);
    // Before opset 7 Mul and Add broadcast by their axis attribute, not as numpy does.
    if (opset_ < 7 || node.input_size() != 2 || node.output_size() != 1) return false;
    const bool mul = node.op_type() == "Mul";
    for (int side = 0; side < 2; ++side) {
      const std::string& data = node.input(side);
      const onnx::TensorProto* constant = FloatConstant(node.input(1 - side));
      if (data.empty() || constant == nullptr || data == constant->name()) continue;
      std::optional<int> producer = SoleProducerFor(data, Slot{n, side});
      if (!producer.has_value()) continue;
      // The output's rank and its channel axis: [N, C, ...] for Conv, [..., N] for MatMul.
      std::optional<AffineTarget> target;
      int64_t rank = 0;
      int64_t axis = 1;
      if (IsOnnxOp(graph_.node(*producer), "Conv")) {
        target = ConvTarget(*producer);
        if (target.has_value()) rank = WeightRank(*target);
      } else if (mul && IsOnnxOp(graph_.node(*producer), "MatMul")) {
        target = MatMulTarget(*producer);
        rank = MatMulOutputRank(*producer, constant->dims_size());
        axis = rank - 1;
      }
      if (!target.has_value() || rank == 0) continue;
      if (WeightProto(*target).data_type() != constant->data_type()) continue;
      std::optional<Shape> dims = ProtoDims(*constant);
      if (!dims.has_value() || !BroadcastsAlongAxis(*dims, rank, axis, target->channels)) continue;
      if (Product(*dims) < 1) continue;
      GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, Load(*constant));
      std::optional<std::vector<double>> per_channel = PerChannel(tensor, target->channels);
      if (!per_channel.has_value()) continue;
      ChannelAffine affine;
      (mul ? affine.scale : affine.shift) = *std::move(per_channel);
      GRAPHGC_ASSIGN_OR_RETURN(bool fused, FoldAffine(*target, affine, node.output(0), n));
      if (fused) ++counts_.mul_add_into_weights;
      return fused;
    }
    return false;
  }

  const onnx::TensorProto& WeightProto(const AffineTarget& target) const {
    return graph_.initializer(initializers_.at(target.weight));
  }
  int64_t WeightRank(const AffineTarget& target) const { return WeightProto(target).dims_size(); }

  // The rank of a MatMul's output with a [K, N] right operand, as far as a constant of rank
  // `constant_rank` needs to know it: a constant of rank <= 1 broadcasts along the last axis
  // whatever the rank; a longer one needs the left operand's rank, known when it is a graph input
  // with a shape or a constant. 0: unknown.
  int64_t MatMulOutputRank(int n, int constant_rank) const {
    if (constant_rank <= 1) return 1;
    const std::string& left = graph_.node(n).input(0);
    auto it = input_rank_.find(left);
    if (it != input_rank_.end()) return it->second;
    if (const onnx::TensorProto* proto = FloatConstant(left)) return proto->dims_size();
    return 0;
  }

  // ---- Targets: the node's weight must be a float or double constant of the expected rank, its
  // bias (if any) a constant of the weight's type and of one value per output channel.

  std::optional<AffineTarget> ConvTarget(int n) const {
    const onnx::NodeProto& node = graph_.node(n);
    if (node.input_size() < 2 || node.input_size() > 3) return std::nullopt;
    const onnx::TensorProto* weight = FloatConstant(node.input(1));
    if (weight == nullptr) return std::nullopt;
    std::optional<Shape> dims = ProtoDims(*weight);
    if (!dims.has_value() || dims->size() < 3 || Product(*dims) < 1) return std::nullopt;
    AffineTarget target;
    target.node = n;
    target.weight = node.input(1);
    target.channels = (*dims)[0];
    target.map = ChannelMap{Product(*dims) / target.channels, target.channels, Product(*dims)};
    if (!WithBias(node, *weight, target)) return std::nullopt;
    return target;
  }

  std::optional<AffineTarget> ConvTransposeTarget(int n) const {
    const onnx::NodeProto& node = graph_.node(n);
    if (node.input_size() < 2 || node.input_size() > 3) return std::nullopt;
    const onnx::TensorProto* weight = FloatConstant(node.input(1));
    std::optional<int64_t> group = IntAttribute(node, "group", 1);
    if (weight == nullptr || !group.has_value() || *group < 1) return std::nullopt;
    std::optional<Shape> dims = ProtoDims(*weight);
    if (!dims.has_value() || dims->size() < 3 || Product(*dims) < 1) return std::nullopt;
    const int64_t inputs = (*dims)[0];
    const int64_t per_group = (*dims)[1];
    if (inputs % *group != 0 || per_group > std::numeric_limits<int64_t>::max() / *group) {
      return std::nullopt;
    }
    const int64_t kernel = Product(*dims) / (inputs * per_group);
    AffineTarget target;
    target.node = n;
    target.weight = node.input(1);
    target.channels = per_group * *group;
    target.map = ChannelMap{kernel, per_group, kernel * per_group * (inputs / *group)};
    if (!WithBias(node, *weight, target)) return std::nullopt;
    return target;
  }

  // Gemm's C must broadcast to [N] (one value per column), so the fused bias is [N] too. Before
  // opset 7 Gemm broadcast C by an attribute; it is left alone there.
  std::optional<AffineTarget> GemmTarget(int n) const {
    const onnx::NodeProto& node = graph_.node(n);
    if (opset_ < 7 || node.input_size() < 2 || node.input_size() > 3) return std::nullopt;
    const onnx::TensorProto* weight = FloatConstant(node.input(1));
    std::optional<int64_t> trans_b = IntAttribute(node, "transB", 0);
    std::optional<float> beta = FloatAttribute(node, "beta", 1.0f);
    if (weight == nullptr || !trans_b.has_value() || !beta.has_value()) return std::nullopt;
    if (*trans_b != 0 && *trans_b != 1) return std::nullopt;
    std::optional<Shape> dims = ProtoDims(*weight);
    if (!dims.has_value() || dims->size() != 2 || Product(*dims) < 1) return std::nullopt;
    AffineTarget target;
    target.node = n;
    target.weight = node.input(1);
    target.gemm = true;
    target.gemm_beta = *beta;
    target.channels = *trans_b ? (*dims)[0] : (*dims)[1];
    target.map = *trans_b ? ChannelMap{(*dims)[1], target.channels, Product(*dims)}
                          : ChannelMap{1, target.channels, Product(*dims)};
    if (node.input_size() == 3 && !node.input(2).empty()) {
      const onnx::TensorProto* bias = FloatConstant(node.input(2));
      if (bias == nullptr || bias->data_type() != weight->data_type()) return std::nullopt;
      std::optional<Shape> bias_dims = ProtoDims(*bias);
      if (!bias_dims.has_value() || !BroadcastsAlongAxis(*bias_dims, 2, 1, target.channels) ||
          Product(*bias_dims) < 1) {
        return std::nullopt;
      }
      target.bias = node.input(2);
    }
    return target;
  }

  std::optional<AffineTarget> MatMulTarget(int n) const {
    const onnx::NodeProto& node = graph_.node(n);
    if (node.input_size() != 2) return std::nullopt;
    const onnx::TensorProto* weight = FloatConstant(node.input(1));
    if (weight == nullptr) return std::nullopt;
    std::optional<Shape> dims = ProtoDims(*weight);
    if (!dims.has_value() || dims->size() != 2 || Product(*dims) < 1) return std::nullopt;
    AffineTarget target;
    target.node = n;
    target.weight = node.input(1);
    target.channels = (*dims)[1];
    target.map = ChannelMap{1, target.channels, Product(*dims)};
    target.bias_slot = -1;  // no bias: only a Mul folds in
    return target;
  }

  // A Conv's or ConvTranspose's optional bias B: [channels], of the weight's type.
  bool WithBias(const onnx::NodeProto& node, const onnx::TensorProto& weight,
                AffineTarget& target) const {
    if (node.input_size() < 3 || node.input(2).empty()) return true;
    const onnx::TensorProto* bias = FloatConstant(node.input(2));
    if (bias == nullptr || bias->data_type() != weight.data_type()) return false;
    if (ProtoDims(*bias) != Shape{target.channels}) return false;
    target.bias = node.input(2);
    return true;
  }

  // Folds `affine` into the target's weight and bias, then drops `consumer` (the node that
  // applied it) and gives the target the consumer's output name `out`. Everything is computed
  // before anything changes; false (nothing changed) if a result would not be finite.
  absl::StatusOr<bool> FoldAffine(const AffineTarget& target, const ChannelAffine& affine,
                                  std::string out, int consumer) {
    if (!AllFinite(affine.scale) || !AllFinite(affine.shift)) return false;
    if (target.bias_slot < 0 && !affine.shift.empty()) return false;
    // A weight read elsewhere too would stay beside its scaled copy: the model would grow by a
    // whole weight to save one per-channel node (graphgc-fold never grows a model).
    if (!affine.scale.empty() && Uses(target.weight) != 1) return false;
    const onnx::TensorProto& weight_proto = WeightProto(target);
    const DataType dtype = static_cast<DataType>(weight_proto.data_type());
    std::optional<Tensor> weight;
    if (!affine.scale.empty()) {
      GRAPHGC_ASSIGN_OR_RETURN(Tensor original, Load(weight_proto));
      if (dtype == DataType::kDouble) {
        GRAPHGC_ASSIGN_OR_RETURN(weight, Scaled<double>(original, target.map, affine.scale));
      } else {
        GRAPHGC_ASSIGN_OR_RETURN(weight, Scaled<float>(original, target.map, affine.scale));
      }
      if (!weight.has_value()) return false;
    }
    std::optional<Tensor> bias;
    const bool bias_changes = !target.bias.empty() || !affine.shift.empty() || target.gemm;
    if (target.bias_slot >= 0 && bias_changes) {
      GRAPHGC_ASSIGN_OR_RETURN(std::vector<double> values, FoldedBias(target, affine));
      GRAPHGC_ASSIGN_OR_RETURN(bias, Narrowed(values, dtype, {target.channels}));
      if (!bias.has_value()) return false;
    }

    // The consumer goes first, so that its read of the target's output does not count.
    RemoveNode(consumer);
    const int n = target.node;
    if (weight.has_value()) WriteWeight(Slot{n, target.weight_slot}, target.weight, "", *weight);
    if (bias.has_value()) {
      WriteWeight(Slot{n, target.bias_slot}, target.bias, target.weight + "_bias", *bias);
    }
    if (target.gemm) SetFloatAttribute(Node(n), "beta", 1.0f);
    RenameOutput(n, out);
    return true;
  }

  // The bias after the affine map, one value per channel: b * scale + shift, where b is the
  // target's bias (0 if none; beta * C broadcast to the channels for Gemm).
  absl::StatusOr<std::vector<double>> FoldedBias(const AffineTarget& target,
                                                 const ChannelAffine& affine) const {
    std::vector<double> values(static_cast<size_t>(target.channels), 0.0);
    if (!target.bias.empty()) {
      const onnx::TensorProto& proto = graph_.initializer(initializers_.at(target.bias));
      GRAPHGC_ASSIGN_OR_RETURN(Tensor tensor, Load(proto));
      std::optional<std::vector<double>> per_channel = PerChannel(tensor, target.channels);
      if (!per_channel.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat("bias '", target.bias, "' holds ",
                                                       tensor.size(), " values for ",
                                                       target.channels, " channels"));
      }
      values = *std::move(per_channel);
      if (target.gemm) {
        for (double& value : values) value *= static_cast<double>(target.gemm_beta);
      }
    }
    for (size_t c = 0; c < values.size(); ++c) {
      if (!affine.scale.empty()) values[c] *= affine.scale[c];
      if (!affine.shift.empty()) values[c] += affine.shift[c];
    }
    return values;
  }

  // ---- Cleanup: drop the removed nodes, the initializers nothing reads any more, and the
  // value_info of names that no longer exist.

  void Finalize() {
    int kept = 0;
    for (int n = 0; n < graph_.node_size(); ++n) {
      if (removed_[n]) continue;
      if (kept != n) graph_.mutable_node()->SwapElements(kept, n);
      ++kept;
    }
    graph_.mutable_node()->DeleteSubrange(kept, graph_.node_size() - kept);

    NameSet gone;
    for (const std::string& name : orphan_candidates_) {
      if (Uses(name) == 0 && !graph_inputs_.contains(name)) gone.insert(name);
    }
    kept = 0;
    for (int i = 0; i < graph_.initializer_size(); ++i) {
      if (gone.contains(graph_.initializer(i).name())) continue;
      if (kept != i) graph_.mutable_initializer()->SwapElements(kept, i);
      ++kept;
    }
    graph_.mutable_initializer()->DeleteSubrange(kept, graph_.initializer_size() - kept);

    auto stale = [&](const onnx::ValueInfoProto& info) {
      const std::string& name = info.name();
      if (gone.contains(name)) return true;
      return vanished_.contains(name) && !producer_.contains(name) &&
             !graph_inputs_.contains(name) && !initializers_.contains(name);
    };
    kept = 0;
    for (int i = 0; i < graph_.value_info_size(); ++i) {
      if (stale(graph_.value_info(i))) continue;
      if (kept != i) graph_.mutable_value_info()->SwapElements(kept, i);
      ++kept;
    }
    graph_.mutable_value_info()->DeleteSubrange(kept, graph_.value_info_size() - kept);
  }

  onnx::GraphProto& graph_;
  const InitializerLoader load_;
  const int64_t opset_;
  FusionCounts counts_;

  absl::flat_hash_map<std::string, Slot> producer_;
  absl::flat_hash_map<std::string, std::vector<Slot>> readers_;
  absl::flat_hash_map<std::string, int> graph_outputs_;  // name -> how many outputs name it
  absl::flat_hash_map<std::string, int> initializers_;   // name -> index in graph_.initializer
  absl::flat_hash_map<std::string, int> input_rank_;     // graph inputs with a declared shape
  NameSet graph_inputs_;
  NameSet body_reads_;  // names the bodies of If, Loop, Scan read from the main graph
  NameSet all_names_;
  NameSet orphan_candidates_;  // initializers that lost a reader
  NameSet vanished_;           // names the rewrites made disappear
  std::vector<bool> removed_;
};

}  // namespace

absl::StatusOr<FusionCounts> ApplyFusions(onnx::ModelProto& model, const InitializerLoader& load) {
  return Fuser(model, load).Run();
}

}  // namespace graphgc::internal
