// SVMClassifier: a linear model (no support vectors: class scores coefficients . x + rho[0]) or
// one-vs-one SVC (vectors_per_class support vectors per class, one pairwise score
// sum coefficients * K(x, sv) + rho per pair of classes, each pair voting for a class), with
// Platt probabilities coupled over the pairs when prob_a / prob_b are given.
//
// As ONNX Runtime computes it:
//   - SVC labels follow the votes (first class with the most), even with probabilities;
//   - without probabilities Z holds the pairwise scores; with two classes its one score s becomes
//     [-s, s] (post_transform NONE) or ml_common.h's complement layout [1 - p, p] (PROBIT leaves
//     ONNX Runtime's second column unwritten, so that case gets no value);
//   - a linear model with two classes labels the second class when all coefficients are >= 0
//     and its best score is >= 0.5, or when some are negative and it is > 0; else the best class;
//   - the probabilities are libsvm's pairwise coupling, in float with its stopping rule.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/ml/svm_kernel.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Class probabilities from the pairwise ones r (k x k, r[i][j] = P(i | i or j)) by the coupling
// of Wu, Lin and Weng (method 2), as libsvm and ONNX Runtime iterate it in float.
void CoupleProbabilities(int64_t k, const std::vector<float>& r, float* p) {
  const size_t n = static_cast<size_t>(k);
  std::vector<float> q(n * n, 0.0f);
  std::vector<float> qp(n, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    p[i] = 1.0f / static_cast<float>(k);
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      q[i * n + i] += r[j * n + i] * r[j * n + i];
      q[i * n + j] = j < i ? q[j * n + i] : -r[j * n + i] * r[i * n + j];
    }
  }
  const float eps = 0.005f / static_cast<float>(k);
  for (int iteration = 0; iteration < 100; ++iteration) {
    float pqp = 0.0f;
    for (size_t i = 0; i < n; ++i) {
      qp[i] = 0.0f;
      for (size_t j = 0; j < n; ++j) qp[i] += q[i * n + j] * p[j];
      pqp += p[i] * qp[i];
    }
    float max_error = 0.0f;
    for (size_t i = 0; i < n; ++i) max_error = std::max(max_error, std::fabs(qp[i] - pqp));
    if (max_error < eps) break;
    for (size_t i = 0; i < n; ++i) {
      const float diff = (-qp[i] + pqp) / q[i * n + i];
      p[i] += diff;
      pqp = (pqp + diff * (diff * q[i * n + i] + 2 * qp[i])) / (1 + diff) / (1 + diff);
      for (size_t j = 0; j < n; ++j) {
        qp[j] = (qp[j] + diff * q[i * n + j]) / (1 + diff);
        p[j] /= (1 + diff);
      }
    }
  }
}

// The model's attributes, checked against each other.
struct SvmModel {
  int64_t classes = 0;
  int64_t vectors = 0;  // 0: a linear model
  int64_t width = 0;
  std::vector<int64_t> per_class;
  std::vector<int64_t> first_vector;
  std::vector<float> coefficients;
  std::vector<float> support_vectors;
  std::vector<float> rho;
  std::vector<float> prob_a;
  std::vector<float> prob_b;
  bool all_positive = true;
};

absl::StatusOr<SvmModel> ReadModel(const KernelContext& ctx, int64_t classes) {
  SvmModel m;
  m.classes = classes;
  m.per_class = ml::IntsOrEmpty(ctx, "vectors_per_class");
  m.coefficients = ml::FloatsOrEmpty(ctx, "coefficients");
  m.support_vectors = ml::FloatsOrEmpty(ctx, "support_vectors");
  m.rho = ml::FloatsOrEmpty(ctx, "rho");
  m.prob_a = ml::FloatsOrEmpty(ctx, "prob_a");
  m.prob_b = ml::FloatsOrEmpty(ctx, "prob_b");
  const int64_t pairs = classes * (classes - 1) / 2;
  // Each support vector has classes - 1 coefficients, so the count is bounded and cannot
  // overflow however large vectors_per_class's entries are.
  const int64_t most_vectors = static_cast<int64_t>(m.coefficients.size());
  for (int64_t count : m.per_class) {
    if (count < 0) return Decline("a negative vectors_per_class");
    if (count > most_vectors - m.vectors) return Decline("more support vectors than coefficients");
    m.first_vector.push_back(m.vectors);
    m.vectors += count;
  }
  if (classes < 2 || m.coefficients.empty() || m.rho.empty() ||
      m.prob_a.size() != m.prob_b.size()) {
    return Decline("fewer than two classes, no coefficients or rho, or prob_a and prob_b unpaired");
  }
  if (m.vectors > 0) {
    m.width = static_cast<int64_t>(m.support_vectors.size()) / m.vectors;
    if (m.width * m.vectors != static_cast<int64_t>(m.support_vectors.size()) ||
        static_cast<int64_t>(m.per_class.size()) != classes ||
        static_cast<int64_t>(m.coefficients.size()) != (classes - 1) * m.vectors ||
        static_cast<int64_t>(m.rho.size()) < pairs ||
        (!m.prob_a.empty() && static_cast<int64_t>(m.prob_a.size()) < pairs)) {
      return Decline("support vectors, coefficients, rho or probabilities that do not fit");
    }
  } else {
    m.width = static_cast<int64_t>(m.coefficients.size()) / classes;
    if (m.width * classes != static_cast<int64_t>(m.coefficients.size())) {
      return Decline("coefficients that are not one row per class");
    }
  }
  m.all_positive =
      std::all_of(m.coefficients.begin(), m.coefficients.end(), [](float c) { return c >= 0.0f; });
  return m;
}

// One row's pairwise scores (into `scores`) and votes, from its kernel values `k`.
void PairScores(const SvmModel& m, const float* k, float* scores, std::vector<int64_t>& votes) {
  std::fill(votes.begin(), votes.end(), 0);
  size_t pair = 0;
  for (int64_t i = 0; i + 1 < m.classes; ++i) {
    for (int64_t j = i + 1; j < m.classes; ++j, ++pair) {
      double sum = 0;
      // Class i's vectors weigh in with coefficient row j - 1, class j's with row i.
      for (int64_t v = 0; v < m.per_class[i]; ++v) {
        const int64_t at = m.first_vector[i] + v;
        sum += m.coefficients[static_cast<size_t>((j - 1) * m.vectors + at)] * k[at];
      }
      for (int64_t v = 0; v < m.per_class[j]; ++v) {
        const int64_t at = m.first_vector[j] + v;
        sum += m.coefficients[static_cast<size_t>(i * m.vectors + at)] * k[at];
      }
      sum += m.rho[pair];
      scores[pair] = static_cast<float>(sum);
      ++votes[static_cast<size_t>(sum > 0 ? i : j)];
    }
  }
}

// Platt probabilities of each pair, coupled into one per class.
void ClassProbabilities(const SvmModel& m, const float* pair_scores, float* probabilities) {
  const size_t n = static_cast<size_t>(m.classes);
  std::vector<float> r(n * n, 0.0f);
  size_t pair = 0;
  for (size_t i = 0; i + 1 < n; ++i) {
    for (size_t j = i + 1; j < n; ++j, ++pair) {
      const float platt = 1.0f - ml::Logistic(pair_scores[pair] * m.prob_a[pair] + m.prob_b[pair]);
      const float clamped = std::min(std::max(platt, 1.0e-7f), 1 - 1.0e-7f);
      r[i * n + j] = clamped;
      r[j * n + i] = 1 - clamped;
    }
  }
  CoupleProbabilities(m.classes, r, probabilities);
}

template <class L>
KernelResult Classify(const KernelContext& ctx, const std::vector<L>& labels,
                      ml::PostTransform transform) {
  GRAPHGC_ASSIGN_OR_RETURN(const SvmModel m, ReadModel(ctx, static_cast<int64_t>(labels.size())));
  GRAPHGC_ASSIGN_OR_RETURN(ml::FeatureRows rows, ml::ReadFeatureRows(ctx, 0));
  if (rows.width != m.width) return Decline("a feature count other than the model's");
  const bool svc = m.vectors > 0;
  const bool probabilities = !m.prob_a.empty();
  const int64_t pairs = m.classes * (m.classes - 1) / 2;
  const bool lone_pair_score = svc && !probabilities && m.classes == 2;
  if (lone_pair_score && transform == ml::PostTransform::kProbit) {
    return Decline("a binary SVC's PROBIT (ONNX Runtime leaves half its scores unset)");
  }
  const int64_t columns = svc && !probabilities && m.classes > 2 ? pairs : m.classes;
  std::vector<float> values;  // per row: the class scores (linear) or the kernel values (SVC)
  if (svc) {
    GRAPHGC_ASSIGN_OR_RETURN(const ml::SvmKernel kernel, ml::SvmKernel::FromAttributes(ctx));
    GRAPHGC_ASSIGN_OR_RETURN(values, kernel.Apply(ctx, rows, m.support_vectors, m.vectors));
  } else {
    GRAPHGC_ASSIGN_OR_RETURN(
        values, ml::SvmKernel::Linear().Apply(ctx, rows, m.coefficients, m.classes, m.rho[0]));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataTypeOf<L>::value, {rows.rows}));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor z, ctx.allocate(DataType::kFloat, {rows.rows, columns}));
  auto label_out = y.mutable_data<L>();
  auto score_out = z.mutable_data<float>();
  std::vector<int64_t> votes(static_cast<size_t>(m.classes));
  std::vector<float> pair_scores(static_cast<size_t>(pairs));
  for (int64_t r = 0; r < rows.rows; ++r) {
    float* row = score_out.data() + r * columns;
    int64_t best = 0;
    float best_score = 0.0f;
    if (svc) {
      PairScores(m, values.data() + r * m.vectors, pair_scores.data(), votes);
      best = std::max_element(votes.begin(), votes.end()) - votes.begin();
      if (probabilities) {
        ClassProbabilities(m, pair_scores.data(), row);
      } else if (lone_pair_score) {
        ml::WriteBinaryScores(transform,
                              transform == ml::PostTransform::kNone ? ml::BinaryLayout::kNegation
                                                                    : ml::BinaryLayout::kComplement,
                              pair_scores[0], row);
      } else {
        std::copy(pair_scores.begin(), pair_scores.end(), row);
      }
    } else {
      std::copy_n(values.data() + r * m.classes, m.classes, row);
      best = std::max_element(row, row + m.classes) - row;
      best_score = row[best];
    }
    if (!lone_pair_score) ml::TransformScores(transform, absl::MakeSpan(row, columns));
    const bool second =
        m.classes == 2 && !probabilities &&
        ((m.all_positive && best_score >= 0.5f) || (!m.all_positive && best_score > 0));
    label_out[r] = labels[static_cast<size_t>(second ? 1 : best)];
  }
  return KernelOutputs{std::move(y).freeze(), std::move(z).freeze()};
}

KernelResult SvmClassifierKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::PostTransform transform, ml::ReadPostTransform(ctx));
  if (ctx.output(0).dtype == DataType::kString) {
    return Classify<std::string>(ctx, ml::StringsOrEmpty(ctx, "classlabels_strings"), transform);
  }
  return Classify<int64_t>(ctx, ml::IntsOrEmpty(ctx, "classlabels_ints"), transform);
}

}  // namespace

void RegisterSvmClassifierKernels(KernelTable& table) {
  // Features of the ml numbers; labels (T2) int64 or string.
  table.add(kMlDomain, "SVMClassifier", 1, KernelTable::kLatest,
            {{"T1", ml::MlNumbers::kSet}, {"T2", {DataType::kInt64, DataType::kString}}},
            SvmClassifierKernel);
}

}  // namespace graphgc::kernels
