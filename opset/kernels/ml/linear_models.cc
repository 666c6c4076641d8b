// LinearClassifier and LinearRegressor: scores = X * coefficients^T + intercepts over [N, C]
// features (a 1-D X is one row), then the post transform.
//
// Following ONNX Runtime: a classifier with one score per row (one intercept) is binary: its
// label is the second class label (or 1) where the score is > 0, else the first (or 0); with two
// class labels its scores become [1 - p, p] with p = logistic(s) for LOGISTIC, else s (the other
// transforms are not applied; PROBIT there leaves ONNX Runtime's second column unwritten, so that
// case gets no value). With more classes
// the label is the first highest score's. A lone score per row (one class, one target) is
// transformed only by PROBIT.
#include <cstdint>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// rows.rows x targets scores; intercepts may be empty (no bias).
absl::StatusOr<std::vector<float>> LinearScores(const KernelContext& ctx,
                                                const ml::FeatureRows& rows, int64_t targets,
                                                const std::vector<float>& coefficients,
                                                const std::vector<float>& intercepts) {
  int64_t count = 0;  // targets is an attribute: with no features it is bounded by nothing
  if (__builtin_mul_overflow(rows.rows, targets, &count) ||
      !ctx.within_budget(DataType::kFloat, count)) {
    return absl::ResourceExhaustedError("the scores exceed the value budget");
  }
  std::vector<float> scores(static_cast<size_t>(rows.rows * targets));
  for (int64_t r = 0; r < rows.rows; ++r) {
    const float* x = rows.values.data() + r * rows.width;
    for (int64_t t = 0; t < targets; ++t) {
      const float* w = coefficients.data() + t * rows.width;
      float sum = 0.0f;
      for (int64_t k = 0; k < rows.width; ++k) sum += x[k] * w[k];
      scores[static_cast<size_t>(r * targets + t)] =
          sum + (intercepts.empty() ? 0.0f : intercepts[static_cast<size_t>(t)]);
    }
  }
  return scores;
}

// Labels of the classifier for output Y: ints or strings.
template <class L>
KernelResult Classify(const KernelContext& ctx, const std::vector<L>& labels, L negative,
                      L positive, ml::PostTransform transform) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::FeatureRows rows, ml::ReadFeatureRows(ctx, 0));
  const std::vector<float> coefficients = ml::FloatsOrEmpty(ctx, "coefficients");
  const std::vector<float> intercepts = ml::FloatsOrEmpty(ctx, "intercepts");
  const int64_t classes = static_cast<int64_t>(intercepts.size());
  if (classes == 0 || static_cast<int64_t>(coefficients.size()) != classes * rows.width) {
    return Decline("coefficients that are not one row of C per intercept");
  }
  if (classes > 1 && static_cast<int64_t>(labels.size()) < classes) {
    return Decline("fewer class labels than classes");
  }
  const bool two_columns = classes == 1 && labels.size() == 2;
  if (two_columns && transform == ml::PostTransform::kProbit) {
    return Decline("a binary classifier's PROBIT (ONNX Runtime leaves half its scores unset)");
  }
  if (two_columns) {
    negative = labels[0];
    positive = labels[1];
  }
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<float> scores,
                           LinearScores(ctx, rows, classes, coefficients, intercepts));
  const int64_t columns = two_columns ? 2 : classes;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataTypeOf<L>::value, {rows.rows}));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor z, ctx.allocate(DataType::kFloat, {rows.rows, columns}));
  auto label_out = y.mutable_data<L>();
  auto score_out = z.mutable_data<float>();
  for (int64_t r = 0; r < rows.rows; ++r) {
    const float* row = scores.data() + r * classes;
    float* out = score_out.data() + r * columns;
    if (classes == 1) {
      label_out[r] = row[0] > 0 ? positive : negative;
      if (two_columns) {
        ml::WriteBinaryScores(transform, ml::BinaryLayout::kComplement, row[0], out);
      } else {
        out[0] = ml::TransformSingleScore(transform, row[0]);
      }
      continue;
    }
    int64_t best = 0;
    for (int64_t c = 1; c < classes; ++c) {
      if (row[c] > row[best]) best = c;
    }
    label_out[r] = labels[static_cast<size_t>(best)];
    std::copy_n(row, classes, out);
    ml::TransformScores(transform, absl::MakeSpan(out, static_cast<size_t>(classes)));
  }
  return KernelOutputs{std::move(y).freeze(), std::move(z).freeze()};
}

KernelResult LinearClassifierKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::PostTransform transform, ml::ReadPostTransform(ctx));
  if (ctx.output(0).dtype == DataType::kString) {
    return Classify<std::string>(ctx, ml::StringsOrEmpty(ctx, "classlabels_strings"), "0", "1",
                                 transform);
  }
  return Classify<int64_t>(ctx, ml::IntsOrEmpty(ctx, "classlabels_ints"), 0, 1, transform);
}

KernelResult LinearRegressorKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::PostTransform transform, ml::ReadPostTransform(ctx));
  GRAPHGC_ASSIGN_OR_RETURN(ml::FeatureRows rows, ml::ReadFeatureRows(ctx, 0));
  const int64_t targets = ctx.int_attribute("targets", 1);
  const std::vector<float> coefficients = ml::FloatsOrEmpty(ctx, "coefficients");
  const std::vector<float> intercepts = ml::FloatsOrEmpty(ctx, "intercepts");
  int64_t coefficient_count = 0;
  if (targets < 1 || __builtin_mul_overflow(targets, rows.width, &coefficient_count) ||
      static_cast<int64_t>(coefficients.size()) != coefficient_count) {
    return Decline("coefficients that are not one row of C per target");
  }
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != targets) {
    return Decline("intercepts that are not one per target");
  }
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<float> scores,
                           LinearScores(ctx, rows, targets, coefficients, intercepts));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataType::kFloat, {rows.rows, targets}));
  auto out = y.mutable_data<float>();
  for (int64_t r = 0; r < rows.rows; ++r) {
    const absl::Span<float> row = absl::MakeSpan(scores.data() + r * targets, targets);
    if (targets == 1) {
      row[0] = ml::TransformSingleScore(transform, row[0]);
    } else {
      ml::TransformScores(transform, row);
    }
    std::copy(row.begin(), row.end(), out.begin() + r * targets);
  }
  return KernelOutputs{std::move(y).freeze()};
}

}  // namespace

void RegisterLinearModelKernels(KernelTable& table) {
  // Features of the ml numbers; labels (T2) int64 or string.
  table.add(kMlDomain, "LinearClassifier", 1, KernelTable::kLatest,
            {{"T1", ml::MlNumbers::kSet}, {"T2", {DataType::kInt64, DataType::kString}}},
            LinearClassifierKernel);
  table.add(kMlDomain, "LinearRegressor", 1, KernelTable::kLatest, {{"T", ml::MlNumbers::kSet}},
            LinearRegressorKernel);
}

}  // namespace graphgc::kernels
