// TreeEnsembleClassifier (1 and 3, whose *_as_tensor attributes give the reals as tensors): each
// tree's leaf adds its weights to the classes' scores, plus base_values; the label is the class
// with the highest score; then the post transform.
//
// As ONNX Runtime computes it. A class no leaf reached scores 0 (with three or more classes a
// base value counts as reaching it), and takes no part in choosing a multiclass label. With two
// classes:
//   - when base_values has two values and the leaves reach class 1, class 1 scores
//     base_values[1] + class 0's sum and class 0 (if reached) the opposite;
//   - when only one score is left (class 1 not reached, fewer than two base values), that score
//     s decides alone and the scores take ml_common.h's complement layout when every weight names
//     one class and all are positive, its negation layout when they are not or there are no base
//     values; otherwise (or with PROBIT) ONNX Runtime writes one of the two scores only, and the
//     case gets no value;
//   - the label is the second class where the deciding score is > 0.5 (all weights positive, one
//     class named) or > 0 (one class named), else the first; when the weights name both classes
//     it is the label value 1 or 0 (class index 1 or 0 for string labels).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/ml/tree_ensemble.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// How a lone binary score becomes two (ONNX Runtime's "add_second_class"; kNone: it does not).
enum class SecondScore { kNone, kOneMinus, kNegated };

template <class T>
struct ClassScore {
  T value = 0;
  bool reached = false;
};

// The chosen class index of a binary row and how its lone score (if any) becomes two.
struct BinaryChoice {
  int64_t label_index;  // into the class labels, or -1 / -2 for the label values 0 / 1
  SecondScore second;
};

template <class T>
BinaryChoice ChooseBinary(const std::vector<ClassScore<T>>& scores, bool one_class_named,
                          bool all_positive, SecondScore second) {
  const T decisive = scores.size() == 2 && scores[1].reached ? scores[1].value
                     : scores[0].reached                     ? scores[0].value
                                                             : T{0};
  if (one_class_named) {
    if (all_positive) {
      return decisive > T(0.5) ? BinaryChoice{1, SecondScore::kOneMinus}
                               : BinaryChoice{0, SecondScore::kOneMinus};
    }
    return decisive > 0 ? BinaryChoice{1, SecondScore::kNegated}
                        : BinaryChoice{0, SecondScore::kNegated};
  }
  return decisive > 0 ? BinaryChoice{-2, second} : BinaryChoice{-1, second};
}

template <class T, class L>
KernelResult Classify(const KernelContext& ctx, const std::vector<L>& labels,
                      ml::PostTransform transform) {
  const int64_t classes = static_cast<int64_t>(labels.size());
  if (classes < 2) return Decline("fewer than two class labels");
  GRAPHGC_ASSIGN_OR_RETURN(const ml::TreeEnsemble<T> ensemble,
                           ml::BuildTreeEnsemble<T>(ctx, "class"));
  absl::flat_hash_set<int64_t> named;
  for (const ml::TreeWeight<T>& weight : ensemble.weights) {
    if (weight.target >= classes) return Decline("a class id past the class labels");
    named.insert(weight.target);
  }
  const std::vector<T>& bases = ensemble.base_values;
  if (static_cast<int64_t>(bases.size()) > classes) return Decline("more base values than classes");
  const bool one_class_named = classes == 2 && named.size() == 1;
  GRAPHGC_ASSIGN_OR_RETURN(const ml::TreeFeatures<T> x, ml::ReadTreeFeatures<T>(ctx, ensemble));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataTypeOf<L>::value, {x.rows}));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor z, ctx.allocate(DataType::kFloat, {x.rows, classes}));
  auto label_out = y.mutable_data<L>();
  auto score_out = z.mutable_data<float>();
  std::vector<ClassScore<T>> scores;
  std::vector<float> row(static_cast<size_t>(classes));
  for (int64_t r = 0; r < x.rows; ++r) {
    scores.assign(static_cast<size_t>(classes), ClassScore<T>{});
    for (int32_t root : ensemble.roots) {
      const int32_t leaf = ml::FindLeaf(ensemble, root, x.values.data() + r * x.width);
      if (leaf < 0) return Decline("a tree with a cycle");
      const ml::TreeNode<T>& node = ensemble.nodes[static_cast<size_t>(leaf)];
      for (int32_t k = 0; k < node.weight_count; ++k) {
        const ml::TreeWeight<T>& weight =
            ensemble.weights[static_cast<size_t>(node.first_weight + k)];
        scores[static_cast<size_t>(weight.target)].value += weight.value;
        scores[static_cast<size_t>(weight.target)].reached = true;
      }
    }
    int64_t label_index = -1;
    SecondScore second = SecondScore::kNone;
    if (classes > 2) {
      for (size_t k = 0; k < bases.size(); ++k) {
        scores[k].value += bases[k];
        scores[k].reached = true;
      }
      for (int64_t k = 0; k < classes; ++k) {
        const ClassScore<T>& s = scores[static_cast<size_t>(k)];
        if (s.reached &&
            (label_index < 0 || s.value > scores[static_cast<size_t>(label_index)].value)) {
          label_index = k;
        }
      }
      if (label_index < 0) return Decline("no class reached");
    } else {
      if (bases.size() == 2 && scores[1].reached) {
        scores[1].value = bases[1] + scores[0].value;
        scores[0].value = -scores[1].value;
      } else if (bases.size() == 2) {
        scores[1].value += bases[1];
        scores[0].value += bases[0];
      } else if (bases.size() == 1) {
        scores[0].value += bases[0];
        if (!scores[1].reached) scores.pop_back();
      } else {
        second = SecondScore::kNegated;
        if (!scores[1].reached) scores.pop_back();
      }
      const BinaryChoice choice =
          ChooseBinary(scores, one_class_named, ensemble.all_weights_positive, second);
      label_index = choice.label_index;
      second = choice.second;
    }
    if (scores.size() == 1) {
      // One score left: it becomes two, unless ONNX Runtime writes only one of them.
      if (transform == ml::PostTransform::kProbit || second == SecondScore::kNone) {
        return Decline("a binary score ONNX Runtime writes half of");
      }
      ml::WriteBinaryScores(transform,
                            second == SecondScore::kOneMinus ? ml::BinaryLayout::kComplement
                                                             : ml::BinaryLayout::kNegation,
                            static_cast<float>(scores[0].value), row.data());
    } else {
      // ONNX Runtime reads a class no leaf reached (nor a base value in multiclass) as 0.
      for (size_t k = 0; k < scores.size(); ++k) {
        row[k] = scores[k].reached ? static_cast<float>(scores[k].value) : 0.0f;
      }
      ml::TransformScores(transform, absl::MakeSpan(row));
    }
    std::copy(row.begin(), row.end(), score_out.begin() + r * classes);
    if (label_index >= 0) {
      label_out[r] = labels[static_cast<size_t>(label_index)];
    } else if constexpr (std::is_same_v<L, int64_t>) {
      label_out[r] = label_index == -2 ? 1 : 0;  // label values, not class labels
    } else {
      label_out[r] = labels[label_index == -2 ? 1 : 0];  // class indices 1 and 0
    }
  }
  return KernelOutputs{std::move(y).freeze(), std::move(z).freeze()};
}

KernelResult TreeEnsembleClassifierKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::PostTransform transform, ml::ReadPostTransform(ctx));
  std::optional<KernelResult> result;
  ml::DispatchThresholdType(ctx.input(0).dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (ctx.output(0).dtype == DataType::kString) {
      result =
          Classify<T, std::string>(ctx, ml::StringsOrEmpty(ctx, "classlabels_strings"), transform);
    } else {
      result = Classify<T, int64_t>(ctx, ml::IntsOrEmpty(ctx, "classlabels_int64s"), transform);
    }
  });
  if (!result.has_value()) return Decline("TreeEnsembleClassifier of this element type");
  return *std::move(result);
}

}  // namespace

void RegisterTreeEnsembleClassifierKernels(KernelTable& table) {
  // Labels (T2) int64 or string.
  table.add(kMlDomain, "TreeEnsembleClassifier", 1, KernelTable::kLatest,
            {{"T1", ml::kTreeFeatureTypes}, {"T2", {DataType::kInt64, DataType::kString}}},
            TreeEnsembleClassifierKernel);
}

}  // namespace graphgc::kernels
