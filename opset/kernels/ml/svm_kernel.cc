// The SVM kernel functions (see svm_kernel.h).
#include "graphgc/opset/kernels/ml/svm_kernel.h"

#include <cmath>
#include <string>

namespace graphgc::kernels::ml {

absl::StatusOr<SvmKernel> SvmKernel::FromAttributes(const KernelContext& ctx) {
  const std::string name = ctx.string_attribute("kernel_type", "LINEAR");
  const std::vector<float> params = FloatsOrEmpty(ctx, "kernel_params");
  if (!params.empty() && params.size() < 3) return Decline("kernel_params of fewer than 3 values");
  const float gamma = params.empty() ? 0.0f : params[0];
  const float coef0 = params.empty() ? 0.0f : params[1];
  const float degree = params.empty() ? 0.0f : params[2];
  if (name == "LINEAR") return SvmKernel(Type::kLinear, gamma, coef0, degree);
  if (name == "POLY") return SvmKernel(Type::kPoly, gamma, coef0, degree);
  if (name == "RBF") return SvmKernel(Type::kRbf, gamma, coef0, degree);
  if (name == "SIGMOID") return SvmKernel(Type::kSigmoid, gamma, coef0, degree);
  return Decline("an unknown kernel_type");
}

float SvmKernel::Value(const float* x, const float* v, int64_t width, float add) const {
  float sum = 0.0f;
  if (type_ == Type::kRbf) {
    for (int64_t k = 0; k < width; ++k) sum += (x[k] - v[k]) * (x[k] - v[k]);
    return std::exp(-gamma_ * sum);
  }
  for (int64_t k = 0; k < width; ++k) sum += x[k] * v[k];
  switch (type_) {
    case Type::kPoly:
      return std::pow(gamma_ * sum + coef0_, degree_);
    case Type::kSigmoid:
      return std::tanh(gamma_ * sum + coef0_);
    default:
      return sum + add;
  }
}

absl::StatusOr<std::vector<float>> SvmKernel::Apply(const KernelContext& ctx,
                                                    const FeatureRows& rows,
                                                    const std::vector<float>& vectors,
                                                    int64_t count, float add) const {
  if (!ctx.within_budget(DataType::kFloat, rows.rows * count)) {
    return absl::ResourceExhaustedError("the kernel values exceed the value budget");
  }
  std::vector<float> out(static_cast<size_t>(rows.rows * count));
  for (int64_t r = 0; r < rows.rows; ++r) {
    for (int64_t c = 0; c < count; ++c) {
      out[static_cast<size_t>(r * count + c)] = Value(
          rows.values.data() + r * rows.width, vectors.data() + c * rows.width, rows.width, add);
    }
  }
  return out;
}

}  // namespace graphgc::kernels::ml
