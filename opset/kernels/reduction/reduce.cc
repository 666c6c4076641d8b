// The multi-axis reductions: ReduceSum, ReduceMean, ReduceProd, ReduceMax, ReduceMin, ReduceL1,
// ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp (axes as an attribute; ReduceSum from
// 13 as an optional input, with noop_with_empty_axes).
//
// Each is a map of the elements, a fold, and a finish per output element, run over a ReducePlan.
// Integers accumulate in their own type and wrap; the 16-bit floats accumulate in float.
// ONNX Runtime's rules where ONNX says nothing:
//   - Max and Min fold like std::max/std::min from the first element: a NaN there stays, a NaN
//     later is passed over (ORT 1.30 does this on every path it takes);
//   - an empty reduced set gives 0 (Sum, L1, L2, SumSquare), 1 (Prod), -inf (LogSum,
//     LogSumExp); Max, Min and Mean of nothing get no value (ONNX 1.12 defines none);
//   - integer Mean truncates, integer L2 is the truncated square root; integer LogSum and
//     LogSumExp get no value (ORT computes their logs in the integer type).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/reduce_plan.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

enum class ReduceOp { kSum, kMean, kProd, kMax, kMin, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

// --- Element maps: map(value, output_offset) -----------------------------------------------------

struct AsIs {
  template <class A>
  A operator()(A v, int64_t) const { return v; }
};

struct Magnitude {
  template <class A>
  A operator()(A v, int64_t) const {
    if constexpr (std::is_unsigned_v<A>) {
      return v;
    } else {
      return v < A{0} ? internal::WrapSub(A{0}, v) : v;
    }
  }
};

struct Squared {
  template <class A>
  A operator()(A v, int64_t) const { return internal::WrapMul(v, v); }
};

// exp(v - shift) with the shift of the output the value folds into (ReduceLogSumExp).
template <class A>
struct ExpShifted {
  const A* shift;
  A operator()(A v, int64_t out) const { return std::exp(v - shift[out]); }
};

// --- Folds: combine(accumulated, mapped) ---------------------------------------------------------

struct Add {
  template <class A>
  A operator()(A acc, A v) const { return internal::WrapAdd(acc, v); }
};

struct Multiply {
  template <class A>
  A operator()(A acc, A v) const { return internal::WrapMul(acc, v); }
};

struct Larger {  // std::max: an accumulated NaN stays, a new NaN is passed over
  template <class A>
  A operator()(A acc, A v) const { return acc < v ? v : acc; }
};

struct Smaller {
  template <class A>
  A operator()(A acc, A v) const { return v < acc ? v : acc; }
};

// acc[out] = combine(acc[out], map(x)) for every input element, run by run.
template <class T, class A, class Map, class Combine>
void Fold(const ReducePlan& plan, const T* x, A* acc, Map map, Combine combine) {
  const int64_t length = plan.run_length();
  if (plan.run_is_reduced()) {
    ForEachRun(plan, [&](int64_t in, int64_t out) {
      const T* run = x + in;
      A a = acc[out];
      for (int64_t i = 0; i < length; ++i) a = combine(a, map(Load(run[i]), out));
      acc[out] = a;
    });
  } else {
    ForEachRun(plan, [&](int64_t in, int64_t out) {
      const T* run = x + in;
      A* __restrict row = acc + out;
      for (int64_t i = 0; i < length; ++i) row[i] = combine(row[i], map(Load(run[i]), out + i));
    });
  }
}

// Max and Min start from each output's first element (see the file comment on NaN).
template <class T, class A, class Combine>
void FoldFromFirst(const ReducePlan& plan, const T* x, A* acc, Combine combine) {
  ForEachOutputFirst(plan, [&](int64_t out, int64_t in) { acc[out] = Load(x[in]); });
  Fold(plan, x, acc, AsIs{}, combine);
}

// The largest r with r * r <= v, for v >= 0.
template <class A>
A TruncatedSqrt(A v) {
  using U = std::make_unsigned_t<A>;
  const U u = static_cast<U>(v);
  U r = static_cast<U>(std::sqrt(static_cast<long double>(u)));
  while (r > 0 && r > u / r) --r;  // r * r > u, without overflowing
  while ((r + 1) <= u / (r + 1)) ++r;
  return static_cast<A>(r);
}

template <class A>
A MeanOf(A sum, int64_t count) {
  if constexpr (std::is_floating_point_v<A>) {
    return sum / static_cast<A>(count);
  } else if constexpr (std::is_signed_v<A>) {
    return static_cast<A>(static_cast<int64_t>(sum) / count);  // truncates, like ORT
  } else {
    return static_cast<A>(static_cast<uint64_t>(sum) / static_cast<uint64_t>(count));
  }
}

bool IsLogarithmic(ReduceOp op) { return op == ReduceOp::kLogSum || op == ReduceOp::kLogSumExp; }

// The value of an output whose reduced set is empty, or a Decline.
template <class T>
absl::StatusOr<T> EmptyReduction(ReduceOp op) {
  using A = ComputeType<T>;
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kL1:
    case ReduceOp::kL2:
    case ReduceOp::kSumSquare: return Store<T>(A{0});
    case ReduceOp::kProd: return Store<T>(A{1});
    case ReduceOp::kLogSum:
    case ReduceOp::kLogSumExp:
      if constexpr (std::is_floating_point_v<A>) return Store<T>(-std::numeric_limits<A>::infinity());
      break;
    default: break;
  }
  return Decline("the reduction of an empty set has no value defined by ONNX 1.12");
}

template <class T, class Finish>
void StoreFinished(const std::vector<ComputeType<T>>& acc, T* y, Finish finish) {
  for (size_t o = 0; o < acc.size(); ++o) y[o] = Store<T>(finish(acc[o], o));
}

template <class T>
KernelResult ReduceOfType(const KernelContext& ctx, ReduceOp op, const Tensor& x,
                          const ReducePlan& plan) {
  using A = ComputeType<T>;
  if constexpr (std::is_integral_v<A>) {
    if (IsLogarithmic(op)) return Decline("ReduceLogSum(Exp) of integers is not computed");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), plan.output_shape));
  T* y = out.mutable_data<T>().data();
  if (plan.output_count == 0) return KernelOutputs{std::move(out).freeze()};
  if (plan.reduced_count == 0) {
    GRAPHGC_ASSIGN_OR_RETURN(const T empty, EmptyReduction<T>(op));
    std::fill(y, y + plan.output_count, empty);
    return KernelOutputs{std::move(out).freeze()};
  }
  const int64_t temporaries = op == ReduceOp::kLogSumExp ? 2 * plan.output_count : plan.output_count;
  if (!ctx.within_budget(DataTypeOf<A>::value, temporaries)) {
    return absl::ResourceExhaustedError("the reduction's accumulators exceed the value budget");
  }
  std::vector<A> acc(static_cast<size_t>(plan.output_count), A{0});
  const T* px = x.data<T>().data();
  const int64_t count = plan.reduced_count;
  auto as_is = [](A a, size_t) { return a; };
  switch (op) {
    case ReduceOp::kSum:
      Fold(plan, px, acc.data(), AsIs{}, Add{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kMean:
      Fold(plan, px, acc.data(), AsIs{}, Add{});
      StoreFinished<T>(acc, y, [count](A a, size_t) { return MeanOf(a, count); });
      break;
    case ReduceOp::kProd:
      std::fill(acc.begin(), acc.end(), A{1});
      Fold(plan, px, acc.data(), AsIs{}, Multiply{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kMax:
      FoldFromFirst(plan, px, acc.data(), Larger{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kMin:
      FoldFromFirst(plan, px, acc.data(), Smaller{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kL1:
      Fold(plan, px, acc.data(), Magnitude{}, Add{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kSumSquare:
      Fold(plan, px, acc.data(), Squared{}, Add{});
      StoreFinished<T>(acc, y, as_is);
      break;
    case ReduceOp::kL2:
      Fold(plan, px, acc.data(), Squared{}, Add{});
      if constexpr (std::is_floating_point_v<A>) {
        StoreFinished<T>(acc, y, [](A a, size_t) { return std::sqrt(a); });
      } else {
        for (A a : acc) {
          if (a < A{0}) return Decline("the integer sum of squares overflowed");
        }
        StoreFinished<T>(acc, y, [](A a, size_t) { return TruncatedSqrt(a); });
      }
      break;
    case ReduceOp::kLogSum:
      if constexpr (std::is_floating_point_v<A>) {
        Fold(plan, px, acc.data(), AsIs{}, Add{});
        StoreFinished<T>(acc, y, [](A a, size_t) { return std::log(a); });
      }
      break;
    case ReduceOp::kLogSumExp:
      if constexpr (std::is_floating_point_v<A>) {
        // Shifted by each output's max so that exp cannot overflow; an infinite (or NaN) max
        // shifts by 0, so all -inf gives -inf rather than NaN.
        std::vector<A> shift(acc.size());
        FoldFromFirst(plan, px, shift.data(), Larger{});
        for (A& s : shift) s = std::isfinite(s) ? s : A{0};
        Fold(plan, px, acc.data(), ExpShifted<A>{shift.data()}, Add{});
        StoreFinished<T>(acc, y, [&shift](A a, size_t o) { return std::log(a) + shift[o]; });
      }
      break;
  }
  return KernelOutputs{std::move(out).freeze()};
}

// `axes_from_input`: ReduceSum from opset 13, whose optional input 1 holds the axes.
KernelResult Reduce(const KernelContext& ctx, ReduceOp op, bool axes_from_input) {
  const Tensor& x = ctx.input(0);
  std::optional<std::vector<int64_t>> axes;
  std::string source;
  if (axes_from_input) {
    if (const Tensor* axes_tensor = ctx.optional_input(1)) axes = ReadInt64s(*axes_tensor);
    source = ctx.input_label(1);
    const bool no_axes = !axes.has_value() || axes->empty();
    if (no_axes && ctx.int_attribute("noop_with_empty_axes", 0) != 0) return KernelOutputs{x};
  } else {
    axes = ctx.ints_attribute("axes");
    source = "attribute 'axes'";
  }
  GRAPHGC_ASSIGN_OR_RETURN(const DimMask reduced, ReducedDims(axes, x.rank(), source));
  const ReducePlan plan = PlanReduction(x.shape(), reduced, ctx.int_attribute("keepdims", 1) != 0);
  return DispatchNumericKernel(x.dtype(), [&](auto tag) {
    return ReduceOfType<typename decltype(tag)::type>(ctx, op, x, plan);
  });
}

Kernel ReduceKernel(ReduceOp op, bool axes_from_input = false) {
  return [op, axes_from_input](const KernelContext& ctx) { return Reduce(ctx, op, axes_from_input); };
}

}  // namespace

void RegisterReduceKernels(KernelTable& table) {
  const struct {
    const char* name;
    ReduceOp op;
  } attribute_axes_ops[] = {
      {"ReduceMean", ReduceOp::kMean},   {"ReduceProd", ReduceOp::kProd},
      {"ReduceMax", ReduceOp::kMax},     {"ReduceMin", ReduceOp::kMin},
      {"ReduceL1", ReduceOp::kL1},       {"ReduceL2", ReduceOp::kL2},
      {"ReduceSumSquare", ReduceOp::kSumSquare}, {"ReduceLogSum", ReduceOp::kLogSum},
      {"ReduceLogSumExp", ReduceOp::kLogSumExp},
  };
  for (const auto& entry : attribute_axes_ops) {
    table.add("", entry.name, 1, kLastKnownOpset, ReduceKernel(entry.op));
  }
  table.add("", "ReduceSum", 1, 12, ReduceKernel(ReduceOp::kSum));
  table.add("", "ReduceSum", 13, kLastKnownOpset, ReduceKernel(ReduceOp::kSum, true));
}

}  // namespace graphgc::kernels
