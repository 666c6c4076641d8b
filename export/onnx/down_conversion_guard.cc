#include "graphgc/export/onnx/down_conversion_guard.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/node_protos.h"

namespace graphgc::internal {
namespace {

// Each value's maker in the graphs around a node: a body sees its enclosing graphs' values.
using Makers = absl::flat_hash_map<std::string, std::string>;

// The opset at which the op's input 1 (`axes`; Split's `split`, Reshape's `shape`) took the place
// of an attribute, which the converter puts back going down; 0 for other ops.
int AttributeInputSince(absl::string_view op_type) {
  if (op_type == "Reshape") return 5;
  if (op_type == "ReduceSum" || op_type == "Squeeze" || op_type == "Unsqueeze" ||
      op_type == "Split") {
    return 13;
  }
  for (absl::string_view reduce :
       {"ReduceMax", "ReduceMin", "ReduceMean", "ReduceProd", "ReduceSumSquare", "ReduceL1",
        "ReduceL2", "ReduceLogSum", "ReduceLogSumExp"}) {
    if (op_type == reduce) return 18;
  }
  return 0;
}

bool NormalizesOverOneAxis(absl::string_view op_type) {
  return op_type == "Softmax" || op_type == "LogSoftmax" || op_type == "Hardmax";
}

int64_t AxisOf(const onnx::NodeProto& node) {
  // A node reaches the guard only once it imports, which refuses an attribute given twice. Without
  // one the axis is -1, opset 13's default.
  const onnx::AttributeProto* axis = FindAttribute(node, "axis");
  if (axis == nullptr || axis->type() != onnx::AttributeProto::INT) return -1;
  return axis->i();
}

std::optional<std::string> SoftmaxHazard(const onnx::NodeProto& node, const Makers& makers,
                                         const RankOf* rank_of) {
  if (node.input_size() < 1) return std::nullopt;
  const int64_t axis = AxisOf(node);
  std::optional<int64_t> rank;
  if (rank_of != nullptr) rank = (*rank_of)(node.input(0));
  const bool last = axis == -1 || (rank.has_value() && axis == *rank - 1);
  if (!last) {
    return absl::StrCat(
        "ONNX's converter would change what ", NodeLabel(node), " computes: below opset 13 it ",
        "normalizes over every axis from `axis` on, and the converter keeps axis ", axis,
        rank.has_value() ? absl::StrCat(" of a rank-", *rank, " input")
                         : " of an input of unknown rank");
  }
  auto maker = makers.find(node.input(0));
  if (maker != makers.end() && maker->second == "Flatten") {
    return absl::StrCat("ONNX's converter would drop the Flatten that feeds ", NodeLabel(node),
                        ", changing what it computes");
  }
  return std::nullopt;
}

std::optional<std::string> GraphHazard(const onnx::GraphProto& graph, int64_t from, int target,
                                       Makers makers, const RankOf* rank_of) {
  for (const onnx::NodeProto& node : graph.node()) {
    for (const std::string& output : node.output()) {
      makers[output] = IsOnnxDomain(node.domain()) ? node.op_type() : "";
    }
  }
  absl::flat_hash_set<absl::string_view> initializers;
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    initializers.insert(initializer.name());
  }
  for (const onnx::NodeProto& node : graph.node()) {
    if (IsOnnxDomain(node.domain())) {
      const int since = AttributeInputSince(node.op_type());
      const bool down_across = since > 0 && from >= since && target < since;
      if (down_across && (node.input_size() < 2 || node.input(1).empty())) {
        return absl::StrCat("ONNX's converter would read input 1 of ", NodeLabel(node),
                            ", which the node omits");
      }
      if (down_across && initializers.contains(node.input(1))) {
        return absl::StrCat("ONNX's converter would take input 1 of ", NodeLabel(node),
                            " from the initializer '", node.input(1),
                            "', reading it after freeing it and without its raw data");
      }
      if (NormalizesOverOneAxis(node.op_type()) && from >= 13 && target < 13) {
        if (std::optional<std::string> hazard = SoftmaxHazard(node, makers, rank_of)) {
          return hazard;
        }
      }
    }
    for (const onnx::AttributeProto& attribute : node.attribute()) {
      std::vector<const onnx::GraphProto*> bodies;
      if (attribute.has_g()) bodies.push_back(&attribute.g());
      for (const onnx::GraphProto& body : attribute.graphs()) bodies.push_back(&body);
      for (const onnx::GraphProto* body : bodies) {
        // Inside bodies graphgc gives the converter no ranks (opset_conversion.cc).
        if (std::optional<std::string> hazard = GraphHazard(*body, from, target, makers, nullptr)) {
          return hazard;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> DownConversionHazard(const onnx::ModelProto& model, int64_t from,
                                                int target, const RankOf& rank_of) {
  if (target >= from) return std::nullopt;
  return GraphHazard(model.graph(), from, target, Makers(), &rank_of);
}

}  // namespace graphgc::internal
