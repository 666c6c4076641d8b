// The variadic elementwise ops: Max, Min, Sum, Mean of one or more inputs, broadcast together
// from opset 8 (before, the inputs must share one shape; other shapes decline).
//
// Inputs are folded in order into one accumulator; sums accumulate in the compute type, so the
// 16-bit floats sum in float and round once, as ONNX Runtime does. Max and Min propagate NaN from
// any input (ONNX Runtime's behaviour, and numpy's maximum/minimum).
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;

template <class C>
bool IsNaN(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::isnan(x);
  } else {
    return false;
  }
}

// Whether the inputs may take part in the op at this version: before opset 8 they must have one
// shape.
absl::Status ShapesAllowed(const KernelContext& ctx, absl::Span<const Tensor* const> inputs) {
  constexpr int kBroadcastSince = 8;
  if (ctx.version() >= kBroadcastSince) return absl::OkStatus();
  for (const Tensor* input : inputs) {
    if (input->shape() != inputs[0]->shape()) {
      return Decline("before opset 8 the inputs of a variadic op must have one shape");
    }
  }
  return absl::OkStatus();
}

// The inputs folded with op under broadcasting, then divided by their count for kMean. T: the
// inputs' element type; A: the accumulator's (the compute type for sums, T for Max and Min).
template <class T, class A, bool kMean, class Op>
absl::StatusOr<Tensor> Fold(const KernelContext& ctx, absl::Span<const Tensor* const> inputs,
                            absl::Span<const int64_t> shape, const Op& op) {
  using internal::Load;
  using internal::Store;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor acc, ctx.allocate(DataTypeOf<A>::value, shape));
  const internal::BroadcastRows<1> first({inputs[0]->shape()}, shape);
  ForEachBroadcast(
      first, acc.mutable_data<A>().data(), [](T x) { return Store<A>(Load(x)); },
      inputs[0]->data<T>().data());
  for (size_t k = 1; k < inputs.size(); ++k) {
    FoldInto<A, T>(acc, *inputs[k], [&op](A a, T x) { return Store<A>(op(Load(a), Load(x))); });
  }
  if constexpr (kMean) {
    const A count = static_cast<A>(inputs.size());
    for (A& value : acc.mutable_data<A>()) value /= count;
  }
  if constexpr (std::is_same_v<A, T>) {
    return std::move(acc).freeze();
  } else {
    return MapElements<T, A>(ctx, std::move(acc).freeze(), [](A x) { return Store<T>(x); });
  }
}

// kSums: accumulate in the compute type (float for the 16-bit floats), as sums must.
template <class Types, bool kSums, bool kMean = false, class Op>
Kernel VariadicKernel(Op op) {
  return [op](const KernelContext& ctx) -> KernelResult {
    std::vector<const Tensor*> inputs;
    for (int i = 0; i < ctx.num_inputs(); ++i) inputs.push_back(&ctx.input(i));
    GRAPHGC_RETURN_IF_ERROR(ShapesAllowed(ctx, inputs));
    GRAPHGC_ASSIGN_OR_RETURN(const Shape shape, BroadcastShapeOf(ctx, inputs));
    return ForType<Types>(ctx, inputs[0]->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      using A = std::conditional_t<kSums, ComputeType<T>, T>;
      return Fold<T, A, kMean>(ctx, inputs, shape, op);
    });
  };
}

}  // namespace

void RegisterVariadicKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes numeric = {{"T", NumericTypes::kSet}};
  table.add("", "Max", 1, kLatest, numeric, VariadicKernel<NumericTypes, false>([](auto a, auto b) {
              return a > b || IsNaN(a) ? a : b;
            }));
  table.add("", "Min", 1, kLatest, numeric, VariadicKernel<NumericTypes, false>([](auto a, auto b) {
              return a < b || IsNaN(a) ? a : b;
            }));
  const KernelTypes reals = {{"T", FloatingPointTypes::kSet}};
  const auto add = [](auto a, auto b) { return a + b; };
  table.add("", "Sum", 1, kLatest, reals, VariadicKernel<FloatingPointTypes, true>(add));
  table.add("", "Mean", 1, kLatest, reals,
            VariadicKernel<FloatingPointTypes, true, /*kMean=*/true>(add));
}

}  // namespace graphgc::kernels
