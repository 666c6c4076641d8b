// Element-wise feature transforms of ai.onnx.ml: Binarizer (1 where x > threshold, else 0; ONNX
// Runtime fails on NaN, so an input with NaN gets no value),
// Scaler ((x - offset) * scale as float, per feature or for all) and Imputer (replaces one value,
// or NaN, with a per-feature or single value).
//
// Per-feature parameters follow ONNX Runtime: the features are the last dim of a [C] or [N, C]
// input; other ranks compute only with single parameters.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// How many parameters apply per element: 1 for all, or the feature count of a [C] / [N, C]
// input; nullopt where `count` fits neither.
std::optional<int64_t> ParameterStride(const Tensor& x, size_t count) {
  if (count == 1) return 1;
  if ((x.rank() == 1 || x.rank() == 2) && static_cast<int64_t>(count) == x.shape().back()) {
    return static_cast<int64_t>(count);
  }
  return std::nullopt;
}

KernelResult BinarizerKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const float threshold = ctx.float_attribute("threshold");
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
  bool has_nan = false;
  const bool known = ml::MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>().data();
    T* y = out.mutable_data<T>().data();
    const int64_t n = x.size();
    for (int64_t i = 0; i < n; ++i) {
      has_nan |= in[i] != in[i];
      y[i] = static_cast<T>(in[i] > threshold ? 1 : 0);
    }
  });
  if (!known) return Decline("Binarizer of this element type");
  if (has_nan) return Decline("a NaN input (ONNX Runtime rejects it)");
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult ScalerKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<float> offset = ml::FloatsOrEmpty(ctx, "offset");
  const std::vector<float> scale = ml::FloatsOrEmpty(ctx, "scale");
  const std::optional<int64_t> stride = ParameterStride(x, offset.size());
  // ONNX Runtime takes both per feature or both single.
  if (!stride.has_value() || offset.size() != scale.size()) {
    return Decline("offset and scale that are not both per feature or both single");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, x.shape()));
  float* y = out.mutable_data<float>().data();
  const bool known = ml::MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>().data();
    const int64_t n = x.size();
    if (*stride == 1) {
      for (int64_t i = 0; i < n; ++i) y[i] = (static_cast<float>(in[i]) - offset[0]) * scale[0];
      return;
    }
    for (int64_t i = 0; i < n; i += *stride) {
      for (int64_t j = 0; j < *stride; ++j) {
        y[i + j] = (static_cast<float>(in[i + j]) - offset[j]) * scale[j];
      }
    }
  });
  if (!known) return Decline("Scaler of this element type");
  return KernelOutputs{std::move(out).freeze()};
}

template <class T>
KernelResult Impute(const KernelContext& ctx, const std::vector<T>& imputed, T replaced) {
  const Tensor& x = ctx.input(0);
  const std::optional<int64_t> stride = ParameterStride(x, imputed.size());
  if (!stride.has_value() && x.rank() > 2) {
    return Decline("per-feature imputed values for an input of rank above 2");
  }
  if (!stride.has_value()) {
    return absl::InvalidArgumentError(
        "the imputed values are neither one value nor one per feature of input 0 (X)");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
  const T* in = x.data<T>().data();
  T* y = out.mutable_data<T>().data();
  bool replace_nan = false;
  if constexpr (std::is_floating_point_v<T>) replace_nan = std::isnan(replaced);
  // One value for all: the whole input is one row.
  const bool single = *stride == 1;
  const int64_t width = single ? std::max<int64_t>(x.size(), 1) : *stride;
  for (int64_t row = 0; row < x.size(); row += width) {
    for (int64_t j = 0; j < width; ++j) {
      const T v = in[row + j];
      bool missing = v == replaced;
      if constexpr (std::is_floating_point_v<T>) missing = replace_nan ? std::isnan(v) : missing;
      y[row + j] = missing ? imputed[single ? 0 : static_cast<size_t>(j)] : v;
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

// ImputerKernel's cases (the attributes hold floats or int64s).
constexpr DataTypeSet kImputerTypes = {DataType::kFloat, DataType::kInt64};

KernelResult ImputerKernel(const KernelContext& ctx) {
  switch (ctx.input(0).dtype()) {
    case DataType::kFloat:
      return Impute<float>(ctx, ml::FloatsOrEmpty(ctx, "imputed_value_floats"),
                           ctx.float_attribute("replaced_value_float"));
    case DataType::kInt64:
      return Impute<int64_t>(ctx, ml::IntsOrEmpty(ctx, "imputed_value_int64s"),
                             ctx.int_attribute("replaced_value_int64"));
    default:
      return Decline("Imputer of this element type");
  }
}

}  // namespace

void RegisterFeatureTransformKernels(KernelTable& table) {
  const KernelTypes numbers = {{"T", ml::MlNumbers::kSet}};
  table.add(kMlDomain, "Binarizer", 1, KernelTable::kLatest, numbers, BinarizerKernel);
  table.add(kMlDomain, "Scaler", 1, KernelTable::kLatest, numbers, ScalerKernel);
  table.add(kMlDomain, "Imputer", 1, KernelTable::kLatest, {{"T", kImputerTypes}}, ImputerKernel);
}

}  // namespace graphgc::kernels
