// Helpers the ml kernels share: their feature matrices (X as [N, C] or [C] rows, read as float as
// ONNX Runtime does) and the post transforms of the classifiers' and regressors' scores, computed
// the way ONNX Runtime computes them (its PROBIT is an approximation of the inverse of erf, and
// a row of one score is transformed only by PROBIT).
#ifndef GRAPHGC_OPSET_KERNELS_ML_ML_COMMON_H_
#define GRAPHGC_OPSET_KERNELS_ML_ML_COMMON_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels::ml {

// The numeric inputs most ml operators accept (their schemas' tensor(float|double|int64|int32)).
using MlNumbers = internal::TypeList<float, double, int64_t, int32_t>;

// X as N rows of C features: rank 1 is one row, rank 2 is [N, C]; other ranks are declined.
struct FeatureRows {
  int64_t rows = 0;
  int64_t width = 0;
  std::vector<float> values;  // rows * width, row-major
};
absl::StatusOr<FeatureRows> ReadFeatureRows(const KernelContext& ctx, int input);

enum class PostTransform { kNone, kSoftmax, kLogistic, kSoftmaxZero, kProbit };

// The "post_transform" attribute; an unknown name declines.
absl::StatusOr<PostTransform> ReadPostTransform(const KernelContext& ctx);

float Logistic(float x);
float Probit(float p);  // sqrt(2) * erfinv(2p - 1), with ONNX Runtime's approximation of erfinv

// Transforms a row of two or more scores in place (softmax over the row, the others per score).
void TransformScores(PostTransform transform, absl::Span<float> row);

// A single score: only PROBIT changes it (ONNX Runtime leaves a lone score's other transforms
// undone).
float TransformSingleScore(PostTransform transform, float score);

// How ONNX Runtime turns a binary classifier's lone score s into two columns: [1 - p, p] with
// p = logistic(s) for LOGISTIC and s otherwise, or [-s, s] ([logistic(-s), logistic(s)] for
// LOGISTIC). No other transform is applied.
enum class BinaryLayout { kComplement, kNegation };
void WriteBinaryScores(PostTransform transform, BinaryLayout layout, float score, float* out);

// A float attribute list, empty when absent.
std::vector<float> FloatsOrEmpty(const KernelContext& ctx, absl::string_view name);
std::vector<int64_t> IntsOrEmpty(const KernelContext& ctx, absl::string_view name);
std::vector<std::string> StringsOrEmpty(const KernelContext& ctx, absl::string_view name);

}  // namespace graphgc::kernels::ml

#endif  // GRAPHGC_OPSET_KERNELS_ML_ML_COMMON_H_
