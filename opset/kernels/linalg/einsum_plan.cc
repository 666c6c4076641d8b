#include "graphgc/opset/kernels/linalg/einsum_plan.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace graphgc::kernels::linalg {
namespace {

constexpr int kEllipsisMarker = -1;  // where a parsed term's "..." stands
constexpr int kLetters = 52;

int LetterLabel(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -1;
}

std::string LabelName(int label) {
  if (label < 26) return std::string(1, static_cast<char>('A' + label));
  if (label < kLetters) return std::string(1, static_cast<char>('a' + label - 26));
  return "...";
}

absl::Status EquationError(absl::string_view equation, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("attribute 'equation' (\"", equation, "\"): ", why));
}

// A term's labels in order, kEllipsisMarker where its (at most one) "..." stands.
absl::StatusOr<std::vector<int>> ParseTerm(absl::string_view equation, absl::string_view term) {
  std::vector<int> labels;
  bool has_ellipsis = false;
  for (size_t i = 0; i < term.size();) {
    if (term[i] == '.') {
      if (term.substr(i, 3) != "..." || has_ellipsis) {
        return EquationError(equation,
                             absl::StrCat("term \"", term, "\" has a '.' outside one \"...\""));
      }
      has_ellipsis = true;
      labels.push_back(kEllipsisMarker);
      i += 3;
      continue;
    }
    const int label = LetterLabel(term[i]);
    if (label < 0) {
      return EquationError(
          equation, absl::StrCat("'", term.substr(i, 1), "' is not a label (labels are letters)"));
    }
    labels.push_back(label);
    ++i;
  }
  return labels;
}

// The term's labels with its ellipsis marker replaced by the labels of the `covered` dims it
// stands for, right-aligned among all `ellipsis_dims` broadcast dims.
std::vector<int> ExpandEllipsis(const std::vector<int>& term, int64_t covered,
                                int64_t ellipsis_dims) {
  std::vector<int> labels;
  for (int label : term) {
    if (label != kEllipsisMarker) {
      labels.push_back(label);
      continue;
    }
    for (int64_t d = 0; d < covered; ++d) {
      labels.push_back(kEllipsisLabel + static_cast<int>(ellipsis_dims - covered + d));
    }
  }
  return labels;
}

}  // namespace

absl::StatusOr<EinsumPlan> PlanEinsum(const KernelContext& ctx, absl::string_view equation,
                                      absl::Span<const absl::Span<const int64_t>> shapes) {
  std::string compact(equation);
  compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
  const size_t arrow = compact.find("->");
  const absl::string_view lhs = absl::string_view(compact).substr(0, arrow);
  const std::vector<absl::string_view> terms = absl::StrSplit(lhs, ',');
  if (terms.size() != shapes.size()) {
    return EquationError(equation, absl::StrCat("has ", terms.size(), " operand terms for ",
                                                shapes.size(), " inputs"));
  }

  // Each term against its operand's rank; how many dims each ellipsis covers.
  std::vector<std::vector<int>> parsed;
  std::vector<int64_t> covered;
  int64_t ellipsis_dims = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    absl::StatusOr<std::vector<int>> term = ParseTerm(equation, terms[i]);
    if (!term.ok()) return term.status();
    const bool has_ellipsis = std::find(term->begin(), term->end(), kEllipsisMarker) != term->end();
    const int64_t letters = static_cast<int64_t>(term->size()) - (has_ellipsis ? 1 : 0);
    const int64_t rank = static_cast<int64_t>(shapes[i].size());
    if (has_ellipsis ? letters > rank : letters != rank) {
      return ctx.input_error(static_cast<int>(i), absl::StrCat("has rank ", rank, ", which term \"",
                                                               terms[i], "\" does not label"));
    }
    covered.push_back(has_ellipsis ? rank - letters : 0);
    ellipsis_dims = std::max(ellipsis_dims, covered.back());
    parsed.push_back(*std::move(term));
  }

  EinsumPlan plan;
  plan.label_sizes.assign(static_cast<size_t>(kEllipsisLabel + ellipsis_dims), -1);
  std::vector<int> occurrences(plan.label_sizes.size(), 0);
  for (size_t i = 0; i < parsed.size(); ++i) {
    std::vector<int> labels = ExpandEllipsis(parsed[i], covered[i], ellipsis_dims);
    std::vector<int64_t> own_sizes(plan.label_sizes.size(), -1);
    for (size_t axis = 0; axis < labels.size(); ++axis) {
      const int label = labels[axis];
      const int64_t size = shapes[i][axis];
      int64_t& own = own_sizes[static_cast<size_t>(label)];
      if (own != -1 && own != size) {
        return ctx.input_error(static_cast<int>(i),
                               absl::StrCat("label '", LabelName(label), "' repeats along dims of ",
                                            own, " and ", size, " (a diagonal needs equal dims)"));
      }
      own = size;
      int64_t& global = plan.label_sizes[static_cast<size_t>(label)];
      if (global != -1 && global != size && global != 1 && size != 1) {
        return ctx.input_error(static_cast<int>(i),
                               absl::StrCat("label '", LabelName(label), "' has size ", size,
                                            " here but ", global, " in another operand"));
      }
      if (global == -1 || global == 1) global = size;
      ++occurrences[static_cast<size_t>(label)];
    }
    plan.operand_labels.push_back(std::move(labels));
  }

  if (arrow != std::string::npos) {
    absl::StatusOr<std::vector<int>> rhs =
        ParseTerm(equation, absl::string_view(compact).substr(arrow + 2));
    if (!rhs.ok()) return rhs.status();
    const bool has_ellipsis = std::find(rhs->begin(), rhs->end(), kEllipsisMarker) != rhs->end();
    if (!has_ellipsis && ellipsis_dims > 0) {
      return Decline("the operands' ellipsis dims are missing from the explicit output");
    }
    for (int label : *rhs) {
      if (label == kEllipsisMarker) continue;
      if (occurrences[static_cast<size_t>(label)] == 0) {
        return EquationError(
            equation, absl::StrCat("output label '", LabelName(label), "' labels no operand dim"));
      }
      if (std::count(rhs->begin(), rhs->end(), label) > 1) {
        return EquationError(equation,
                             absl::StrCat("output label '", LabelName(label), "' repeats"));
      }
    }
    plan.output_labels = ExpandEllipsis(*rhs, ellipsis_dims, ellipsis_dims);
  } else {
    // Implicit output: the ellipsis dims, then the labels that occur once, alphabetically.
    for (int64_t d = 0; d < ellipsis_dims; ++d)
      plan.output_labels.push_back(kEllipsisLabel + static_cast<int>(d));
    for (int label = 0; label < kLetters; ++label) {
      if (occurrences[static_cast<size_t>(label)] != 1) continue;
      if (label < 26)
        return Decline("an implicit output with upper-case labels has no agreed order");
      plan.output_labels.push_back(label);
    }
  }
  for (int64_t& size : plan.label_sizes) size = std::max<int64_t>(size, 0);
  for (int label : plan.output_labels) {
    plan.output_shape.push_back(plan.label_sizes[static_cast<size_t>(label)]);
  }
  return plan;
}

}  // namespace graphgc::kernels::linalg
