// Whether a tensor holds a NaN. Kernels whose result on NaN depends on how a runtime walks its
// memory (ReduceMax, Hardmax, ArgMax: ONNX Runtime's answer changes with the layout, numpy's
// differs again) give no value for such inputs rather than one runtime's accident.
#ifndef GRAPHGC_OPSET_KERNELS_COMMON_NAN_H_
#define GRAPHGC_OPSET_KERNELS_COMMON_NAN_H_

#include <cmath>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

inline bool ContainsNaN(const Tensor& tensor) {
  bool found = false;
  internal::DispatchNumeric(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<internal::ComputeType<T>>) {
      for (const T& value : tensor.data<T>()) {
        if (std::isnan(internal::Load(value))) {
          found = true;
          return;
        }
      }
    }
  });
  return found;
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_COMMON_NAN_H_
