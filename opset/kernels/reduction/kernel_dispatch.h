// Element-type dispatch for kernels that return a KernelResult: the typed body runs for the types
// a family computes; any other type declines (no value), which is never a wrong value.
//
//   return DispatchFloatingKernel(x.dtype(), [&](auto tag) -> KernelResult {
//     using T = typename decltype(tag)::type;
//     ...
//   });
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_KERNEL_DISPATCH_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_KERNEL_DISPATCH_H_

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels {

// Integers and floating point (the 16-bit floats computed in float): data_types::kNumeric.
template <class F>
KernelResult DispatchNumericKernel(DataType dtype, F&& body) {
  KernelResult result = Decline(absl::StrCat("no kernel for element type ", DataTypeName(dtype)));
  internal::DispatchNumeric(dtype, [&](auto tag) { result = body(tag); });
  return result;
}

// float, double, float16 and bfloat16 only (the body is not instantiated for other types):
// data_types::kFloatingPoint.
template <class F>
KernelResult DispatchFloatingKernel(DataType dtype, F&& body) {
  switch (dtype) {
    case DataType::kFloat:
      return body(internal::TypeTag<float>{});
    case DataType::kDouble:
      return body(internal::TypeTag<double>{});
    case DataType::kFloat16:
      return body(internal::TypeTag<Float16>{});
    case DataType::kBfloat16:
      return body(internal::TypeTag<BFloat16>{});
    default:
      return Decline(absl::StrCat("no kernel for element type ", DataTypeName(dtype)));
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_KERNEL_DISPATCH_H_
