// Reading and writing the per-channel tensors of the normalization kernels as double.
#include "graphgc/opset/kernels/normalization/channel_stats.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {

absl::StatusOr<std::vector<double>> ReadAsDoubles(const KernelContext& ctx, const Tensor& tensor) {
  if (!ctx.within_budget(DataType::kDouble, tensor.size())) {
    return absl::ResourceExhaustedError("per-channel values exceed the value budget");
  }
  std::vector<double> values(static_cast<size_t>(tensor.size()));
  auto read = [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    const T* data = tensor.data<T>().data();
    for (size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<double>(internal::Load(data[i]));
    }
    return KernelOutputs{};
  };
  GRAPHGC_RETURN_IF_ERROR(DispatchFloatingKernel(tensor.dtype(), read).status());
  return values;
}

absl::StatusOr<Tensor> TensorFromDoubles(const KernelContext& ctx, DataType dtype,
                                         absl::Span<const int64_t> shape,
                                         absl::Span<const double> values) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(dtype, shape));
  auto write = [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    using C = internal::ComputeType<T>;
    T* data = out.mutable_data<T>().data();
    for (size_t i = 0; i < values.size(); ++i) {
      data[i] = internal::Store<T>(static_cast<C>(values[i]));
    }
    return KernelOutputs{};
  };
  GRAPHGC_RETURN_IF_ERROR(DispatchFloatingKernel(dtype, write).status());
  return std::move(out).freeze();
}

}  // namespace graphgc::kernels
