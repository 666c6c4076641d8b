// TreeEnsembleRegressor (1 and 3, whose *_as_tensor attributes give the reals as tensors): each
// tree's leaf adds its weights to the targets, aggregated by SUM, AVERAGE, MIN or MAX, plus
// base_values, then the post transform.
//
// As ONNX Runtime computes it: with one target (n_targets = 1) a leaf gives its first weight,
// base_values counts only when it has one value, and only PROBIT transforms the score; with more
// targets base_values counts only when it has one value per target, and a target no leaf reached
// scores 0, whatever its base value and the aggregate.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/ml/tree_ensemble.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using ml::Aggregate;

// One target's running aggregate.
template <class T>
struct TargetScore {
  T value = 0;
  bool reached = false;

  void Add(Aggregate aggregate, T w) {
    switch (aggregate) {
      case Aggregate::kSum:
      case Aggregate::kAverage:
        value += w;
        break;
      case Aggregate::kMin:
        value = !reached || w < value ? w : value;
        break;
      case Aggregate::kMax:
        value = !reached || w > value ? w : value;
        break;
    }
    reached = true;
  }

  // The target's score; with several targets one no leaf reached is 0, its base ignored.
  T Finish(Aggregate aggregate, size_t trees, T base, bool several_targets) const {
    if (several_targets && !reached) return T{0};
    if (aggregate == Aggregate::kAverage) return value / static_cast<T>(trees) + base;
    return (reached ? value : T{0}) + base;
  }
};

template <class T>
KernelResult Regress(const KernelContext& ctx, Aggregate aggregate, ml::PostTransform transform) {
  const int64_t targets = ctx.int_attribute("n_targets", 0);
  if (targets <= 0) return Decline("n_targets is not positive");
  GRAPHGC_ASSIGN_OR_RETURN(const ml::TreeEnsemble<T> ensemble,
                           ml::BuildTreeEnsemble<T>(ctx, "target"));
  for (const ml::TreeWeight<T>& weight : ensemble.weights) {
    if (weight.target >= targets) return Decline("a target id past n_targets");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const ml::TreeFeatures<T> x, ml::ReadTreeFeatures<T>(ctx, ensemble));
  const std::vector<T>& bases = ensemble.base_values;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataType::kFloat, {x.rows, targets}));
  auto out = y.mutable_data<float>();
  std::vector<TargetScore<T>> scores(static_cast<size_t>(targets));
  std::vector<float> row_scores(static_cast<size_t>(targets));
  for (int64_t r = 0; r < x.rows; ++r) {
    std::fill(scores.begin(), scores.end(), TargetScore<T>{});
    for (int32_t root : ensemble.roots) {
      const int32_t leaf = ml::FindLeaf(ensemble, root, x.values.data() + r * x.width);
      if (leaf < 0) return Decline("a tree with a cycle");
      const ml::TreeNode<T>& node = ensemble.nodes[static_cast<size_t>(leaf)];
      for (int32_t k = 0; k < (targets == 1 ? 1 : node.weight_count); ++k) {
        const ml::TreeWeight<T>& weight =
            ensemble.weights[static_cast<size_t>(node.first_weight + k)];
        scores[targets == 1 ? 0 : static_cast<size_t>(weight.target)].Add(aggregate, weight.value);
      }
    }
    const size_t trees = ensemble.roots.size();
    if (targets == 1) {
      const T base = bases.size() == 1 ? bases[0] : T{0};
      out[r] = ml::TransformSingleScore(
          transform, static_cast<float>(scores[0].Finish(aggregate, trees, base, false)));
      continue;
    }
    const bool use_bases = bases.size() == static_cast<size_t>(targets);
    for (size_t t = 0; t < scores.size(); ++t) {
      row_scores[t] = static_cast<float>(scores[t].Finish(
          aggregate, trees, use_bases ? bases[t] : T{0}, /*several_targets=*/true));
    }
    ml::TransformScores(transform, absl::MakeSpan(row_scores));
    std::copy(row_scores.begin(), row_scores.end(), out.begin() + r * targets);
  }
  return KernelOutputs{std::move(y).freeze()};
}

KernelResult TreeEnsembleRegressorKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::PostTransform transform, ml::ReadPostTransform(ctx));
  const std::string name = ctx.string_attribute("aggregate_function", "SUM");
  Aggregate aggregate;
  if (name == "SUM") {
    aggregate = Aggregate::kSum;
  } else if (name == "AVERAGE") {
    aggregate = Aggregate::kAverage;
  } else if (name == "MIN") {
    aggregate = Aggregate::kMin;
  } else if (name == "MAX") {
    aggregate = Aggregate::kMax;
  } else {
    return Decline("an unknown aggregate_function");
  }
  std::optional<KernelResult> result;
  ml::DispatchThresholdType(ctx.input(0).dtype(), [&](auto tag) {
    result = Regress<typename decltype(tag)::type>(ctx, aggregate, transform);
  });
  if (!result.has_value()) return Decline("TreeEnsembleRegressor of this element type");
  return *std::move(result);
}

}  // namespace

void RegisterTreeEnsembleRegressorKernels(KernelTable& table) {
  table.add(kMlDomain, "TreeEnsembleRegressor", 1, KernelTable::kLatest,
            {{"T", ml::kTreeFeatureTypes}}, TreeEnsembleRegressorKernel);
}

}  // namespace graphgc::kernels
