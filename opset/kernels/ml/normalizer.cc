// Normalizer: scales each row of features to unit MAX, L1 or L2 norm, as float. The features are
// axis 1 (the only axis of a 1-D input), as ONNX Runtime reads them; a row whose norm is 0 is
// copied unchanged, and MAX divides by the row's largest value (not its largest magnitude).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class Norm { kMax, kL1, kL2 };

// x * x in T as ONNX Runtime computes it, integers wrapping instead of overflowing.
template <class T>
float Square(T x) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<float>(static_cast<T>(static_cast<U>(x) * static_cast<U>(x)));
  } else {
    return static_cast<float>(x * x);
  }
}

template <class T>
float Magnitude(T x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<float>(x < 0 ? static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(x))
                                    : x);
  } else {
    return static_cast<float>(std::abs(x));
  }
}

// One row of `count` features `step` apart, starting at in / y.
template <class T>
void NormalizeRow(Norm norm, const T* in, float* y, int64_t count, int64_t step) {
  float total = 0.0f;
  if (norm == Norm::kMax) total = std::numeric_limits<float>::lowest();
  for (int64_t k = 0; k < count; ++k) {
    const T x = in[k * step];
    switch (norm) {
      case Norm::kMax:
        total = std::max(total, static_cast<float>(x));
        break;
      case Norm::kL1:
        total += Magnitude(x);
        break;
      case Norm::kL2:
        total += Square(x);
        break;
    }
  }
  for (int64_t k = 0; k < count; ++k) {
    const T x = in[k * step];
    float& out = y[k * step];
    if (total == 0.0f) {
      out = static_cast<float>(x);
    } else if (norm == Norm::kL2) {
      const float root = std::sqrt(Square(x) / total);
      out = x < 0 ? -root : root;
    } else {
      out = static_cast<float>(x) / total;
    }
  }
}

KernelResult NormalizerKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::string name = ctx.string_attribute("norm", "MAX");
  Norm norm;
  if (name == "MAX") {
    norm = Norm::kMax;
  } else if (name == "L1") {
    norm = Norm::kL1;
  } else if (name == "L2") {
    norm = Norm::kL2;
  } else {
    return Decline("an unknown norm");
  }
  if (x.rank() == 0 || x.size() == 0) return Decline("a scalar or empty input");
  const int64_t count = x.rank() == 1 ? x.shape()[0] : x.shape()[1];
  int64_t step = 1;  // the elements between two features of one row
  for (int64_t d = 2; d < x.rank(); ++d) step *= x.shape()[static_cast<size_t>(d)];
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, x.shape()));
  float* y = out.mutable_data<float>().data();
  const bool known = ml::MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x.data<T>().data();
    for (int64_t block = 0; block < x.size(); block += count * step) {
      for (int64_t inner = 0; inner < step; ++inner) {
        NormalizeRow(norm, in + block + inner, y + block + inner, count, step);
      }
    }
  });
  if (!known) return Decline("Normalizer of this element type");
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterNormalizerKernels(KernelTable& table) {
  table.add(kMlDomain, "Normalizer", 1, KernelTable::kLatest, {{"T", ml::MlNumbers::kSet}},
            NormalizerKernel);
}

}  // namespace graphgc::kernels
