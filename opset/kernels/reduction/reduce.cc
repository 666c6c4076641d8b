// The multi-axis reductions: ReduceSum, ReduceMean, ReduceProd, ReduceMax, ReduceMin, ReduceL1,
// ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp (axes as an attribute; ReduceSum from
// 13 as an optional input, with noop_with_empty_axes).
//
// Each is a map of the elements, a fold, and a finish per output element, run over a ReducePlan.
// Floating point accumulates in its compute type (float for the 16-bit floats). Integer sums and
// products accumulate in double and get a value only when it is exact and fits the type: every
// magnitude below 2^53 (so each partial result is an exact integer in double) and the result in
// range. Past that, runtimes disagree (ONNX Runtime saturates and rounds int64 through double,
// numpy wraps), so no value rather than one of them.
// ONNX Runtime's rules where ONNX says nothing:
//   - Max and Min of an input holding NaN get no value: ONNX (numpy) propagates the NaN, and
//     ONNX Runtime's result depends on its memory layout (a double lane [0.62, NaN, -0.33, inf]
//     reduced over a middle axis gives 0.62; ort_difftest --graph-seed 5000841);
//   - an empty reduced set gives 0 (Sum, L1, L2, SumSquare), 1 (Prod), -inf (LogSum,
//     LogSumExp), and for Max (Min) minus (plus) infinity or the type's lowest (highest) value,
//     as ONNX's schemas say for every version and ONNX Runtime and ONNX's reference compute;
//     Mean of nothing gets no value (ONNX: undefined);
//   - ReduceMax and ReduceMin take bool from opset 20 (false < true: any and all).
//   - integer Mean truncates toward 0, integer L2 truncates the square root; integer LogSum and
//     LogSumExp get no value (ORT computes their logs in the integer type).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/nan.h"
#include "graphgc/opset/kernels/reduction/fold.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/reduce_plan.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"
#include "graphgc/opset/kernels/reduction/scratch.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

enum class ReduceOp { kSum, kMean, kProd, kMax, kMin, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

// What sums and products of T accumulate in.
template <class T>
using SumType = std::conditional_t<std::is_integral_v<T>, double, ComputeType<T>>;

// Every integer below this magnitude is exact in double, and a sum that reaches it rounds to at
// least it.
constexpr double kExactInDouble = 9007199254740992.0;  // 2^53

// --- Maps and folds beyond fold.h's ---------------------------------------------------------

// exp(v - shift) with the shift of the output the value folds into (ReduceLogSumExp).
template <class A>
struct ExpShifted {
  const A* shift;
  template <class V>
  A operator()(V v, int64_t out) const {
    return std::exp(static_cast<A>(v) - shift[out]);
  }
};

// acc[out] = combine(acc[out], map(x)) for every input element, run by run.
template <class T, class A, class Map, class Combine>
void Fold(const ReducePlan& plan, const T* x, A* acc, Map map, Combine combine) {
  const int64_t length = plan.run_length();
  if (plan.run_is_reduced()) {
    ForEachRun(plan, [&](int64_t in, int64_t out) {
      acc[out] = FoldRun(x + in, length, acc[out], out, map, combine);
    });
  } else {
    ForEachRun(plan, [&](int64_t in, int64_t out) {
      const T* run = x + in;
      A* __restrict row = acc + out;
      for (int64_t i = 0; i < length; ++i) row[i] = combine(row[i], map(Load(run[i]), out + i));
    });
  }
}

// Max and Min start from each output's first element.
template <class T, class A, class Combine>
void FoldFromFirst(const ReducePlan& plan, const T* x, A* acc, Combine combine) {
  ForEachOutputFirst(plan, [&](int64_t out, int64_t in) { acc[out] = Load(x[in]); });
  Fold(plan, x, acc, AsIs<A>{}, combine);
}

bool IsLogarithmic(ReduceOp op) { return op == ReduceOp::kLogSum || op == ReduceOp::kLogSumExp; }
bool IsExtreme(ReduceOp op) { return op == ReduceOp::kMax || op == ReduceOp::kMin; }

// The element types `op` computes: every numeric type, but the floating-point ones only for the
// logarithms (ReduceOfType declines their integers).
DataTypeSet ComputedTypes(ReduceOp op) {
  return IsLogarithmic(op) ? data_types::kFloatingPoint : data_types::kNumeric;
}

// The value of an output whose reduced set is empty, or a Decline.
template <class T>
absl::StatusOr<T> EmptyReduction(ReduceOp op) {
  using A = ComputeType<T>;
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kL1:
    case ReduceOp::kL2:
    case ReduceOp::kSumSquare:
      return Store<T>(A{0});
    case ReduceOp::kProd:
      return Store<T>(A{1});
    case ReduceOp::kLogSum:
    case ReduceOp::kLogSumExp:
      if constexpr (std::is_floating_point_v<A>)
        return Store<T>(-std::numeric_limits<A>::infinity());
      break;
    case ReduceOp::kMax:
      if constexpr (std::is_floating_point_v<A>) {
        return Store<T>(-std::numeric_limits<A>::infinity());
      } else {
        return Store<T>(std::numeric_limits<A>::lowest());
      }
    case ReduceOp::kMin:
      if constexpr (std::is_floating_point_v<A>) {
        return Store<T>(std::numeric_limits<A>::infinity());
      } else {
        return Store<T>(std::numeric_limits<A>::max());
      }
    default:
      break;
  }
  return Decline("the reduction of an empty set is undefined in ONNX");
}

// Folds every input element into acc (one per output) for the ops but Max and Min; LogSumExp's
// shifts go to `shift`.
template <class T, class A>
void FoldSums(ReduceOp op, const ReducePlan& plan, const T* x, A* acc, A* shift) {
  switch (op) {
    case ReduceOp::kProd:
      std::fill(acc, acc + plan.output_count, A{1});
      return Fold(plan, x, acc, AsIs<A>{}, Multiply{});
    case ReduceOp::kL1:
      return Fold(plan, x, acc, Magnitude<A>{}, Add{});
    case ReduceOp::kL2:
    case ReduceOp::kSumSquare:
      return Fold(plan, x, acc, Squared<A>{}, Add{});
    case ReduceOp::kLogSumExp:
      // Shifted by each output's max so that exp cannot overflow; an infinite (or NaN) max
      // shifts by 0, so all -inf gives -inf rather than NaN.
      FoldFromFirst(plan, x, shift, Larger{});
      for (int64_t o = 0; o < plan.output_count; ++o) {
        if (!std::isfinite(shift[o])) shift[o] = A{0};
      }
      return Fold(plan, x, acc, ExpShifted<A>{shift}, Add{});
    default:
      return Fold(plan, x, acc, AsIs<A>{}, Add{});  // Sum, Mean, LogSum
  }
}

// y[o] = finish(acc[o], o) for every output.
template <class T, class A, class F>
void StoreEach(const std::vector<A>& acc, T* y, F finish) {
  for (size_t o = 0; o < acc.size(); ++o) y[o] = Store<T>(finish(acc[o], o));
}

// Floating point: the outputs from their accumulators (the op chosen once, outside the loop).
template <class T, class A>
void StoreFloating(ReduceOp op, const std::vector<A>& acc, const std::vector<A>& shift,
                   int64_t count, T* y) {
  switch (op) {
    case ReduceOp::kMean:
      return StoreEach(acc, y, [count](A a, size_t) { return a / static_cast<A>(count); });
    case ReduceOp::kL2:
      return StoreEach(acc, y, [](A a, size_t) { return std::sqrt(a); });
    case ReduceOp::kLogSum:
      return StoreEach(acc, y, [](A a, size_t) { return std::log(a); });
    case ReduceOp::kLogSumExp:
      return StoreEach(acc, y, [&shift](A a, size_t o) { return std::log(a) + shift[o]; });
    default:
      return StoreEach(acc, y, [](A a, size_t) { return a; });
  }
}

// Integers: the outputs from their double accumulators, or a Decline where one is not exact or
// does not fit T. `magnitude` bounds each Sum or Mean along the way (the other ops' accumulators
// bound themselves: their partial results only grow in magnitude, or reach 0 for good).
template <class T>
absl::Status StoreIntegers(ReduceOp op, const std::vector<double>& acc,
                           const std::vector<double>& magnitude, int64_t count, T* y) {
  for (size_t o = 0; o < acc.size(); ++o) {
    const double bound = magnitude.empty() ? std::abs(acc[o]) : magnitude[o];
    if (!(bound < kExactInDouble)) {
      return Decline("an integer reduction beyond 2^53 in magnitude, where runtimes disagree");
    }
    double result = acc[o];
    if (op == ReduceOp::kMean) {
      result = static_cast<double>(static_cast<int64_t>(result) / count);  // truncates, like ORT
    } else if (op == ReduceOp::kL2) {
      result = std::trunc(std::sqrt(result));
    }
    if (result < static_cast<double>(std::numeric_limits<T>::lowest()) ||
        result > static_cast<double>(std::numeric_limits<T>::max())) {
      return Decline("an integer reduction overflows its type, where runtimes disagree");
    }
    y[o] = static_cast<T>(result);
  }
  return absl::OkStatus();
}

template <class T>
absl::Status ReduceSums(const KernelContext& ctx, ReduceOp op, const ReducePlan& plan, const T* x,
                        T* y) {
  using A = SumType<T>;
  const int64_t n = plan.output_count;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<A> acc, AllocateScratch<A>(ctx, n));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<A> shift,
                           AllocateScratch<A>(ctx, op == ReduceOp::kLogSumExp ? n : 0));
  FoldSums(op, plan, x, acc.data(), shift.data());
  if constexpr (std::is_integral_v<T>) {
    const bool signed_sum = op == ReduceOp::kSum || op == ReduceOp::kMean;
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<double> magnitude,
                             AllocateScratch<double>(ctx, signed_sum ? n : 0));
    if (signed_sum) Fold(plan, x, magnitude.data(), Magnitude<double>{}, Add{});
    return StoreIntegers(op, acc, magnitude, plan.reduced_count, y);
  } else {
    StoreFloating(op, acc, shift, plan.reduced_count, y);
    return absl::OkStatus();
  }
}

template <class T>
absl::Status ReduceExtremes(const KernelContext& ctx, ReduceOp op, const ReducePlan& plan,
                            const T* x, T* y) {
  using A = ComputeType<T>;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<A> acc, AllocateScratch<A>(ctx, plan.output_count));
  if (op == ReduceOp::kMax) {
    FoldFromFirst(plan, x, acc.data(), Larger{});
  } else {
    FoldFromFirst(plan, x, acc.data(), Smaller{});
  }
  StoreEach(acc, y, [](A a, size_t) { return a; });
  return absl::OkStatus();
}

template <class T>
KernelResult ReduceOfType(const KernelContext& ctx, ReduceOp op, const Tensor& x,
                          const ReducePlan& plan) {
  if (IsExtreme(op) && ContainsNaN(x))
    return Decline("ReduceMax/ReduceMin of NaN: runtimes disagree");
  if (std::is_integral_v<T> && IsLogarithmic(op)) {
    return Decline("ReduceLogSum(Exp) of integers is not computed");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), plan.output_shape));
  T* y = out.mutable_data<T>().data();
  if (plan.output_count > 0 && plan.reduced_count == 0) {
    GRAPHGC_ASSIGN_OR_RETURN(const T empty, EmptyReduction<T>(op));
    std::fill(y, y + plan.output_count, empty);
  } else if (plan.output_count > 0) {
    const T* px = x.data<T>().data();
    GRAPHGC_RETURN_IF_ERROR(IsExtreme(op) ? ReduceExtremes(ctx, op, plan, px, y)
                                          : ReduceSums(ctx, op, plan, px, y));
  }
  return KernelOutputs{std::move(out).freeze()};
}

// ReduceMax (any) and ReduceMin (all) of bools, read as the bytes 0 and 1 they are stored as.
KernelResult ReduceBools(const KernelContext& ctx, ReduceOp op, const Tensor& x,
                         const ReducePlan& plan) {
  if (!IsExtreme(op)) return Decline("only ReduceMax and ReduceMin take bool");
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kBool, plan.output_shape));
  auto* y = reinterpret_cast<uint8_t*>(out.mutable_data<bool>().data());
  if (plan.output_count > 0 && plan.reduced_count == 0) {
    std::fill(y, y + plan.output_count, op == ReduceOp::kMax ? 0 : 1);  // false is the lowest
  } else if (plan.output_count > 0) {
    const auto* px = reinterpret_cast<const uint8_t*>(x.data<bool>().data());
    GRAPHGC_RETURN_IF_ERROR(ReduceExtremes(ctx, op, plan, px, y));
  }
  return KernelOutputs{std::move(out).freeze()};
}

// The reduction's plan: its axes from input 1 (`axes_from_input`: ReduceSum from opset 13, the
// others from 18) or the attribute. Without axes, noop_with_empty_axes reduces no dim, but each
// element still goes through the op, a reduction of one element (ReduceSumSquare squares,
// ReduceL2 takes |x|, ReduceLogSum the log), as ONNX says and ONNX Runtime and ONNX's reference
// compute.
absl::StatusOr<ReducePlan> PlanOf(const KernelContext& ctx, const Tensor& x, bool axes_from_input) {
  std::optional<std::vector<int64_t>> axes;
  std::string source;
  if (axes_from_input) {
    if (const Tensor* axes_tensor = ctx.optional_input(1)) axes = ReadInt64s(*axes_tensor);
    source = ctx.input_label(1);
    const bool no_axes = !axes.has_value() || axes->empty();
    if (no_axes && ctx.int_attribute("noop_with_empty_axes", 0) != 0) {
      return PlanReduction(x.shape(), DimMask(static_cast<size_t>(x.rank()), false), true);
    }
  } else {
    axes = ctx.ints_attribute("axes");
    source = "attribute 'axes'";
  }
  GRAPHGC_ASSIGN_OR_RETURN(const DimMask reduced, ReducedDims(axes, x.rank(), source));
  // As ONNX's inference (and ONNX Runtime) read it: only 1 keeps the reduced dims.
  return PlanReduction(x.shape(), reduced, ctx.int_attribute("keepdims", 1) == 1);
}

KernelResult Reduce(const KernelContext& ctx, ReduceOp op, bool axes_from_input) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const ReducePlan plan, PlanOf(ctx, x, axes_from_input));
  if (x.dtype() == DataType::kBool) return ReduceBools(ctx, op, x, plan);
  return DispatchNumericKernel(x.dtype(), [&](auto tag) {
    return ReduceOfType<typename decltype(tag)::type>(ctx, op, x, plan);
  });
}

Kernel ReduceKernel(ReduceOp op, bool axes_from_input = false) {
  return
      [op, axes_from_input](const KernelContext& ctx) { return Reduce(ctx, op, axes_from_input); };
}

}  // namespace

void RegisterReduceKernels(KernelTable& table) {
  const struct {
    const char* name;
    ReduceOp op;
  } attribute_axes_ops[] = {
      {"ReduceMean", ReduceOp::kMean},
      {"ReduceProd", ReduceOp::kProd},
      {"ReduceMax", ReduceOp::kMax},
      {"ReduceMin", ReduceOp::kMin},
      {"ReduceL1", ReduceOp::kL1},
      {"ReduceL2", ReduceOp::kL2},
      {"ReduceSumSquare", ReduceOp::kSumSquare},
      {"ReduceLogSum", ReduceOp::kLogSum},
      {"ReduceLogSumExp", ReduceOp::kLogSumExp},
  };
  for (const auto& entry : attribute_axes_ops) {
    table.add("", entry.name, 1, kLastKnownOpset, {{"T", ComputedTypes(entry.op)}},
              ReduceKernel(entry.op));
    // Opset 18 takes the axes as an input, as ReduceSum does from 13 (noop_with_empty_axes too).
    const bool takes_bool = IsExtreme(entry.op);
    table.add("", entry.name, 18, takes_bool ? 19 : KernelTable::kLatest,
              {{"T", ComputedTypes(entry.op)}}, ReduceKernel(entry.op, true));
    if (takes_bool) {
      constexpr int kBoolSince = 20;
      table.add("", entry.name, kBoolSince, KernelTable::kLatest,
                {{"T", ComputedTypes(entry.op) | DataTypeSet{DataType::kBool}}},
                ReduceKernel(entry.op, true));
    }
  }
  const KernelTypes sums = {{"T", ComputedTypes(ReduceOp::kSum)}};
  table.add("", "ReduceSum", 1, 12, sums, ReduceKernel(ReduceOp::kSum));
  table.add("", "ReduceSum", 13, kLastKnownOpset, sums, ReduceKernel(ReduceOp::kSum, true));
}

}  // namespace graphgc::kernels
