// Building the tree ensembles from their attributes (see tree_ensemble.h).
#include "graphgc/opset/kernels/ml/tree_ensemble.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::ml {
namespace {

// A list of reals given as `name` (floats) or `name`_as_tensor (float or double; double only
// when T is double, as ONNX Runtime reads them).
template <class T>
absl::StatusOr<std::vector<T>> ReadReals(const KernelContext& ctx, const std::string& name) {
  const std::optional<std::vector<float>> floats = ctx.floats_attribute(name);
  const Tensor* tensor = ctx.tensor_attribute(name + "_as_tensor");
  if (floats.has_value() && tensor != nullptr) return Decline(name + " given twice");
  if (tensor == nullptr) {
    if (!floats.has_value()) return std::vector<T>();
    return std::vector<T>(floats->begin(), floats->end());
  }
  if (tensor->dtype() == DataType::kFloat) {
    const auto data = tensor->data<float>();
    return std::vector<T>(data.begin(), data.end());
  }
  if (tensor->dtype() == DataType::kDouble && std::is_same_v<T, double>) {
    const auto data = tensor->data<double>();
    return std::vector<T>(data.begin(), data.end());
  }
  return Decline(name + "_as_tensor of an element type ONNX Runtime does not read here");
}

std::optional<NodeMode> ParseMode(const std::string& name) {
  static const std::pair<const char*, NodeMode> kModes[] = {
      {"BRANCH_LEQ", NodeMode::kLeq}, {"BRANCH_LT", NodeMode::kLt}, {"BRANCH_GTE", NodeMode::kGte},
      {"BRANCH_GT", NodeMode::kGt},   {"BRANCH_EQ", NodeMode::kEq}, {"BRANCH_NEQ", NodeMode::kNeq},
      {"LEAF", NodeMode::kLeaf}};
  for (const auto& [mode_name, mode] : kModes) {
    if (name == mode_name) return mode;
  }
  return std::nullopt;
}

struct NodeKey {
  int64_t tree;
  int64_t node;
  template <class H>
  friend H AbslHashValue(H h, const NodeKey& key) {
    return H::combine(std::move(h), key.tree, key.node);
  }
  friend bool operator==(const NodeKey& a, const NodeKey& b) {
    return a.tree == b.tree && a.node == b.node;
  }
};

}  // namespace

template <class T>
absl::StatusOr<TreeEnsemble<T>> BuildTreeEnsemble(const KernelContext& ctx,
                                                  absl::string_view weights_prefix) {
  const std::vector<int64_t> tree_ids = IntsOrEmpty(ctx, "nodes_treeids");
  const std::vector<int64_t> node_ids = IntsOrEmpty(ctx, "nodes_nodeids");
  const std::vector<int64_t> features = IntsOrEmpty(ctx, "nodes_featureids");
  const std::vector<std::string> modes = StringsOrEmpty(ctx, "nodes_modes");
  const std::vector<int64_t> true_ids = IntsOrEmpty(ctx, "nodes_truenodeids");
  const std::vector<int64_t> false_ids = IntsOrEmpty(ctx, "nodes_falsenodeids");
  const std::vector<int64_t> missing = IntsOrEmpty(ctx, "nodes_missing_value_tracks_true");
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<T> thresholds, ReadReals<T>(ctx, "nodes_values"));
  const size_t n = tree_ids.size();
  if (n == 0 || node_ids.size() != n || features.size() != n || modes.size() != n ||
      true_ids.size() != n || false_ids.size() != n || thresholds.size() != n) {
    return Decline("node attributes of different lengths (or no nodes)");
  }
  const std::string prefix(weights_prefix);
  const std::vector<int64_t> weight_targets = IntsOrEmpty(ctx, prefix + "_ids");
  const std::vector<int64_t> weight_nodes = IntsOrEmpty(ctx, prefix + "_nodeids");
  const std::vector<int64_t> weight_trees = IntsOrEmpty(ctx, prefix + "_treeids");
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<T> weight_values,
                           ReadReals<T>(ctx, prefix + "_weights"));
  const size_t w = weight_targets.size();
  if (weight_nodes.size() != w || weight_trees.size() != w || weight_values.size() != w) {
    return Decline("weight attributes of different lengths");
  }

  TreeEnsemble<T> ensemble;
  GRAPHGC_ASSIGN_OR_RETURN(ensemble.base_values, ReadReals<T>(ctx, "base_values"));
  absl::flat_hash_map<NodeKey, int32_t> index;
  ensemble.nodes.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const std::optional<NodeMode> mode = ParseMode(modes[i]);
    if (!mode.has_value()) return Decline(absl::StrCat("unknown node mode ", modes[i]));
    if (!index.emplace(NodeKey{tree_ids[i], node_ids[i]}, static_cast<int32_t>(i)).second) {
      return Decline("a node given twice");
    }
    TreeNode<T>& node = ensemble.nodes[i];
    node = TreeNode<T>{
        *mode, i < missing.size() && missing[i] == 1, features[i], thresholds[i], 0, 0, 0, 0};
    ensemble.max_any_feature = std::max(ensemble.max_any_feature, features[i]);
    if (*mode != NodeMode::kLeaf) {
      if (features[i] < 0) return Decline("a negative feature id");
      ensemble.max_feature = std::max(ensemble.max_feature, features[i]);
    }
    if (i == 0 || tree_ids[i] != tree_ids[i - 1]) ensemble.roots.push_back(static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < n; ++i) {
    TreeNode<T>& node = ensemble.nodes[i];
    if (node.mode == NodeMode::kLeaf) continue;
    const auto true_child = index.find(NodeKey{tree_ids[i], true_ids[i]});
    const auto false_child = index.find(NodeKey{tree_ids[i], false_ids[i]});
    if (true_child == index.end() || false_child == index.end()) {
      return Decline("a branch whose child is not a node of its tree");
    }
    node.true_child = true_child->second;
    node.false_child = false_child->second;
  }
  // Each leaf's weights, in attribute order.
  std::vector<std::vector<TreeWeight<T>>> leaf_weights(n);
  for (size_t j = 0; j < w; ++j) {
    const auto leaf = index.find(NodeKey{weight_trees[j], weight_nodes[j]});
    if (leaf == index.end()) return Decline("a weight on no node");
    if (ensemble.nodes[static_cast<size_t>(leaf->second)].mode != NodeMode::kLeaf) continue;
    if (weight_targets[j] < 0) return Decline("a negative target or class id");
    leaf_weights[static_cast<size_t>(leaf->second)].push_back(
        {weight_targets[j], weight_values[j]});
    if (weight_values[j] < 0) ensemble.all_weights_positive = false;
  }
  for (size_t i = 0; i < n; ++i) {
    TreeNode<T>& node = ensemble.nodes[i];
    if (node.mode != NodeMode::kLeaf) continue;
    if (leaf_weights[i].empty()) return Decline("a leaf without weights");
    node.first_weight = static_cast<int32_t>(ensemble.weights.size());
    node.weight_count = static_cast<int32_t>(leaf_weights[i].size());
    ensemble.weights.insert(ensemble.weights.end(), leaf_weights[i].begin(), leaf_weights[i].end());
  }
  return ensemble;
}

template <class T>
absl::StatusOr<TreeFeatures<T>> ReadTreeFeatures(const KernelContext& ctx,
                                                 const TreeEnsemble<T>& ensemble) {
  const Tensor& x = ctx.input(0);
  TreeFeatures<T> features;
  if (x.rank() == 1) {
    // ONNX Runtime counts one feature in a 1-D input, whatever its length.
    if (ensemble.max_any_feature >= 1) return Decline("a 1-D input to trees that use feature 1 on");
    features.rows = 1;
    features.width = x.shape()[0];
  } else if (x.rank() == 2) {
    features.rows = x.shape()[0];
    features.width = x.shape()[1];
    if (ensemble.max_feature >= features.width) {
      return ctx.input_error(0, absl::StrCat("has ", features.width, " features; the trees use ",
                                             "feature ", ensemble.max_feature));
    }
    if (ensemble.max_any_feature >= features.width) return Decline("a leaf's feature id past C");
  } else {
    return Decline("features of a rank other than 1 or 2");
  }
  if (ensemble.max_feature >= 0 && features.width == 0) return Decline("no features");
  if (!ctx.within_budget(DataTypeOf<T>::value, x.size())) {
    return absl::ResourceExhaustedError("the features exceed the value budget");
  }
  features.values.resize(static_cast<size_t>(x.size()));
  MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using X = typename decltype(tag)::type;
    const auto data = x.data<X>();
    std::transform(data.begin(), data.end(), features.values.begin(),
                   [](X v) { return static_cast<T>(v); });
  });
  return features;
}

template absl::StatusOr<TreeEnsemble<float>> BuildTreeEnsemble<float>(const KernelContext&,
                                                                      absl::string_view);
template absl::StatusOr<TreeEnsemble<double>> BuildTreeEnsemble<double>(const KernelContext&,
                                                                        absl::string_view);
template absl::StatusOr<TreeFeatures<float>> ReadTreeFeatures<float>(const KernelContext&,
                                                                     const TreeEnsemble<float>&);
template absl::StatusOr<TreeFeatures<double>> ReadTreeFeatures<double>(const KernelContext&,
                                                                       const TreeEnsemble<double>&);

}  // namespace graphgc::kernels::ml
