#include "graphgc/export/onnx/prelu_channel_slopes.h"

#include <cstdint>
#include <exception>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/opset_conversion.h"
#include "graphgc/opset/inference/guarded_schema_registry.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc::internal {
namespace {

constexpr int kNumpyBroadcastSince = 7;

using Ranks = absl::flat_hash_map<std::string, int>;

void TakeRank(const onnx::ValueInfoProto& value, Ranks& ranks) {
  const onnx::TypeProto& type = value.type();
  if (type.has_tensor_type() && type.tensor_type().has_shape()) {
    ranks[value.name()] = type.tensor_type().shape().dim_size();
  }
}

// The ranks ONNX's inference knows for the names of `graph` and its bodies.
void GatherRanks(const onnx::GraphProto& graph, Ranks& ranks) {
  for (const auto* values : {&graph.input(), &graph.output(), &graph.value_info()}) {
    for (const onnx::ValueInfoProto& value : *values) TakeRank(value, ranks);
  }
  for (const onnx::TensorProto& tensor : graph.initializer()) {
    ranks[tensor.name()] = tensor.dims_size();
  }
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) GatherRanks(attribute.g(), ranks);
      for (const onnx::GraphProto& body : attribute.graphs()) GatherRanks(body, ranks);
    }
  }
}

void GatherNames(const onnx::GraphProto& graph, absl::flat_hash_set<std::string>& names) {
  for (const auto* values : {&graph.input(), &graph.output(), &graph.value_info()}) {
    for (const onnx::ValueInfoProto& value : *values) names.insert(value.name());
  }
  for (const onnx::TensorProto& tensor : graph.initializer()) names.insert(tensor.name());
  for (const onnx::NodeProto& node : graph.node()) {
    for (const std::string& output : node.output()) names.insert(output);
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      if (attribute.has_g()) GatherNames(attribute.g(), names);
      for (const onnx::GraphProto& body : attribute.graphs()) GatherNames(body, names);
    }
  }
}

class SlopeRewriter {
 public:
  SlopeRewriter(Ranks ranks, absl::flat_hash_set<std::string> names)
      : ranks_(std::move(ranks)), names_(std::move(names)) {}

  void Rewrite(onnx::GraphProto& graph) {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    for (onnx::NodeProto& node : *graph.mutable_node()) {
      for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
        if (attribute.has_g()) Rewrite(*attribute.mutable_g());
        for (onnx::GraphProto& body : *attribute.mutable_graphs()) Rewrite(body);
      }
      if (const int rank = ChannelRank(node); rank > 0) {
        *nodes.Add() = SlopeUnsqueeze(node, rank);
        node.set_input(1, nodes.rbegin()->output(0));
        ++rewritten_;
      }
      *nodes.Add() = std::move(node);
    }
    graph.mutable_node()->Swap(&nodes);
  }

  int rewritten() const { return rewritten_; }

 private:
  // X's rank when `node` is a PRelu whose 1-D slope applies per channel of a rank >= 3 X; else 0.
  int ChannelRank(const onnx::NodeProto& node) const {
    if (node.op_type() != "PRelu" || !IsOnnxDomain(node.domain()) || node.input_size() != 2) {
      return 0;
    }
    const auto x = ranks_.find(node.input(0));
    const auto slope = ranks_.find(node.input(1));
    if (x == ranks_.end() || slope == ranks_.end() || slope->second != 1 || x->second < 3) {
      return 0;
    }
    return x->second;
  }

  onnx::NodeProto SlopeUnsqueeze(const onnx::NodeProto& prelu, int rank) {
    std::string name = absl::StrCat(prelu.input(1), "_per_channel");
    for (int n = 1; names_.contains(name); ++n) {
      name = absl::StrCat(prelu.input(1), "_per_channel_", n);
    }
    names_.insert(name);
    onnx::NodeProto unsqueeze;
    unsqueeze.set_op_type("Unsqueeze");
    unsqueeze.set_name(name);
    unsqueeze.add_input(prelu.input(1));
    unsqueeze.add_output(name);
    onnx::AttributeProto* axes = unsqueeze.add_attribute();  // an attribute before opset 13
    axes->set_name("axes");
    axes->set_type(onnx::AttributeProto::INTS);
    for (int axis = 1; axis <= rank - 2; ++axis) axes->add_ints(axis);
    return unsqueeze;
  }

  Ranks ranks_;
  absl::flat_hash_set<std::string> names_;
  int rewritten_ = 0;
};

}  // namespace

int UnsqueezeChannelSlopes(onnx::ModelProto& model) {
  const int64_t opset = OnnxOpsetOf(model);
  if (opset < 1 || opset >= kNumpyBroadcastSince) return 0;
  onnx::ModelProto inferred = model;
  try {
    onnx::shape_inference::InferShapes(inferred, GuardedSchemaRegistry());
  } catch (const std::exception&) {
    // What inference added before it stopped still tells ranks.
  }
  Ranks ranks;
  GatherRanks(inferred.graph(), ranks);
  absl::flat_hash_set<std::string> names;
  GatherNames(model.graph(), names);
  SlopeRewriter rewriter(std::move(ranks), std::move(names));
  rewriter.Rewrite(*model.mutable_graph());
  return rewriter.rewritten();
}

}  // namespace graphgc::internal
