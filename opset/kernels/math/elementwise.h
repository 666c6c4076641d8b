// The elementwise machinery the math kernels share: a function applied to every element of one
// tensor, or of N tensors under numpy broadcasting, in loops the compiler vectorizes.
//
//   MapElements<Out, In>(ctx, x, f)                 out[i] = f(x[i])
//   BroadcastElements<Out, A, B>(ctx, f, {&a, &b})  out[i] = f(a[ia], b[ib]), broadcast
//
// f works on stored elements (Float16, not float); OnComputeType lifts a function written on
// compute types (float for the 16-bit floats) to one. Outputs are sized through the context, so
// the value budget is checked before anything is allocated.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_H_
#define GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/common/broadcast_rows.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/status_macros.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// out[j] = f(in[j or 0]...) for j < n, input k moving iff kMoves[k]: one loop per pattern, so the
// common ones (all move: same shapes; one stays: a scalar operand) are plain vectorizable loops.
template <bool... kMoves, class Out, class F, class... In>
void MapRow(Out* __restrict out, int64_t n, const F& f, const In*... in) {
#pragma GCC unroll 4
  for (int64_t j = 0; j < n; ++j) out[j] = f(in[kMoves ? j : 0]...);
}

// Calls g(std::integer_sequence<bool, moves[0], ..., moves[N-1]>{}) with the runtime flags as
// template arguments.
template <size_t N, bool... kChosen, class G>
void WithMovingInputs(const std::array<bool, N>& moves, G&& g) {
  if constexpr (sizeof...(kChosen) == N) {
    g(std::integer_sequence<bool, kChosen...>{});
  } else if (moves[sizeof...(kChosen)]) {
    WithMovingInputs<N, kChosen..., true>(moves, std::forward<G>(g));
  } else {
    WithMovingInputs<N, kChosen..., false>(moves, std::forward<G>(g));
  }
}

// out = f over the broadcast `rows` of the inputs `in`.
template <class Out, class F, class... In>
void ForEachBroadcast(const internal::BroadcastRows<sizeof...(In)>& rows, Out* out, const F& f,
                      const In*... in) {
  constexpr size_t kArity = sizeof...(In);
  WithMovingInputs(
      rows.moving_inputs(), [&]<bool... kMoves>(std::integer_sequence<bool, kMoves...>) {
        const int64_t n = rows.row_size();
        rows.for_each_row([&](int64_t at, const std::array<int64_t, kArity>& offsets) {
          [&]<size_t... kI>(std::index_sequence<kI...>) {
            MapRow<kMoves...>(out + at, n, f, (in + offsets[kI])...);
          }
          (std::make_index_sequence<kArity>{});
        });
      });
}

// out[i] = f(x[i]), shaped like x.
template <class Out, class In, class F>
absl::StatusOr<Tensor> MapElements(const KernelContext& ctx, const Tensor& x, const F& f) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataTypeOf<Out>::value, x.shape()));
  MapRow<true>(out.mutable_data<Out>().data(), x.size(), f, x.data<In>().data());
  return std::move(out).freeze();
}

// The broadcast of the inputs' shapes; an error names the first input that does not fit.
absl::StatusOr<Shape> BroadcastShapeOf(const KernelContext& ctx,
                                       absl::Span<const Tensor* const> inputs);

template <class First, class... Rest>
constexpr bool AllSameType() {
  return sizeof...(Rest) > 0 && (std::is_same_v<First, Rest> && ...);
}

// Whether every input is the same elements in the same shape (Mul(x, x)), so one stream of loads
// serves them all. The inputs' element types are all the same.
template <size_t N>
bool SameOperand(const std::array<const Tensor*, N>& inputs) {
  for (const Tensor* input : inputs) {
    if (input->raw_data() != inputs[0]->raw_data() || input->shape() != inputs[0]->shape()) {
      return false;
    }
  }
  return true;
}

// out = f(inputs...) under numpy broadcasting; In... are the inputs' element types.
template <class Out, class... In, class F>
absl::StatusOr<Tensor> BroadcastElements(const KernelContext& ctx, const F& f,
                                         const std::array<const Tensor*, sizeof...(In)>& inputs) {
  GRAPHGC_ASSIGN_OR_RETURN(const Shape out_shape, BroadcastShapeOf(ctx, inputs));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataTypeOf<Out>::value, out_shape));
  if constexpr (AllSameType<In...>()) {
    if (SameOperand(inputs)) {
      // f(x, x): one stream of loads instead of two, as in x * x.
      const auto* x = inputs[0]->template data<std::tuple_element_t<0, std::tuple<In...>>>().data();
      const auto repeated = [&f](const auto& element) {
        return f((static_cast<void>(sizeof(In)), element)...);
      };
      MapRow<true>(out.mutable_data<Out>().data(), out.size(), repeated, x);
      return std::move(out).freeze();
    }
  }
  [&]<size_t... kI>(std::index_sequence<kI...>) {
    const internal::BroadcastRows<sizeof...(In)> rows({inputs[kI]->shape()...}, out_shape);
    ForEachBroadcast(rows, out.mutable_data<Out>().data(), f,
                     inputs[kI]->template data<In>().data()...);
  }
  (std::index_sequence_for<In...>{});
  return std::move(out).freeze();
}

// A partial element function (returning std::optional) made total for the element loops: an
// element without a result becomes a default value and clears `defined`.
template <class F>
auto Totalized(const F& f, bool& defined) {
  return [&f, &defined](const auto&... x) {
    auto result = f(x...);
    defined = defined && result.has_value();
    return result.has_value() ? *std::move(result) : typename decltype(result)::value_type{};
  };
}

// MapElements and BroadcastElements of a partial function: no value (Decline(why)) when some
// element has no result (a value ONNX leaves undefined).
template <class Out, class In, class F>
absl::StatusOr<Tensor> MapPartially(const KernelContext& ctx, const Tensor& x, const F& f,
                                    absl::string_view why) {
  bool defined = true;
  GRAPHGC_ASSIGN_OR_RETURN(Tensor y, (MapElements<Out, In>(ctx, x, Totalized(f, defined))));
  if (!defined) return Decline(why);
  return y;
}

template <class Out, class... In, class F>
absl::StatusOr<Tensor> BroadcastPartially(const KernelContext& ctx, const F& f,
                                          const std::array<const Tensor*, sizeof...(In)>& inputs,
                                          absl::string_view why) {
  bool defined = true;
  GRAPHGC_ASSIGN_OR_RETURN(Tensor y,
                           (BroadcastElements<Out, In...>(ctx, Totalized(f, defined), inputs)));
  if (!defined) return Decline(why);
  return y;
}

// acc[i] = f(acc[i], x[broadcast i]): folds one more operand (element type X) into an accumulator
// (element type A) already shaped as the broadcast of everything (the variadic ops).
template <class A, class X, class F>
void FoldInto(MutableTensor& acc, const Tensor& x, const F& f) {
  const internal::BroadcastRows<1> rows({x.shape()}, acc.shape());
  A* a = acc.mutable_data<A>().data();
  const X* in = x.data<X>().data();
  const int64_t n = rows.row_size();
  const bool moves = rows.moves(0);
  rows.for_each_row([&](int64_t at, const std::array<int64_t, 1>& offset) {
    A* __restrict row = a + at;
    const X* src = in + offset[0];
    if (moves) {
      for (int64_t j = 0; j < n; ++j) row[j] = f(row[j], src[j]);
    } else {
      for (int64_t j = 0; j < n; ++j) row[j] = f(row[j], src[0]);
    }
  });
}

// f on compute types (float for Float16 and BFloat16) as a function on stored T elements giving
// Out: the result is rounded back to T when Out is T, and taken as is otherwise (bool).
template <class T, class Out = T, class F>
auto OnComputeType(F f) {
  return [f](auto... x) -> Out {
    if constexpr (std::is_same_v<Out, T>) {
      return internal::Store<T>(f(internal::Load(x)...));
    } else {
      return f(internal::Load(x)...);
    }
  };
}

// x < 0, written so that unsigned types do not compare against zero (always false).
template <class C>
bool IsNegative(C x) {
  if constexpr (std::is_unsigned_v<C>) {
    return false;
  } else {
    return x < C{0};
  }
}

// The element-type sets of the math ops.
using FloatingPointTypes = internal::TypeList<float, double, Float16, BFloat16>;
using UnsignedTypes = internal::TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;
using NumericTypes = internal::TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t,
                                        int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;
using AnyTypes =
    internal::TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t, int64_t, uint8_t,
                       uint16_t, uint32_t, uint64_t, bool, std::string>;
using BoolType = internal::TypeList<bool>;

// compute(tag) (an absl::StatusOr<Tensor>) for the C++ type of `dtype` among Types, as the
// kernel's one output; a type outside Types declines.
template <class Types, class F>
KernelResult ForType(const KernelContext& ctx, DataType dtype, F&& compute) {
  std::optional<absl::StatusOr<Tensor>> value;
  Types::Dispatch(dtype, [&](auto tag) { value.emplace(compute(tag)); });
  if (!value.has_value()) {
    return Decline(absl::StrCat(ctx.op_type(), " of ", DataTypeName(dtype), " is not computed"));
  }
  if (!value->ok()) return value->status();
  return KernelOutputs{*std::move(*value)};
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_ELEMENTWISE_H_
