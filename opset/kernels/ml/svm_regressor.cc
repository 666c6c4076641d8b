// SVMRegressor: Y[n] = sum_v coefficients[v] K(x_n, support_vector_v) + rho[0] over n_supports
// support vectors, or coefficients . x_n + rho[0] without them; one_class = 1 maps each score to
// 1 (> 0) or -1. Y is [N, 1].
//
// As ONNX Runtime computes it: post_transform is not applied, and X must have the support
// vectors' (or coefficients') feature count.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/ml/svm_kernel.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult SvmRegressorKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(ml::FeatureRows rows, ml::ReadFeatureRows(ctx, 0));
  const std::vector<float> coefficients = ml::FloatsOrEmpty(ctx, "coefficients");
  const std::vector<float> support_vectors = ml::FloatsOrEmpty(ctx, "support_vectors");
  const std::vector<float> rho = ml::FloatsOrEmpty(ctx, "rho");
  const int64_t vectors = ctx.int_attribute("n_supports", 0);
  if (coefficients.empty() || rho.empty() || vectors < 0) {
    return Decline("no coefficients or rho, or a negative n_supports");
  }
  const int64_t width = vectors > 0 ? static_cast<int64_t>(support_vectors.size()) / vectors
                                    : static_cast<int64_t>(coefficients.size());
  if (vectors > 0 && (width * vectors != static_cast<int64_t>(support_vectors.size()) ||
                      static_cast<int64_t>(coefficients.size()) != vectors)) {
    return Decline("support vectors or coefficients that do not fit n_supports");
  }
  if (rows.width != width) {
    return ctx.input_error(0, absl::StrCat("has ", rows.width, " features; the model has ", width));
  }
  std::vector<float> scores;
  if (vectors > 0) {
    GRAPHGC_ASSIGN_OR_RETURN(const ml::SvmKernel kernel, ml::SvmKernel::FromAttributes(ctx));
    GRAPHGC_ASSIGN_OR_RETURN(const std::vector<float> k,
                             kernel.Apply(ctx, rows, support_vectors, vectors));
    scores.resize(static_cast<size_t>(rows.rows));
    for (int64_t r = 0; r < rows.rows; ++r) {
      float sum = 0.0f;
      for (int64_t v = 0; v < vectors; ++v)
        sum += k[static_cast<size_t>(r * vectors + v)] * coefficients[v];
      scores[static_cast<size_t>(r)] = sum + rho[0];
    }
  } else {
    GRAPHGC_ASSIGN_OR_RETURN(scores,
                             ml::SvmKernel::Linear().Apply(ctx, rows, coefficients, 1, rho[0]));
  }
  const bool one_class = ctx.int_attribute("one_class", 0) != 0;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataType::kFloat, {rows.rows, 1}));
  auto out = y.mutable_data<float>();
  for (size_t r = 0; r < scores.size(); ++r) {
    out[r] = one_class ? (scores[r] > 0 ? 1.0f : -1.0f) : scores[r];
  }
  return KernelOutputs{std::move(y).freeze()};
}

}  // namespace

void RegisterSvmRegressorKernels(KernelTable& table) {
  table.add(kMlDomain, "SVMRegressor", 1, KernelTable::kLatest, {{"T", ml::MlNumbers::kSet}},
            SvmRegressorKernel);
}

}  // namespace graphgc::kernels
