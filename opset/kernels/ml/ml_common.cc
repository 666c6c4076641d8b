// The ml kernels' shared feature reading and score transforms.
#include "graphgc/opset/kernels/ml/ml_common.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace graphgc::kernels::ml {

absl::StatusOr<FeatureRows> ReadFeatureRows(const KernelContext& ctx, int input) {
  const Tensor& x = ctx.input(input);
  FeatureRows rows;
  if (x.rank() == 1) {
    rows.rows = 1;
    rows.width = x.shape()[0];
  } else if (x.rank() == 2) {
    rows.rows = x.shape()[0];
    rows.width = x.shape()[1];
  } else {
    return Decline("features of a rank other than 1 or 2");
  }
  if (!ctx.within_budget(DataType::kFloat, x.size())) {
    return absl::ResourceExhaustedError("the features as float exceed the value budget");
  }
  rows.values.resize(static_cast<size_t>(x.size()));
  const bool known = MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto data = x.data<T>();
    std::transform(data.begin(), data.end(), rows.values.begin(),
                   [](T v) { return static_cast<float>(v); });
  });
  if (!known) return Decline("an element type the ml operators do not take");
  return rows;
}

absl::StatusOr<PostTransform> ReadPostTransform(const KernelContext& ctx) {
  const std::string name = ctx.string_attribute("post_transform", "NONE");
  if (name == "NONE") return PostTransform::kNone;
  if (name == "SOFTMAX") return PostTransform::kSoftmax;
  if (name == "LOGISTIC") return PostTransform::kLogistic;
  if (name == "SOFTMAX_ZERO") return PostTransform::kSoftmaxZero;
  if (name == "PROBIT") return PostTransform::kProbit;
  return Decline("an unknown post_transform");
}

float Logistic(float x) {
  const float v = 1.0f / (1.0f + std::exp(-std::abs(x)));
  return x < 0 ? 1.0f - v : v;
}

namespace {

// Winitzki's approximation of erfinv (a = 0.147), which ONNX Runtime's PROBIT uses; its error
// (about 2e-3) is part of the values it gives, so it is kept here rather than an exact erfinv.
float ApproximateErfInv(float x) {
  constexpr float kA = 0.147f;
  const float sign = x < 0 ? -1.0f : 1.0f;
  const float log_term = std::log((1 - x) * (1 + x));
  const float half = 2 / (static_cast<float>(M_PI) * kA) + 0.5f * log_term;
  const float root = -half + std::sqrt(half * half - log_term / kA);
  return sign * std::sqrt(root);
}

void Softmax(absl::Span<float> row, bool skip_zeros) {
  float max = -std::numeric_limits<float>::max();
  for (float v : row) max = std::max(max, v);
  const float exp_neg_max = std::exp(-max);
  float sum = 0.0f;
  for (float& v : row) {
    // SOFTMAX_ZERO leaves (near-)zero scores out of the sum: exp(0) would count them.
    if (skip_zeros && !(v > 0.0000001f || v < -0.0000001f)) {
      v *= exp_neg_max;
    } else {
      v = std::exp(v - max);
      sum += v;
    }
  }
  for (float& v : row) v /= sum;
}

}  // namespace

float Probit(float p) { return static_cast<float>(M_SQRT2) * ApproximateErfInv(2 * p - 1); }

void TransformScores(PostTransform transform, absl::Span<float> row) {
  switch (transform) {
    case PostTransform::kNone:
      return;
    case PostTransform::kSoftmax:
      Softmax(row, /*skip_zeros=*/false);
      return;
    case PostTransform::kSoftmaxZero:
      Softmax(row, /*skip_zeros=*/true);
      return;
    case PostTransform::kLogistic:
      for (float& v : row) v = Logistic(v);
      return;
    case PostTransform::kProbit:
      for (float& v : row) v = Probit(v);
      return;
  }
}

float TransformSingleScore(PostTransform transform, float score) {
  return transform == PostTransform::kProbit ? Probit(score) : score;
}

void WriteBinaryScores(PostTransform transform, BinaryLayout layout, float score, float* out) {
  const bool logistic = transform == PostTransform::kLogistic;
  if (layout == BinaryLayout::kComplement) {
    const float p = logistic ? Logistic(score) : score;
    out[0] = 1.0f - p;
    out[1] = p;
  } else {
    out[0] = logistic ? Logistic(-score) : -score;
    out[1] = logistic ? Logistic(score) : score;
  }
}

std::vector<float> FloatsOrEmpty(const KernelContext& ctx, absl::string_view name) {
  return ctx.floats_attribute(name).value_or(std::vector<float>{});
}
std::vector<int64_t> IntsOrEmpty(const KernelContext& ctx, absl::string_view name) {
  return ctx.ints_attribute(name).value_or(std::vector<int64_t>{});
}
std::vector<std::string> StringsOrEmpty(const KernelContext& ctx, absl::string_view name) {
  return ctx.strings_attribute(name).value_or(std::vector<std::string>{});
}

}  // namespace graphgc::kernels::ml
