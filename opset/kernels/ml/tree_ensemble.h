// The trees of TreeEnsembleClassifier and TreeEnsembleRegressor, built from their nodes_* and
// (class|target)_* attributes, and the walk from a root to a leaf (whose branch test TreeEnsemble
// 5 shares).
//
// Built as ONNX Runtime builds them: a tree's root is the first node of each run of equal
// nodes_treeids; children are found by (tree id, node id); a leaf's weights keep their attribute
// order; weights on a branch node are ignored. Models ONNX Runtime rejects (a repeated node, a
// missing child, a leaf without weights, an unknown mode) are declined, as is a cycle.
//
// T is the type of thresholds and weights: double for double features, else float (the
// comparisons run in it, integers converted to it), as in ONNX Runtime.
#ifndef GRAPHGC_OPSET_KERNELS_ML_TREE_ENSEMBLE_H_
#define GRAPHGC_OPSET_KERNELS_ML_TREE_ENSEMBLE_H_

#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/valuestore/data_type_set.h"

namespace graphgc::kernels::ml {

enum class NodeMode : uint8_t { kLeq, kLt, kGte, kGt, kEq, kNeq, kLeaf };

// How the leaves reaching one target are combined: TreeEnsemble 5's aggregate_function values
// 0..3 in order; the older ops name them (AVERAGE, SUM, MIN, MAX).
enum class Aggregate { kAverage, kSum, kMin, kMax };

template <class T>
struct TreeWeight {
  int64_t target;  // the target (regressor) or class (classifier) it adds to
  T value;
};

template <class T>
struct TreeNode {
  NodeMode mode;
  bool missing_goes_true;
  int64_t feature;
  T threshold;
  int32_t true_child;    // node index (branches)
  int32_t false_child;   // node index (branches)
  int32_t first_weight;  // index into weights (leaves)
  int32_t weight_count;  // (leaves)
};

template <class T>
struct TreeEnsemble {
  std::vector<TreeNode<T>> nodes;
  std::vector<int32_t> roots;
  std::vector<TreeWeight<T>> weights;
  int64_t max_feature = -1;      // the largest feature a branch reads
  int64_t max_any_feature = -1;  // the largest feature id of any node (ONNX Runtime checks it)
  bool all_weights_positive = true;
  std::vector<T> base_values;
};

// Reads the ensemble; `weights_prefix` is "target" or "class" (their _ids, _nodeids, _treeids,
// _weights attributes).
template <class T>
absl::StatusOr<TreeEnsemble<T>> BuildTreeEnsemble(const KernelContext& ctx,
                                                  absl::string_view weights_prefix);

// Whether a branch of `mode` (not kLeaf) sends feature value x to its true child: x compared
// with the threshold t, or NaN where the node says missing values go true.
template <class T>
bool GoesTrue(NodeMode mode, T x, T t, bool missing_goes_true) {
  bool go_true = false;
  switch (mode) {
    case NodeMode::kLeq:
      go_true = x <= t;
      break;
    case NodeMode::kLt:
      go_true = x < t;
      break;
    case NodeMode::kGte:
      go_true = x >= t;
      break;
    case NodeMode::kGt:
      go_true = x > t;
      break;
    case NodeMode::kEq:
      go_true = x == t;
      break;
    case NodeMode::kNeq:
      go_true = x != t;
      break;
    case NodeMode::kLeaf:
      break;
  }
  return go_true || (missing_goes_true && std::isnan(x));
}

// The leaf the row reaches from `root`, or -1 after more steps than there are nodes (a cycle).
template <class T>
int32_t FindLeaf(const TreeEnsemble<T>& ensemble, int32_t root, const T* row) {
  int32_t index = root;
  for (size_t steps = 0; steps <= ensemble.nodes.size(); ++steps) {
    const TreeNode<T>& node = ensemble.nodes[static_cast<size_t>(index)];
    if (node.mode == NodeMode::kLeaf) return index;
    const bool go_true =
        GoesTrue(node.mode, row[node.feature], node.threshold, node.missing_goes_true);
    index = go_true ? node.true_child : node.false_child;
  }
  return -1;
}

// X ([N, C] or [C]) as N rows of C values of T, checked against the features the trees use.
template <class T>
struct TreeFeatures {
  int64_t rows = 0;
  int64_t width = 0;
  std::vector<T> values;
};
template <class T>
absl::StatusOr<TreeFeatures<T>> ReadTreeFeatures(const KernelContext& ctx,
                                                 const TreeEnsemble<T>& ensemble);

// Calls f(TypeTag<T>) with the threshold type for the features' element type; false if it is
// not a type the tree ensembles take: those of kTreeFeatureTypes, the ml operators' MlNumbers.
inline constexpr DataTypeSet kTreeFeatureTypes = MlNumbers::kSet;
template <class F>
bool DispatchThresholdType(DataType features, F&& f) {
  switch (features) {
    case DataType::kDouble:
      f(internal::TypeTag<double>{});
      return true;
    case DataType::kFloat:
    case DataType::kInt64:
    case DataType::kInt32:
      f(internal::TypeTag<float>{});
      return true;
    default:
      return false;
  }
}

}  // namespace graphgc::kernels::ml

#endif  // GRAPHGC_OPSET_KERNELS_ML_TREE_ENSEMBLE_H_
