// Values made from attributes and scalars: Constant, ConstantOfShape and Range.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Constant: `value` (shared), or one of the value_* attributes (opset 12 on).
KernelResult ConstantKernel(const KernelContext& ctx) {
  if (const Tensor* value = ctx.tensor_attribute("value")) return KernelOutputs{*value};
  if (ctx.has_attribute("value_float")) {
    return KernelOutputs{Tensor::scalar<float>(ctx.float_attribute("value_float"))};
  }
  if (ctx.has_attribute("value_int")) {
    return KernelOutputs{Tensor::scalar<int64_t>(ctx.int_attribute("value_int"))};
  }
  if (ctx.has_attribute("value_string")) {
    return KernelOutputs{Tensor::scalar<std::string>(ctx.string_attribute("value_string"))};
  }
  if (auto floats = ctx.floats_attribute("value_floats")) {
    return KernelOutputs{Tensor::from_vector<float>(*std::move(floats))};
  }
  if (auto ints = ctx.ints_attribute("value_ints")) {
    return KernelOutputs{Tensor::from_vector<int64_t>(*std::move(ints))};
  }
  if (auto strings = ctx.strings_attribute("value_strings")) {
    return KernelOutputs{Tensor::from_vector<std::string>(*std::move(strings))};
  }
  return Decline("Constant without a dense value attribute");
}

// ConstantOfShape: the shape input's dims filled with `value` (one element; float 0 if absent).
KernelResult ConstantOfShapeKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Shape dims, ReadDims(ctx, 0));
  const Tensor* given = ctx.tensor_attribute("value");
  const Tensor fill = given != nullptr ? *given : Tensor::scalar<float>(0.0f);
  if (fill.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'value' must hold one element, not ", fill.size()));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(fill.dtype(), dims));
  DispatchByElementSize(fill.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::fill_n(MutableElementsOf<T>(out), out.size(), ElementsOf<T>(fill)[0]);
  });
  return KernelOutputs{std::move(out).freeze()};
}

// max(ceil((limit - start) / delta), 0), exactly for integers; for floating point as ONNX
// Runtime computes it (the difference in T, the division in double). A difference that
// overflows (int32, int64; int16 promotes to int) declines: ONNX's inference and ONNX Runtime
// wrap it and find other counts.
template <class T>
absl::StatusOr<int64_t> RangeCount(T start, T limit, T delta) {
  if constexpr (std::is_integral_v<T>) {
    decltype(limit - start) difference;
    if (__builtin_sub_overflow(limit, start, &difference)) {
      return Decline("Range's limit - start overflows");
    }
    const __int128 span = difference;
    __int128 count = span / delta;
    if (count * delta != span && (span > 0) == (delta > 0)) ++count;
    if (count > std::numeric_limits<int64_t>::max()) {
      return absl::ResourceExhaustedError("Range of more than 2^63 elements");
    }
    return static_cast<int64_t>(count > 0 ? count : 0);
  } else {
    const double count = std::ceil(static_cast<double>(limit - start) / static_cast<double>(delta));
    if (std::isnan(count)) return Decline("Range's element count is NaN");
    if (count >= 0x1p62) {
      return absl::ResourceExhaustedError(absl::StrCat("Range of ", count, " elements"));
    }
    return count > 0 ? static_cast<int64_t>(count) : int64_t{0};
  }
}

// Range: start, start + delta, ... while before limit; each value adds delta to the previous
// one, as ONNX's function body and ONNX Runtime do (not start + i * delta).
template <class T>
KernelResult RangeOf(const KernelContext& ctx) {
  for (int i = 0; i < 3; ++i) {
    if (ctx.input(i).size() != 1) {
      return ctx.input_error(
          i, absl::StrCat("must be a scalar, not of shape ", ShapeToString(ctx.input(i).shape())));
    }
  }
  const T start = ctx.input(0).data<T>()[0];
  const T limit = ctx.input(1).data<T>()[0];
  const T delta = ctx.input(2).data<T>()[0];
  if (delta == T{0}) return ctx.input_error(2, "is 0");
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t count, RangeCount<T>(start, limit, delta));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataTypeOf<T>::value, {count}));
  T* values = out.mutable_data<T>().data();
  T value = start;
  for (int64_t i = 0; i < count; ++i) {
    values[i] = value;
    value = internal::WrapAdd(value, delta);
  }
  return KernelOutputs{std::move(out).freeze()};
}

// RangeKernel's cases.
constexpr DataTypeSet kRangeTypes = {DataType::kFloat, DataType::kDouble, DataType::kInt16,
                                     DataType::kInt32, DataType::kInt64};

KernelResult RangeKernel(const KernelContext& ctx) {
  switch (ctx.input(0).dtype()) {
    case DataType::kFloat:
      return RangeOf<float>(ctx);
    case DataType::kDouble:
      return RangeOf<double>(ctx);
    case DataType::kInt16:
      return RangeOf<int16_t>(ctx);
    case DataType::kInt32:
      return RangeOf<int32_t>(ctx);
    case DataType::kInt64:
      return RangeOf<int64_t>(ctx);
    default:
      return Decline("Range of this element type");
  }
}

}  // namespace

void RegisterConstantKernels(KernelTable& table) {
  using data_types::kMovable;
  // Any tensor the attributes give.
  table.add("", "Constant", 1, KernelTable::kLatest, {{"T", kMovable}}, ConstantKernel);
  // The fill's elements are copied whatever their type; T2 (the output) is what it computes.
  table.add("", "ConstantOfShape", 9, KernelTable::kLatest, {{"T2", kMovable}},
            ConstantOfShapeKernel);
  table.add("", "Range", 11, KernelTable::kLatest, {{"T", kRangeTypes}}, RangeKernel);
}

}  // namespace graphgc::kernels
