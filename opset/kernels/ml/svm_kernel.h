// The kernel functions of SVMClassifier and SVMRegressor (kernel_type with kernel_params
// [gamma, coef0, degree]), computed in float as ONNX Runtime computes them:
//   LINEAR x.v, POLY (gamma x.v + coef0)^degree, RBF exp(-gamma |x - v|^2),
//   SIGMOID tanh(gamma x.v + coef0).
#ifndef GRAPHGC_OPSET_KERNELS_ML_SVM_KERNEL_H_
#define GRAPHGC_OPSET_KERNELS_ML_SVM_KERNEL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/ml/ml_common.h"

namespace graphgc::kernels::ml {

class SvmKernel {
 public:
  enum class Type { kLinear, kPoly, kRbf, kSigmoid };

  // From kernel_type and kernel_params; an unknown type declines.
  static absl::StatusOr<SvmKernel> FromAttributes(const KernelContext& ctx);
  static SvmKernel Linear() { return SvmKernel(Type::kLinear, 0, 0, 0); }

  // rows.rows x count values K(row, vector) (+ `add` for LINEAR), `vectors` holding count rows
  // of rows.width values; kResourceExhausted past the value budget.
  absl::StatusOr<std::vector<float>> Apply(const KernelContext& ctx, const FeatureRows& rows,
                                           const std::vector<float>& vectors, int64_t count,
                                           float add = 0.0f) const;

 private:
  SvmKernel(Type type, float gamma, float coef0, float degree)
      : type_(type), gamma_(gamma), coef0_(coef0), degree_(degree) {}
  float Value(const float* x, const float* v, int64_t width, float add) const;

  Type type_;
  float gamma_;
  float coef0_;
  float degree_;
};

}  // namespace graphgc::kernels::ml

#endif  // GRAPHGC_OPSET_KERNELS_ML_SVM_KERNEL_H_
