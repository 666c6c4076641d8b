// TreeEnsemble (ai.onnx.ml 5): trees given by position. Branch i tests feature nodes_featureids[i]
// against nodes_splits[i] by nodes_modes[i] (a uint8 tensor: LEQ, LT, GTE, GT, EQ, NEQ, or
// MEMBER of its set in membership_values); each child is a branch or, where nodes_trueleafs /
// nodes_falseleafs say so, a leaf (leaf_targetids, leaf_weights). Every row walks each tree from
// its root in tree_roots, and the leaves it reaches are aggregated per target (AVERAGE, SUM, MIN,
// MAX) into Y [N, n_targets] of X's type.
//
// As ONNX's reference computes it: comparisons exact, NaN going where
// nodes_missing_value_tracks_true says, each addition rounded to X's type (AVERAGE adds
// weight / trees). Where the reference and ONNX Runtime 1.32 disagree there is no value: any
// post_transform (the reference ignores it, ONNX Runtime swaps SOFTMAX and LOGISTIC); a target
// no leaf reaches under MIN or MAX (the reference leaves the type's extreme there, ONNX Runtime 0)
// or non-finite weights under them; a one-node tree whose leaf is not at the root's own position
// (the reference reads that one, ONNX Runtime the leaf the node names); a membership value 0 (the
// reference ends the set there), sets the reference would deal in another order than the MEMBER
// nodes' (it deals them as it builds the trees, depth first) or NaN delimiters other than one per
// MEMBER node; a set ONNX Runtime rejects (a negative member beside a non-integer one) or a row
// whose non-integer value lies within 1 of an integer member (ONNX Runtime rounds it);
// missing-value flags other than 0 and 1; negative indices (the reference counts them from the
// end); cycles. An index past its list, or a row reaching a feature past X's columns or a target
// past n_targets, makes the op fail, as in both.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/ml/tree_ensemble.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using TreeTypes = internal::TypeList<float, double, Float16>;

using ml::Aggregate;

// nodes_modes 0..5 are ml::NodeMode's branch modes in order; 6 is set membership.
constexpr uint8_t kMember = 6;
static_assert(static_cast<int>(ml::NodeMode::kLeq) == 0 &&
              static_cast<int>(ml::NodeMode::kNeq) == 5);

// A branch's child: another branch, or a leaf.
struct Child {
  int64_t index = 0;
  bool leaf = false;
};

struct Branch {
  uint8_t mode = 0;
  bool missing_goes_true = false;
  int64_t feature = 0;
  double split = 0;
  Child true_child;
  Child false_child;
  size_t first_member = 0;  // MEMBER: its set, sorted, in Forest::members
  size_t member_count = 0;
};

struct Leaf {
  int64_t target = 0;
  double weight = 0;
};

struct Forest {
  std::vector<Branch> branches;
  std::vector<Leaf> leaves;
  std::vector<Child> roots;  // each tree's first branch, or the leaf of a one-node tree
  std::vector<double> members;
  int64_t targets = 0;
  Aggregate aggregate = Aggregate::kSum;
  // A feature past X's columns or a target past n_targets on some tree's path: the op fails if a
  // row reaches it (both fail then); otherwise ONNX Runtime still fails and the reference does not.
  bool past_range = false;
};

// Tensor attribute `name` as doubles: 1-D, of X's type (inference checks both too).
absl::StatusOr<std::vector<double>> Reals(const KernelContext& ctx, absl::string_view name) {
  const Tensor* tensor = ctx.tensor_attribute(name);
  if (tensor == nullptr) return absl::InvalidArgumentError(absl::StrCat("no attribute ", name));
  if (tensor->dtype() != ctx.input(0).dtype() || tensor->rank() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute ", name, " is not a 1-D tensor of X's element type"));
  }
  std::vector<double> values(static_cast<size_t>(tensor->size()));
  TreeTypes::Dispatch(tensor->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto data = tensor->data<T>();
    std::transform(data.begin(), data.end(), values.begin(),
                   [](T v) { return static_cast<double>(internal::Load<T>(v)); });
  });
  return values;
}

absl::Status ReadBranches(const KernelContext& ctx, Forest& forest) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<double> splits, Reals(ctx, "nodes_splits"));
  const Tensor* modes = ctx.tensor_attribute("nodes_modes");
  const std::vector<int64_t> features = ml::IntsOrEmpty(ctx, "nodes_featureids");
  const std::vector<int64_t> true_ids = ml::IntsOrEmpty(ctx, "nodes_truenodeids");
  const std::vector<int64_t> false_ids = ml::IntsOrEmpty(ctx, "nodes_falsenodeids");
  const std::vector<int64_t> true_leafs = ml::IntsOrEmpty(ctx, "nodes_trueleafs");
  const std::vector<int64_t> false_leafs = ml::IntsOrEmpty(ctx, "nodes_falseleafs");
  const std::vector<int64_t> missing = ml::IntsOrEmpty(ctx, "nodes_missing_value_tracks_true");
  const size_t n = splits.size();
  if (modes == nullptr || modes->dtype() != DataType::kUint8 ||
      static_cast<size_t>(modes->size()) != n || features.size() != n || true_ids.size() != n ||
      false_ids.size() != n || true_leafs.size() != n || false_leafs.size() != n ||
      (!missing.empty() && missing.size() != n)) {
    return absl::InvalidArgumentError(
        "the nodes_* attributes are not all of nodes_splits' length (nodes_modes of uint8)");
  }
  forest.branches.resize(n);
  const auto mode_values = modes->data<uint8_t>();
  for (size_t i = 0; i < n; ++i) {
    if (mode_values[i] > kMember) {
      return Decline(absl::StrCat("node mode ", static_cast<int>(mode_values[i])));
    }
    // ONNX's reference follows any non-zero flag, ONNX Runtime only 1.
    if (!missing.empty() && missing[i] != 0 && missing[i] != 1) {
      return Decline(absl::StrCat("nodes_missing_value_tracks_true of ", missing[i]));
    }
    forest.branches[i] = {.mode = mode_values[i],
                          .missing_goes_true = !missing.empty() && missing[i] == 1,
                          .feature = features[i],
                          .split = splits[i],
                          .true_child = {true_ids[i], true_leafs[i] != 0},
                          .false_child = {false_ids[i], false_leafs[i] != 0}};
  }
  return absl::OkStatus();
}

absl::Status ReadLeaves(const KernelContext& ctx, Forest& forest) {
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<double> weights, Reals(ctx, "leaf_weights"));
  const std::vector<int64_t> targets = ml::IntsOrEmpty(ctx, "leaf_targetids");
  if (targets.size() != weights.size()) {
    return absl::InvalidArgumentError(absl::StrCat("leaf_targetids has ", targets.size(),
                                                   " entries, leaf_weights ", weights.size()));
  }
  for (size_t i = 0; i < weights.size(); ++i) forest.leaves.push_back({targets[i], weights[i]});
  return absl::OkStatus();
}

// Walks the trees as ONNX's reference builds them (depth first from each root, the true branch
// first), checking each index it meets and recording the order it meets MEMBER branches in: the
// reference deals the membership sets in that order.
class Explorer {
 public:
  Explorer(Forest& forest, int64_t width)
      : forest_(forest),
        width_(width),
        state_(forest.branches.size(), kUnseen),
        holds_member_(forest.branches.size(), false) {}

  absl::Status Explore(int64_t root) {
    std::vector<Frame> stack;
    GRAPHGC_RETURN_IF_ERROR(Enter(root, stack));
    while (!stack.empty()) {
      const int64_t index = stack.back().branch;
      const Branch& branch = forest_.branches[static_cast<size_t>(index)];
      const int next = stack.back().next++;
      if (next < 2) {
        const Child& child = next == 0 ? branch.true_child : branch.false_child;
        GRAPHGC_RETURN_IF_ERROR(CheckChild(child));
        if (!child.leaf) GRAPHGC_RETURN_IF_ERROR(Enter(child.index, stack));
        continue;
      }
      bool holds = branch.mode == kMember;
      for (const Child& child : {branch.true_child, branch.false_child}) {
        holds = holds || (!child.leaf && holds_member_[static_cast<size_t>(child.index)]);
      }
      holds_member_[static_cast<size_t>(index)] = holds;
      state_[static_cast<size_t>(index)] = kDone;
      stack.pop_back();
    }
    return absl::OkStatus();
  }

  absl::Status CheckLeaf(int64_t index) {
    const int64_t target = forest_.leaves[static_cast<size_t>(index)].target;
    if (target < 0) return Decline(absl::StrCat("a negative target id ", target));
    forest_.past_range = forest_.past_range || target >= forest_.targets;
    return absl::OkStatus();
  }

  const std::vector<size_t>& member_order() const { return member_order_; }

 private:
  enum State : uint8_t { kUnseen, kOpen, kDone };
  struct Frame {
    int64_t branch;
    int next;  // 0: the true child is next, 1: the false child, 2: done
  };

  absl::Status CheckChild(const Child& child) {
    if (child.index < 0) return Decline(absl::StrCat("a negative node or leaf id ", child.index));
    const size_t count = child.leaf ? forest_.leaves.size() : forest_.branches.size();
    if (static_cast<uint64_t>(child.index) >= count) {
      return absl::InvalidArgumentError(absl::StrCat(child.leaf ? "leaf " : "node ", child.index,
                                                     " is named as a child; there are ", count));
    }
    return child.leaf ? CheckLeaf(child.index) : absl::OkStatus();
  }

  absl::Status Enter(int64_t index, std::vector<Frame>& stack) {
    const size_t i = static_cast<size_t>(index);
    if (state_[i] == kOpen) return Decline("trees with a cycle");
    if (state_[i] == kDone) {
      // The reference builds a shared subtree once per path, dealing its sets again.
      if (holds_member_[i]) return Decline("a BRANCH_MEMBER node on two paths");
      return absl::OkStatus();
    }
    const Branch& branch = forest_.branches[i];
    if (branch.feature < 0) return Decline(absl::StrCat("a negative feature id ", branch.feature));
    forest_.past_range = forest_.past_range || branch.feature >= width_;
    if (branch.mode == kMember) member_order_.push_back(i);
    state_[i] = kOpen;
    stack.push_back({index, 0});
    return absl::OkStatus();
  }

  Forest& forest_;
  int64_t width_;
  std::vector<State> state_;
  std::vector<bool> holds_member_;
  std::vector<size_t> member_order_;
};

// tree_roots, each checked with the tree below it.
absl::Status ReadRoots(const KernelContext& ctx, Explorer& explorer, Forest& forest) {
  for (const int64_t root : ml::IntsOrEmpty(ctx, "tree_roots")) {
    if (root < 0) return Decline(absl::StrCat("a negative tree root ", root));
    if (static_cast<uint64_t>(root) >= forest.branches.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("tree root ", root, " is past the ", forest.branches.size(), " nodes"));
    }
    const Branch& branch = forest.branches[static_cast<size_t>(root)];
    const bool one_leaf = branch.true_child.leaf && branch.false_child.leaf &&
                          branch.true_child.index == branch.false_child.index;
    if (!one_leaf) {
      GRAPHGC_RETURN_IF_ERROR(explorer.Explore(root));
      forest.roots.push_back({root, false});
      continue;
    }
    if (branch.true_child.index != root) {
      return Decline("a one-node tree whose leaf is not at its root's position");
    }
    if (static_cast<uint64_t>(root) >= forest.leaves.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("one-node tree ", root, " is past the ", forest.leaves.size(), " leaves"));
    }
    GRAPHGC_RETURN_IF_ERROR(explorer.CheckLeaf(root));
    forest.roots.push_back({root, true});
  }
  return absl::OkStatus();
}

// Gives each MEMBER branch its set: the values of membership_values up to the next NaN, in the
// order of the branches' positions.
absl::Status ReadMembers(const KernelContext& ctx, const std::vector<size_t>& dealt,
                         Forest& forest) {
  std::vector<size_t> member_branches;
  for (size_t i = 0; i < forest.branches.size(); ++i) {
    if (forest.branches[i].mode == kMember) member_branches.push_back(i);
  }
  if (ctx.tensor_attribute("membership_values") == nullptr) {
    if (member_branches.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError("BRANCH_MEMBER nodes without membership_values");
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<double> values, Reals(ctx, "membership_values"));
  const size_t sets = static_cast<size_t>(
      std::count_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }));
  if (sets != member_branches.size()) {
    return Decline(absl::StrCat(sets, " membership sets for ", member_branches.size(),
                                " BRANCH_MEMBER nodes"));
  }
  if (std::find(values.begin(), values.end(), 0.0) != values.end()) {
    return Decline("a membership value 0");
  }
  // Each branch met on the way is dealt its set in the order met; unmet ones come last.
  if (!std::equal(dealt.begin(), dealt.end(), member_branches.begin())) {
    return Decline("membership sets dealt out of the BRANCH_MEMBER nodes' order");
  }
  size_t set = 0;
  size_t begin = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isnan(values[i])) continue;
    const auto first = values.begin() + static_cast<ptrdiff_t>(begin);
    const auto last = values.begin() + static_cast<ptrdiff_t>(i);
    if (std::any_of(first, last, [](double v) { return v < 0; }) &&
        std::any_of(first, last, [](double v) { return v != std::floor(v); })) {
      return Decline("a membership set with a negative and a non-integer member");
    }
    Branch& branch = forest.branches[member_branches[set++]];
    branch.first_member = forest.members.size();
    branch.member_count = i - begin;
    forest.members.insert(forest.members.end(), first, last);
    std::sort(forest.members.begin() + static_cast<ptrdiff_t>(branch.first_member),
              forest.members.end());
    begin = i + 1;
  }
  return absl::OkStatus();
}

absl::StatusOr<Forest> ReadForest(const KernelContext& ctx) {
  Forest forest;
  if (ctx.int_attribute("post_transform", 0) != 0) {
    return Decline(
        "a post_transform (ONNX's reference ignores it, ONNX Runtime swaps SOFTMAX and "
        "LOGISTIC)");
  }
  const int64_t aggregate = ctx.int_attribute("aggregate_function", 1);
  if (aggregate < 0 || aggregate > 3) {
    return absl::InvalidArgumentError(absl::StrCat("aggregate_function is ", aggregate));
  }
  forest.aggregate = static_cast<Aggregate>(aggregate);
  if (!ctx.has_attribute("n_targets") || ctx.int_attribute("n_targets") < 0) {
    return absl::InvalidArgumentError("n_targets is missing or negative");
  }
  forest.targets = ctx.int_attribute("n_targets");
  GRAPHGC_RETURN_IF_ERROR(ReadBranches(ctx, forest));
  GRAPHGC_RETURN_IF_ERROR(ReadLeaves(ctx, forest));
  const bool extremes = forest.aggregate == Aggregate::kMin || forest.aggregate == Aggregate::kMax;
  if (extremes && std::any_of(forest.leaves.begin(), forest.leaves.end(),
                              [](const Leaf& leaf) { return !std::isfinite(leaf.weight); })) {
    return Decline("non-finite weights under MIN or MAX");
  }
  Explorer explorer(forest, ctx.input(0).shape()[1]);
  GRAPHGC_RETURN_IF_ERROR(ReadRoots(ctx, explorer, forest));
  GRAPHGC_RETURN_IF_ERROR(ReadMembers(ctx, explorer.member_order(), forest));
  return forest;
}

bool GoesTrue(const Forest& forest, const Branch& branch, double x) {
  if (branch.mode != kMember) {
    return ml::GoesTrue(static_cast<ml::NodeMode>(branch.mode), x, branch.split,
                        branch.missing_goes_true);
  }
  const auto first = forest.members.begin() + static_cast<ptrdiff_t>(branch.first_member);
  const auto last = first + static_cast<ptrdiff_t>(branch.member_count);
  if (std::isnan(x)) return branch.missing_goes_true;
  return std::binary_search(first, last, x);
}

// Whether ONNX Runtime 1.32 may test x's membership otherwise: it rounds a non-integer x to an
// integer member within 1 of it.
bool OnnxRuntimeRounds(const Forest& forest, const Branch& branch, double x) {
  if (branch.mode != kMember || !std::isfinite(x) || x == std::floor(x)) return false;
  const auto first = forest.members.begin() + static_cast<ptrdiff_t>(branch.first_member);
  const auto last = first + static_cast<ptrdiff_t>(branch.member_count);
  for (auto m = std::upper_bound(first, last, x - 1); m != last && *m < x + 1; ++m) {
    if (*m == std::floor(*m)) return true;
  }
  return false;
}

// `value` rounded to T, as the reference stores each sum in an array of X's type.
template <class T>
double RoundTo(double value) {
  if constexpr (std::is_same_v<T, double>) {
    return value;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(value);
  } else {
    return T::FromDouble(value).ToFloat();
  }
}

// One target's running aggregate of the leaves' weights.
struct Score {
  double value = 0;
  bool reached = false;
};

template <class T>
void Add(Aggregate aggregate, double weight, size_t trees, Score& score) {
  switch (aggregate) {
    case Aggregate::kAverage:
      score.value = RoundTo<T>(score.value + weight / static_cast<double>(trees));
      break;
    case Aggregate::kSum:
      score.value = RoundTo<T>(score.value + weight);
      break;
    case Aggregate::kMin:
      score.value = !score.reached || weight < score.value ? weight : score.value;
      break;
    case Aggregate::kMax:
      score.value = !score.reached || weight > score.value ? weight : score.value;
      break;
  }
  score.reached = true;
}

template <class T>
KernelResult Evaluate(const KernelContext& ctx, const Forest& forest) {
  const Tensor& x = ctx.input(0);
  const int64_t rows = x.shape()[0];
  const int64_t width = x.shape()[1];
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), {rows, forest.targets}));
  const T* in = x.data<T>().data();
  T* y = out.mutable_data<T>().data();
  const bool extremes = forest.aggregate == Aggregate::kMin || forest.aggregate == Aggregate::kMax;
  std::vector<Score> scores(static_cast<size_t>(forest.targets));
  for (int64_t r = 0; r < rows; ++r) {
    std::fill(scores.begin(), scores.end(), Score{});
    for (const Child& root : forest.roots) {
      Child at = root;
      while (!at.leaf) {  // no cycle: the Explorer checked every path
        const Branch& branch = forest.branches[static_cast<size_t>(at.index)];
        if (branch.feature >= width) {
          return ctx.input_error(0, absl::StrCat("has ", width, " columns; row ", r,
                                                 " reaches a node of feature ", branch.feature));
        }
        const double v = static_cast<double>(internal::Load<T>(in[r * width + branch.feature]));
        if (OnnxRuntimeRounds(forest, branch, v)) {
          return Decline("a non-integer value near an integer member (ONNX Runtime rounds it)");
        }
        at = GoesTrue(forest, branch, v) ? branch.true_child : branch.false_child;
      }
      const Leaf& leaf = forest.leaves[static_cast<size_t>(at.index)];
      if (leaf.target >= forest.targets) {
        return absl::InvalidArgumentError(absl::StrCat(
            "row ", r, " reaches leaf ", at.index, " of target ", leaf.target, ", past n_targets"));
      }
      Add<T>(forest.aggregate, leaf.weight, forest.roots.size(),
             scores[static_cast<size_t>(leaf.target)]);
    }
    for (size_t t = 0; t < scores.size(); ++t) {
      if (extremes && !scores[t].reached) {
        return Decline("a target no leaf reaches under MIN or MAX");
      }
      y[r * forest.targets + static_cast<int64_t>(t)] =
          internal::Store<T>(static_cast<internal::ComputeType<T>>(scores[t].value));
    }
  }
  if (forest.past_range) return Decline("a feature or target id past its range on an unused path");
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult TreeEnsembleKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 2) return ctx.input_error(0, absl::StrCat("has rank ", x.rank(), ", not 2"));
  GRAPHGC_ASSIGN_OR_RETURN(const Forest forest, ReadForest(ctx));
  KernelResult result = Decline("TreeEnsemble of this element type");
  TreeTypes::Dispatch(
      x.dtype(), [&](auto tag) { result = Evaluate<typename decltype(tag)::type>(ctx, forest); });
  return result;
}

}  // namespace

void RegisterTreeEnsembleKernels(KernelTable& table) {
  table.add(kMlDomain, "TreeEnsemble", 5, KernelTable::kLatest, {{"T", TreeTypes::kSet}},
            TreeEnsembleKernel);
}

}  // namespace graphgc::kernels
